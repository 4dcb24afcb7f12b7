/**
 * How a failed turn becomes an HTTP error (docs/contracts.md#gateway), rendered from the runner's structured
 * exhaustion (`FailoverError.exhaustion`, `FallbackSummaryError.exhaustion`) through exhaustive tables keyed by failover reason — never from the wording of a message:
 * the final failure's HTTP status kept when the provider sent one, else the status of its reason (500 for a
 * server-side failure, 408 for a timeout); the runner's summary as the message (our own words: never a provider
 * body or a secret) plus, for transient failures, that the failure is temporary; `retry-after` from the
 * soonest moment a retry may be answered; the attempts as structured details. A store that cannot be used is a
 * 503 naming `understudy doctor`.
 */
import { LegacyAuthFilesError } from '@understudy/auth-profile-store';
import { CandidateChainError } from '@understudy/candidate-chain';
import type { FailoverReason } from '@understudy/contracts';
import { formatModelRef } from '@understudy/contracts';
import type { AttemptRecord, ExhaustionKind } from '@understudy/fallback-runner';
import { FailoverError, FallbackSummaryError, LiveSessionModelSwitchError, MAX_LIVE_SWITCHES, isTransientReason } from '@understudy/fallback-runner';
import type { GatewayErrorCode, GatewayErrorKind } from '../gateway-error.js';
import { GatewayError, internalError } from '../gateway-error.js';
import { storeError } from '../services/store-errors.js';

/** How the edge renders a final failure of each reason. */
interface ReasonReply {
  /** The wire-format error family. */
  readonly kind: GatewayErrorKind;
  /** The HTTP status when the failure brought none (a transport failure, a skip). */
  readonly status: number;
}

/**
 * The reply of each failover reason. A failure without a status answers as the model-failover doc has it: a
 * provider-side failure is a 500 (`server_error` and the failures without details), a timeout a 408.
 */
export const REASON_REPLY: Readonly<Record<FailoverReason, ReasonReply>> = Object.freeze({
  rate_limit: { kind: 'rate_limit', status: 429 },
  overloaded: { kind: 'overloaded', status: 503 },
  server_error: { kind: 'upstream', status: 500 },
  timeout: { kind: 'timeout', status: 408 },
  empty_response: { kind: 'upstream', status: 500 },
  no_error_details: { kind: 'upstream', status: 500 },
  unclassified: { kind: 'upstream', status: 500 },
  unknown: { kind: 'upstream', status: 500 },
  billing: { kind: 'billing', status: 402 },
  auth: { kind: 'authentication', status: 401 },
  auth_permanent: { kind: 'authentication', status: 401 },
  model_not_found: { kind: 'not_found', status: 404 },
  format: { kind: 'invalid_request', status: 400 },
  context_overflow: { kind: 'invalid_request', status: 400 },
  refusal: { kind: 'invalid_request', status: 422 },
  session_expired: { kind: 'upstream', status: 502 },
  tls_certificate: { kind: 'upstream', status: 502 },
  abort: { kind: 'invalid_request', status: 499 },
});

/** The wire-format error family of a failover reason. @example kindOfReason('timeout') // 'timeout' */
export function kindOfReason(reason: FailoverReason): GatewayErrorKind {
  return REASON_REPLY[reason].kind;
}


/** The `code` of an exhausted chain of several candidates, by how it ended. */
const SUMMARY_CODE: Readonly<Record<ExhaustionKind, GatewayErrorCode>> = Object.freeze({
  rate_limited: 'all_models_rate_limited',
  cooling_down: 'all_models_cooling_down',
  failed: 'all_models_failed',
  ended: 'all_models_failed',
});

/** The sentence a temporary failure's reply ends with when the runner named no moment to retry. */
const TEMPORARY_SENTENCE = ' The failure is temporary on the provider side: retrying shortly may succeed.';

/** An attempt as the error details show it (no bodies, no secrets: the runner's own summary). */
function attemptDetail(record: AttemptRecord): Record<string, unknown> {
  return {
    model: formatModelRef(record),
    profile: record.profile,
    kind: record.kind,
    ok: record.ok,
    ...(record.reason === undefined ? {} : { reason: record.reason }),
    ...(record.status === undefined ? {} : { status: record.status }),
    ...(record.summary === undefined ? {} : { summary: record.summary }),
  };
}

/** Whole seconds until `atMs` (at least 1), or `undefined` when the moment is unknown. */
function secondsUntil(atMs: number | undefined, nowMs: number): number | undefined {
  if (atMs === undefined || !Number.isFinite(atMs)) return undefined;
  return Math.max(1, Math.ceil((atMs - nowMs) / 1000));
}

/**
 * The HTTP status a failed turn answers with: the provider's own status when it is an HTTP error status
 * (400–599), else the status of `reason` from {@link REASON_REPLY} — for a failure without a status, and for a
 * status outside the error range (a 2xx/3xx on a broken stream, or a non-HTTP number such as 600 or 999), which
 * the gateway must not relay as if it were an error reply. The one rule for the exhausted-run reply and for a
 * stream that broke after output.
 * @example replyStatus(529, 'overloaded') // 529
 * @example replyStatus(null, 'server_error') // 500
 * @example replyStatus(600, 'server_error') // 500
 */
export function replyStatus(status: number | null, reason: FailoverReason): number {
  return status !== null && status >= 400 && status <= 599 ? status : REASON_REPLY[reason].status;
}

/** The HTTP error of a run's ending: its status, family, `retry-after`, message guidance and details. */
function exhaustionToHttp(error: FailoverError | FallbackSummaryError, code: GatewayErrorCode, nowMs: number): GatewayError {
  const { exhaustion } = error;
  const waiting = exhaustion.kind === 'rate_limited' || exhaustion.kind === 'cooling_down';
  const reason: FailoverReason = exhaustion.kind === 'rate_limited' ? 'rate_limit' : exhaustion.finalReason;
  const status = exhaustion.kind === 'rate_limited' ? REASON_REPLY.rate_limit.status : replyStatus(exhaustion.finalStatus, reason);
  const reply = REASON_REPLY[reason];
  const retryAfter = waiting ? secondsUntil(exhaustion.recovery.retryAt, nowMs) : undefined;
  // The provider's passing trouble (the runner's reading of the reason) or any 5xx: the reply says a retry may work.
  const temporary = !waiting && (isTransientReason(reason) || status >= 500);
  return new GatewayError(status, reply.kind, `${error.message}${temporary ? TEMPORARY_SENTENCE : ''}`, {
    code,
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
 * @example turnError(summaryError, Date.now()).status // 429 when every candidate was rate-limited
 */
export function turnError(error: unknown, nowMs: number, agentId?: string): GatewayError {
  if (GatewayError.isInstance(error)) return error;
  if (FailoverError.isInstance(error)) return exhaustionToHttp(error, error.reason, nowMs);
  if (FallbackSummaryError.isInstance(error)) return exhaustionToHttp(error, SUMMARY_CODE[error.exhaustion.kind], nowMs);
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
  return internalError(error);
}

