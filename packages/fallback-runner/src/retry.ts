/**
 * One auth profile of one candidate: the request, its transient same-profile retries (docs/policy.md#retries-probes-and-rotation: up to
 * `retry.provider.maxRetries`, exponential backoff with full jitter, inside the candidate's retry window, only
 * before output reached the caller; a Retry-After beyond the SDK cap is not waited out), the classification
 * of each failure, and the profile's usage-stats mark — one success, or ONE failure when the retries are spent.
 */
import type {
  AttemptResult,
  AuthStorePort,
  Candidate,
  FailoverReason,
  FailureClassification,
  FormatRepair,
  Logger,
  ModelRef,
  ProfileId,
  ProfileUsageStats,
  ProviderFailure,
  ResolvedProfile,
} from '@understudy/contracts';
import { errorCode, formatModelRef, isTimeoutCode, silentLogger } from '@understudy/contracts';
import type { CooldownPolicy } from '@understudy/cooldown-scheduler';
import {
  computedCooldownIndex,
  probeThrottleKey,
  profileProbeKey,
  recordFailure,
  recordProbe,
  recordSuccess,
  retryBackoffCeilingMs,
  retryDelayMs,
  retryInPlaceKey,
  windowRanOut,
} from '@understudy/cooldown-scheduler';
import { REASON_POLICY, classifyFailure, formatRepairOf } from '@understudy/error-classifier';
import type { AttemptRecord } from './attempt-record.js';
import { routeContextOverflow } from './context-window.js';
import { FailoverError } from './errors.js';
import { stillAvailable } from './availability-recheck.js';
import { failureSummary } from './failure-text.js';
import { isOwnException } from './own-exception.js';
import type { RunContext } from './run-context.js';

/** One profile's try of a candidate. */
export interface ProfileAttemptInput {
  readonly candidate: Candidate;
  readonly profile: ResolvedProfile | null;
  /** `probe`: a single request to a cooling-down profile (no same-profile retries). */
  readonly kind: 'call' | 'probe';
  /** When the candidate's first attempt started, epoch ms (its retry window is measured from it). */
  readonly candidateStartMs: number;
  /** What else could answer if this profile gives up. Absent: nothing else (the full retry budget applies). */
  readonly alternatives?: AttemptAlternatives | undefined;
}

/** What else could still answer the turn if the current profile gives up (docs/policy.md#retries-probes-and-rotation). */
export interface AttemptAlternatives {
  /** Another eligible profile of the provider may still be tried after a failure of `reason`. */
  readonly rotationLeft: (reason: FailoverReason) => boolean;
  /** A later candidate of the chain remains. */
  readonly laterCandidate: boolean;
}

/**
 * The failure used up one of understudy's own time limits (connect, headers, first token, stall, whole request):
 * the provider was silent for that long, so trying it again in place would cost the limit again.
 */
export function spentTimeLimit(failure: ProviderFailure): boolean {
  if (failure.abortCause === 'timeout' || failure.timeoutKind !== undefined) return true;
  return failure.code !== undefined && isTimeoutCode(failure.code);
}

/**
 * Whether a failure may be retried on the same profile (docs/policy.md#what-each-reason-does): the reason's
 * `sameProfileRetry`, narrowed for a spent time limit while something else can answer, widened for a short
 * Retry-After of a reason that `waitsShortRetryAfter` when rotation finds no other profile.
 */
function retriesInPlace<T>(ctx: RunContext<T>, input: ProfileAttemptInput, failure: ProviderFailure, classification: FailureClassification): boolean {
  const reason = classification.reason;
  const policy = REASON_POLICY[reason];
  const rotationLeft = input.alternatives?.rotationLeft(reason) ?? false;
  // The SDK cap, applied here and nowhere else (docs/policy.md#retries-probes-and-rotation): a Retry-After longer
  // than it is not waited out, whatever the reason; the failure surfaces at once and recovery moves on.
  const cap = ctx.retry.maxRetryAfterMs;
  if (classification.retryAfterMs !== null && cap !== null && classification.retryAfterMs > cap) return false;
  if (policy.waitsShortRetryAfter) {
    const waitMs = classification.retryAfterMs;
    if (waitMs !== null && waitMs <= ctx.retry.maxRetryAfterWaitMs && !rotationLeft) return true;
  }
  if (!policy.sameProfileRetry) return false;
  // A profile that failed, or whose cooldown ended, less than one probe throttle ago (it is coming back from an
  // outage) gets this one call and no second in place: a provider that is still down sees at most one call per
  // window from understudy, not a burst of retries each time a cooldown runs out
  // (docs/policy.md#retries-probes-and-rotation).
  if (returningWithinProbeThrottle(ctx, input) && !nothingElseCouldAnswer(input, reason)) return false;
  if (policy.timeLimitRetryLastResort && spentTimeLimit(failure)) return nothingElseCouldAnswer(input, reason);
  return true;
}

/**
 * No other profile of the provider could be tried after a failure of `reason`, and no later candidate remains
 * (a strict `provider/model` request on one profile, the chain's last resort). The rules that spare a failing
 * provider — one retrier per profile, a returning profile's single call — then step aside for the caller: the
 * bounded retry budget applies (docs/policy.md#retries-probes-and-rotation).
 */
function nothingElseCouldAnswer(input: ProfileAttemptInput, reason: FailoverReason): boolean {
  const alternatives = input.alternatives;
  return alternatives === undefined || (!alternatives.rotationLeft(reason) && !alternatives.laterCandidate);
}

/**
 * The profile's last failure, or the end of its last cooldown, as this run read them before the current call, is
 * under one probe throttle old.
 */
function returningWithinProbeThrottle<T>(ctx: RunContext<T>, input: ProfileAttemptInput): boolean {
  const profileId = input.profile?.view.id;
  if (profileId === undefined) return false;
  const stats = ctx.knownStats(input.candidate.provider, profileId);
  const nowMs = ctx.nowMs();
  const throttleMs = ctx.policy.probeThrottleMs;
  const failedRecently = stats?.lastFailureAt !== undefined && nowMs - stats.lastFailureAt < throttleMs;
  return failedRecently || windowRanOut(stats, { nowMs, model: input.candidate.model });
}

/**
 * Takes the profile's retry-in-place slot before a backoff retry (docs/policy.md#retries-probes-and-rotation):
 * while one request waits to retry a profile in place, a failure of the same profile in another request (of this
 * process or another replica) is not retried — that request gives up on the profile at once and marks it, so
 * concurrent requests at the start of an outage cost one call each, not one call plus every retry. It is taken
 * before the first retry and held for as long as the retries may wait (the sum of the backoff ceilings of
 * `retry.provider.maxRetries` retries, at least this first wait) and freed as soon as the try ends; the request
 * that took it keeps its later retries. A wait the provider named (a short Retry-After) is waited out by every request it was given to, and
 * takes no slot; so does a request for which nothing else could answer (no profile left to rotate to, no later
 * candidate): it keeps its retry budget rather than turn a blip into an error.
 */
async function takeRetrySlot<T>(
  ctx: RunContext<T>,
  input: ProfileAttemptInput,
  classification: FailureClassification,
  baseMs: number,
  delayMs: number,
): Promise<RetrySlot | undefined> {
  if (classification.retryAfterMs !== null) return NO_RETRY_SLOT;
  // Nothing else could answer this turn: giving up at once would only turn a blip into an error.
  if (nothingElseCouldAnswer(input, classification.reason)) return NO_RETRY_SLOT;
  let backoffMs = 0;
  for (let attempt = 1; attempt <= ctx.retry.maxRetries; attempt += 1) backoffMs += retryBackoffCeilingMs(attempt, baseMs, ctx.retry.maxDelayMs);
  const holdMs = Math.max(delayMs, backoffMs, 1);
  const key = retryInPlaceKey(input.candidate.provider, input.profile?.view.id ?? null);
  const takenAtMs = ctx.nowMs();
  if (!(await ctx.store.tryAcquireProbe(key, takenAtMs, holdMs))) return undefined;
  return {
    release: async () => {
      try {
        await ctx.store.releaseProbe(key, takenAtMs);
      } catch (error) {
        // Not freed: the slot runs out by itself at the end of its hold.
        ctx.logger.warn({ key, error: error instanceof Error ? error.message : String(error) }, 'could not free a retry-in-place slot');
      }
    },
  };
}

/**
 * A retry-in-place slot this try holds (or needs none: {@link NO_RETRY_SLOT}), freed as soon as the try ends —
 * answered or given up — so a later lone failure of the profile keeps its retries.
 */
interface RetrySlot {
  release(): Promise<void>;
}

const NO_RETRY_SLOT: RetrySlot = { release: () => Promise.resolve() };

/** How a profile's try ended (a terminal failure throws instead). */
export type ProfileAttemptOutcome<T> =
  | { readonly ok: true; readonly value: T }
  | {
      readonly ok: false;
      readonly classification: FailureClassification;
      readonly record: AttemptRecord;
      /** What the attempt function threw, when it threw. */
      readonly thrown?: unknown;
    };

/**
 * Tries one profile of a candidate with the transient retries of its failure reason.
 *
 * @throws {FailoverError} kind `terminal` for a failure that ends the turn (context overflow, refusal, user
 *   abort, output already started); kind `deadline` when the turn deadline passed.
 * @throws what the attempt threw, unchanged, when it is an exception of ours ({@link isOwnException}); the
 *   profile is not marked.
 */
export async function attemptProfile<T>(ctx: RunContext<T>, input: ProfileAttemptInput): Promise<ProfileAttemptOutcome<T>> {
  const held: { slot?: RetrySlot | undefined } = {};
  try {
    return await tryProfile(ctx, input, held);
  } finally {
    await held.slot?.release();
  }
}

/** {@link attemptProfile}'s loop; a retry-in-place slot it takes goes in `held`, for the caller to free. */
async function tryProfile<T>(ctx: RunContext<T>, input: ProfileAttemptInput, held: { slot?: RetrySlot | undefined }): Promise<ProfileAttemptOutcome<T>> {
  const { candidate, kind } = input;
  const profileId = input.profile?.view.id ?? null;
  let retries = 0;
  let repair: FormatRepair | undefined;
  for (;;) {
    ctx.checkContinue(candidate);
    const startedAtMs = ctx.nowMs();
    const { result, thrown } = await callOnce(ctx, input, repair);
    const nowMs = ctx.nowMs();
    if (result.ok) {
      ctx.record({ provider: candidate.provider, model: candidate.model, profile: profileId, kind, ok: true, startedAtMs, atMs: nowMs });
      await markSuccess(ctx, input);
      return { ok: true, value: result.value };
    }
    const failure: ProviderFailure = {
      ...attributedFailure(result.failure, candidate),
      ...(ctx.signal.aborted ? { abortCause: 'user' as const } : {}),
    };
    const classification = classifyFailure(failure, { nowMs });
    const record = ctx.record({
      provider: candidate.provider,
      model: candidate.model,
      profile: profileId,
      kind,
      ok: false,
      reason: classification.reason,
      ...(classification.status === null ? {} : { status: classification.status }),
      ...(failure.code === undefined || failure.code === '' ? {} : { code: failure.code }),
      detail: classification.detail,
      summary: failureSummary({ ...classification, code: failure.code }),
      ...(classification.retryAfterMs === null ? {} : { retryAfterMs: classification.retryAfterMs }),
      startedAtMs,
      atMs: nowMs,
    });
    const policy = REASON_POLICY[classification.reason];
    // Only what a provider answered (or the wire failing) marks a profile: a request that never left does not.
    const sent = failure.phase !== 'request';
    if (ctx.signal.aborted) throw ctx.abortError(candidate, profileId, thrown);
    // A format failure with a known repair, on a provider that opted in: once more, repaired, at once.
    if (sent && classification.reason === 'format' && repair === undefined && kind === 'call' && failure.outputStarted !== true && ctx.allowFormatRetry(candidate.provider)) {
      repair = formatRepairOf(failure);
      if (repair !== undefined) continue;
    }
    if (failure.outputStarted !== true && policy.advancesToLargerWindow && routeContextOverflow(ctx, candidate)) {
      // Not resent here: only a candidate with a larger window may take it (docs/policy.md#what-each-reason-does).
      return { ok: false, classification, record, ...(thrown === undefined ? {} : { thrown }) };
    }
    if (failure.outputStarted === true || !policy.advancesFallback) {
      if (sent) await markFailure(ctx, input, classification);
      throw terminalError(ctx, input, classification, failure.outputStarted === true, thrown);
    }
    if (sent && kind === 'call' && retries < ctx.retry.maxRetries && retriesInPlace(ctx, input, failure, classification)) {
      const baseMs = classification.reason === 'overloaded' ? ctx.policy.overloadedBackoffMs : ctx.retry.baseDelayMs;
      const delayMs = retryDelayMs({
        attempt: retries + 1,
        baseMs,
        capMs: ctx.retry.maxDelayMs,
        retryAfterMs: classification.retryAfterMs,
        remainingWindowMs: ctx.retry.windowMs - (nowMs - input.candidateStartMs),
        random: ctx.random,
      });
      const mayWait = delayMs !== null && delayMs < ctx.remainingMs();
      if (mayWait && retries === 0) held.slot = await takeRetrySlot(ctx, input, classification, baseMs, delayMs ?? 0);
      if (mayWait && held.slot !== undefined && delayMs !== null) {
        await ctx.sleep(delayMs, candidate, profileId);
        // Another request may have cooled this profile during the backoff: then no retry into it.
        if (await stillAvailable(ctx, candidate, input.profile)) {
          retries += 1;
          continue;
        }
      }
    }
    if (sent) await markFailure(ctx, input, classification);
    return { ok: false, classification, record, ...(thrown === undefined ? {} : { thrown }) };
  }
}

async function callOnce<T>(
  ctx: RunContext<T>,
  input: ProfileAttemptInput,
  repair: FormatRepair | undefined,
): Promise<{ readonly result: AttemptResult<T>; readonly thrown?: unknown }> {
  try {
    return { result: await ctx.attempt(input.candidate, input.profile, ctx.signal, repair === undefined ? undefined : { repair }) };
  } catch (error) {
    // An exception of ours is no provider failure: it ends the turn as it is and marks nothing.
    if (isOwnException(error)) throw error;
    return { result: { ok: false, failure: failureOfThrown(error) }, thrown: error };
  }
}

/**
 * The failure as the classifier reads it: `provider` and `model` filled in from the candidate when the failure
 * names none (a thrown error or a scripted failure usually does not). The one step before every classification,
 * in a run and after output alike.
 */
function attributedFailure(failure: ProviderFailure, candidate: ModelRef): ProviderFailure {
  return { ...failure, provider: failure.provider ?? candidate.provider, model: failure.model ?? candidate.model };
}

/**
 * What a thrown error tells about a failure: its message, code (its own, else along its `cause` chain, as the
 * providers read a transport error's code), status and whether output had started.
 */
function failureOfThrown(error: unknown): ProviderFailure {
  if (typeof error !== 'object' || error === null) return { message: String(error) };
  const fields = error as Record<string, unknown>;
  const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
  const status = typeof fields['status'] === 'number' ? fields['status'] : undefined;
  const code = errorCode(error);
  return {
    message: text(fields['message']) ?? text(fields['name']) ?? 'attempt failed',
    ...(code === undefined ? {} : { code }),
    ...(status === undefined ? {} : { status }),
    ...(fields['outputStarted'] === true ? { outputStarted: true } : {}),
  };
}

function terminalError<T>(
  ctx: RunContext<T>,
  input: ProfileAttemptInput,
  classification: FailureClassification,
  outputStarted: boolean,
  thrown: unknown,
): FailoverError {
  const summary = failureSummary(classification);
  const after = outputStarted ? ' after output reached the caller' : '';
  return new FailoverError(`${formatModelRef(input.candidate)}: ${summary}${after}; the turn ended`, {
    kind: 'terminal',
    reason: classification.reason,
    provider: input.candidate.provider,
    model: input.candidate.model,
    profile: input.profile?.view.id ?? null,
    status: classification.status,
    classification,
    outputStarted,
    ...(outputStarted ? { chain: ctx.chain } : {}),
    attempts: ctx.records,
    cause: thrown,
  });
}

function profileIdOf(input: ProfileAttemptInput): ProfileId | undefined {
  return input.profile?.view.id;
}

/** Records ONE failure on the profile (nothing for lanes `none`, except a probe's stamp). */
async function markFailure<T>(ctx: RunContext<T>, input: ProfileAttemptInput, classification: FailureClassification): Promise<void> {
  const profileId = profileIdOf(input);
  if (profileId === undefined) return;
  const next = await markProfileFailure(ctx.store, ctx.policy, {
    profileId,
    provider: input.candidate.provider,
    model: input.candidate.model,
    classification,
    nowMs: ctx.nowMs(),
    probe: input.kind === 'probe',
  });
  if (next !== undefined) ctx.rememberStats(input.candidate.provider, { [profileId]: next });
}

/**
 * The one failure-marking path (docs/policy.md#windows): records a classified failure on a profile's usage
 * stats in one atomic store transition — nothing for a reason of lane `none` unless it was a probe (whose stamp
 * is kept). Used by the run's attempts and by {@link markFailureAfterOutput}.
 *
 * An ordinary call whose failure opens a cooldown understudy computed on the profile (the ladder, no
 * provider-named wait) also takes the provider's probe slot (`tryAcquireProbe`, `probeThrottleMs`): that call
 * was the freshest test of the provider, so the next probe comes one throttle window after it, not seconds later
 * (docs/policy.md#retries-probes-and-rotation "Probes"). A probe took the slot before its call.
 *
 * @returns the profile's new usage stats, or `undefined` when nothing was written.
 */
async function markProfileFailure(
  store: AuthStorePort,
  policy: CooldownPolicy,
  mark: {
    readonly profileId: ProfileId;
    readonly provider: string;
    readonly model: string;
    readonly classification: FailureClassification;
    readonly nowMs: number;
    readonly probe: boolean;
  },
): Promise<ProfileUsageStats | undefined> {
  const { profileId, classification, nowMs, probe } = mark;
  if (REASON_POLICY[classification.reason].lane === 'none' && !probe) return undefined;
  const query = { nowMs, model: mark.model };
  let wasCooling = false;
  const next = await store.updateUsageStats(profileId, (stats) => {
    wasCooling = computedCooldownIndex([stats], query) === 0;
    return recordFailure(
      probe ? recordProbe(stats, { nowMs }) : stats,
      {
        reason: classification.reason,
        nowMs,
        model: mark.model,
        retryAfterMs: classification.retryAfterMs,
        profileId,
        scope: classification.cooldownScope,
      },
      policy,
    );
  });
  // Only the failure that opens the window stamps the slot: retries in place inside it have nothing to add.
  // A missing model says nothing of the provider's health: its window takes no slot.
  if (!probe && !wasCooling && !REASON_POLICY[classification.reason].modelOnly && next !== undefined && computedCooldownIndex([next], query) === 0) {
    await store.tryAcquireProbe(probeThrottleKey(mark.provider), nowMs, policy.probeThrottleMs);
    await store.tryAcquireProbe(profileProbeKey(profileId), nowMs, policy.probeThrottleMs);
  }
  return next;
}

/**
 * A failure after output reached the caller (a streamed answer that broke after its first token, which the run
 * had already counted a success): classified by the classifier and marked on the profile by the runner's one
 * failure-marking path, exactly as a failure inside a run would be; never marked for a user abort
 * (docs/policy.md#what-each-reason-does "any failure after output reached the caller").
 *
 * @param options.policy - `auth.cooldowns` of the parsed config.
 * @returns the classification (with `outputStarted` taken as true); a store failure is logged at warn, not thrown.
 */
export async function markFailureAfterOutput(options: {
  readonly store: AuthStorePort;
  readonly policy: CooldownPolicy;
  readonly candidate: ModelRef;
  readonly profile: ProfileId | null;
  readonly failure: ProviderFailure;
  readonly nowMs: number;
  readonly logger?: Logger | undefined;
}): Promise<FailureClassification> {
  const { candidate, profile, failure, nowMs } = options;
  const classification = classifyFailure({ ...attributedFailure(failure, candidate), outputStarted: true }, { nowMs });
  if (profile !== null && failure.abortCause !== 'user') {
    try {
      await markProfileFailure(options.store, options.policy, {
        profileId: profile,
        provider: candidate.provider,
        model: candidate.model,
        classification,
        nowMs,
        probe: false,
      });
    } catch (error) {
      (options.logger ?? silentLogger).warn({ profile, error: error instanceof Error ? error.message : String(error) }, 'could not record a failure after output');
    }
  }
  return classification;
}

/** Marks the profile used: `lastUsed`, counts reset, windows ended (a successful probe ends them). */
async function markSuccess<T>(ctx: RunContext<T>, input: ProfileAttemptInput): Promise<void> {
  const profileId = profileIdOf(input);
  if (profileId === undefined) return;
  const nowMs = ctx.nowMs();
  const probe = input.kind === 'probe';
  if (!probe && isFreshAndHealthy(ctx.knownStats(input.candidate.provider, profileId), nowMs, ctx.lastUsedRefreshMs)) return;
  const next = await ctx.store.updateUsageStats(profileId, (stats) =>
    recordSuccess(probe ? recordProbe(stats, { nowMs }) : stats, { nowMs, model: input.candidate.model }),
  );
  ctx.rememberStats(input.candidate.provider, { [profileId]: next });
}

/** True when a success would change nothing but a `lastUsed` younger than `refreshMs` (no write needed). */
function isFreshAndHealthy(stats: ProfileUsageStats | undefined, nowMs: number, refreshMs: number): boolean {
  if (refreshMs <= 0 || stats?.lastUsed === undefined || nowMs - stats.lastUsed >= refreshMs) return false;
  return (
    stats.errorCount === undefined &&
    stats.failureCounts === undefined &&
    stats.cooldownUntil === undefined &&
    stats.disabledUntil === undefined
  );
}
