import { spawn } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Secret } from '@understudy/contracts';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAuthProfileStore, statePathsUnder } from './index.js';
import type { AuthProfileStore } from './index.js';
import { buildChildScript } from './test-support/build-child.js';
import { makeTempStateRoot, removeTempStateRoot } from './test-support/temp-state.js';

let root: string;
let gateway: AuthProfileStore;
let other: AuthProfileStore;

beforeEach(async () => {
  root = makeTempStateRoot();
  gateway = await openAuthProfileStore({ stateDir: root, agentId: 'main', inlineProfiles: [{ provider: 'openai', key: new Secret('sk-test-inline') }] });
  other = await openAuthProfileStore({ stateDir: root, agentId: 'main' });
});

afterEach(async () => {
  await gateway.close();
  await other.close();
  removeTempStateRoot(root);
});

const key = (name: string) => ({ type: 'api_key', provider: 'openai', key: new Secret(`sk-test-${name}`) }) as const;

describe('request path: prepared statements, no routing state served after any connection wrote', () => {
  it('sees another handle\'s profiles, order, cooldowns and removals on the very next call', async () => {
    expect(await gateway.loadProviderAuthState('openai')).toEqual({
      provider: 'openai',
      profiles: [{ id: 'openai:inline', provider: 'openai', type: 'api_key', facts: { type: 'api_key', hasSecret: true, hasRefresh: false }, source: 'inline' }],
      usageStats: {},
    });
    await other.upsertProfile({ id: 'a', credential: key('a') });
    await other.upsertProfile({ id: 'b', credential: key('b') });
    await other.setOrderOverride('openai', ['b', 'a']);
    await other.updateUsageStats('openai:b', () => ({ cooldownUntil: 5000, cooldownReason: 'rate_limit' }));
    const state = await gateway.loadProviderAuthState('OpenAI');
    expect(state.profiles.map((profile) => [profile.id, profile.source])).toEqual([['openai:a', 'store'], ['openai:b', 'store'], ['openai:inline', 'inline']]);
    expect(state.storedOrder).toEqual(['openai:b', 'openai:a']);
    expect(state.usageStats).toEqual({ 'openai:b': { cooldownUntil: 5000, cooldownReason: 'rate_limit' } });

    await other.updateUsageStats('openai:b', (stats) => ({ ...stats, cooldownUntil: 9000 }));
    expect((await gateway.loadProviderAuthState('openai')).usageStats['openai:b']).toEqual({ cooldownUntil: 9000, cooldownReason: 'rate_limit' });
    expect(await gateway.updateUsageStats('openai:b', (stats) => ({ ...stats, errorCount: 1 }))).toEqual({ cooldownUntil: 9000, cooldownReason: 'rate_limit', errorCount: 1 });

    await other.removeProfile('openai:b');
    expect(await gateway.resolveCredential('openai:b')).toBeUndefined();
    const after = await gateway.loadProviderAuthState('openai');
    expect(after.profiles.map((profile) => profile.id)).toEqual(['openai:a', 'openai:inline']);
    expect(after.storedOrder).toEqual(['openai:a']);
    await other.clearOrderOverride('openai');
    expect(await gateway.loadProviderAuthState('openai')).not.toHaveProperty('storedOrder');
  });

  it('sees another handle\'s session writes and refreshed credentials on the very next call', async () => {
    await other.writeSession('s', null, { modelOverride: 'gpt-x' }, 1);
    expect(await gateway.getSession('s')).toEqual({ key: 's', revision: 1, createdAt: 1, updatedAt: 1, modelOverride: 'gpt-x' });
    expect(await gateway.writeSession('s', 1, { chatType: 'group' }, 2)).toMatchObject({ ok: true, entry: { revision: 2, modelOverride: 'gpt-x', chatType: 'group' } });
    expect(await other.writeSession('s', 1, { modelOverride: 'stale' }, 3)).toMatchObject({ ok: false, current: { revision: 2, chatType: 'group' } });

    const oauth = { type: 'oauth', provider: 'openai', refresh: new Secret('rt-test') } as const;
    await other.upsertProfile({ id: 'me', credential: { ...oauth, access: new Secret('at-test-1'), expires: 1000 } });
    expect(await gateway.resolveCredential('openai:me')).toMatchObject({ type: 'oauth', expires: 1000 });
    await other.saveRefreshedCredential('openai:me', { ...oauth, access: new Secret('at-test-2'), expires: 2000 });
    const credential = await gateway.resolveCredential('openai:me');
    expect(credential?.type === 'oauth' && [credential.access?.reveal(), credential.expires]).toEqual(['at-test-2', 2000]);
  });

  it('serves the reads from a read-only handle and refuses its writes', async () => {
    await other.upsertProfile({ id: 'a', credential: key('a') });
    await other.writeSession('s', null, { modelOverride: 'gpt-x' }, 1);
    const reader = await openAuthProfileStore({ stateDir: root, agentId: 'main', readOnly: true });
    try {
      expect((await reader.loadProviderAuthState('openai')).profiles.map((profile) => profile.id)).toEqual(['openai:a']);
      expect(await reader.resolveCredential('openai:a')).toMatchObject({ type: 'api_key', provider: 'openai' });
      expect(await reader.getSession('s')).toMatchObject({ revision: 1, modelOverride: 'gpt-x' });
      await expect(reader.writeSession('s', 1, {}, 2)).rejects.toMatchObject({ code: 'store_read_only' });
      await expect(reader.tryAcquireProbe('openai', 0, 1)).rejects.toMatchObject({ code: 'store_read_only' });
    } finally {
      await reader.close();
    }
  });

  it('fails request-path calls after close with store_closed', async () => {
    await gateway.close();
    for (const call of [
      () => gateway.loadProviderAuthState('openai'),
      () => gateway.resolveCredential('openai:a'),
      () => gateway.updateUsageStats('openai:a', (stats) => stats),
      () => gateway.tryAcquireProbe('openai', 0, 1),
      () => gateway.getSession('s'),
      () => gateway.writeSession('s', null, {}, 1),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'store_closed' });
    }
  });
});

describe('request path: the provider state kept while the database did not change', () => {
  let childScript: string;
  beforeAll(async () => {
    childScript = await buildChildScript(path.join(import.meta.dirname, 'test-support', 'mark-failures-child.ts'));
  }, 60_000);

  /** Runs the mark-failures child: `count` failure marks on `profileId`, from another process. */
  function markFromAnotherProcess(profileId: string, count: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [childScript, root, profileId, String(count)], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 && stderr === '' ? resolve() : reject(new Error(`child exited ${String(code)}: ${stderr}`))));
    });
  }

  it('answers from the decoded state while nothing was written, and reads again after its own write', async () => {
    await gateway.upsertProfile({ id: 'a', credential: key('a') });
    const first = await gateway.loadProviderAuthState('openai');
    const second = await gateway.loadProviderAuthState('openai');
    // The same decoded objects: no read transaction, no decoding.
    expect(second.usageStats).toBe(first.usageStats);
    expect(second.profiles[0]).toBe(first.profiles[0]);
    await gateway.updateUsageStats('openai:a', () => ({ cooldownUntil: 7000, cooldownReason: 'rate_limit' }));
    const third = await gateway.loadProviderAuthState('openai');
    expect(third.usageStats).not.toBe(first.usageStats);
    expect(third.usageStats['openai:a']).toEqual({ cooldownUntil: 7000, cooldownReason: 'rate_limit' });
    await gateway.updateUsageStats('openai:a', () => ({}));
    expect((await gateway.loadProviderAuthState('openai')).usageStats['openai:a']).toEqual({});
  });

  it('sees a cooldown another process wrote, and one another connection cleared, on the very next call', async () => {
    await gateway.upsertProfile({ id: 'a', credential: key('a') });
    expect((await gateway.loadProviderAuthState('openai')).usageStats).toEqual({});
    await markFromAnotherProcess('openai:a', 3);
    expect((await gateway.loadProviderAuthState('openai')).usageStats['openai:a']).toMatchObject({ errorCount: 3, failureCounts: { rate_limit: 3 } });

    // A plain SQLite connection of its own, going around the store: only data_version can tell.
    const raw = new Database(statePathsUnder(root, 'main').databasePath);
    try {
      raw.prepare("update usage_stats set stats = '{}' where profile_id = 'openai:a'").run();
    } finally {
      raw.close();
    }
    expect((await gateway.loadProviderAuthState('openai')).usageStats['openai:a']).toEqual({});
    await markFromAnotherProcess('openai:a', 1);
    expect((await gateway.loadProviderAuthState('openai')).usageStats['openai:a']).toMatchObject({ errorCount: 1 });
  });
});
