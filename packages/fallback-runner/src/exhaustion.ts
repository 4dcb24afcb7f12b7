/**
 * The error of a run in which every candidate failed or was skipped (the model-failover doc "Report failure if exhausted",
 * "Observability and failure summaries"): the only candidate's failure as a `FailoverError` with its HTTP
 * status, else a `FallbackSummaryError` listing each model's last failure. Both carry the ending as data
 * ({@link Exhaustion}: kind, reasons, soonest recovery per scope). "Temporarily rate-limited" is said only when
 * every candidate failed on a rate limit or was passed over for a rate-limit cooldown; cooldowns after other
 * transient failures are said as such, with the same "retry after".
 */
import type { Candidate, FailoverReason } from '@understudy/contracts';
import { formatDurationMs, formatModelRef, isoTime } from '@understudy/contracts';
import { profileUnavailability } from '@understudy/cooldown-scheduler';
import { REASON_POLICY } from '@understudy/error-classifier';
import type { CandidateOutcome } from './candidate-attempt.js';
import { FailoverError, FallbackSummaryError } from './errors.js';
import type { Exhaustion, ExhaustionKind, ExhaustionRecovery } from './exhaustion-types.js';
import { soonestOf } from './exhaustion-types.js';
import type { RunContext } from './run-context.js';

/** A candidate that did not answer, with its outcome. */
export interface FailedCandidate<T> {
  readonly candidate: Candidate;
  readonly outcome: Exclude<CandidateOutcome<T>, { readonly kind: 'success' }>;
}

/** Skips that mean "cooling down", as opposed to billing, auth, TLS or a missing credential. */
const COOLDOWN_SKIPS: ReadonlySet<string> = new Set(['not_near_expiry', 'probe_throttled', 'transient_probe_used', 'cooling_down']);

/** A candidate that failed on a rate limit, or was passed over for a cooldown after a transient reason. */
function isCoolingDown<T>(failed: FailedCandidate<T>): boolean {
  const { outcome } = failed;
  if (outcome.kind === 'failed') return outcome.reason === 'rate_limit';
  return COOLDOWN_SKIPS.has(outcome.why) && (outcome.reason === 'rate_limit' || REASON_POLICY[outcome.reason].transient);
}

/** The windows that block one candidate's eligible profiles, soonest end by scope (epoch ms). */
function candidateWindows<T>(ctx: RunContext<T>, candidate: Candidate, nowMs: number): { readonly profile?: number; readonly model?: number } {
  const known = ctx.statsByProvider.get(candidate.provider);
  const eligible = ctx.eligibleByProvider.get(candidate.provider);
  if (known === undefined || eligible === undefined) return {};
  let profile: number | undefined;
  let model: number | undefined;
  for (const [id, stats] of known) {
    if (!eligible.has(id)) continue;
    const block = profileUnavailability(stats, { nowMs, model: candidate.model });
    if (block === undefined) continue;
    if (block.model === undefined) profile = soonestOf(profile, block.untilMs);
    else model = soonestOf(model, block.untilMs);
  }
  return { ...(profile === undefined ? {} : { profile }), ...(model === undefined ? {} : { model }) };
}

/** The soonest recovery of the failed candidates by scope, and when a retry of the turn may be answered. */
function recoveryOf<T>(ctx: RunContext<T>, failed: readonly FailedCandidate<T>[], nowMs: number): ExhaustionRecovery {
  let profile: number | undefined;
  let model: number | undefined;
  let retryAt: number | undefined;
  for (const { candidate, outcome } of failed) {
    const windows = candidateWindows(ctx, candidate, nowMs);
    profile = soonestOf(profile, windows.profile);
    model = soonestOf(model, windows.model);
    const asked = outcome.record.retryAfterMs === undefined ? undefined : outcome.record.atMs + outcome.record.retryAfterMs;
    retryAt = soonestOf(retryAt, asked ?? soonestOf(windows.profile, windows.model));
  }
  return {
    ...(profile === undefined ? {} : { profile }),
    ...(model === undefined ? {} : { model }),
    ...(retryAt === undefined ? {} : { retryAt }),
  };
}

/** The soonest moment an auth profile blocking one of the attempted models is usable again (epoch ms). */
export function soonestCooldownExpiry(recovery: ExhaustionRecovery): number | undefined {
  return soonestOf(recovery.profile, recovery.model);
}

/** What a window after each transient reason is called in a sentence ("cooling down after timeouts"). */
const COOLDOWN_CAUSE: Readonly<Record<FailoverReason, string>> = Object.freeze({
  rate_limit: 'rate limits',
  overloaded: 'overload errors',
  server_error: 'server errors',
  timeout: 'timeouts',
  empty_response: 'empty responses',
  no_error_details: 'failures without details',
  unclassified: 'unrecognised errors',
  unknown: 'unknown errors',
  auth: 'authentication failures',
  auth_permanent: 'revoked credentials',
  billing: 'billing failures',
  model_not_found: 'missing models',
  format: 'invalid requests',
  context_overflow: 'context overflows',
  session_expired: 'expired sessions',
  tls_certificate: 'TLS certificate failures',
  refusal: 'refusals',
  abort: 'aborts',
});

/** The closing sentence of an exhausted run that is only waiting on windows, or `''`. */
function waitSentence(kind: ExhaustionKind, subject: 'The model is' | 'All models are', exhaustion: Omit<Exhaustion, 'kind'>, nowMs: number): string {
  if (kind !== 'rate_limited' && kind !== 'cooling_down') return '';
  const state = kind === 'rate_limited' ? 'temporarily rate-limited' : `cooling down after ${exhaustion.reasons.map((reason) => COOLDOWN_CAUSE[reason]).join(' and ')}`;
  const retryAt = exhaustion.recovery.retryAt;
  const until = isoTime(retryAt);
  if (retryAt === undefined || until === undefined) return ` ${subject} ${state}.`;
  return ` ${subject} ${state}; retry after ${until} (in ${formatDurationMs(retryAt - nowMs)}).`;
}

/** The failure of one candidate as a `FailoverError` of kind `exhausted`. */
function candidateError<T>(ctx: RunContext<T>, failed: FailedCandidate<T>, exhaustion: Exhaustion, sentence: string): FailoverError {
  const { candidate, outcome } = failed;
  const record = outcome.record;
  const summary = record.summary ?? record.reason ?? 'failed';
  return new FailoverError(`${formatModelRef(candidate)}: ${summary}${sentence === '' ? '' : `.${sentence}`}`, {
    kind: 'exhausted',
    reason: outcome.reason,
    provider: candidate.provider,
    model: candidate.model,
    profile: record.profile,
    status: record.status ?? null,
    ...(outcome.kind === 'failed' ? { classification: outcome.classification } : {}),
    attempts: ctx.records,
    soonestCooldownExpiry: soonestCooldownExpiry(exhaustion.recovery),
    exhaustion,
    ...(outcome.kind === 'failed' && outcome.thrown !== undefined ? { cause: outcome.thrown } : {}),
  });
}

/**
 * The error that ends an exhausted run.
 *
 * @param failed - every candidate that was tried or skipped, in order (at least one).
 */
export function exhaustionError<T>(ctx: RunContext<T>, failed: readonly FailedCandidate<T>[]): FailoverError | FallbackSummaryError {
  const nowMs = ctx.nowMs();
  const last = failed[failed.length - 1];
  const reasons = [...new Set(failed.map((entry) => entry.outcome.reason))];
  const waiting = failed.length > 0 && failed.every(isCoolingDown);
  const kind: ExhaustionKind = !waiting ? 'failed' : reasons.every((reason) => reason === 'rate_limit') ? 'rate_limited' : 'cooling_down';
  const exhaustion: Exhaustion = {
    kind,
    reasons,
    finalReason: last?.outcome.reason ?? 'unknown',
    finalStatus: last?.outcome.record.status ?? null,
    recovery: recoveryOf(ctx, failed, nowMs),
  };
  if (failed.length === 1 && last !== undefined) {
    return candidateError(ctx, last, exhaustion, waitSentence(kind, 'The model is', exhaustion, nowMs));
  }
  const parts = failed.map(({ candidate, outcome }) => `${formatModelRef(candidate)}: ${outcome.record.summary ?? outcome.reason}`);
  const sentence = waitSentence(kind, 'All models are', exhaustion, nowMs);
  const message = `All models failed (${failed.length}): ${parts.join(' | ')}${sentence === '' ? '' : `.${sentence}`}`;
  return new FallbackSummaryError(message, {
    attempts: ctx.records,
    exhaustion,
    ...(last === undefined ? {} : { cause: candidateError(ctx, last, exhaustion, '') }),
  });
}
