/**
 * An in-memory {@link AuthStorePort} for tests: the same contract as the SQLite store — provider
 * state read together, atomic usage-stats transitions, a probe throttle, compare-and-set sessions — plus a few
 * setup and inspection helpers and call counters.
 */
import type {
  AuthProfileView,
  AuthStorePort,
  Credential,
  ProfileId,
  ProfileUsageStats,
  ProviderAuthState,
  SessionEntry,
  SessionFields,
  SessionPatch,
  SessionWriteResult,
  UsageStatsTransition,
} from '@understudy/contracts';
import { credentialFacts, normalizeProfileId, normalizeProviderId, providerOfProfileId } from '@understudy/contracts';

/** How often each port method was called (tests of "no needless store reads"). */
export interface MemoryStoreCalls {
  loadProviderAuthState: number;
  resolveCredential: number;
  updateUsageStats: number;
  tryAcquireProbe: number;
  tryAcquireRefreshLock: number;
  getSession: number;
  writeSession: number;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The in-memory store. Every method resolves on the next microtask, like a real asynchronous store. */
export class MemoryAuthStore implements AuthStorePort {
  readonly #profiles = new Map<ProfileId, { readonly view: AuthProfileView; readonly credential: Credential }>();
  readonly #stats = new Map<ProfileId, ProfileUsageStats>();
  readonly #orders = new Map<string, readonly ProfileId[]>();
  readonly #probes = new Map<string, number>();
  readonly #refreshLocks = new Map<ProfileId, { readonly holder: string; readonly expiresAt: number }>();
  readonly #sessions = new Map<string, SessionEntry>();
  readonly calls: MemoryStoreCalls = {
    loadProviderAuthState: 0,
    resolveCredential: 0,
    updateUsageStats: 0,
    tryAcquireProbe: 0,
    tryAcquireRefreshLock: 0,
    getSession: 0,
    writeSession: 0,
  };
  /** Runs before each compare-and-set session write (simulate a concurrent `/model` here). */
  beforeSessionWrite: ((key: string) => void) | undefined;

  /** Adds (or replaces) a profile. The id's provider must be the credential's. */
  addProfile(id: string, credential: Credential, options: { readonly email?: string; readonly source?: 'store' | 'inline' } = {}): this {
    const profileId = normalizeProfileId(id);
    const provider = normalizeProviderId(credential.provider);
    if (providerOfProfileId(profileId) !== provider) throw new Error(`profile id ${profileId} does not belong to provider ${provider}`);
    const view: AuthProfileView = {
      id: profileId,
      provider,
      facts: credentialFacts(credential),
      source: options.source ?? 'store',
      ...(options.email === undefined ? {} : { email: options.email }),
    };
    this.#profiles.set(profileId, { view, credential: { ...credential, provider } as Credential });
    return this;
  }

  /** Removes a profile with its usage stats and drops it from stored orders (as the real stores do). */
  removeProfile(id: string): boolean {
    const profileId = normalizeProfileId(id);
    const removed = this.#profiles.delete(profileId);
    this.#stats.delete(profileId);
    for (const [provider, order] of this.#orders) {
      const remaining = order.filter((entry) => entry !== profileId);
      if (remaining.length === 0) this.#orders.delete(provider);
      else this.#orders.set(provider, remaining);
    }
    // Session pins naming it go too, user and automatic, with a new revision: the same as the real stores.
    for (const [key, entry] of this.#sessions) {
      if (entry.authProfileOverride === profileId) {
        this.#sessions.set(key, applyPatch(entry, key, { authProfileOverride: null, authProfileOverrideSource: null, authProfileOverrideCompactionCount: null }, entry.updatedAt));
      }
    }
    return removed;
  }

  /** Replaces a profile's usage stats. */
  setUsageStats(id: string, stats: ProfileUsageStats): this {
    this.#stats.set(normalizeProfileId(id), { ...stats });
    return this;
  }

  /** A profile's usage stats (`{}` when none). */
  usageStats(id: string): ProfileUsageStats {
    return this.#stats.get(normalizeProfileId(id)) ?? {};
  }

  /** Every stored usage-stats value by profile id. */
  allUsageStats(): Record<ProfileId, ProfileUsageStats> {
    return Object.fromEntries(this.#stats);
  }

  /** Sets a stored order override for a provider. */
  setOrder(provider: string, ids: readonly string[]): this {
    this.#orders.set(normalizeProviderId(provider), ids.map(normalizeProfileId));
    return this;
  }

  /** Writes session fields directly (no compare-and-set), bumping the revision. `null` clears a field. */
  setSession(key: string, patch: SessionPatch, nowMs = 0): SessionEntry {
    const entry = applyPatch(this.#sessions.get(key), key, patch, nowMs);
    this.#sessions.set(key, entry);
    return entry;
  }

  /** The stored session entry. */
  session(key: string): SessionEntry | undefined {
    return this.#sessions.get(key);
  }

  async loadProviderAuthState(provider: string): Promise<ProviderAuthState> {
    await Promise.resolve();
    this.calls.loadProviderAuthState += 1;
    const normalized = normalizeProviderId(provider);
    const profiles = [...this.#profiles.values()].filter((entry) => entry.view.provider === normalized).map((entry) => entry.view);
    const usageStats: Record<ProfileId, ProfileUsageStats> = {};
    for (const [id, stats] of this.#stats) if (providerOfProfileId(id) === normalized) usageStats[id] = stats;
    const storedOrder = this.#orders.get(normalized);
    return { provider: normalized, profiles, ...(storedOrder === undefined ? {} : { storedOrder }), usageStats };
  }

  async resolveCredential(profileId: ProfileId): Promise<Credential | undefined> {
    await Promise.resolve();
    this.calls.resolveCredential += 1;
    return this.#profiles.get(normalizeProfileId(profileId))?.credential;
  }

  async updateUsageStats(profileId: ProfileId, transition: UsageStatsTransition): Promise<ProfileUsageStats> {
    await Promise.resolve();
    this.calls.updateUsageStats += 1;
    const id = normalizeProfileId(profileId);
    const next = transition(this.#stats.get(id) ?? {});
    this.#stats.set(id, next);
    return next;
  }

  async tryAcquireProbe(key: string, nowMs: number, throttleMs: number): Promise<boolean> {
    await Promise.resolve();
    this.calls.tryAcquireProbe += 1;
    const last = this.#probes.get(key);
    if (last !== undefined && nowMs - last < throttleMs) return false;
    this.#probes.set(key, nowMs);
    return true;
  }

  async releaseProbe(key: string, takenAtMs: number): Promise<void> {
    await Promise.resolve();
    if (this.#probes.get(key) === takenAtMs) this.#probes.delete(key);
  }

  async tryAcquireRefreshLock(profileId: ProfileId, holder: string, nowMs: number, leaseMs: number): Promise<boolean> {
    await Promise.resolve();
    this.calls.tryAcquireRefreshLock += 1;
    const id = normalizeProfileId(profileId);
    const current = this.#refreshLocks.get(id);
    if (current !== undefined && current.holder !== holder && current.expiresAt > nowMs) return false;
    this.#refreshLocks.set(id, { holder, expiresAt: nowMs + leaseMs });
    return true;
  }

  async releaseRefreshLock(profileId: ProfileId, holder: string): Promise<void> {
    await Promise.resolve();
    const id = normalizeProfileId(profileId);
    if (this.#refreshLocks.get(id)?.holder === holder) this.#refreshLocks.delete(id);
  }

  async getSession(key: string): Promise<SessionEntry | undefined> {
    await Promise.resolve();
    this.calls.getSession += 1;
    return this.#sessions.get(key);
  }

  async writeSession(key: string, expectedRevision: number | null, patch: SessionPatch, nowMs: number): Promise<SessionWriteResult> {
    await Promise.resolve();
    this.calls.writeSession += 1;
    this.beforeSessionWrite?.(key);
    const current = this.#sessions.get(key);
    if ((current?.revision ?? null) !== expectedRevision) return { ok: false, current };
    const entry = applyPatch(current, key, patch, nowMs);
    this.#sessions.set(key, entry);
    return { ok: true, entry };
  }
}

function applyPatch(current: SessionEntry | undefined, key: string, patch: SessionPatch, nowMs: number): SessionEntry {
  const fields: Mutable<SessionFields> & Record<string, unknown> = {};
  if (current !== undefined) {
    for (const [name, value] of Object.entries(current)) {
      if (!['key', 'revision', 'createdAt', 'updatedAt'].includes(name)) fields[name] = value;
    }
  }
  for (const [name, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete fields[name];
    else fields[name] = value;
  }
  return {
    ...(fields as SessionFields),
    key,
    revision: (current?.revision ?? 0) + 1,
    createdAt: current?.createdAt ?? nowMs,
    updatedAt: nowMs,
  };
}
