/**
 * The state of one run: its ports, the attempt records, the per-run memories (TLS-failed providers, used
 * transient probes, the usage stats seen), and the two ways a run is cut short — the caller's abort and the turn
 * deadline.
 */
import type {
  AbortSignalLike,
  AttemptFunction,
  AuthStorePort,
  Candidate,
  Clock,
  Logger,
  ProfileId,
  ProfileUsageStats,
  RandomSource,
} from '@understudy/contracts';
import { DEFAULT_SDK_RETRY_MAX_WAIT_MS, formatModelRef, silentLogger } from '@understudy/contracts';
import { providerSettings } from '@understudy/config';
import type { CooldownPolicy } from '@understudy/cooldown-scheduler';
import type { AttemptRecord } from './attempt-record.js';
import { FailoverError, FallbackOptionsError } from './errors.js';
import type { FallbackDecisionEvent } from './events.js';
import { FALLBACK_DECISION_MESSAGE, compactEvent } from './events.js';
import { REASON_TEXT } from './failure-text.js';
import type { FallbackConfig, RunWithModelFallbackOptions } from './options.js';
import type { SessionState } from './session-state.js';
import type { AuthFailureSkipCache } from './skip-cache.js';

/** Same-profile retry knobs (`retry.provider.*`, docs/policy.md#retries-probes-and-rotation). */
export interface RetrySettings {
  readonly maxRetries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly windowMs: number;
  /** The SDK cap, ms: the longest Retry-After waited out on the same profile (`retry.ts` applies it); `null`: no cap. */
  readonly maxRetryAfterMs: number | null;
  /**
   * `retry.provider.maxRetryAfterWaitMs`: a shorter Retry-After of a rate limit is waited out when no other profile
   * can take the request (and only within the SDK cap).
   */
  readonly maxRetryAfterWaitMs: number;
}

/**
 * The signal handed to attempts when the caller gave none: a real `AbortSignal` that never aborts (so provider
 * clients may combine it with `AbortSignal.any`).
 */
function neverAborted(): AbortSignalLike {
  return new AbortController().signal;
}

/** The mutable state of one run. */
export class RunContext<T> {
  readonly store: AuthStorePort;
  readonly attempt: AttemptFunction<T>;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly logger: Logger;
  readonly policy: CooldownPolicy;
  readonly config: FallbackConfig;
  readonly retry: RetrySettings;
  /** See `RunWithModelFallbackOptions.lastUsedRefreshMs`. */
  readonly lastUsedRefreshMs: number;
  /** Whether a provider opted in to format retries. */
  readonly allowFormatRetry: (provider: string) => boolean;
  readonly signal: AbortSignalLike;
  readonly session: SessionState;
  readonly skipCache: AuthFailureSkipCache | undefined;
  readonly explicitProfile: ProfileId | undefined;
  readonly deadlineAtMs: number | undefined;
  readonly canServe: ((candidate: Candidate) => string | undefined) | undefined;
  readonly records: AttemptRecord[] = [];
  /** Providers that failed TLS in this run: their later candidates are skipped. */
  readonly tlsFailedProviders = new Set<string>();
  /** Providers whose one transient probe of the run is used up. */
  readonly transientProbeUsed = new Set<string>();
  /** The latest usage stats seen per provider and profile (for the model-aware soonest expiry). */
  readonly statsByProvider = new Map<string, Map<ProfileId, ProfileUsageStats>>();
  /** The eligible profiles of each provider as last ordered (the soonest expiry counts only these). */
  readonly eligibleByProvider = new Map<string, ReadonlySet<ProfileId>>();
  /** Explicit profile of a candidate reached through a live switch (`modelRefKey` of the candidate → profile). */
  readonly switchProfiles = new Map<string, ProfileId>();
  chain: readonly Candidate[] = [];
  /** The agent of the run (`request.agentId`). */
  readonly agentId: string;
  /**
   * Set after a context overflow: the largest window that overflowed (tokens; 0 when unknown) and the models
   * that overflowed (by `modelRefKey`); later candidates must have a larger known window (docs/policy.md#what-each-reason-does).
   */
  contextOverflow: { readonly floorTokens: number; readonly models: ReadonlySet<string> } | undefined;
  /** Chain indices treated as primary (the requested model, and a legacy override's origin while it is probed). */
  primaryIndices: ReadonlySet<number> = new Set([0]);
  readonly #onDecision: ((event: FallbackDecisionEvent) => void) | undefined;

  constructor(options: RunWithModelFallbackOptions<T>, session: SessionState) {
    this.store = options.store;
    this.attempt = options.attempt;
    this.allowFormatRetry = options.allowFormatRetry ?? ((provider) => providerSettings(options.config, provider)?.allowFormatRetry === true);
    this.canServe = options.canServe;
    this.clock = options.clock;
    this.random = options.random;
    this.logger = options.logger ?? silentLogger;
    this.config = options.config;
    this.policy = options.config.auth.cooldowns;
    const provider = options.config.retry.provider;
    const cap = options.maxRetryAfterMs === undefined ? DEFAULT_SDK_RETRY_MAX_WAIT_MS : options.maxRetryAfterMs;
    if (cap !== null && !(cap >= 0)) throw new FallbackOptionsError('maxRetryAfterMs', 'must be a number of ms ≥ 0, or null for no cap');
    this.retry = {
      maxRetries: provider.maxRetries,
      baseDelayMs: provider.baseDelayMs,
      maxDelayMs: provider.maxDelayMs,
      windowMs: provider.windowMs,
      maxRetryAfterMs: cap,
      maxRetryAfterWaitMs: provider.maxRetryAfterWaitMs,
    };
    const refreshMs = options.lastUsedRefreshMs ?? 0;
    if (!(refreshMs >= 0 && Number.isFinite(refreshMs))) {
      throw new FallbackOptionsError('lastUsedRefreshMs', 'must be a finite number of ms ≥ 0');
    }
    this.lastUsedRefreshMs = refreshMs;
    this.signal = options.signal ?? neverAborted();
    this.session = session;
    this.skipCache = options.skipCache?.enabled === true ? options.skipCache : undefined;
    this.explicitProfile = options.request.authProfile;
    this.agentId = options.request.agentId;
    const timeout = options.turnTimeoutMs;
    if (timeout !== undefined && !(timeout > 0 && Number.isFinite(timeout))) {
      throw new FallbackOptionsError('turnTimeoutMs', 'must be a positive number of ms (omit it for no deadline)');
    }
    const deadlineAtMs = options.turnDeadlineAtMs;
    if (deadlineAtMs !== undefined && (timeout !== undefined || !Number.isFinite(deadlineAtMs))) {
      throw new FallbackOptionsError('turnDeadlineAtMs', 'must be a finite epoch ms, and not given with turnTimeoutMs');
    }
    this.deadlineAtMs = deadlineAtMs ?? (timeout === undefined ? undefined : this.clock.nowMs() + timeout);
    this.#onDecision = options.onDecision;
  }

  nowMs(): number {
    return this.clock.nowMs();
  }

  isPrimary(index: number): boolean {
    return this.primaryIndices.has(index);
  }

  /** Ms left before the turn deadline (`Infinity` without one). */
  remainingMs(): number {
    return this.deadlineAtMs === undefined ? Number.POSITIVE_INFINITY : this.deadlineAtMs - this.nowMs();
  }

  /** Throws the abort or deadline error when the run must stop before its next step. */
  checkContinue(candidate: Candidate): void {
    if (this.signal.aborted) throw this.abortError(candidate, null);
    if (this.remainingMs() <= 0) throw this.deadlineError(candidate);
  }

  /** Backoff sleep that stops at once when the caller aborts. */
  async sleep(ms: number, candidate: Candidate, profile: ProfileId | null): Promise<void> {
    if (ms <= 0) return;
    try {
      await this.clock.sleep(ms, this.signal);
    } catch (error) {
      if (this.signal.aborted) throw this.abortError(candidate, profile, error);
      throw error;
    }
  }

  abortError(candidate: Candidate, profile: ProfileId | null, cause?: unknown): FailoverError {
    return new FailoverError(`${formatModelRef(candidate)}: ${REASON_TEXT.abort}`, {
      kind: 'terminal',
      reason: 'abort',
      provider: candidate.provider,
      model: candidate.model,
      profile,
      status: null,
      attempts: this.records,
      cause: cause ?? this.signal.reason,
    });
  }

  /** The turn deadline passed: names the last attempt (or the candidate about to be tried when there was none). */
  deadlineError(candidate: Candidate): FailoverError {
    const last = this.records[this.records.length - 1];
    const count = this.records.length;
    const lastText = last === undefined ? '' : ` (last: ${formatModelRef(last)}: ${last.summary ?? (last.ok ? 'answered' : 'failed')})`;
    return new FailoverError(`The turn deadline passed after ${count} attempt${count === 1 ? '' : 's'}${lastText}`, {
      kind: 'deadline',
      reason: 'timeout',
      provider: last?.provider ?? candidate.provider,
      model: last?.model ?? candidate.model,
      profile: last?.profile ?? null,
      status: null,
      attempts: this.records,
    });
  }

  record(entry: AttemptRecord): AttemptRecord {
    this.records.push(entry);
    return entry;
  }

  /** The usage stats of a profile as last read or written in this run. */
  knownStats(provider: string, profileId: ProfileId): ProfileUsageStats | undefined {
    return this.statsByProvider.get(provider)?.get(profileId);
  }

  /** Remembers the usage stats of profiles as read or written. */
  rememberStats(provider: string, stats: Readonly<Record<ProfileId, ProfileUsageStats>>): void {
    let known = this.statsByProvider.get(provider);
    if (known === undefined) {
      known = new Map();
      this.statsByProvider.set(provider, known);
    }
    for (const [id, value] of Object.entries(stats)) known.set(id, value);
  }

  /** Emits a decision event to `onDecision` and the logger. */
  emit(event: FallbackDecisionEvent): void {
    const compact = compactEvent(event);
    // A first-try success is no fallback decision worth an info line on every request (the model-failover doc "Observability":
    // the flat fields matter when a candidate fails, is skipped, or a later fallback succeeds).
    const routine = event.decision === 'candidate_succeeded' && event.fallbackStepFromModel === undefined;
    if (routine) this.logger.debug({ ...compact }, FALLBACK_DECISION_MESSAGE);
    else this.logger.info({ ...compact }, FALLBACK_DECISION_MESSAGE);
    if (this.#onDecision === undefined) return;
    try {
      this.#onDecision(compact);
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'onDecision listener threw');
    }
  }

  /** The chain neighbours of a candidate, as `provider/model` texts. */
  nextModel(index: number): string | undefined {
    const next = this.chain[index + 1];
    return next === undefined ? undefined : formatModelRef(next);
  }
}
