/**
 * How a failed turn becomes an HTTP error (DESIGN §4.3): the final failure's HTTP status kept, the runner's
 * summary as the message (our own words: never a provider body or a secret), "all models are temporarily
 * rate-limited, retry after …" with a `retry-after` header only when every failure was a rate limit or a
 * cooldown, and the attempts as structured details.
 */
import { AuthStoreError, LegacyAuthFilesError } from '@understudy/auth-profile-store';
import { CandidateChainError } from '@understudy/candidate-chain';
import type { FailoverReason } from '@understudy/contracts';
import type { AttemptRecord } from '@understudy/fallback-runner';
import { FailoverError, FallbackSummaryError } from '@understudy/fallback-runner';
import type { GatewayErrorKind } from '../gateway-error.js';
import { GatewayError } from '../gateway-error.js';

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

/**
 * The HTTP error for anything a turn throws.
 *
 * @example turnError(new FallbackSummaryError('All models failed (2): …', { attempts, allRateLimited: true, soonestCooldownExpiry }), Date.now()).status // 429
 */
export function turnError(error: unknown, nowMs: number): GatewayError {
  if (GatewayError.isInstance(error)) return error;
  if (FailoverError.isInstance(error)) {
    const rateLimited = error.reason === 'rate_limit' && error.message.includes('temporarily rate-limited');
    const retryAfter = rateLimited ? retryAfterSeconds(error.soonestCooldownExpiry, nowMs) : undefined;
    return new GatewayError(errorStatus(error.status, error.reason), kindOfReason(error.reason), error.message, {
      code: error.reason,
      ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }),
      details: { reason: error.reason, attempts: error.attempts.map(attemptDetail) },
      cause: error,
    });
  }
  if (FallbackSummaryError.isInstance(error)) {
    const last = FailoverError.isInstance(error.cause) ? error.cause : undefined;
    const reason: FailoverReason = error.allRateLimited ? 'rate_limit' : (last?.reason ?? 'unknown');
    const status = error.allRateLimited ? 429 : errorStatus(last?.status, reason);
    const retryAfter = error.allRateLimited ? retryAfterSeconds(error.soonestCooldownExpiry, nowMs) : undefined;
    return new GatewayError(status, kindOfReason(reason), error.message, {
      code: error.allRateLimited ? 'all_models_rate_limited' : 'all_models_failed',
      ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }),
      details: { reason, attempts: error.attempts.map(attemptDetail) },
      cause: error,
    });
  }
  if (CandidateChainError.isInstance(error)) {
    return error.code === 'missing_model'
      ? new GatewayError(503, 'unavailable', error.message, { code: 'no_model_configured', cause: error })
      : new GatewayError(400, 'invalid_request', error.message, { code: 'invalid_model', cause: error });
  }
  if (LegacyAuthFilesError.isInstance(error)) {
    return new GatewayError(503, 'unavailable', error.message, { code: 'legacy_auth_files', cause: error });
  }
  if (AuthStoreError.isInstance(error)) {
    return new GatewayError(503, 'unavailable', `the agent's state store is unavailable (${error.code})`, { code: 'store_unavailable', cause: error });
  }
  return new GatewayError(500, 'internal', 'internal gateway error (see the gateway log)', { code: 'internal_error', cause: error });
}
