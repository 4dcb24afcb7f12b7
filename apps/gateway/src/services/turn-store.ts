/**
 * The store a turn runs on. With the shared PostgreSQL state unreachable, the store itself answers reads from
 * the last known state and keeps marks to write back (README "Running several replicas"); what it cannot do
 * is a session write, which must reach every replica. A turn's own session writes (automatic auth pin,
 * fallback notice) are bookkeeping, so here they are given up (logged) instead of failing the chat request;
 * user commands that must write (`/model`, admin session changes) go to the store directly and answer 503.
 * Every usage-stats write of a turn is shown to the {@link CooldownWatch} (the cooldown and recovery metrics).
 */
import type { AuthProfileStore } from '@understudy/auth-profile-store';
import { AuthStoreError } from '@understudy/auth-profile-store';
import type { AuthStorePort, Logger, ProfileId, ProfileUsageStats, SessionPatch, SessionWriteResult, UsageStatsTransition } from '@understudy/contracts';
import type { CooldownWatch } from './cooldown-watch.js';

const views = new WeakMap<AuthProfileStore, AuthStorePort>();

/** A usage-stats write that shows the watch what it changed (the last run of the transition is the one stored). */
async function watchedUpdate(store: AuthProfileStore, watch: CooldownWatch, profileId: ProfileId, transition: UsageStatsTransition): Promise<ProfileUsageStats> {
  let before: ProfileUsageStats = {};
  const after = await store.updateUsageStats(profileId, (current) => {
    before = current;
    return transition(current);
  });
  watch.observe(store.agentId, profileId, before, after);
  return after;
}

/** A session write of a turn on PostgreSQL: an unreachable server is a conflict with the last known entry. */
async function forgivingSessionWrite(store: AuthProfileStore, logger: Logger, key: string, expectedRevision: number | null, patch: SessionPatch, nowMs: number): Promise<SessionWriteResult> {
  try {
    return await store.writeSession(key, expectedRevision, patch, nowMs);
  } catch (error) {
    if (!(AuthStoreError.isInstance(error) && error.code === 'state_unreachable')) throw error;
    logger.warn({ agent: store.agentId, fields: Object.keys(patch) }, 'shared state unreachable: this turn’s session update is not saved');
    // Reported as a conflict with the entry as last known: the runner keeps that entry and goes on.
    return { ok: false, current: await store.getSession(key) };
  }
}

/**
 * The store as a turn uses it: usage-stats writes watched; on PostgreSQL, session writes that never fail a turn.
 * One view per store (the gateway has one watch).
 */
export function turnStore(store: AuthProfileStore, logger: Logger, watch: CooldownWatch): AuthStorePort {
  let view = views.get(store);
  if (view === undefined) {
    const postgres = store.backend === 'postgres';
    view = {
      loadProviderAuthState: (provider) => store.loadProviderAuthState(provider),
      resolveCredential: (profileId) => store.resolveCredential(profileId),
      updateUsageStats: (profileId, transition) => watchedUpdate(store, watch, profileId, transition),
      tryAcquireProbe: (key, nowMs, throttleMs) => store.tryAcquireProbe(key, nowMs, throttleMs),
      releaseProbe: (key, takenAtMs) => store.releaseProbe(key, takenAtMs),
      tryAcquireRefreshLock: (profileId, holder, nowMs, leaseMs) => store.tryAcquireRefreshLock(profileId, holder, nowMs, leaseMs),
      releaseRefreshLock: (profileId, holder) => store.releaseRefreshLock(profileId, holder),
      getSession: (key) => store.getSession(key),
      writeSession: (key, expectedRevision, patch, nowMs) =>
        postgres ? forgivingSessionWrite(store, logger, key, expectedRevision, patch, nowMs) : store.writeSession(key, expectedRevision, patch, nowMs),
    };
    views.set(store, view);
  }
  return view;
}
