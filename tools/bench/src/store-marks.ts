/**
 * One failure mark as the gateway records it: `recordFailure` (the pure transition of
 * `@understudy/cooldown-scheduler`) applied through `updateUsageStats` of `@understudy/auth-profile-store`, one
 * atomic read-modify-write transaction on the agent's SQLite file, or one row-locked transaction in the shared
 * PostgreSQL state. Shared by the store suites (one process) and `store-worker.ts` (several processes).
 */
import { connectPostgresState, openAuthProfileStore } from '@understudy/auth-profile-store';
import type { AuthProfileStore } from '@understudy/auth-profile-store';
import { recordFailure } from '@understudy/cooldown-scheduler';
import { performance } from 'node:perf_hooks';

/** The profile every mark goes to (several writers on one row is the worst case for contention). */
export const MARKED_PROFILE_ID = 'bench:marks';

/** Where marks go: agent `main`'s SQLite file under `stateDir`, or the PostgreSQL schema when `postgres` is given. */
export interface MarkTarget {
  readonly stateDir: string;
  readonly postgres?: { readonly url: string; readonly schema: string } | undefined;
}

/** An open mark store and what closes it (the store, then its PostgreSQL connections). */
export interface OpenMarkStore {
  readonly store: AuthProfileStore;
  close(): Promise<void>;
}

/** Opens agent `main`'s store of `target`, waiting up to 30 s for another writer's lock (SQLite). */
export async function openMarkStore(target: MarkTarget): Promise<OpenMarkStore> {
  const state = target.postgres === undefined ? undefined : await connectPostgresState({ url: target.postgres.url, schema: target.postgres.schema, poolSize: 2 });
  const store = await openAuthProfileStore({ stateDir: target.stateDir, agentId: 'main', busyTimeoutMs: 30_000, postgres: state, legacyFiles: 'ignore' });
  return {
    store,
    close: async () => {
      await store.close();
      await state?.close();
    },
  };
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
