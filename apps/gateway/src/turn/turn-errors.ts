/**
 * How a failed turn becomes an HTTP error (docs/contracts.md#gateway): the final failure's HTTP status kept, the runner's
 * summary as the message (our own words: never a provider body or a secret), and the attempts as structured
 * details. "Temporarily rate-limited" with status 429 and a `retry-after` header only when every failure was a
 * rate limit (a call that got one, or a profile cooling down from one); cooling down after other failures
 * (timeouts, overloads) is said as such, keeps the last failure's status, and carries `retry-after` too when
 * the soonest expiry is known. A store that cannot be used is a 503 naming `understudy doctor`.
 */
import { LegacyAuthFilesError } from '@understudy/auth-profile-store';
import { CandidateChainError } from '@understudy/candidate-chain';
import type { FailoverReason } from '@understudy/contracts';
import { formatModelRef } from '@understudy/contracts';
import type { AttemptRecord } from '@understudy/fallback-runner';
import { FailoverError, FallbackSummaryError, LiveSessionModelSwitchError, MAX_LIVE_SWITCHES } from '@understudy/fallback-runner';
import type { GatewayErrorKind } from '../gateway-error.js';
import { GatewayError } from '../gateway-error.js';
import { storeError } from '../services/store-errors.js';

/** The wire-format error family of a failover reason. */
export function kindOfReason(reason: FailoverReason): GatewayErrorKind {
  switch (reason) {
    case 'rate_limit':
      return 'rate_limit';
    case 'billing':
      return 'billing';
    case 'auth':
    case 'auth_permanent':
      return 'authentication';
    case 'overloaded':
      return 'overloaded';
    case 'timeout':
      return 'timeout';
    case 'model_not_found':
      return 'not_found';
    case 'format':
    case 'context_overflow':
    case 'refusal':
      return 'invalid_request';
    default:
      return 'upstream';
  }
}

/** The HTTP status for a failure that brought none (transport failures, skips), by reason. */
export function statusOfReason(reason: FailoverReason): number {
  switch (reason) {
    case 'rate_limit':
      return 429;
    case 'billing':
      return 402;
    case 'auth':
    case 'auth_permanent':
      return 401;
    case 'model_not_found':
      return 404;
    case 'format':
    case 'context_overflow':
      return 400;
    case 'refusal':
      return 422;
    case 'timeout':
      return 504;
    case 'overloaded':
      return 503;
    case 'abort':
      return 499;
    default:
      return 502;
  }
}

/** An attempt as the error details show it (no bodies, no secrets: the runner's own summary). */
function attemptDetail(record: AttemptRecord): Record<string, unknown> {
  return {
    model: `${record.provider}/${record.model}`,
    profile: record.profile,
    kind: record.kind,
    ok: record.ok,
    ...(record.reason === undefined ? {} : { reason: record.reason }),
    ...(record.status === undefined ? {} : { status: record.status }),
    ...(record.summary === undefined ? {} : { summary: record.summary }),
  };
}

function retryAfterSeconds(soonestMs: number | undefined, nowMs: number): number | undefined {
  if (soonestMs === undefined || !Number.isFinite(soonestMs)) return undefined;
  return Math.max(1, Math.ceil((soonestMs - nowMs) / 1000));
}

/** A usable status (the provider's, unless it is not an error status). */
function errorStatus(status: number | null | undefined, reason: FailoverReason): number {
  return typeof status === 'number' && status >= 400 && status <= 599 ? status : statusOfReason(reason);
}

/** The runner's closing sentence when every failure was a rate limit or a cooldown ("… temporarily rate-limited …"). */
const RATE_LIMIT_HINT = / (?:The model is|All models are) temporarily rate-limited\b[^]*$/;

/** The failover reasons of the failed and skipped attempts, each once, in order. */
function failureReasons(attempts: readonly AttemptRecord[]): FailoverReason[] {
  return [...new Set(attempts.flatMap((record) => (record.ok || record.reason === undefined ? [] : [record.reason])))];
}

/** A reason as the cause of a cooldown, in words ("cooling down after timeouts"). */
function cooldownCause(reason: FailoverReason): string {
  switch (reason) {
    case 'rate_limit':
      return 'rate limits';
    case 'timeout':
      return 'timeouts';
    case 'overloaded':
      return 'overload errors';
    case 'server_error':
      return 'server errors';
    default:
      return `${reason.replaceAll('_', ' ')} failures`;
  }
}

/**
 * Our sentence for a model (or every model) that is cooling down for other reasons than rate limits: what it
 * is cooling down from and, when known, when to retry. It replaces the runner's "temporarily rate-limited".
 */
function coolingDownSentence(subject: 'The model is' | 'All models are', reasons: readonly FailoverReason[], soonestMs: number | undefined, nowMs: number): string {
  const causes = reasons.length === 0 ? 'earlier failures' : reasons.map(cooldownCause).join(' and ');
  const seconds = retryAfterSeconds(soonestMs, nowMs);
  if (soonestMs === undefined || seconds === undefined) return ` ${subject} cooling down after ${causes}.`;
  return ` ${subject} cooling down after ${causes}; retry after ${new Date(soonestMs).toISOString()} (in ${seconds} s).`;
}

function failoverErrorToHttp(error: FailoverError, nowMs: number): GatewayError {
  const hinted = RATE_LIMIT_HINT.test(error.message);
  const rateLimited = hinted && error.reason === 'rate_limit';
  // Cooling down after timeouts or overloads is not a rate limit: say what it is, still with when to retry.
  const coolingDown = hinted && !rateLimited;
  const reasons = coolingDown ? [...new Set([error.reason, ...failureReasons(error.attempts)])] : [];
  const message = coolingDown ? error.message.replace(RATE_LIMIT_HINT, coolingDownSentence('The model is', reasons, error.soonestCooldownExpiry, nowMs)) : error.message;
  const retryAfter = hinted ? retryAfterSeconds(error.soonestCooldownExpiry, nowMs) : undefined;
  return new GatewayError(errorStatus(error.status, error.reason), kindOfReason(error.reason), message, {
    code: error.reason,
    ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }),
    details: { reason: error.reason, attempts: error.attempts.map(attemptDetail) },
    exhausted: true,
    cause: error,
  });
}

function summaryErrorToHttp(error: FallbackSummaryError, nowMs: number): GatewayError {
  const last = FailoverError.isInstance(error.cause) ? error.cause : undefined;
  const reasons = failureReasons(error.attempts);
  // The runner's `allRateLimited` also covers cooldowns after timeouts or overloads; only real rate limits are
  // a 429 "temporarily rate-limited".
  const rateLimited = error.allRateLimited && reasons.every((reason) => reason === 'rate_limit');
  const coolingDown = error.allRateLimited && !rateLimited;
  const reason: FailoverReason = rateLimited ? 'rate_limit' : (last?.reason ?? 'unknown');
  const status = rateLimited ? 429 : errorStatus(last?.status, reason);
  const retryAfter = error.allRateLimited ? retryAfterSeconds(error.soonestCooldownExpiry, nowMs) : undefined;
  const message = coolingDown
    ? error.message.replace(RATE_LIMIT_HINT, coolingDownSentence('All models are', reasons, error.soonestCooldownExpiry, nowMs))
    : error.message;
  return new GatewayError(status, kindOfReason(reason), message, {
    code: rateLimited ? 'all_models_rate_limited' : coolingDown ? 'all_models_cooling_down' : 'all_models_failed',
    ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }),
    details: { reason, attempts: error.attempts.map(attemptDetail) },
    exhausted: true,
    cause: error,
  });
}

/**
 * The HTTP error for anything a turn throws.
 *
 * @param agentId - the agent whose store the turn used (named in a `store_unavailable` message).
 * @example turnError(new FallbackSummaryError('All models failed (2): …', { attempts, allRateLimited: true, soonestCooldownExpiry }), Date.now()).status // 429
 */
export function turnError(error: unknown, nowMs: number, agentId?: string): GatewayError {
  if (GatewayError.isInstance(error)) return error;
  if (FailoverError.isInstance(error)) return failoverErrorToHttp(error, nowMs);
  if (FallbackSummaryError.isInstance(error)) return summaryErrorToHttp(error, nowMs);
  if (CandidateChainError.isInstance(error)) {
    return error.code === 'missing_model'
      ? new GatewayError(503, 'misconfigured', error.message, { code: 'no_model_configured', cause: error })
      : new GatewayError(400, 'invalid_request', error.message, { code: 'invalid_model', cause: error });
  }
  if (LiveSessionModelSwitchError.isInstance(error)) {
    // Only a switch loop escapes the turn's live-switch owner: the session kept changing during the turn.
    return new GatewayError(
      409,
      'invalid_request',
      `The session's model was switched again during this turn (last to ${formatModelRef(error.target)}), more than ${MAX_LIVE_SWITCHES} times; the turn stopped. Send the request again.`,
      { code: 'live_switch_loop', details: { attempts: error.attempts.map(attemptDetail) }, cause: error },
    );
  }
  if (LegacyAuthFilesError.isInstance(error)) {
    return new GatewayError(503, 'misconfigured', error.message, { code: 'legacy_auth_files', cause: error });
  }
  const fromStore = storeError(error, agentId);
  if (fromStore !== undefined) return fromStore;
  return new GatewayError(500, 'internal', 'internal gateway error (see the gateway log)', { code: 'internal_error', cause: error });
}
