/**
 * The error of a run in which every candidate failed or was skipped (the model-failover doc "Report failure if exhausted",
 * "Observability and failure summaries"): the only candidate's failure as a `FailoverError` with its HTTP
 * status, else a `FallbackSummaryError` listing each model's last failure. "All models are temporarily
 * rate-limited" is said only when every candidate failed on a rate limit or was passed over for a cooldown,
 * with the soonest (model-aware) expiry.
 */
import type { Candidate } from '@understudy/contracts';
import { formatModelRef } from '@understudy/contracts';
import { soonestExpiry } from '@understudy/cooldown-scheduler';
import { REASON_POLICY } from '@understudy/error-classifier';
import type { CandidateOutcome } from './candidate-attempt.js';
import { FailoverError, FallbackSummaryError } from './errors.js';
import { formatDurationMs, isoTime } from './failure-text.js';
import type { RunContext } from './run-context.js';

/** A candidate that did not answer, with its outcome. */
export interface FailedCandidate<T> {
  readonly candidate: Candidate;
  readonly outcome: Exclude<CandidateOutcome<T>, { readonly kind: 'success' }>;
}

/** Skips that mean "cooling down", as opposed to billing, auth, TLS or a missing credential. */
const COOLDOWN_SKIPS: ReadonlySet<string> = new Set(['not_near_expiry', 'probe_throttled', 'transient_probe_used', 'cooling_down']);

function isRateLimitOrCooldown<T>(failed: FailedCandidate<T>): boolean {
  const { outcome } = failed;
  if (outcome.kind === 'failed') return outcome.reason === 'rate_limit';
  return COOLDOWN_SKIPS.has(outcome.why) && (outcome.reason === 'rate_limit' || REASON_POLICY[outcome.reason].transient);
}

/** The soonest moment an auth profile blocking one of the attempted models is usable again (epoch ms). */
export function soonestCooldownExpiry<T>(ctx: RunContext<T>, candidates: readonly Candidate[]): number | undefined {
  const nowMs = ctx.nowMs();
  let soonest: number | undefined;
  for (const candidate of candidates) {
    const known = ctx.statsByProvider.get(candidate.provider);
    const eligible = ctx.eligibleByProvider.get(candidate.provider);
    if (known === undefined || eligible === undefined) continue;
    const stats = [...known].filter(([id]) => eligible.has(id)).map(([, value]) => value);
    const expiry = soonestExpiry(stats, { nowMs, model: candidate.model });
    if (expiry !== undefined && (soonest === undefined || expiry < soonest)) soonest = expiry;
  }
  return soonest;
}

function rateLimitHint(what: string, soonestMs: number | undefined, nowMs: number): string {
  const until = isoTime(soonestMs);
  if (soonestMs === undefined || until === undefined) return ` ${what} temporarily rate-limited.`;
  return ` ${what} temporarily rate-limited; retry after ${until} (in ${formatDurationMs(soonestMs - nowMs)}).`;
}

/** The failure of one candidate as a `FailoverError` of kind `exhausted`. */
function candidateError<T>(ctx: RunContext<T>, failed: FailedCandidate<T>, soonestMs: number | undefined, hint: string): FailoverError {
  const { candidate, outcome } = failed;
  const record = outcome.record;
  const summary = record.summary ?? record.reason ?? 'failed';
  return new FailoverError(`${formatModelRef(candidate)}: ${summary}${hint === '' ? '' : `.${hint}`}`, {
    kind: 'exhausted',
    reason: outcome.reason,
    provider: candidate.provider,
    model: candidate.model,
    profile: record.profile,
    status: record.status ?? null,
    ...(outcome.kind === 'failed' ? { classification: outcome.classification } : {}),
    attempts: ctx.records,
    soonestCooldownExpiry: soonestMs,
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
  const soonestMs = soonestCooldownExpiry(
    ctx,
    failed.map((entry) => entry.candidate),
  );
  const allRateLimited = failed.length > 0 && failed.every(isRateLimitOrCooldown);
  const last = failed[failed.length - 1];
  if (failed.length === 1 && last !== undefined) {
    return candidateError(ctx, last, soonestMs, allRateLimited ? rateLimitHint('The model is', soonestMs, nowMs) : '');
  }
  const parts = failed.map(({ candidate, outcome }) => `${formatModelRef(candidate)}: ${outcome.record.summary ?? outcome.reason}`);
  const message = `All models failed (${failed.length}): ${parts.join(' | ')}${allRateLimited ? `.${rateLimitHint('All models are', soonestMs, nowMs)}` : ''}`;
  return new FallbackSummaryError(message, {
    attempts: ctx.records,
    soonestCooldownExpiry: soonestMs,
    allRateLimited,
    ...(last === undefined ? {} : { cause: candidateError(ctx, last, soonestMs, '') }),
  });
}
