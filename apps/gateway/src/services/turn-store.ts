/**
 * The store a turn runs on. With the shared PostgreSQL state unreachable, the store itself answers reads from
 * the last known state and keeps marks to write back (README "Running several replicas"); what it cannot do
 * is a session write, which must reach every replica. A turn's own session writes (automatic auth pin,
 * fallback notice) are bookkeeping, so here they are given up (logged) instead of failing the chat request;
 * user commands that must write (`/model`, admin session changes) go to the store directly and answer 503.
 */
import type { AuthProfileStore } from '@understudy/auth-profile-store';
import { AuthStoreError } from '@understudy/auth-profile-store';
import type { AuthStorePort, Logger, SessionPatch, SessionWriteResult } from '@understudy/contracts';

const views = new WeakMap<AuthProfileStore, AuthStorePort>();

/** The store as a turn uses it: the store itself for SQLite; for PostgreSQL, session writes that never fail a turn. */
export function turnStore(store: AuthProfileStore, logger: Logger): AuthStorePort {
  if (store.backend !== 'postgres') return store;
  let view = views.get(store);
  if (view === undefined) {
    view = {
      loadProviderAuthState: (provider) => store.loadProviderAuthState(provider),
      resolveCredential: (profileId) => store.resolveCredential(profileId),
      updateUsageStats: (profileId, transition) => store.updateUsageStats(profileId, transition),
      tryAcquireProbe: (key, nowMs, throttleMs) => store.tryAcquireProbe(key, nowMs, throttleMs),
      tryAcquireRefreshLock: (profileId, holder, nowMs, leaseMs) => store.tryAcquireRefreshLock(profileId, holder, nowMs, leaseMs),
      releaseRefreshLock: (profileId, holder) => store.releaseRefreshLock(profileId, holder),
      getSession: (key) => store.getSession(key),
      async writeSession(key: string, expectedRevision: number | null, patch: SessionPatch, nowMs: number): Promise<SessionWriteResult> {
        try {
          return await store.writeSession(key, expectedRevision, patch, nowMs);
        } catch (error) {
          if (!(AuthStoreError.isInstance(error) && error.code === 'state_unreachable')) throw error;
          logger.warn({ agent: store.agentId, fields: Object.keys(patch) }, 'shared state unreachable: this turn’s session update is not saved');
          // Reported as a conflict with the entry as last known: the runner keeps that entry and goes on.
          return { ok: false, current: await store.getSession(key) };
        }
      },
    };
    views.set(store, view);
  }
  return view;
}
