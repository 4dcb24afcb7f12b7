/**
 * One auth profile of one candidate: the request, its transient same-profile retries (docs/policy.md#retries-probes-and-rotation: up to
 * `retry.provider.maxRetries`, exponential backoff with full jitter, inside the candidate's retry window, only
 * before output reached the caller; a Retry-After beyond the SDK cap is not waited out), the classification
 * of each failure, and the profile's usage-stats mark — one success, or ONE failure when the retries are spent.
 */
import type {
  AttemptResult,
  Candidate,
  FailureClassification,
  FormatRepair,
  ProfileId,
  ProfileUsageStats,
  ProviderFailure,
  ResolvedProfile,
} from '@understudy/contracts';
import { formatModelRef } from '@understudy/contracts';
import { recordFailure, recordProbe, recordSuccess, retryDelayMs } from '@understudy/cooldown-scheduler';
import { REASON_POLICY, classifyFailure, formatRepairOf } from '@understudy/error-classifier';
import type { AttemptRecord } from './attempt-record.js';
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
}

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
  const { candidate, kind } = input;
  const profileId = input.profile?.view.id ?? null;
  let retries = 0;
  let repair: FormatRepair | undefined;
  for (;;) {
    ctx.checkContinue(candidate);
    const { result, thrown } = await callOnce(ctx, input, repair);
    const nowMs = ctx.nowMs();
    if (result.ok) {
      ctx.record({ provider: candidate.provider, model: candidate.model, profile: profileId, kind, ok: true, atMs: nowMs });
      await markSuccess(ctx, input);
      return { ok: true, value: result.value };
    }
    const failure: ProviderFailure = {
      ...result.failure,
      provider: result.failure.provider ?? candidate.provider,
      model: result.failure.model ?? candidate.model,
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
    if (failure.outputStarted === true || !policy.advancesFallback) {
      if (sent) await markFailure(ctx, input, classification);
      throw terminalError(ctx, input, classification, failure.outputStarted === true, thrown);
    }
    if (sent && kind === 'call' && policy.sameProfileRetry && retries < ctx.retry.maxRetries && failure.retryAfterBeyondCap !== true) {
      const delayMs = retryDelayMs({
        attempt: retries + 1,
        baseMs: classification.reason === 'overloaded' ? ctx.policy.overloadedBackoffMs : ctx.retry.baseDelayMs,
        capMs: ctx.retry.maxDelayMs,
        retryAfterMs: classification.retryAfterMs,
        maxRetryAfterMs: ctx.retry.maxRetryAfterMs ?? Number.POSITIVE_INFINITY,
        remainingWindowMs: ctx.retry.windowMs - (nowMs - input.candidateStartMs),
        random: ctx.random,
      });
      if (delayMs !== null && delayMs < ctx.remainingMs()) {
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

/** What a thrown error tells about a failure: its message, code, status and whether output had started. */
function failureOfThrown(error: unknown): ProviderFailure {
  if (typeof error !== 'object' || error === null) return { message: String(error) };
  const fields = error as Record<string, unknown>;
  const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
  const status = typeof fields['status'] === 'number' ? fields['status'] : undefined;
  return {
    message: text(fields['message']) ?? text(fields['name']) ?? 'attempt failed',
    ...(text(fields['code']) === undefined ? {} : { code: text(fields['code']) }),
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
  const probe = input.kind === 'probe';
  if (REASON_POLICY[classification.reason].lane === 'none' && !probe) return;
  const nowMs = ctx.nowMs();
  const next = await ctx.store.updateUsageStats(profileId, (stats) =>
    recordFailure(
      probe ? recordProbe(stats, { nowMs }) : stats,
      {
        reason: classification.reason,
        nowMs,
        model: input.candidate.model,
        retryAfterMs: classification.retryAfterMs,
        profileId,
        scope: classification.cooldownScope,
      },
      ctx.policy,
    ),
  );
  ctx.rememberStats(input.candidate.provider, { [profileId]: next });
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
