import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempHome, runStoreCli } from '../test-support/run-store-cli.js';
import type { TempHome } from '../test-support/run-store-cli.js';

const LEGACY_KEY = 'sk-test-doctor-legacy-0001';
const LEGACY_ACCESS = 'at-test-doctor-legacy-0002';

let temp: TempHome;
let agentDir: string;

const run = (argv: readonly string[]) => runStoreCli(argv, { home: temp.home });

function writeLegacyPair(): void {
  fs.mkdirSync(agentDir, { recursive: true });
  fs.writeFileSync(
    path.join(agentDir, 'auth-profiles.json'),
    JSON.stringify({
      version: 1,
      profiles: {
        'openai:default': { type: 'api_key', provider: 'openai', key: LEGACY_KEY },
        'anthropic:ada@example.com': { type: 'oauth', provider: 'anthropic', access: LEGACY_ACCESS, refresh: 'rt-test-doctor', expires: 4_102_444_800_000, email: 'ada@example.com' },
        'openai:odd': { type: 'saml', provider: 'openai' },
      },
    }),
  );
  fs.writeFileSync(
    path.join(agentDir, 'auth-state.json'),
    JSON.stringify({ order: { openai: ['openai:default'] }, usageStats: { 'openai:default': { lastUsed: 1_736_160_000_000, errorCount: 2 } } }),
  );
}

beforeEach(() => {
  temp = makeTempHome();
  agentDir = path.join(temp.stateRoot, 'agents', 'main', 'agent');
});

afterEach(() => temp.remove());

describe('understudy doctor on a legacy dir', () => {
  it('reports the legacy files (exit 1), --fix imports them (exit 0), and the agent then opens with the same profiles and stats', async () => {
    writeLegacyPair();
    const before = await run(['doctor', '--json']);
    expect(before.code).toBe(1);
    const diagnosis = JSON.parse(before.stdout);
    expect(diagnosis.checks.find((check: { name: string }) => check.name === 'legacy files')).toMatchObject({ status: 'error' });
    expect(diagnosis.checks.find((check: { name: string }) => check.name === 'legacy files').detail).toContain('understudy doctor --fix');
    expect(fs.existsSync(path.join(agentDir, 'understudy-agent.sqlite'))).toBe(false);

    const fixed = await run(['doctor', '--fix', '--json']);
    expect(fixed.stderr).toBe('');
    expect(fixed.code).toBe(0);
    const report = JSON.parse(fixed.stdout);
    expect(report.ok).toBe(true);
    expect(report.checks.map((check: { name: string; status: string }) => `${check.name}:${check.status}`)).toEqual([
      'config:ok',
      'legacy files:fixed',
      'store:ok',
      // The legacy layout left its folders 0755; --fix tightens them to 0700.
      'permissions:fixed',
    ]);
    expect(report.import.profiles.map((entry: { id: string; action: string }) => `${entry.id}:${entry.action}`)).toEqual([
      'openai:default:created',
      'anthropic:ada@example.com:created',
    ]);
    expect(report.import.skipped).toEqual([{ file: path.join(agentDir, 'auth-profiles.json'), at: 'profiles["openai:odd"]', reason: 'unknown credential type "saml"' }]);
    expect(fs.existsSync(path.join(agentDir, 'auth-profiles.json.imported'))).toBe(true);

    const status = JSON.parse((await run(['models', 'status', '--json'])).stdout);
    expect(status.providers.find((entry: { provider: string }) => entry.provider === 'openai')).toMatchObject({ storedOrder: ['openai:default'] });
    expect(status.profiles.find((entry: { id: string }) => entry.id === 'openai:default')).toMatchObject({ lastUsed: new Date(1_736_160_000_000).toISOString(), errorCount: 2 });

    const again = await run(['doctor']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/legacy files\s*│\s*ok/);
    for (const output of [before.stdout, fixed.stdout, again.stdout]) {
      expect(output).not.toContain(LEGACY_KEY);
      expect(output).not.toContain(LEGACY_ACCESS);
    }
  });

  it('prints the skipped entries in its human report', async () => {
    writeLegacyPair();
    const fixed = await run(['doctor', '--fix']);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toContain('Skipped while importing');
    expect(fixed.stdout).toContain('unknown credential type "saml"');
  });
});

describe('understudy doctor checks', () => {
  it('is clean on a fresh home: no config (defaults), store not created yet', async () => {
    const result = await run(['doctor', '--json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.checks.map((check: { status: string }) => check.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(report.checks[2].detail).toContain('not created yet');
  });

  it('--fix creates and migrates the store', async () => {
    const result = await run(['doctor', '--fix', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).checks[2]).toMatchObject({ name: 'store', status: 'fixed' });
    expect(fs.existsSync(path.join(agentDir, 'understudy-agent.sqlite'))).toBe(true);
  });

  it('flags a world-readable database (exit 1) and --fix sets 0600', async () => {
    await run(['doctor', '--fix']);
    const database = path.join(agentDir, 'understudy-agent.sqlite');
    fs.chmodSync(database, 0o644);
    const flagged = await run(['doctor', '--json']);
    expect(flagged.code).toBe(1);
    expect(JSON.parse(flagged.stdout).checks[3]).toMatchObject({ name: 'permissions', status: 'error' });
    const fixed = await run(['doctor', '--fix', '--json']);
    expect(fixed.code).toBe(0);
    expect(JSON.parse(fixed.stdout).checks[3]).toMatchObject({ name: 'permissions', status: 'fixed' });
    expect(fs.statSync(database).mode & 0o777).toBe(0o600);
  });

  it('reports a corrupt database as an error it cannot fix', async () => {
    fs.mkdirSync(agentDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(agentDir, 'understudy-agent.sqlite'), 'garbage '.repeat(1000), { mode: 0o600 });
    const result = await run(['doctor', '--fix', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).checks[2]).toMatchObject({ name: 'store', status: 'error' });
  });

  it('reports an invalid config as an error', async () => {
    fs.mkdirSync(temp.stateRoot, { recursive: true });
    fs.writeFileSync(path.join(temp.stateRoot, 'understudy.json5'), '{ auth: { cooldowns: { preset: "nope" } } }');
    const result = await run(['doctor', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).checks[0]).toMatchObject({ name: 'config', status: 'error' });
    expect(JSON.parse(result.stdout).checks[0].detail).toContain('auth.cooldowns.preset');
  });
});

describe('understudy doctor --fix without --agent (every agent under the state root)', () => {
  function writeAgentAuthJson(agentId: string, key: string): string {
    const dir = path.join(temp.stateRoot, 'agents', agentId, 'agent');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'auth.json'), JSON.stringify({ openai: key }));
    return dir;
  }

  it('finds and imports the legacy files of every agent; with --agent only that one', async () => {
    writeLegacyPair();
    writeAgentAuthJson('work', 'sk-test-doctor-work-0003');
    writeAgentAuthJson('ops', 'sk-test-doctor-ops-0004');
    const only = JSON.parse((await run(['doctor', '--agent', 'work', '--json'])).stdout);
    expect(only.agent).toBe('work');
    expect(only.otherAgents).toBeUndefined();

    const fixed = await run(['doctor', '--fix', '--json']);
    expect(fixed.stderr).toBe('');
    expect(fixed.code).toBe(0);
    const report = JSON.parse(fixed.stdout);
    expect(report.ok).toBe(true);
    expect([report.agent, ...report.otherAgents.map((other: { agent: string }) => other.agent)]).toEqual(['main', 'ops', 'work']);
    for (const agent of [report, ...report.otherAgents]) {
      expect(agent.checks.find((check: { name: string }) => check.name === 'legacy files').status).toBe('fixed');
    }
    // Each agent now opens (fail-closed no more) with its imported profile.
    for (const agentId of ['work', 'ops']) {
      const listed = await run(['models', 'auth', 'list', '--agent', agentId, '--json']);
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: 'openai:default', type: 'api_key' })]);
    }
    expect(fixed.stdout).not.toContain('sk-test-doctor-work-0003');

    const human = await run(['doctor']);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('agent ops');
    expect(human.stdout).toContain('agent work');
  });
});
