/**
 * The behaviour every {@link AuthStorePort} implementation must show (docs/architecture.md): one list of cases
 * that the in-memory test store, the SQLite store and the PostgreSQL store all run, so the three cannot drift.
 *
 * The cases are framework-free: each is a name and an async `run(harness)` that throws an `Error` naming what
 * differed. A test file turns them into tests, e.g. `for (const c of STORE_CONFORMANCE_CASES) it(c.name, () =>
 * c.run(await makeHarness()))`. Times are fixed epoch ms passed in; nothing here reads a clock.
 */
import type { AuthStorePort, UsageStatsTransition } from '../ports.js';
import type { ProfileId } from '../profile-id.js';
import { Secret } from '../secret.js';
import type { ProfileUsageStats } from '../usage-stats.js';

/** What a case needs: the store under test, a second handle on the same state, and setup calls. */
export interface StoreHarness {
  /** The store under test. */
  readonly store: AuthStorePort;
  /**
   * A second store over the same state (another connection, another pool): concurrent calls are spread over
   * both. The same object as `store` when the implementation has no such thing (in memory).
   */
  readonly peer: AuthStorePort;
  /** Stores an `api_key` profile `id` (`provider:name`) with `key`. */
  addApiKeyProfile(id: ProfileId, key: string): Promise<void>;
  /** Removes a stored profile with its credential and usage stats, and drops it from stored orders. */
  removeProfile(id: ProfileId): Promise<boolean>;
  /** Stores a provider's order override. */
  setOrder(provider: string, ids: readonly ProfileId[]): Promise<void>;
  /**
   * Resolves once writes that completed on either handle are visible to both: a store that caches across
   * processes waits out its stated staleness bound here (PostgreSQL: until its change notifications arrived).
   * Nothing to wait for in SQLite or in memory.
   */
  settle(): Promise<void>;
}

/** One conformance case. */
export interface StoreConformanceCase {
  readonly name: string;
  run(harness: StoreHarness): Promise<void>;
}

const T0 = 1_700_000_000_000;

function fail(message: string): never {
  throw new Error(`store conformance: ${message}`);
}

function same(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(sortKeys(actual));
  const e = JSON.stringify(sortKeys(expected));
  if (a !== e) fail(`${what}: expected ${e}, got ${a}`);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, entry]) => entry !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, entry]) => [key, sortKeys(entry)]),
    );
  }
  return value;
}

const bump: UsageStatsTransition = (stats) => ({
  ...stats,
  errorCount: (stats.errorCount ?? 0) + 1,
  failureCounts: { ...stats.failureCounts, rate_limit: (stats.failureCounts?.rate_limit ?? 0) + 1 },
});

/** Every case, in a stable order. */
export const STORE_CONFORMANCE_CASES: readonly StoreConformanceCase[] = Object.freeze([
  {
    name: 'a provider state lists its profiles in the order they were stored, with its own stats and stored order only',
    async run(h: StoreHarness): Promise<void> {
      await h.addApiKeyProfile('openai:zeta', 'sk-conf-zeta');
      await h.addApiKeyProfile('openai:alpha', 'sk-conf-alpha');
      await h.addApiKeyProfile('anthropic:one', 'sk-conf-one');
      await h.store.updateUsageStats('openai:alpha', bump);
      await h.store.updateUsageStats('anthropic:one', bump);
      await h.setOrder('openai', ['openai:alpha', 'openai:zeta']);
      const state = await h.store.loadProviderAuthState('OpenAI');
      same(state.provider, 'openai', 'provider id is normalised');
      same(state.profiles.filter((p) => p.source === 'store').map((p) => p.id), ['openai:zeta', 'openai:alpha'], 'profiles in storing order');
      same(state.storedOrder, ['openai:alpha', 'openai:zeta'], 'stored order');
      same(Object.keys(state.usageStats), ['openai:alpha'], 'usage stats of this provider only');
      const other = await h.store.loadProviderAuthState('anthropic');
      same(other.storedOrder, undefined, 'no stored order for anthropic');
      same(other.usageStats['anthropic:one']?.errorCount, 1, 'anthropic stats');
    },
  },
  {
    name: 'windows written by a mark are read back as written, by this store and by its peer',
    async run(h: StoreHarness): Promise<void> {
      await h.addApiKeyProfile('openai:a', 'sk-conf-a');
      const window: ProfileUsageStats = { cooldownUntil: T0 + 60_000, cooldownReason: 'rate_limit', cooldownModel: 'gpt-4o', errorCount: 1, lastFailureAt: T0 };
      const written = await h.store.updateUsageStats('openai:a', (stats) => ({ ...stats, ...window }));
      same(written, window, 'updateUsageStats returns the stats after the transition');
      same((await h.store.loadProviderAuthState('openai')).usageStats['openai:a'], window, 'the store reads the window back');
      await h.settle();
      same((await h.peer.loadProviderAuthState('openai')).usageStats['openai:a'], window, 'the peer reads the window back');
      const disabled = await h.peer.updateUsageStats('openai:a', (stats) => ({ ...stats, disabledUntil: T0 + 3_600_000, disabledReason: 'billing', cooldownUntil: undefined }));
      same(disabled.cooldownUntil, undefined, 'a cleared field is gone');
      await h.settle();
      same((await h.store.loadProviderAuthState('openai')).usageStats['openai:a']?.disabledReason, 'billing', 'the peer’s disable is seen');
      same((await h.store.loadProviderAuthState('openai')).usageStats['openai:a']?.cooldownUntil, undefined, 'the cleared cooldown stays cleared');
    },
  },
  {
    name: 'concurrent marks on one profile from both handles lose no update',
    async run(h: StoreHarness): Promise<void> {
      const marks = 120;
      await Promise.all(Array.from({ length: marks }, (_, index) => (index % 2 === 0 ? h.store : h.peer).updateUsageStats('openai:hot', bump)));
      await h.settle();
      const stats = (await h.store.loadProviderAuthState('openai')).usageStats['openai:hot'];
      same(stats?.errorCount, marks, 'errorCount after concurrent marks');
      same(stats?.failureCounts, { rate_limit: marks }, 'failureCounts after concurrent marks');
    },
  },
  {
    name: 'a mark for a profile with no stored profile is kept (inline and removed-profile stats)',
    async run(h: StoreHarness): Promise<void> {
      const next = await h.store.updateUsageStats('openai:inline', bump);
      same(next.errorCount, 1, 'returned stats');
      await h.settle();
      same((await h.peer.loadProviderAuthState('openai')).usageStats['openai:inline']?.errorCount, 1, 'stored stats');
    },
  },
  {
    name: 'a transition that throws writes nothing and rejects',
    async run(h: StoreHarness): Promise<void> {
      await h.store.updateUsageStats('openai:a', bump);
      let threw = false;
      try {
        await h.store.updateUsageStats('openai:a', () => {
          throw new Error('transition failed');
        });
      } catch {
        threw = true;
      }
      if (!threw) fail('a throwing transition resolved');
      await h.settle();
      same((await h.peer.loadProviderAuthState('openai')).usageStats['openai:a']?.errorCount, 1, 'stats after a throwing transition');
      same((await h.store.updateUsageStats('openai:a', bump)).errorCount, 2, 'the store still marks afterwards');
    },
  },
  {
    name: 'under contention exactly one caller takes a probe slot per throttle window',
    async run(h: StoreHarness): Promise<void> {
      const throttle = 30_000;
      const results = await Promise.all(Array.from({ length: 40 }, (_, index) => (index % 2 === 0 ? h.store : h.peer).tryAcquireProbe('openai', T0, throttle)));
      same(results.filter(Boolean).length, 1, 'probes taken at once');
      same(await h.peer.tryAcquireProbe('openai', T0 + throttle - 1, throttle), false, 'inside the window');
      same(await h.store.tryAcquireProbe('anthropic', T0, throttle), true, 'another key has its own slot');
      const later = await Promise.all(Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? h.store : h.peer).tryAcquireProbe('openai', T0 + throttle, throttle)));
      same(later.filter(Boolean).length, 1, 'probes taken once the window passed');
      // A holder done early frees its slot; a release of an older taking leaves the current one alone.
      await h.peer.releaseProbe('openai', T0);
      same(await h.store.tryAcquireProbe('openai', T0 + throttle + 1, throttle), false, 'a stale release frees nothing');
      await h.store.releaseProbe('openai', T0 + throttle);
      same(await h.peer.tryAcquireProbe('openai', T0 + throttle + 1, throttle), true, 'released: the next caller takes it at once');
      await h.store.releaseProbe('never-taken', T0);
    },
  },
  {
    name: 'session writes compare and set on the revision',
    async run(h: StoreHarness): Promise<void> {
      same(await h.store.getSession('s1'), undefined, 'no session yet');
      const first = await h.store.writeSession('s1', null, { providerOverride: 'openai', modelOverride: 'gpt-4o', modelOverrideSource: 'user' }, T0);
      if (!first.ok) fail('the first write of a new session conflicted');
      same(first.entry.revision, 1, 'first revision');
      const again = await h.peer.writeSession('s1', null, { modelOverride: 'other' }, T0 + 1);
      if (again.ok) fail('a second "create" write succeeded');
      same(again.current?.modelOverride, 'gpt-4o', 'a conflict returns the current entry');
      const second = await h.peer.writeSession('s1', 1, { authProfileOverride: 'openai:b', authProfileOverrideSource: 'user' }, T0 + 2);
      if (!second.ok) fail('a write on the current revision conflicted');
      same([second.entry.revision, second.entry.modelOverride, second.entry.authProfileOverride, second.entry.createdAt, second.entry.updatedAt], [2, 'gpt-4o', 'openai:b', T0, T0 + 2], 'patched entry');
      const stale = await h.store.writeSession('s1', 1, { modelOverride: 'stale' }, T0 + 3);
      if (stale.ok) fail('a stale write succeeded');
      same(stale.current?.revision, 2, 'a stale write sees the newer revision');
      const cleared = await h.store.writeSession('s1', 2, { authProfileOverride: null, fallbackNotice: { selected: 'openai/gpt-4o', active: 'anthropic/claude', reason: 'rate_limit', since: T0 } }, T0 + 4);
      if (!cleared.ok) fail('a write on revision 2 conflicted');
      await h.settle();
      const read = await h.peer.getSession('s1');
      same(read?.authProfileOverride, undefined, 'null clears a field');
      same(read?.modelOverride, 'gpt-4o', 'an absent field is kept');
      same(read?.fallbackNotice, { selected: 'openai/gpt-4o', active: 'anthropic/claude', reason: 'rate_limit', since: T0 }, 'a nested field round-trips');
      same(read?.revision, 3, 'revision read by the peer');
    },
  },
  {
    name: 'concurrent writers of one revision: exactly one wins',
    async run(h: StoreHarness): Promise<void> {
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, index) => (index % 2 === 0 ? h.store : h.peer).writeSession('race', null, { modelOverride: `m${String(index)}` }, T0 + index)),
      );
      same(results.filter((result) => result.ok).length, 1, 'winners of the create');
      await h.settle();
      const entry = await h.store.getSession('race');
      same(entry?.revision, 1, 'revision after the race');
      const next = await Promise.all(Array.from({ length: 8 }, (_, index) => (index % 2 === 0 ? h.store : h.peer).writeSession('race', 1, { chatType: 'direct' }, T0 + 100 + index)));
      same(next.filter((result) => result.ok).length, 1, 'winners on revision 1');
    },
  },
  {
    name: 'a removed profile is gone from provider state, credentials, stats and stored orders',
    async run(h: StoreHarness): Promise<void> {
      await h.addApiKeyProfile('openai:keep', 'sk-conf-keep');
      await h.addApiKeyProfile('openai:drop', 'sk-conf-drop');
      await h.store.updateUsageStats('openai:drop', bump);
      await h.setOrder('openai', ['openai:drop', 'openai:keep']);
      await h.settle();
      const before = await h.peer.resolveCredential('openai:drop');
      if (before?.type !== 'api_key' || before.key.reveal() !== 'sk-conf-drop') fail('the credential did not resolve before removal');
      same(await h.removeProfile('openai:drop'), true, 'removal of a stored profile');
      same(await h.removeProfile('openai:drop'), false, 'second removal');
      await h.settle();
      const state = await h.peer.loadProviderAuthState('openai');
      same(state.profiles.filter((p) => p.source === 'store').map((p) => p.id), ['openai:keep'], 'profiles after removal');
      same(state.usageStats['openai:drop'], undefined, 'stats after removal');
      same(state.storedOrder, ['openai:keep'], 'order after removal');
      same(await h.peer.resolveCredential('openai:drop'), undefined, 'credential after removal');
    },
  },
  {
    name: 'a removed profile clears every session pin naming it, user and automatic, with a new revision',
    async run(h: StoreHarness): Promise<void> {
      await h.addApiKeyProfile('openai:pinned', 'sk-conf-pinned');
      await h.addApiKeyProfile('openai:other', 'sk-conf-other');
      const user = await h.store.writeSession('pin-user', null, { authProfileOverride: 'openai:pinned', authProfileOverrideSource: 'user' }, T0);
      const auto = await h.store.writeSession('pin-auto', null, { authProfileOverride: 'openai:pinned', authProfileOverrideSource: 'auto', authProfileOverrideCompactionCount: 2 }, T0);
      const other = await h.store.writeSession('pin-other', null, { authProfileOverride: 'openai:other', authProfileOverrideSource: 'user' }, T0);
      if (!user.ok || !auto.ok || !other.ok) fail('the session writes before removal did not succeed');
      await h.settle();
      same((await h.peer.getSession('pin-user'))?.authProfileOverride, 'openai:pinned', 'the pin before removal, seen by the peer');
      same(await h.removeProfile('openai:pinned'), true, 'removal of the pinned profile');
      await h.settle();
      for (const key of ['pin-user', 'pin-auto']) {
        const entry = await h.peer.getSession(key);
        same(entry?.authProfileOverride, undefined, `${key}: pin after removal`);
        same(entry?.authProfileOverrideSource, undefined, `${key}: pin source after removal`);
        same(entry?.authProfileOverrideCompactionCount, undefined, `${key}: pin compaction count after removal`);
        same(entry?.revision, 2, `${key}: revision after removal`);
      }
      same((await h.peer.getSession('pin-other'))?.authProfileOverride, 'openai:other', 'a pin naming another profile stays');
    },
  },
  {
    name: 'the OAuth refresh lock has one holder at a time until released or its lease ends',
    async run(h: StoreHarness): Promise<void> {
      const lease = 35_000;
      const takes = await Promise.all(Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? h.store : h.peer).tryAcquireRefreshLock('openai:sub', `holder-${String(index)}`, T0, lease)));
      same(takes.filter(Boolean).length, 1, 'holders at once');
      const winner = `holder-${String(takes.indexOf(true))}`;
      same(await h.peer.tryAcquireRefreshLock('openai:sub', winner, T0 + 1000, lease), true, 'the holder renews its lease');
      same(await h.store.tryAcquireRefreshLock('openai:other', 'someone', T0, lease), true, 'another profile has its own lock');
      await h.store.releaseRefreshLock('openai:sub', 'not-the-holder');
      same(await h.store.tryAcquireRefreshLock('openai:sub', 'late', T0 + 1000 + lease - 1, lease), false, 'a release by another does nothing');
      same(await h.store.tryAcquireRefreshLock('openai:sub', 'late', T0 + 1000 + lease, lease), true, 'an ended lease is free');
      await h.peer.releaseRefreshLock('openai:sub', 'late');
      same(await h.peer.tryAcquireRefreshLock('openai:sub', winner, T0 + 1000 + lease + 1, lease), true, 'a released lock is free');
    },
  },
  {
    name: 'unknown things read as absent, never as something else',
    async run(h: StoreHarness): Promise<void> {
      same(await h.store.resolveCredential('openai:nobody'), undefined, 'unknown credential');
      same(await h.store.getSession('nobody'), undefined, 'unknown session');
      const state = await h.store.loadProviderAuthState('nobody');
      same([state.profiles.length, state.storedOrder, state.usageStats], [0, undefined, {}], 'unknown provider');
    },
  },
  {
    name: 'secrets come back only through resolveCredential, wrapped',
    async run(h: StoreHarness): Promise<void> {
      await h.addApiKeyProfile('openai:secret', 'sk-conf-secret-value');
      const state = await h.store.loadProviderAuthState('openai');
      if (JSON.stringify(state).includes('sk-conf-secret-value')) fail('the provider state carries the secret');
      await h.settle();
      const credential = await h.peer.resolveCredential('openai:secret');
      if (credential?.type !== 'api_key' || !Secret.isInstance(credential.key)) fail('the credential is not a wrapped api key');
      same(credential.key.reveal(), 'sk-conf-secret-value', 'revealed key');
      if (JSON.stringify(credential).includes('sk-conf-secret-value')) fail('the credential serialises its secret');
    },
  },
]);
