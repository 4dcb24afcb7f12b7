/**
 * Ports: what the fallback runner needs from the outside world. The runner (the consumer) owns these shapes;
 * `@understudy/auth-profile-store`, `@understudy/providers` and the apps implement them (docs/architecture.md).
 */
import type { Candidate } from './candidate.js';
import type { AuthProfileView, Credential, ResolvedProfile } from './credential.js';
import type { ProfileId } from './profile-id.js';
import type { ProviderFailure } from './provider-failure.js';
import type { SessionEntry, SessionPatch } from './session.js';
import type { ProfileUsageStats, UsageStatsMap } from './usage-stats.js';

/**
 * The part of an `AbortSignal` that the ports use. Pure packages compile without DOM or Node types, so they
 * name this structural subset; a real `AbortSignal` satisfies it.
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { readonly once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** Time, injected. `sleep` rejects with the signal's reason when the signal aborts. */
export interface Clock {
  /** Current time, epoch ms. */
  nowMs(): number;
  /** Resolves after `ms` milliseconds; rejects early when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignalLike): Promise<void>;
}

/** Randomness, injected: returns a float in `[0, 1)` (used for backoff jitter). */
export type RandomSource = () => number;

/** Structured log sink (pino-compatible argument order: fields first, then message). */
export interface Logger {
  debug(fields: Readonly<Record<string, unknown>>, message?: string): void;
  info(fields: Readonly<Record<string, unknown>>, message?: string): void;
  warn(fields: Readonly<Record<string, unknown>>, message?: string): void;
  error(fields: Readonly<Record<string, unknown>>, message?: string): void;
}

/** A logger that drops everything. */
const ignore = (): void => undefined;
export const silentLogger: Logger = Object.freeze({ debug: ignore, info: ignore, warn: ignore, error: ignore });

/**
 * Everything rotation needs to order one provider's auth profiles (the model-failover doc "Rotation order"):
 * the provider's profiles (stored and inline), the stored order override, and their usage stats.
 */
export interface ProviderAuthState {
  readonly provider: string;
  readonly profiles: readonly AuthProfileView[];
  /** The per-agent order set with `models auth order set`, when there is one. */
  readonly storedOrder?: readonly ProfileId[] | undefined;
  readonly usageStats: UsageStatsMap;
}

/** A pure function from a profile's current usage stats to its next ones, applied atomically by the store. */
export type UsageStatsTransition = (current: ProfileUsageStats) => ProfileUsageStats;

/** Result of a compare-and-set session write. */
export type SessionWriteResult =
  | { readonly ok: true; readonly entry: SessionEntry }
  | { readonly ok: false; readonly current: SessionEntry | undefined };

/**
 * The storage port of one agent. Every write is atomic across processes; routing-state writes never touch
 * credentials.
 */
export interface AuthStorePort {
  /** The provider's profiles, stored order and usage stats, read together. */
  loadProviderAuthState(provider: string): Promise<ProviderAuthState>;
  /** The credential to send for a profile; `undefined` when the profile no longer exists. */
  resolveCredential(profileId: ProfileId): Promise<Credential | undefined>;
  /**
   * Atomic read-modify-write of one profile's usage stats (one `BEGIN IMMEDIATE` transaction in SQLite).
   * @returns the stats after the transition.
   */
  updateUsageStats(profileId: ProfileId, transition: UsageStatsTransition): Promise<ProfileUsageStats>;
  /**
   * Takes the probe slot named `key` (e.g. a provider id) if it was last taken at least `throttleMs` ago,
   * atomically, so the throttle holds across processes.
   * @returns `true` when the caller may probe now.
   */
  tryAcquireProbe(key: string, nowMs: number, throttleMs: number): Promise<boolean>;
  /**
   * Frees the slot named `key` if it is still the one taken at `takenAtMs` (epoch ms, the `nowMs` of the
   * `tryAcquireProbe` that took it), so a holder that is done early does not block the next caller for the rest
   * of the window; a slot taken again since, by anyone, is left alone. Does nothing when there is no such slot.
   */
  releaseProbe(key: string, takenAtMs: number): Promise<void>;
  /**
   * Takes the OAuth refresh lock of a profile for `leaseMs` (from `nowMs`, epoch ms), atomically across
   * processes and replicas, when no other holder has an unexpired lease on it. The holder then re-reads the
   * credential, refreshes it only when it is still stale, writes it back and releases the lock, so each
   * expiry costs one token request (docs/architecture.md). A lease that ran out (a crashed holder) is free.
   * @param holder an id unique to the caller (process and refresher), e.g. `pid-uuid`.
   * @returns `true` when the caller holds the lock now (also when it already held it: the lease is renewed).
   */
  tryAcquireRefreshLock(profileId: ProfileId, holder: string, nowMs: number, leaseMs: number): Promise<boolean>;
  /** Releases the refresh lock of a profile if `holder` holds it; does nothing otherwise. */
  releaseRefreshLock(profileId: ProfileId, holder: string): Promise<void>;
  /** The session entry, or `undefined` when none is stored. */
  getSession(key: string): Promise<SessionEntry | undefined>;
  /**
   * Compare-and-set write of session fields: applies `patch` only when the stored revision equals
   * `expectedRevision` (`null`: only when no entry exists yet), so a retry never overwrites a newer `/model`.
   */
  writeSession(
    key: string,
    expectedRevision: number | null,
    patch: SessionPatch,
    nowMs: number,
  ): Promise<SessionWriteResult>;
}

/** The outcome of one provider call. */
export type AttemptResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly failure: ProviderFailure };

/**
 * A known repair of a request that a provider refused for its format (docs/policy.md#what-each-reason-does):
 * `tool_call_ids` rewrites the conversation's tool call ids to what strict providers accept.
 */
export type FormatRepair = 'tool_call_ids';

/** Per-call extras of an {@link AttemptFunction}: `repair` asks for a repaired request (a format retry). */
export interface AttemptCallOptions {
  readonly repair?: FormatRepair | undefined;
}

/**
 * One provider call: the runner passes the candidate, the resolved profile (`null` for a keyless provider)
 * and an AbortSignal that fires on caller abort or turn deadline, and for a format retry the repair to apply.
 * It resolves with {@link AttemptResult}; a thrown error is treated as a failure and classified from its
 * message and code.
 */
export type AttemptFunction<T> = (
  candidate: Candidate,
  profile: ResolvedProfile | null,
  signal: AbortSignalLike,
  options?: AttemptCallOptions,
) => Promise<AttemptResult<T>>;
