/**
 * Failover reasons: why one provider attempt failed, as a closed string union.
 *
 * Implements the model-failover doc "Model fallback" / "Which errors advance fallback" and docs/policy.md#failover-reasons. What each reason *does*
 * (retry, rotate, advance, lane) is a table in `@understudy/error-classifier` keyed by this union, so adding a
 * reason here fails compilation until every policy table handles it.
 */
export const FAILOVER_REASONS = [
  'auth',
  'auth_permanent',
  'billing',
  'rate_limit',
  'overloaded',
  'timeout',
  'server_error',
  'tls_certificate',
  'model_not_found',
  'format',
  'context_overflow',
  'session_expired',
  'refusal',
  'abort',
  'empty_response',
  'no_error_details',
  'unclassified',
  'unknown',
] as const;

/** One failover reason identifier (docs/policy.md#failover-reasons). */
export type FailoverReason = (typeof FAILOVER_REASONS)[number];

const reasonSet: ReadonlySet<string> = new Set(FAILOVER_REASONS);

/**
 * Narrows an arbitrary string to a {@link FailoverReason}.
 *
 * @example isFailoverReason('rate_limit') // true
 */
export function isFailoverReason(value: unknown): value is FailoverReason {
  return typeof value === 'string' && reasonSet.has(value);
}

/** Where a cooldown applies: the whole auth profile, or only the failing model on that profile (docs/policy.md#what-each-reason-does). */
export type CooldownScope = 'profile' | 'model';

/**
 * The classifier's verdict on one provider failure (docs/contracts.md#classify without the policy flags).
 *
 * - `status`: the provider's HTTP status unchanged, else one the text states, else `null`.
 * - `retryAfterMs`: milliseconds to wait as the provider asked (header or body hint), else `null`.
 * - `cooldownScope`: `null` when the reason puts nothing on cooldown.
 * - `detail`: a short identifier of the rule that matched, for logs and `classify --explain`.
 */
export interface FailureClassification {
  readonly reason: FailoverReason;
  readonly status: number | null;
  readonly retryAfterMs: number | null;
  readonly cooldownScope: CooldownScope | null;
  readonly detail: string;
}
