/**
 * `understudy simulate` through the CLI, in-process (docs/contracts.md#simulate): every scenario under `apps/cli/scenarios/`
 * runs and its output must match its `.expect.json5` file (turns with every attempt, selected usage stats and
 * session fields, absent paths, error message fragments); invalid scenarios exit 2 naming the bad field.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import JSON5 from 'json5';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../main.js';

const SCENARIO_DIR = path.resolve(import.meta.dirname, '../../scenarios');

interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function simulate(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await runCli(['simulate', ...args], { stdin: Readable.from([]), stdout, stderr, env: { ...env } });
  return { code, stdout: out, stderr: err };
}

const scenarioDirs: string[] = [];
afterAll(() => {
  for (const dir of scenarioDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A scenario written to a temporary file (removed after the tests). */
function scenarioFile(content: unknown, extension = 'json'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-scenario-'));
  scenarioDirs.push(dir);
  const file = path.join(dir, `scenario.${extension}`);
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

/** Reads `a.b[0].c` (dots and brackets) from a value; `undefined` when any step is missing. */
function at(value: unknown, dottedPath: string): unknown {
  const steps = dottedPath.match(/[^.[\]]+/g) ?? [];
  let current: unknown = value;
  for (const step of steps) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}

interface Expectation {
  readonly env?: Readonly<Record<string, string>>;
  readonly turns: readonly Record<string, unknown>[];
  readonly usageStats?: Record<string, unknown>;
  readonly session?: Record<string, unknown>;
  readonly absent?: readonly string[];
  readonly messageIncludes?: Readonly<Record<string, readonly string[]>>;
  readonly messageExcludes?: Readonly<Record<string, readonly string[]>>;
}

const scenarios = fs
  .readdirSync(SCENARIO_DIR)
  .filter((name) => name.endsWith('.json5') && !name.endsWith('.expect.json5'))
  .sort();

describe('understudy simulate: scenario files (one or more per seed rule)', () => {
  it('finds the scenario files, each with its expectation', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(30);
    for (const name of scenarios) expect(fs.existsSync(path.join(SCENARIO_DIR, name.replace(/\.json5$/, '.expect.json5')))).toBe(true);
  });

  it.each(scenarios)('%s', async (name) => {
    const expected = JSON5.parse<Expectation>(fs.readFileSync(path.join(SCENARIO_DIR, name.replace(/\.json5$/, '.expect.json5')), 'utf8'));
    const run = await simulate([path.join(SCENARIO_DIR, name)], expected.env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout) as { turns: { error?: { message: string } }[] };
    expect(Object.keys(output)).toEqual(['turns', 'usageStats', 'session']);
    expect(output.turns).toHaveLength(expected.turns.length);
    expected.turns.forEach((turn, index) => expect(output.turns[index], `turn ${index + 1}`).toMatchObject(turn));
    if (expected.usageStats !== undefined) expect(at(output, 'usageStats')).toMatchObject(expected.usageStats);
    if (expected.session !== undefined) expect(at(output, 'session')).toMatchObject(expected.session);
    for (const absent of expected.absent ?? []) expect(at(output, absent), absent).toBeUndefined();
    for (const [turn, fragments] of Object.entries(expected.messageIncludes ?? {})) {
      for (const fragment of fragments) expect(output.turns[Number(turn)]?.error?.message).toContain(fragment);
    }
    for (const [turn, fragments] of Object.entries(expected.messageExcludes ?? {})) {
      for (const fragment of fragments) expect(output.turns[Number(turn)]?.error?.message).not.toContain(fragment);
    }
  });
});

describe('understudy simulate: the command', () => {
  const minimal = {
    config: { agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['anthropic/claude-x'] } } } },
    profiles: [{ id: 'openai:a', type: 'api_key' }, { id: 'anthropic:a', type: 'api_key' }],
    turns: [{ outcomes: [{ match: { provider: 'openai' }, results: [{ status: 429 }] }] }],
  };

  it('prints exactly one JSON document on stdout and, with --trace, the decisions on stderr', async () => {
    const run = await simulate([scenarioFile(minimal), '--trace']);
    expect(run.code).toBe(0);
    expect(() => JSON.parse(run.stdout)).not.toThrow();
    expect(run.stderr.trim().split('\n')).toEqual([
      'turn 1  t=0  candidate_failed  openai/gpt-x [openai:a]  rate_limit 429 status.429  → anthropic/claude-x (next_candidate)',
      'turn 1  t=0  candidate_succeeded  anthropic/claude-x [anthropic:a]  answered after openai/gpt-x failed (rate_limit)',
    ]);
  });

  it('accepts JSON5 (comments, unquoted keys, trailing commas) and ignores keys it does not know', async () => {
    const run = await simulate([
      scenarioFile(
        `// a note\n{ now: 5, expect: { anything: true }, turns: [{ request: { model: 'openai/gpt-x', note: 'x' }, outcomes: [], },], }`,
        'json5',
      ),
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ turns: [{ outcome: 'success', answeredBy: 'openai/gpt-x', profile: null }] });
  });

  it('accepts bare profile names with a provider, in profiles, usage stats and matches; "ok": false with a status is an HTTP failure', async () => {
    const run = await simulate([
      scenarioFile({
        config: { agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['anthropic/claude-x'] } } } },
        profiles: [{ id: 'a', provider: 'openai' }, { id: 'b', provider: 'openai' }, { id: 'anthropic:a' }],
        usageStats: { a: { lastUsed: 1 }, 'openai:b': { lastUsed: 2 } },
        turns: [{ outcomes: [{ match: { profile: 'a', provider: 'openai' }, results: [{ ok: false, status: 401 }] }] }],
      }),
    ]);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({
      turns: [{ outcome: 'success', answeredBy: 'openai/gpt-x', profile: 'openai:b', attempts: [{ profile: 'openai:a', reason: 'auth', status: 401 }, { profile: 'openai:b', kind: 'call' }] }],
      usageStats: { 'openai:a': { lastUsed: 1, cooldownReason: 'auth' } },
    });
  });

  it('removes its temporary state root afterwards', async () => {
    const before = fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('understudy-simulate-')).length;
    await simulate([scenarioFile(minimal)]);
    expect(fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('understudy-simulate-'))).toHaveLength(before);
  });

  it('never prints a credential: placeholder keys stay out of the output', async () => {
    const run = await simulate([scenarioFile({ ...minimal, profiles: [{ id: 'openai:a', key: 'sk-very-secret-123' }, { id: 'anthropic:a' }] }), '--trace']);
    expect(run.stdout + run.stderr).not.toContain('sk-very-secret-123');
    expect(run.stdout + run.stderr).not.toContain('sim-api_key');
  });

  it.each<[string, unknown, RegExp]>([
    ['no turns', { now: 0 }, /turns: required: add a array/],
    ['an empty turn list', { turns: [] }, /turns: must have at least 1 item/],
    ['a clock that is not a number', { now: 'soon', turns: [{}] }, /now: .*number/],
    ['a result of no known shape', { turns: [{ outcomes: [{ results: [{ oops: 1 }] }] }] }, /turns\[0\]\.outcomes\[0\]\.results\[0\]: a result is/],
    ['an HTTP status out of range', { turns: [{ outcomes: [{ results: [{ status: 99 }] }] }] }, /turns\[0\]\.outcomes\[0\]\.results\[0\]\.status: must be at least 100/],
    ['an HTTP status of the wrong type', { turns: [{ outcomes: [{ results: [{ status: '429' }] }] }] }, /turns\[0\]\.outcomes\[0\]\.results\[0\]\.status: expected number, got a string/],
    ['a bad profile id', { profiles: [{ id: 'nocolon' }], turns: [{}] }, /profiles\[0\]\.id: an auth profile id/],
    ['an unknown credential type', { profiles: [{ id: 'openai:a', type: 'password' }], turns: [{}] }, /profiles\[0\]\.type/],
    ['an unknown config key', { config: { agents: { defaults: { modle: 'x' } } }, turns: [{}] }, /config\.agents\.defaults\.modle: unknown key/],
    ['a bad failover reason in usage stats', { usageStats: { 'openai:a': { cooldownReason: 'sleepy' } }, turns: [{}] }, /usageStats\["openai:a"\]\.cooldownReason|usageStats\.openai:a\.cooldownReason/],
    ['a requested model that is not provider/model', { turns: [{ request: { model: 'gpt-x' } }] }, /turns\[0\]\.request\.model: /],
    ['a fallback that is not provider/model', { turns: [{ request: { model: 'openai/x', fallbacksOverride: ['nope'] } }] }, /turns\[0\]\.request\.fallbacksOverride\[0\]/],
    // Breaker F5: the agent id becomes a folder name; the store's rule applies, reported with its path.
    ['an agent id the store refuses', { turns: [{ request: { agent: '../../x', model: 'openai/gpt-x' } }] }, /turns\[0\]\.request\.agent: an agent id is 1-64 letters/],
    ['an agent id the store refuses in a later turn', { turns: [{}, { request: { agentId: 'a/b' } }] }, /turns\[1\]\.request\.agentId: an agent id/],
    ['the same auth profile twice', { profiles: [{ id: 'openai:a' }, { id: 'a', provider: 'OpenAI' }], turns: [{}] }, /profiles\[1\]\.id: "openai:a" is already profiles\[0\]/],
  ])('exits 2 naming the bad field: %s', async (_label, content, pattern) => {
    const run = await simulate([scenarioFile(content)]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/invalid scenario/);
    expect(run.stderr).toMatch(pattern);
  });

  // Breaker F4: provider ids that are Object.prototype names are plain names; a scenario with them just runs.
  it.each(['constructor/x', '__proto__/x', 'toString/x'])('runs a request for %s like any other model', async (model) => {
    const run = await simulate([scenarioFile({ ...minimal, turns: [{ request: { model }, outcomes: [] }] })]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { turns: { answeredBy: string }[] }).turns[0]?.answeredBy).toBe(model.toLowerCase());
  });

  it('exits 2 for a file that is not JSON5 or does not exist', async () => {
    const broken = await simulate([scenarioFile('{ turns: [ ')]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/not valid JSON5/);
    const missing = await simulate([path.join(os.tmpdir(), 'no-such-understudy-scenario.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no such file/);
  });

  it('exits 2 for an unusable skip-cache TTL in the environment, naming the variable', async () => {
    const run = await simulate([scenarioFile(minimal)], { UNDERSTUDY_FALLBACK_SKIP_TTL_MS: 'soon' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/UNDERSTUDY_FALLBACK_SKIP_TTL_MS/);
  });

  it('is deterministic: the same scenario and seed give the same document', async () => {
    const file = path.join(SCENARIO_DIR, '03-overloaded-one-rotation.json5');
    const first = await simulate([file]);
    const second = await simulate([file]);
    expect(second.stdout).toBe(first.stdout);
  });
});
