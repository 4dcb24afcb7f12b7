/**
 * Continuing an answer that broke after output reached the caller (docs/policy.md#continuing-a-broken-stream):
 * the next candidates of the chain after the one that broke are looked at in order; those that cannot continue
 * (no assistant prefill in its model metadata, cannot serve the request) or whose profiles are all unavailable are skipped, never
 * probed; the first one left gets ONE request (no same-profile retry, no rotation, no format retry). Whatever
 * happens, nothing is thrown for a provider failure: the caller ends the stream with the original failure
 * when the continuation did not start.
 */
import type { AbortSignalLike, AttemptFunction, AuthStorePort, Candidate, Clock, FailureClassification, Logger, ProfileId } from '@understudy/contracts';
import { lookupModelMetadata } from '@understudy/config';
import { formatModelRef } from '@understudy/contracts';
import { providerUnavailableReason } from '@understudy/cooldown-scheduler';
import { REASON_POLICY } from '@understudy/error-classifier';
import type { AttemptRecord } from './attempt-record.js';
import type { CandidateOutcome } from './candidate-attempt.js';
import { isKeyless, orderProfiles, skip } from './candidate-attempt.js';
import { FailoverError } from './errors.js';
import type { FallbackDecisionEvent } from './events.js';
import type { FallbackConfig } from './options.js';
import { attemptProfile } from './retry.js';
import { RunContext } from './run-context.js';
import { SessionState } from './session-state.js';

/** The skip detail of a candidate whose model takes no assistant prefill. */
const NO_PREFILL = 'the model takes no assistant prefill (model metadata "prefill")';

/** Options of {@link continueAfterOutput}. */
export interface ContinueAfterOutputOptions<T> {
  /** The parsed config (`parseConfig`); its retry settings are not used: a continuation is one request. */
  readonly config: FallbackConfig;
  /** The agent's store: profiles and usage stats (the continuation's own failure is marked there). */
  readonly store: AuthStorePort;
  /** The chain of the run whose answer broke (`FallbackRunResult.chain`). */
  readonly chain: readonly Candidate[];
  /** The index in `chain` of the candidate whose stream broke; only later candidates may continue. */
  readonly brokenIndex: number;
  /** How the break was classified (`markFailureAfterOutput`, which also marked it on its profile). */
  readonly failure: FailureClassification;
  /**
   * Why a candidate cannot serve this request at all (e.g. images to a text-only model), or `undefined` when it
   * can. Such candidates are skipped with reason `format` and this text as the detail, as are those whose model
   * takes no assistant prefill (`prefill` model metadata, `lookupModelMetadata`). @default every candidate can
   */
  readonly canServe?: ((candidate: Candidate) => string | undefined) | undefined;
  /**
   * Sends the continuation request (the original request plus the text already streamed as a trailing
   * assistant message). It resolves like any attempt: ok once the continuation started.
   */
  readonly attempt: AttemptFunction<T>;
  readonly clock: Clock;
  /** Decision events and warnings go here. @default silentLogger */
  readonly logger?: Logger | undefined;
  /** The caller's signal: an aborted signal continues nothing. */
  readonly signal?: AbortSignalLike | undefined;
  /** The turn's deadline, epoch ms on `clock`; nothing is sent once it has passed. @default no deadline */
  readonly turnDeadlineAtMs?: number | undefined;
  /** Called with the `continued_after_output` decision event (also logged at info). */
  readonly onDecision?: ((event: FallbackDecisionEvent) => void) | undefined;
}

/**
 * How a continuation went. `attempts` holds its attempt records (skips, and the one request with
 * `continuation: true`), to be added to the turn's.
 * - `continued`: `candidate` (with `profile`) started the continuation; `value` is what the attempt resolved with.
 * - `not_continued`: nothing continues the answer; `why` says why (for logs: `terminal_reason`,
 *   `no_candidate`, or the summary of the continuation's own failure, which the caller never shows).
 */
export type ContinuationOutcome<T> =
  | {
      readonly kind: 'continued';
      readonly value: T;
      readonly candidate: Candidate;
      readonly profile: ProfileId | null;
      readonly attempts: readonly AttemptRecord[];
    }
  | { readonly kind: 'not_continued'; readonly why: string; readonly attempts: readonly AttemptRecord[] };

/**
 * Tries to continue an answer that broke after output, on the next candidate that can take it
 * (docs/policy.md#continuing-a-broken-stream). A break whose reason ends the turn (`refusal`, `abort`,
 * `context_overflow`: `advancesFallback` false in the policy table) is never continued. One request at most;
 * its failure is classified and marked on its profile like any attempt, and reported as `not_continued`.
 * Emits one `model_fallback_decision` event with `decision: "continued_after_output"` when a request was sent.
 *
 * @returns the continuation's outcome; never throws for a provider failure, the deadline or an abort.
 * @throws what the attempt threw when it is an exception of ours (`isOwnException`).
 * @example
 * const outcome = await continueAfterOutput({ config, store, clock, chain: result.chain, brokenIndex: 0,
 *   failure: classification,
 *   attempt: streamAttempt(clients, continuationRequest) });
 * if (outcome.kind === 'continued') relay(outcome.value);
 */
export async function continueAfterOutput<T>(options: ContinueAfterOutputOptions<T>): Promise<ContinuationOutcome<T>> {
  if (!REASON_POLICY[options.failure.reason].advancesFallback) return { kind: 'not_continued', why: 'terminal_reason', attempts: [] };
  const ctx = new RunContext<T>(
    {
      request: { agentId: '' },
      // One request: no same-profile retry, and so no Retry-After wait either.
      config: { ...options.config, retry: { ...options.config.retry, provider: { ...options.config.retry.provider, maxRetries: 0 } } },
      store: options.store,
      attempt: options.attempt,
      clock: options.clock,
      random: () => 0,
      logger: options.logger,
      signal: options.signal,
      ...(options.turnDeadlineAtMs === undefined ? {} : { turnDeadlineAtMs: options.turnDeadlineAtMs }),
      ...(options.onDecision === undefined ? {} : { onDecision: options.onDecision }),
    },
    await SessionState.load(options.store, undefined),
  );
  ctx.chain = options.chain;
  const records = (): readonly AttemptRecord[] => ctx.records.map((record) => ({ ...record, continuation: true }));
  if (ctx.remainingMs() <= 0) return { kind: 'not_continued', why: 'deadline', attempts: [] };
  const broken = options.chain[options.brokenIndex];
  for (let index = options.brokenIndex + 1; index < options.chain.length; index += 1) {
    const candidate = options.chain[index];
    if (candidate === undefined) break;
    const why = lookupModelMetadata(options.config, candidate).prefill ? options.canServe?.(candidate) : NO_PREFILL;
    if (why !== undefined) {
      skip(ctx, candidate, index, { why, reason: 'format' });
      continue;
    }
    let outcome: CandidateOutcome<T> | undefined;
    try {
      ctx.checkContinue(candidate);
      outcome = await continueOn(ctx, candidate, index);
    } catch (error) {
      if (!FailoverError.isInstance(error)) throw error;
      if (ctx.records.some((record) => record.kind !== 'skip')) emitContinued(ctx, options, { candidate, index, broken, profile: error.profile, succeeded: false });
      return { kind: 'not_continued', why: error.message, attempts: records() };
    }
    if (outcome === undefined) continue;
    if (outcome.kind === 'success') {
      emitContinued(ctx, options, { candidate, index, broken, profile: outcome.profile, succeeded: true });
      return { kind: 'continued', value: outcome.value, candidate, profile: outcome.profile, attempts: records() };
    }
    if (outcome.kind === 'skipped') continue;
    emitContinued(ctx, options, { candidate, index, broken, profile: outcome.record.profile, succeeded: false });
    return { kind: 'not_continued', why: outcome.record.summary ?? outcome.reason, attempts: records() };
  }
  return { kind: 'not_continued', why: 'no_candidate', attempts: records() };
}

/**
 * One candidate: its first available profile (or none for a keyless provider) gets the request; a candidate
 * whose profiles are all unavailable is skipped (a continuation never probes).
 */
async function continueOn<T>(ctx: RunContext<T>, candidate: Candidate, index: number): Promise<CandidateOutcome<T> | undefined> {
  const candidateStartMs = ctx.nowMs();
  const state = await ctx.store.loadProviderAuthState(candidate.provider);
  ctx.rememberStats(candidate.provider, state.usageStats);
  if (isKeyless(ctx, state)) {
    const outcome = await attemptProfile(ctx, { candidate, profile: null, kind: 'call', candidateStartMs });
    return outcome.ok ? { kind: 'success', value: outcome.value, profile: null } : failed(outcome);
  }
  const order = orderProfiles(ctx, candidate, state);
  for (const entry of order.profiles) {
    if (!entry.available) break;
    const credential = await ctx.store.resolveCredential(entry.profileId);
    if (credential === undefined) continue;
    const outcome = await attemptProfile(ctx, { candidate, profile: { view: entry.profile, credential }, kind: 'call', candidateStartMs });
    return outcome.ok ? { kind: 'success', value: outcome.value, profile: entry.profileId } : failed(outcome);
  }
  if (order.profiles.length === 0) return skip(ctx, candidate, index, { why: 'no_eligible_profile', reason: 'auth' });
  const stats = order.profiles.map((entry) => state.usageStats[entry.profileId]);
  const reason = providerUnavailableReason(stats, { nowMs: ctx.nowMs(), model: candidate.model }) ?? 'unknown';
  return skip(ctx, candidate, index, { why: 'cooling_down', reason });
}

function failed<T>(outcome: { readonly classification: FailureClassification; readonly record: AttemptRecord }): CandidateOutcome<T> {
  return { kind: 'failed', reason: outcome.classification.reason, classification: outcome.classification, record: outcome.record };
}

function emitContinued<T>(
  ctx: RunContext<T>,
  options: ContinueAfterOutputOptions<T>,
  step: { readonly candidate: Candidate; readonly index: number; readonly broken: Candidate | undefined; readonly profile: ProfileId | null; readonly succeeded: boolean },
): void {
  const last = ctx.records[ctx.records.length - 1];
  ctx.emit({
    event: 'model_fallback_decision',
    decision: 'continued_after_output',
    provider: step.candidate.provider,
    model: step.candidate.model,
    profile: step.profile,
    reason: options.failure.reason,
    ...(options.failure.status === null ? {} : { status: options.failure.status }),
    candidateIndex: step.index,
    candidateCount: options.chain.length,
    ...(step.broken === undefined ? {} : { fallbackStepFromModel: formatModelRef(step.broken) }),
    fallbackStepToModel: formatModelRef(step.candidate),
    fallbackStepFromFailureReason: options.failure.reason,
    fallbackStepFromFailureDetail: options.failure.detail,
    fallbackStepFinalOutcome: step.succeeded ? 'succeeded' : 'turn_ended',
    ...(step.succeeded || last?.ok !== false ? {} : { continuationFailureReason: last.reason }),
    atMs: ctx.nowMs(),
  });
}
