import fs from 'node:fs';
import path from 'node:path';
import { openAuthProfileStore } from '@understudy/auth-profile-store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempHome, runStoreCli } from '../test-support/run-store-cli.js';
import type { TempHome } from '../test-support/run-store-cli.js';

const KEY_A = 'sk-test-cli-alpha-0001';
const KEY_B = 'sk-test-cli-bravo-0002';
const ACCESS = 'at-test-cli-access-0003';
const REFRESH = 'rt-test-cli-refresh-0004';
const INLINE = 'sk-test-cli-inline-0005';
const ALL_SECRETS = [KEY_A, KEY_B, ACCESS, REFRESH, INLINE];

let temp: TempHome;
let configPath: string;

const run = (argv: readonly string[], options: { readonly env?: Record<string, string>; readonly stdin?: string; readonly tty?: boolean } = {}) =>
  runStoreCli(argv, { home: temp.home, ...options, env: { UNDERSTUDY_CONFIG: configPath, INLINE_KEY: INLINE, ...options.env } });

beforeEach(() => {
  temp = makeTempHome();
  configPath = path.join(temp.home, 'understudy.json5');
  fs.writeFileSync(
    configPath,
    `{
      // JSON5 with an env placeholder for the inline key
      agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['anthropic/claude-x'] } } },
      models: { providers: { anthropic: { baseUrl: 'http://127.0.0.1:9/v1', api: 'anthropic-messages', apiKey: '\${INLINE_KEY}' } } },
    }`,
  );
});

afterEach(() => temp.remove());

describe('models auth add → order set → models status --json (issue 4 "done when")', () => {
  it('round-trips profiles, stored order and cooldown state without ever printing a secret', async () => {
    const outputs: string[] = [];
    const step = async (argv: readonly string[], options: Parameters<typeof run>[1] = {}) => {
      const result = await run(argv, options);
      outputs.push(result.stdout, result.stderr);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      return result;
    };

    const added = await step(['models', 'auth', 'add', '--provider', 'openai', '--id', 'alpha', '--type', 'api_key', '--key-stdin', '--json'], { stdin: `${KEY_A}\n` });
    expect(JSON.parse(added.stdout)).toEqual({ id: 'openai:alpha', provider: 'openai', type: 'api_key', created: true });
    await step(['models', 'auth', 'add', '--provider', 'openai', '--id', 'bravo', '--type', 'api_key', '--key-env', 'KEY_B'], { env: { KEY_B } });
    await step(['models', 'auth', 'add', '--provider', 'openai', '--type', 'oauth', '--key-env', 'ACCESS', '--refresh-env', 'REFRESH', '--email', 'ada@example.com', '--expires', '2100-01-01T00:00:00Z'], {
      env: { ACCESS, REFRESH },
    });
    const ordered = await step(['models', 'auth', 'order', 'set', '--provider', 'openai', 'bravo', 'openai:alpha', '--json']);
    expect(JSON.parse(ordered.stdout)).toMatchObject({ provider: 'openai', storedOrder: ['openai:bravo', 'openai:alpha'], configOrder: null, source: 'stored_order' });

    const stateRoot = path.join(temp.home, '.understudy');
    const store = await openAuthProfileStore({ stateDir: stateRoot, agentId: 'main' });
    const until = Date.now() + 3_600_000;
    await store.updateUsageStats('openai:bravo', (stats) => ({ ...stats, cooldownUntil: until, cooldownReason: 'rate_limit', cooldownModel: 'gpt-x', errorCount: 1 }));
    await store.updateUsageStats('anthropic:inline', (stats) => ({ ...stats, disabledUntil: until, disabledReason: 'billing', lastUsed: 1_700_000_000_000 }));
    await store.close();

    const status = await step(['models', 'status', '--json']);
    const report = JSON.parse(status.stdout);
    expect(report.model).toEqual({ source: 'default', field: 'agents.defaults.model', primary: 'openai/gpt-x', fallbacks: ['anthropic/claude-x'], strict: false });
    expect(report.providers).toEqual([
      { provider: 'anthropic', orderSource: 'stored_profiles', orderModel: 'claude-x', order: ['anthropic:inline'], storedOrder: null, configOrder: null },
      { provider: 'openai', orderSource: 'stored_order', orderModel: 'gpt-x', order: ['openai:alpha', 'openai:bravo'], storedOrder: ['openai:bravo', 'openai:alpha'], configOrder: null },
    ]);
    const byId = Object.fromEntries(report.profiles.map((profile: { id: string }) => [profile.id, profile]));
    expect(Object.keys(byId).sort()).toEqual(['anthropic:inline', 'openai:ada@example.com', 'openai:alpha', 'openai:bravo']);
    expect(byId['openai:alpha']).toMatchObject({ type: 'api_key', source: 'store', state: 'ok', until: null, lastUsed: null, eligible: true });
    expect(byId['openai:bravo']).toMatchObject({ state: 'cooling', until: new Date(until).toISOString(), reason: 'rate_limit', model: 'gpt-x', errorCount: 1 });
    expect(byId['openai:ada@example.com']).toMatchObject({ type: 'oauth', email: 'ada@example.com', expires: '2100-01-01T00:00:00.000Z' });
    expect(byId['anthropic:inline']).toMatchObject({ source: 'inline', state: 'disabled', reason: 'billing', lastUsed: new Date(1_700_000_000_000).toISOString() });

    const human = await step(['models', 'status']);
    expect(human.stdout).toContain(`cooling until ${new Date(until).toISOString()} (rate_limit, gpt-x)`);
    expect(human.stdout).toContain(`disabled until ${new Date(until).toISOString()} (billing)`);
    expect(human.stdout).not.toContain('\u001b[');

    await step(['models', 'auth', 'list']);
    await step(['models', 'auth', 'list', '--json']);
    await step(['models', 'auth', 'order', 'get', '--provider', 'openai']);
    const cleared = await step(['models', 'auth', 'clear-cooldown', 'openai:bravo', '--json']);
    expect(JSON.parse(cleared.stdout)).toEqual({ id: 'openai:bravo', usageStats: {} });
    await step(['models', 'auth', 'order', 'clear', '--provider', 'openai']);
    await step(['models', 'auth', 'remove', 'openai:alpha']);
    const after = JSON.parse((await step(['models', 'status', '--json'])).stdout);
    expect(after.providers.find((entry: { provider: string }) => entry.provider === 'openai')).toMatchObject({ orderSource: 'stored_profiles', storedOrder: null });
    expect(after.profiles.map((profile: { id: string }) => profile.id)).not.toContain('openai:alpha');

    const everything = outputs.join('\n');
    for (const secret of ALL_SECRETS) expect(everything).not.toContain(secret);
  });

  it('colours the state only when stdout is a terminal', async () => {
    const result = await run(['models', 'status'], { tty: true });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('\u001b[');
  });
});

describe('bad input exits 2 with one clear line', () => {
  it.each([
    ['no secret source', ['models', 'auth', 'add', '--provider', 'openai', '--type', 'api_key'], {}, /--key-stdin or --key-env/],
    ['a key with a line break inside', ['models', 'auth', 'add', '--provider', 'openai', '--type', 'api_key', '--key-env', 'X'], { env: { X: 'sk-test-abc\ndef-1234' } }, /--key-env: the credential has a space, a line break.*position 12/],
    ['a key with a space inside', ['models', 'auth', 'add', '--provider', 'openai', '--type', 'api_key', '--key-stdin'], { stdin: 'sk-test abc-1234\n' }, /--key-stdin: the credential has a space/],
    ['an unset key variable', ['models', 'auth', 'add', '--provider', 'openai', '--type', 'api_key', '--key-env', 'NOPE'], {}, /NOPE: the environment variable is not set/],
    ['empty stdin', ['models', 'auth', 'add', '--provider', 'openai', '--type', 'api_key', '--key-stdin'], { stdin: '\n' }, /stdin was empty/],
    ['a secret on the command line', ['models', 'auth', 'add', '--provider', 'openai', '--type', 'api_key', '--key', KEY_A], {}, /unknown option '--key'/],
    ['a secret as a stray argument', ['models', 'auth', 'add', '--provider', 'openai', '--type', 'api_key', KEY_A], {}, /too many arguments/],
    ['a secret pasted into --key-env', ['models', 'auth', 'add', '--provider', 'openai', '--type', 'api_key', '--key-env', KEY_A], {}, /NAME of an environment variable/],
    ['an unknown type', ['models', 'auth', 'add', '--provider', 'openai', '--type', 'password', '--key-env', 'X'], { env: { X: 'x' } }, /--type/],
    ['the reserved inline name', ['models', 'auth', 'add', '--provider', 'openai', '--id', 'inline', '--type', 'api_key', '--key-env', 'X'], { env: { X: KEY_A } }, /reserved/],
    ['a bad expiry', ['models', 'auth', 'add', '--provider', 'openai', '--type', 'token', '--key-env', 'X', '--expires', 'soon'], { env: { X: KEY_A } }, /--expires takes epoch milliseconds or an ISO time/],
    ['an unknown profile in an order', ['models', 'auth', 'order', 'set', '--provider', 'openai', 'ghost'], {}, /unknown profile for openai: openai:ghost/],
    ['removing a missing profile', ['models', 'auth', 'remove', 'openai:ghost'], {}, /no stored profile "openai:ghost"/],
    ['a malformed profile id', ['models', 'auth', 'clear-cooldown', 'ghost'], {}, /not a profile id/],
    ['a bad agent id', ['models', 'status', '--agent', '../x'], {}, /agent id/],
    // Breaker F6: commander and our own messages name the option, never the value typed after it.
    ['a secret glued to an unknown option', ['models', 'auth', 'add', '--provider', 'openai', '--type', 'api_key', `--key=${KEY_A}`], {}, /unknown option '--key=…'/],
    ['a secret glued to another unknown option', ['models', 'auth', 'add', '--provider', 'openai', '--type', 'api_key', `--api-key=${KEY_A}`], {}, /unknown option '--api-key=…'/],
    ['a secret glued to an unknown top-level option', [`--key=${KEY_A}`], {}, /unknown option '--key=…'/],
    ['a secret given as the credential type', ['models', 'auth', 'add', '--provider', 'openai', '--type', KEY_A], {}, /option '--type <type>' argument is invalid/],
    ['a secret given as the expiry', ['models', 'auth', 'add', '--provider', 'openai', '--type', 'token', '--key-env', 'X', '--expires', KEY_A], { env: { X: KEY_B } }, /--expires takes/],
    ['a secret-like word given as a variable name', ['models', 'auth', 'add', '--provider', 'openai', '--type', 'api_key', '--key-env', 'abcDEF123ghiJKL456'], {}, /^understudy: --key-env: the environment variable is not set or empty\n$/],
    // Breaker F9: profile ids are provider:name with a plain name; the provider of --id must be --provider.
    ['a provider id with path separators', ['models', 'auth', 'add', '--provider', '../../etc', '--id', 'x', '--type', 'api_key', '--key-env', 'X'], { env: { X: KEY_A } }, /--provider: use 1-64 letters/],
    ['a profile name with path separators', ['models', 'auth', 'add', '--provider', 'openai', '--id', '../x', '--type', 'api_key', '--key-env', 'X'], { env: { X: KEY_A } }, /--id: a profile name is 1-128/],
    ['a profile name with a space', ['models', 'auth', 'add', '--provider', 'openai', '--id', 'my key', '--type', 'api_key', '--key-env', 'X'], { env: { X: KEY_A } }, /--id: a profile name/],
    ['a profile name of 5000 characters', ['models', 'auth', 'add', '--provider', 'openai', '--id', 'x'.repeat(5000), '--type', 'api_key', '--key-env', 'X'], { env: { X: KEY_A } }, /--id: a profile name is 1-128/],
    ['a profile id of another provider', ['models', 'auth', 'add', '--provider', 'openai', '--id', 'anthropic:x', '--type', 'api_key', '--key-env', 'X'], { env: { X: KEY_A } }, /--id names "anthropic" but --provider is "openai"/],
    ['an email that cannot be a profile name', ['models', 'auth', 'add', '--provider', 'openai', '--type', 'oauth', '--key-env', 'X', '--email', 'a/b@example.com'], { env: { X: KEY_A } }, /--email is the profile name/],
  ] as const)('%s', async (_label, argv, options, message) => {
    const result = await run(argv, options);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toContain(KEY_A);
    expect(result.stderr).not.toContain(KEY_B);
    expect(result.stderr).not.toContain('abcDEF123ghiJKL456');
  });

  it('stores nothing for a rejected profile id', async () => {
    await run(['models', 'auth', 'add', '--provider', 'openai', '--id', '../x', '--type', 'api_key', '--key-env', 'X'], { env: { X: KEY_A } });
    const listed = JSON.parse((await run(['models', 'auth', 'list', '--json'])).stdout) as { id: string }[];
    expect(listed.map((entry) => entry.id)).toEqual(['anthropic:inline']);
  });

  it('accepts provider:name of the same provider, an email name, and a provider named like an Object.prototype member', async () => {
    const added = [
      await run(['models', 'auth', 'add', '--provider', 'OpenAI', '--id', 'openai:work-2', '--type', 'api_key', '--key-env', 'X', '--json'], { env: { X: KEY_A } }),
      await run(['models', 'auth', 'add', '--provider', 'openai', '--type', 'oauth', '--key-env', 'X', '--email', 'ada.l+x@example.com', '--json'], { env: { X: KEY_B } }),
      await run(['models', 'auth', 'add', '--provider', 'constructor', '--id', 'x', '--type', 'api_key', '--key-env', 'X', '--json'], { env: { X: KEY_A } }),
    ];
    expect(added.map((result) => result.code)).toEqual([0, 0, 0]);
    expect(added.map((result) => (JSON.parse(result.stdout) as { id: string }).id)).toEqual(['openai:work-2', 'openai:ada.l+x@example.com', 'constructor:x']);
    // Breaker F4: "constructor" finds no auth.order entry of the config (the lookup asks for own keys).
    const order = await run(['models', 'auth', 'order', 'get', '--provider', 'constructor', '--json']);
    expect(order.code).toBe(0);
    expect(JSON.parse(order.stdout)).toMatchObject({ provider: 'constructor', configOrder: null, effectiveOrder: ['constructor:x'] });
    expect((await run(['models', 'status', '--json'])).code).toBe(0);
  });

  it('an invalid config file is bad input naming the path', async () => {
    fs.writeFileSync(configPath, '{ gateway: { prot: 1 } }');
    const result = await run(['models', 'status', '--json']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('gateway.prot');
  });
});

describe('store failures exit 1', () => {
  // Breaker F10: a corrupted database is named with its path, SQLite's words and the command that checks it.
  it('a corrupted database names the file, the cause and `understudy doctor`', async () => {
    await run(['models', 'auth', 'add', '--provider', 'openai', '--type', 'api_key', '--key-env', 'X'], { env: { X: KEY_A } });
    const database = path.join(temp.home, '.understudy', 'agents', 'main', 'agent', 'understudy-agent.sqlite');
    for (const suffix of ['-wal', '-shm']) fs.rmSync(`${database}${suffix}`, { force: true });
    fs.writeFileSync(database, Buffer.alloc(20_000, 0x5a));
    const result = await run(['models', 'status']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`the state store of agent main at ${database} cannot be used (SQLITE_NOTADB`);
    expect(result.stderr).toContain('run `understudy doctor`');
  });

  it('an agent with legacy credential files fails closed, naming `understudy doctor --fix`', async () => {
    const agentDir = path.join(temp.home, '.understudy', 'agents', 'main', 'agent');
    fs.mkdirSync(agentDir, { recursive: true });
    fs.writeFileSync(path.join(agentDir, 'auth-profiles.json'), JSON.stringify({ profiles: { 'openai:default': { type: 'api_key', provider: 'openai', key: KEY_A } } }));
    const result = await run(['models', 'auth', 'list']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('understudy doctor --fix');
    expect(result.stderr).not.toContain(KEY_A);
  });
});

describe('--state-dir and UNDERSTUDY_STATE_DIR', () => {
  it('put the store under the chosen root, the flag winning', async () => {
    const fromEnv = path.join(temp.home, 'env-root');
    const fromFlag = path.join(temp.home, 'flag-root');
    await run(['models', 'auth', 'add', '--provider', 'openai', '--type', 'api_key', '--key-env', 'K'], { env: { K: KEY_A, UNDERSTUDY_STATE_DIR: fromEnv } });
    await run(['models', 'auth', 'add', '--provider', 'groq', '--type', 'api_key', '--key-env', 'K', '--state-dir', fromFlag, '--agent', 'work'], {
      env: { K: KEY_B, UNDERSTUDY_STATE_DIR: fromEnv },
    });
    expect(fs.existsSync(path.join(fromEnv, 'agents', 'main', 'agent', 'understudy-agent.sqlite'))).toBe(true);
    expect(fs.existsSync(path.join(fromFlag, 'agents', 'work', 'agent', 'understudy-agent.sqlite'))).toBe(true);
    const listed = JSON.parse((await run(['models', 'auth', 'list', '--json', '--state-dir', fromFlag, '--agent', 'work'])).stdout);
    expect(listed.map((entry: { id: string }) => entry.id)).toEqual(['anthropic:inline', 'groq:default']);
  });
});

describe('models status for an agent nobody configured', () => {
  it('refuses --agent ghost with the known agents named, and creates no store for it', async () => {
    const result = await run(['models', 'status', '--agent', 'ghost']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown agent "ghost"');
    expect(result.stderr).toContain('main');
    expect(fs.existsSync(path.join(temp.home, '.understudy', 'agents', 'ghost'))).toBe(false);
  });

  it('still reports an agent whose store exists although the config does not name it', async () => {
    const added = await run(['models', 'auth', 'add', '--agent', 'side', '--provider', 'openai', '--id', 'alpha', '--type', 'api_key', '--key-stdin'], { stdin: `${KEY_A}\n` });
    expect(added.code).toBe(0);
    const status = await run(['models', 'status', '--agent', 'side', '--json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ agent: 'side' });
  });
});
