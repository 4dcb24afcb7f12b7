/**
 * Same-profile retry pacing and profile-rotation budgets (docs/policy.md#retries-probes-and-rotation "Retries, probes, rotation").
 */
import type { FailoverReason } from '@understudy/contracts';
import { REASON_POLICY } from '@understudy/error-classifier';
import type { CooldownPolicy } from './policy.js';
import { DEFAULT_RETRY_BASE_DELAY_MS, DEFAULT_RETRY_MAX_DELAY_MS } from './policy.js';

/** Inputs of {@link retryDelayMs}. */
export interface RetryDelayInput {
  /** Which retry this is: 1 for the first retry after the first failure. */
  readonly attempt: number;
  /** Backoff base, ms (`auth.cooldowns.overloadedBackoffMs` / `retry.provider.baseDelayMs`). @default 250 */
  readonly baseMs?: number | undefined;
  /** Backoff cap, ms (`retry.provider.maxDelayMs`). @default 5000 */
  readonly capMs?: number | undefined;
  /**
   * The provider's Retry-After, ms, as the classifier read it. Whether one is worth waiting for at all (the SDK
   * cap, `UNDERSTUDY_SDK_RETRY_MAX_WAIT_SECONDS`) is the runner's decision, made once before it asks for a delay.
   */
  readonly retryAfterMs?: number | null | undefined;
  /** Time left in the candidate's retry window (`retry.provider.windowMs`), ms; a longer wait means no retry. */
  readonly remainingWindowMs?: number | undefined;
  /** Uniform random source in `[0, 1)` for the jitter. */
  readonly random: () => number;
}

/**
 * How long to wait before a same-profile retry, ms, or `null` when the retry should not happen. With a
 * Retry-After the wait is that Retry-After (rounded up to whole ms); otherwise exponential backoff with full
 * jitter: `random() × min(capMs, baseMs × 2^(attempt − 1))`, floored. A wait longer than `remainingWindowMs`
 * gives `null`.
 *
 * @example retryDelayMs({ attempt: 2, random: () => 0.5 }) // 250  (0.5 × min(5000, 250 × 2))
 */
export function retryDelayMs(input: RetryDelayInput): number | null {
  const baseMs = Math.max(0, input.baseMs ?? DEFAULT_RETRY_BASE_DELAY_MS);
  const capMs = Math.max(0, input.capMs ?? DEFAULT_RETRY_MAX_DELAY_MS);
  let delay: number;
  if (input.retryAfterMs !== undefined && input.retryAfterMs !== null && Number.isFinite(input.retryAfterMs)) {
    delay = Math.max(0, Math.ceil(input.retryAfterMs));
  } else {
    const unit = Math.min(Math.max(input.random(), 0), 1);
    delay = Math.floor(unit * retryBackoffCeilingMs(input.attempt, baseMs, capMs));
  }
  if (input.remainingWindowMs !== undefined && delay > input.remainingWindowMs) return null;
  return delay;
}

/**
 * The longest backoff before same-profile retry number `attempt` (1 = the first retry), ms: `min(capMs, baseMs ×
 * 2^(attempt − 1))`. {@link retryDelayMs} draws the jittered wait below it; the runner holds a profile's
 * retry-in-place slot for at least this long (docs/policy.md#retries-probes-and-rotation).
 *
 * @example retryBackoffCeilingMs(3, 250, 5000) // 1000
 */
export function retryBackoffCeilingMs(attempt: number, baseMs: number, capMs: number): number {
  const exponent = Math.min(Math.max(Math.floor(attempt), 1) - 1, 30);
  return Math.min(Math.max(0, capMs), Math.max(0, baseMs) * 2 ** exponent);
}

/**
 * How many other auth profiles of the same provider may be tried after a failure of `reason` (docs/policy.md#what-each-reason-does):
 * `rateLimitedProfileRotations` / `overloadedProfileRotations` / `timeoutProfileRotations` for those reasons, every remaining profile
 * (`Infinity`) for auth and billing, 0 otherwise.
 *
 * @example maxProfileRotations('overloaded', DEFAULT_COOLDOWN_POLICY) // 1
 */
export function maxProfileRotations(reason: FailoverReason, policy: CooldownPolicy): number {
  switch (REASON_POLICY[reason].rotation) {
    case 'all':
      return Number.POSITIVE_INFINITY;
    case 'rate_limit':
      return policy.rateLimitedProfileRotations;
    case 'overloaded':
      return policy.overloadedProfileRotations;
    case 'timeout':
      return policy.timeoutProfileRotations;
    case 'none':
      return 0;
  }
}
