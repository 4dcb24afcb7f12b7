/**
 * Human-readable failure summaries: our own words per failover reason, so billing and auth read differently
 * from rate limits, with the HTTP status kept (the model-failover doc "Model fallback": a provider 500 stays a 500 in the final
 * message). Raw provider bodies never reach these texts.
 */
import type { FailoverReason } from '@understudy/contracts';
import { formatDurationMs, isoTime } from '@understudy/contracts';
import { REASON_POLICY } from '@understudy/error-classifier';

/** What each failover reason means to the person reading the error (one row per reason). */
export const REASON_TEXT: Readonly<Record<FailoverReason, string>> = Object.freeze({
  auth: 'authentication failed (check the credential of this auth profile)',
  auth_permanent: 'credential revoked or deactivated (replace the credential)',
  billing: 'billing problem: out of credits or over the spending limit (check the provider account)',
  rate_limit: 'rate limited',
  overloaded: 'provider overloaded',
  timeout: 'timed out or connection failed',
  server_error: 'provider server error',
  tls_certificate: 'TLS certificate rejected',
  model_not_found: 'model not found (check the model id)',
  format: 'request rejected as invalid',
  context_overflow: 'conversation exceeds the model context window',
  session_expired: 'provider session expired',
  refusal: 'the model refused to answer',
  abort: 'aborted by the caller',
  empty_response: 'empty response',
  no_error_details: 'failed without error details',
  unclassified: 'unrecognised provider error',
  unknown: 'unknown error',
});

/** Why a candidate was passed over, in words (keys: `SkipWhy` of the scheduler plus the runner's own). */
const SKIP_TEXT: Readonly<Record<string, string>> = Object.freeze({
  persistent_auth: 'every auth profile failed authentication',
  billing_disabled: 'every auth profile is disabled for billing',
  not_near_expiry: 'every auth profile is unavailable',
  probe_throttled: 'every auth profile is unavailable and the provider was probed moments ago (probe throttle)',
  transient_probe_used: 'every auth profile is unavailable and this run already used its probe',
  cooling_down: 'every auth profile is unavailable',
  no_eligible_profile: 'no usable auth profile (missing, blank or expired credential)',
  auth_failure_cached: 'recent auth failure of this auth profile (skip cache)',
  tls_certificate: 'an earlier TLS certificate failure of this provider in this run',
  inline_key_disabled: 'the inline config key is unavailable until its window ends (never probed)',
  context_window: 'its context window is not known to be larger than one that already overflowed',
});

/**
 * True when a failure of `reason` is the provider's passing trouble, so the same request may succeed again soon
 * (`REASON_POLICY[reason].transient`: rate limits, overloads, server errors, timeouts, empty or unexplained
 * answers). For callers that render a failure and may not import the classifier themselves (the gateway's edge).
 *
 * @example isTransientReason('overloaded') // true
 * @example isTransientReason('billing') // false
 */
export function isTransientReason(reason: FailoverReason): boolean {
  return REASON_POLICY[reason].transient;
}

/** How a window of `reason` reads: disabled when `REASON_POLICY` puts the reason in the disable lane, else cooling down. */
function windowWord(reason: FailoverReason): string {
  return REASON_POLICY[reason].lane === 'disable' ? 'disabled' : 'cooling down';
}

/**
 * The summary of one failed request: reason text, `HTTP <status>`, error code, Retry-After.
 *
 * @example failureSummary({ reason: 'rate_limit', status: 429, retryAfterMs: 20_000 }) // 'rate limited (HTTP 429, retry after 20 s)'
 */
export function failureSummary(input: {
  readonly reason: FailoverReason;
  readonly status?: number | null | undefined;
  readonly code?: string | undefined;
  readonly retryAfterMs?: number | null | undefined;
}): string {
  const facts: string[] = [];
  if (typeof input.status === 'number') facts.push(`HTTP ${input.status}`);
  if (input.code !== undefined && input.code !== '') facts.push(input.code);
  if (typeof input.retryAfterMs === 'number') facts.push(`retry after ${formatDurationMs(input.retryAfterMs)}`);
  return facts.length === 0 ? REASON_TEXT[input.reason] : `${REASON_TEXT[input.reason]} (${facts.join(', ')})`;
}

/**
 * The summary of a skipped candidate.
 *
 * @example skipSummary({ why: 'not_near_expiry', reason: 'rate_limit', untilMs: 30_000 })
 *   // 'skipped: every auth profile is cooling down (rate_limit); usable again at 1970-01-01T00:00:30.000Z'
 */
export function skipSummary(input: {
  readonly why: string;
  readonly reason: FailoverReason;
  readonly untilMs?: number | undefined;
}): string {
  const until = isoTime(input.untilMs);
  const text = (SKIP_TEXT[input.why] ?? input.why).replace('unavailable', `${windowWord(input.reason)} (${input.reason})`);
  const reasonNote = text.includes(`(${input.reason})`) ? '' : ` (${input.reason})`;
  return `skipped: ${text}${reasonNote}${until === undefined ? '' : `; usable again at ${until}`}`;
}
