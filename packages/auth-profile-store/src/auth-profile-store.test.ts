import fs from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';
import Database from 'better-sqlite3';
import { Secret } from '@understudy/contracts';
import type { ProfileUsageStats } from '@understudy/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuthStoreError, openAuthProfileStore, statePathsUnder } from './index.js';
import type { AuthProfileStore } from './index.js';
import { makeTempStateRoot, modeOf, rawDatabaseText, removeTempStateRoot } from './test-support/temp-state.js';

const OPENAI_KEY = 'sk-test-store-openai-0001';
const INLINE_KEY = 'sk-test-store-inline-0002';
const ACCESS = 'at-test-store-access-0003';
const REFRESH = 'rt-test-store-refresh-0004';

let root: string;
let clock: number;
let store: AuthProfileStore;

async function open(options: Partial<Parameters<typeof openAuthProfileStore>[0]> = {}): Promise<AuthProfileStore> {
  return openAuthProfileStore({ stateDir: root, agentId: 'main', nowMs: () => clock, ...options });
}

beforeEach(async () => {
  root = makeTempStateRoot();
  clock = 1_700_000_000_000;
  store = await open({ inlineProfiles: [{ provider: 'anthropic', key: new Secret(INLINE_KEY) }] });
});

afterEach(async () => {
  await store.close();
  removeTempStateRoot(root);
});

const bumpErrors = (stats: ProfileUsageStats): ProfileUsageStats => ({ ...stats, errorCount: (stats.errorCount ?? 0) + 1 });

describe('files (docs/configuration.md: one private SQLite file per agent, created and migrated on first use)', () => {
  it('creates <root>/agents/<agent>/agent/understudy-agent.sqlite with mode 0600 in 0700 folders, in WAL mode', async () => {
    const paths = statePathsUnder(root, 'main');
    expect(store.paths.databasePath).toBe(path.join(root, 'agents', 'main', 'agent', 'understudy-agent.sqlite'));
    expect(modeOf(paths.databasePath)).toBe(0o600);
    for (const dir of [paths.agentDir, path.dirname(paths.agentDir), path.join(root, 'agents')]) expect(modeOf(dir)).toBe(0o700);
    await store.updateUsageStats('openai:a', bumpErrors);
    expect(modeOf(`${paths.databasePath}-wal`)).toBe(0o600);
    const raw = new Database(paths.databasePath, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect((raw.prepare('select name from kysely_migration').all() as { name: string }[]).map((row) => row.name)).toEqual(['0001_initial', '0002_refresh_locks']);
    raw.close();
  });

  it('reopens an existing store without migrating again and keeps its data', async () => {
    await store.upsertProfile({ credential: { type: 'api_key', provider: 'openai', key: new Secret(OPENAI_KEY) } });
    await store.close();
    store = await open();
    expect((await store.listProfiles()).map((profile) => profile.id)).toEqual(['openai:default']);
  });

  it('opens read-only without creating anything, and refuses writes', async () => {
    await expect(openAuthProfileStore({ stateDir: root, agentId: 'other', readOnly: true })).rejects.toMatchObject({ code: 'store_not_found' });
    expect(fs.existsSync(path.join(root, 'agents', 'other'))).toBe(false);
    const reader = await open({ readOnly: true });
    await expect(reader.updateUsageStats('openai:a', bumpErrors)).rejects.toMatchObject({ code: 'store_read_only' });
    expect(await reader.listProfiles()).toEqual([]);
    await reader.close();
  });

  it('rejects an agent id that is not a safe folder name', async () => {
    await expect(openAuthProfileStore({ stateDir: root, agentId: '../escape' })).rejects.toMatchObject({ code: 'invalid_agent_id' });
  });

  it('fails every call after close with store_closed', async () => {
    await store.close();
    await expect(store.listProfiles()).rejects.toMatchObject({ code: 'store_closed' });
    store = await open();
  });
});

describe('profiles and credentials (the model-failover doc "Auth storage", "Profile IDs")', () => {
  it('stores an api key as <provider>:default and resolves it only through resolveCredential', async () => {
    const { profile, created } = await store.upsertProfile({ credential: { type: 'api_key', provider: 'OpenAI', key: new Secret(OPENAI_KEY) } });
    expect(created).toBe(true);
    expect(profile).toMatchObject({ id: 'openai:default', provider: 'openai', type: 'api_key', source: 'store', facts: { hasSecret: true } });
    const credential = await store.resolveCredential('openai:default');
    expect(credential?.type === 'api_key' && credential.key.reveal()).toBe(OPENAI_KEY);
  });

  it('names an OAuth profile after its email and keeps expiry, projectId and enterpriseUrl', async () => {
    const { profile } = await store.upsertProfile({
      credential: {
        type: 'oauth',
        provider: 'google',
        access: new Secret(ACCESS),
        refresh: new Secret(REFRESH),
        expires: clock + 3_600_000,
        email: 'ada@example.com',
        projectId: 'proj-1',
        enterpriseUrl: 'https://ghe.example.com',
      },
    });
    expect(profile).toMatchObject({ id: 'google:ada@example.com', email: 'ada@example.com', projectId: 'proj-1', facts: { type: 'oauth', hasSecret: true, hasRefresh: true, expiresAt: clock + 3_600_000 } });
    const credential = await store.resolveCredential(profile.id);
    expect(credential).toMatchObject({ type: 'oauth', expires: clock + 3_600_000, enterpriseUrl: 'https://ghe.example.com' });
    expect(credential?.type === 'oauth' && credential.refresh?.reveal()).toBe(REFRESH);
  });

  it('replaces the credential of an existing id but keeps its usage stats and creation time', async () => {
    await store.upsertProfile({ id: 'work', credential: { type: 'api_key', provider: 'openai', key: new Secret('sk-test-old') } });
    await store.updateUsageStats('openai:work', bumpErrors);
    clock += 1000;
    const { profile, created } = await store.upsertProfile({ id: 'openai:work', credential: { type: 'token', provider: 'openai', token: new Secret('tok-test-new') } });
    expect(created).toBe(false);
    expect(profile).toMatchObject({ type: 'token', createdAt: clock - 1000, credentialUpdatedAt: clock });
    expect(await store.getUsageStats('openai:work')).toEqual({ errorCount: 1 });
  });

  it.each([
    ['an empty key', { type: 'api_key', provider: 'openai', key: new Secret('  ') }, undefined, 'invalid_credential'],
    ['an oauth credential without tokens', { type: 'oauth', provider: 'openai' }, undefined, 'invalid_credential'],
    ['an id of another provider', { type: 'api_key', provider: 'openai', key: new Secret('sk-test-x') }, 'anthropic:x', 'invalid_profile_id'],
    ['the reserved inline name', { type: 'api_key', provider: 'openai', key: new Secret('sk-test-x') }, 'inline', 'reserved_profile_id'],
  ] as const)('rejects %s', async (_label, credential, id, code) => {
    await expect(store.upsertProfile({ id, credential })).rejects.toMatchObject({ code });
  });

  it('removes a profile with its credential, stats and place in stored orders', async () => {
    for (const name of ['a', 'b']) {
      await store.upsertProfile({ id: name, credential: { type: 'api_key', provider: 'openai', key: new Secret(`sk-test-${name}`) } });
    }
    await store.setOrderOverride('openai', ['openai:b', 'openai:a']);
    await store.updateUsageStats('openai:b', bumpErrors);
    expect(await store.removeProfile('openai:b')).toBe(true);
    expect(await store.removeProfile('openai:b')).toBe(false);
    expect(await store.resolveCredential('openai:b')).toBeUndefined();
    expect(await store.getOrderOverride('openai')).toEqual(['openai:a']);
    expect(await store.listUsageStats()).toEqual({});
    await expect(store.removeProfile('anthropic:inline')).rejects.toMatchObject({ code: 'reserved_profile_id' });
  });

  it('writes back a refreshed OAuth credential unless the stored one expires later', async () => {
    const base = { type: 'oauth', provider: 'openai', refresh: new Secret(REFRESH) } as const;
    await store.upsertProfile({ id: 'me', credential: { ...base, access: new Secret('at-test-1'), expires: 2000 } });
    expect(await store.saveRefreshedCredential('openai:me', { ...base, access: new Secret('at-test-2'), expires: 5000 })).toEqual({ saved: true });
    expect(await store.saveRefreshedCredential('openai:me', { ...base, access: new Secret('at-test-3'), expires: 4000 })).toEqual({ saved: false, reason: 'stored_is_newer' });
    const credential = await store.resolveCredential('openai:me');
    expect(credential?.type === 'oauth' && credential.access?.reveal()).toBe('at-test-2');
    await expect(store.saveRefreshedCredential('openai:nobody', { ...base, expires: 1 })).rejects.toMatchObject({ code: 'profile_not_found' });
  });
});

describe('inline config keys (<provider>:inline)', () => {
  it('lists and resolves the inline key, keeps its usage stats, and never writes its secret to the database', async () => {
    expect(await store.getProfile('anthropic:inline')).toMatchObject({ source: 'inline', type: 'api_key', facts: { hasSecret: true } });
    const credential = await store.resolveCredential('anthropic:inline');
    expect(credential?.type === 'api_key' && credential.key.reveal()).toBe(INLINE_KEY);
    await store.updateUsageStats('anthropic:inline', (stats) => ({ ...stats, disabledUntil: clock + 600_000, disabledReason: 'billing' }));
    const state = await store.loadProviderAuthState('anthropic');
    expect(state.profiles.map((profile) => profile.id)).toEqual(['anthropic:inline']);
    expect(state.usageStats['anthropic:inline']).toEqual({ disabledUntil: clock + 600_000, disabledReason: 'billing' });
    expect(rawDatabaseText(store.paths.databasePath)).not.toContain(INLINE_KEY);
  });
});

describe('secrets stay masked', () => {
  it('never shows a secret in JSON or inspect output of the store, its views or resolved credentials', async () => {
    await store.upsertProfile({ credential: { type: 'api_key', provider: 'openai', key: new Secret(OPENAI_KEY) } });
    await store.upsertProfile({ credential: { type: 'oauth', provider: 'openai', access: new Secret(ACCESS), refresh: new Secret(REFRESH), email: 'x@example.com' } });
    const outputs = [
      JSON.stringify(store),
      inspect(store, { depth: 10, showHidden: true }),
      JSON.stringify(await store.listProfiles()),
      inspect(await store.listProfiles(), { depth: 10 }),
      JSON.stringify(await store.loadProviderAuthState('openai')),
      JSON.stringify(await store.resolveCredential('openai:default')),
      inspect(await store.resolveCredential('openai:x@example.com'), { depth: 10, showHidden: true }),
      String(await store.resolveCredential('anthropic:inline')),
    ].join('\n');
    for (const secret of [OPENAI_KEY, ACCESS, REFRESH, INLINE_KEY]) expect(outputs).not.toContain(secret);
  });
});

describe('usage stats and probes (atomic read-modify-write)', () => {
  it('applies transitions on top of the stored value and never touches credentials', async () => {
    await store.upsertProfile({ credential: { type: 'api_key', provider: 'openai', key: new Secret(OPENAI_KEY) } });
    const before = await store.getProfile('openai:default');
    clock += 5000;
    await store.updateUsageStats('openai:default', bumpErrors);
    const after = await store.updateUsageStats('openai:default', (stats) => ({ ...bumpErrors(stats), cooldownUntil: clock + 30_000, cooldownReason: 'rate_limit', cooldownModel: 'gpt-x' }));
    expect(after).toEqual({ errorCount: 2, cooldownUntil: clock + 30_000, cooldownReason: 'rate_limit', cooldownModel: 'gpt-x' });
    expect(await store.getUsageStats('openai:default')).toEqual(after);
    expect((await store.getProfile('openai:default'))?.credentialUpdatedAt).toBe(before?.credentialUpdatedAt);
  });

  it('rolls back when a transition throws', async () => {
    await store.updateUsageStats('openai:a', bumpErrors);
    await expect(store.updateUsageStats('openai:a', () => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect(await store.getUsageStats('openai:a')).toEqual({ errorCount: 1 });
  });

  it('gives a probe slot at most once per throttle window, shared by every store handle on the file', async () => {
    const other = await open();
    expect(await store.tryAcquireProbe('openai', 0, 30_000)).toBe(true);
    expect(await other.tryAcquireProbe('openai', 29_999, 30_000)).toBe(false);
    expect(await other.tryAcquireProbe('anthropic', 29_999, 30_000)).toBe(true);
    expect(await store.tryAcquireProbe('openai', 30_000, 30_000)).toBe(true);
    await other.close();
  });

  it('gives the OAuth refresh lock of a profile to one holder at a time, across store handles, until released or the lease ends', async () => {
    const other = await open();
    expect(await store.tryAcquireRefreshLock('openai:sub', 'holder-a', 0, 35_000)).toBe(true);
    expect(await other.tryAcquireRefreshLock('openai:sub', 'holder-b', 10_000, 35_000)).toBe(false);
    expect(await other.tryAcquireRefreshLock('openai:other', 'holder-b', 10_000, 35_000)).toBe(true);
    // The holder renews its own lease; a release by someone else does nothing.
    expect(await store.tryAcquireRefreshLock('openai:sub', 'holder-a', 20_000, 35_000)).toBe(true);
    await other.releaseRefreshLock('openai:sub', 'holder-b');
    expect(await other.tryAcquireRefreshLock('openai:sub', 'holder-b', 54_999, 35_000)).toBe(false);
    // A lease that ran out (a crashed holder) is free.
    expect(await other.tryAcquireRefreshLock('openai:sub', 'holder-b', 55_000, 35_000)).toBe(true);
    await other.releaseRefreshLock('openai:sub', 'holder-b');
    expect(await store.tryAcquireRefreshLock('openai:sub', 'holder-a', 55_001, 35_000)).toBe(true);
    await other.close();
  });

  it('loads a provider\'s profiles, stored order and usage stats together, including stats of unstored ids', async () => {
    await store.upsertProfile({ id: 'a', credential: { type: 'api_key', provider: 'openai', key: new Secret('sk-test-a') } });
    await store.upsertProfile({ id: 'b', credential: { type: 'token', provider: 'openai', token: new Secret('tok-test-b'), expires: 99 } });
    await store.upsertProfile({ id: 'c', credential: { type: 'api_key', provider: 'openai-codex', key: new Secret('sk-test-c') } });
    await store.setOrderOverride('OpenAI', ['b', 'openai:a', 'b']);
    await store.updateUsageStats('openai:configured', bumpErrors);
    await store.updateUsageStats('openai-codex:c', bumpErrors);
    const state = await store.loadProviderAuthState('openai');
    expect(state.profiles.map((profile) => [profile.id, profile.facts])).toEqual([
      ['openai:a', { type: 'api_key', hasSecret: true, hasRefresh: false }],
      ['openai:b', { type: 'token', hasSecret: true, hasRefresh: false, expiresAt: 99 }],
    ]);
    expect(state.storedOrder).toEqual(['openai:b', 'openai:a']);
    expect(state.usageStats).toEqual({ 'openai:configured': { errorCount: 1 } });
  });
});

describe('order overrides (the model-failover doc "Rotation order": stored order override first)', () => {
  it('sets, lists and clears a provider order', async () => {
    expect(await store.setOrderOverride('openai', ['openai:b', 'a'])).toEqual(['openai:b', 'openai:a']);
    expect(await store.listOrderOverrides()).toEqual({ openai: ['openai:b', 'openai:a'] });
    expect(await store.clearOrderOverride('openai')).toBe(true);
    expect(await store.clearOrderOverride('openai')).toBe(false);
    expect(await store.getOrderOverride('openai')).toBeUndefined();
  });

  it('rejects ids of another provider and empty orders', async () => {
    await expect(store.setOrderOverride('openai', ['anthropic:a'])).rejects.toMatchObject({ code: 'invalid_order' });
    await expect(store.setOrderOverride('openai', [])).rejects.toMatchObject({ code: 'invalid_order' });
  });
});

describe('sessions (compare-and-set: a retry never overwrites a newer /model)', () => {
  it('creates with expectedRevision null, then accepts only the current revision', async () => {
    const created = await store.writeSession('s1', null, { modelOverride: 'claude-x', providerOverride: 'anthropic', modelOverrideSource: 'user' }, 10);
    expect(created).toEqual({ ok: true, entry: { key: 's1', revision: 1, createdAt: 10, updatedAt: 10, modelOverride: 'claude-x', providerOverride: 'anthropic', modelOverrideSource: 'user' } });
    const manual = await store.writeSession('s1', 1, { modelOverride: 'gpt-x', providerOverride: 'openai' }, 20);
    expect(manual.ok && manual.entry.revision).toBe(2);
    const stale = await store.writeSession('s1', 1, { modelOverride: 'stale' }, 30);
    expect(stale).toMatchObject({ ok: false, current: { revision: 2, modelOverride: 'gpt-x' } });
    expect(await store.writeSession('s1', null, { modelOverride: 'x' }, 30)).toMatchObject({ ok: false });
    expect(await store.writeSession('s2', 3, { modelOverride: 'x' }, 30)).toEqual({ ok: false, current: undefined });
  });

  it('clears fields set to null, keeps absent ones, and round-trips nested notice and live-switch state', async () => {
    const notice = { selected: 'openai/gpt-x', active: 'anthropic/claude-x', reason: 'rate_limit', since: 5 } as const;
    const pending = { provider: 'openai', model: 'gpt-y', requestedAt: 6 };
    await store.writeSession('s', null, { authProfileOverride: 'openai:a', authProfileOverrideSource: 'auto', authProfileOverrideCompactionCount: 2, compactionCount: 2, chatType: 'direct', fallbackNotice: notice, pendingLiveSwitch: pending, lastOriginProbeAt: 7, modelOverrideOrigin: 'openai/gpt-x' }, 1);
    const result = await store.writeSession('s', 1, { authProfileOverride: null, authProfileOverrideSource: null, compactionCount: 3 }, 2);
    expect(result.ok && result.entry).toEqual({ key: 's', revision: 2, createdAt: 1, updatedAt: 2, authProfileOverrideCompactionCount: 2, compactionCount: 3, chatType: 'direct', fallbackNotice: notice, pendingLiveSwitch: pending, lastOriginProbeAt: 7, modelOverrideOrigin: 'openai/gpt-x' });
    expect(await store.getSession('s')).toEqual(result.ok && result.entry);
  });

  it('resets a session keeping chosen fields and bumping the revision, lists and deletes sessions', async () => {
    await store.writeSession('s', null, { modelOverride: 'm', modelOverrideSource: 'auto', authProfileOverride: 'openai:a', authProfileOverrideSource: 'user' }, 1);
    const reset = await store.resetSession('s', 2, ['authProfileOverride', 'authProfileOverrideSource']);
    expect(reset).toEqual({ key: 's', revision: 2, createdAt: 1, updatedAt: 2, authProfileOverride: 'openai:a', authProfileOverrideSource: 'user' });
    expect(await store.writeSession('s', 1, { modelOverride: 'late' }, 3)).toMatchObject({ ok: false });
    expect(await store.resetSession('missing', 2)).toBeUndefined();
    await store.writeSession('t', null, {}, 5);
    expect((await store.listSessions()).map((entry) => entry.key)).toEqual(['t', 's']);
    expect(await store.deleteSession('s')).toBe(true);
    expect(await store.deleteSession('s')).toBe(false);
  });
});

describe('errors', () => {
  it('are branded AuthStoreErrors with a literal code', async () => {
    const error = await store.resolveCredential('no-colon').catch((caught: unknown) => caught);
    expect(AuthStoreError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'invalid_profile_id' });
  });
});
