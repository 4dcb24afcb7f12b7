/**
 * One failure mark as the gateway records it: `recordFailure` (the pure transition of
 * `@understudy/cooldown-scheduler`) applied through `updateUsageStats` of `@understudy/auth-profile-store`, one
 * atomic read-modify-write transaction on the agent's SQLite file. Shared by the store suite (one process) and
 * `store-worker.ts` (several processes on one file).
 */
import { openAuthProfileStore } from '@understudy/auth-profile-store';
import type { AuthProfileStore } from '@understudy/auth-profile-store';
import { recordFailure } from '@understudy/cooldown-scheduler';
import { performance } from 'node:perf_hooks';

/** The profile every mark goes to (several writers on one row is the worst case for contention). */
export const MARKED_PROFILE_ID = 'bench:marks';

/** Opens agent `main`'s store under `stateDir`, waiting up to 30 s for another writer's lock. */
export function openMarkStore(stateDir: string): Promise<AuthProfileStore> {
  return openAuthProfileStore({ stateDir, agentId: 'main', busyTimeoutMs: 30_000 });
}

/** Records one rate-limit failure on {@link MARKED_PROFILE_ID}. */
export async function markFailure(store: AuthProfileStore, nowMs: number): Promise<void> {
  await store.updateUsageStats(MARKED_PROFILE_ID, (stats) =>
    recordFailure(stats, { reason: 'rate_limit', nowMs, model: 'bench-model', profileId: MARKED_PROFILE_ID }),
  );
}

/** Marks failures for `durationMs` (at least one); returns how many and how long it really took. */
export async function markFor(store: AuthProfileStore, durationMs: number): Promise<{ readonly marks: number; readonly elapsedMs: number }> {
  const start = performance.now();
  let marks = 0;
  for (;;) {
    await markFailure(store, Date.now());
    marks += 1;
    const elapsedMs = performance.now() - start;
    if (elapsedMs >= durationMs) return { marks, elapsedMs };
  }
}
