/**
 * The one error the HTTP layer renders: a status, a kind that each wire format maps to its own error type, a
 * message that is safe to show (no provider bodies, no secrets), and an optional Retry-After. It sits on the one
 * error base of `@understudy/contracts`.
 */
import type { AuthStoreErrorCode } from '@understudy/auth-profile-store';
import type { FailoverReason } from '@understudy/contracts';
import { UnderstudyError } from '@understudy/contracts';

/**
 * What went wrong, independent of the wire format. OpenAI and Anthropic renderers map it to their own `type`.
 * - `invalid_request`: the request itself is wrong (400, 413, 415, 422).
 * - `authentication` / `permission`: the caller's token, or the final upstream failure was an auth failure.
 * - `not_found`: unknown route, model, agent, session or profile.
 * - `request_too_large`: the body exceeds `gateway.maxRequestBytes`.
 * - `rate_limit`, `billing`, `overloaded`, `timeout`: the final upstream failure's reason family.
 * - `upstream`: any other upstream failure; `unavailable`: the gateway is shutting down; `internal`: a bug.
 */
export type GatewayErrorKind =
  | 'invalid_request'
  | 'authentication'
  | 'permission'
  | 'not_found'
  | 'request_too_large'
  | 'rate_limit'
  | 'billing'
  | 'overloaded'
  | 'timeout'
  | 'upstream'
  | 'unavailable'
  /** The gateway cannot serve this until its operator acts (no model configured, legacy files to import). */
  | 'misconfigured'
  | 'internal';

/**
 * The machine-readable `code` of a gateway error (the wire body's `code`), snake_case: the kind itself when
 * nothing more precise applies, the final failover reason of a failed turn, the summary of an exhausted chain,
 * a store code, or one of the gateway's own codes for bad requests and access.
 */
export type GatewayErrorCode =
  | GatewayErrorKind
  | FailoverReason
  | AuthStoreErrorCode
  | 'all_models_rate_limited'
  | 'all_models_cooling_down'
  | 'all_models_failed'
  | 'no_model_configured'
  | 'invalid_model'
  | 'internal_error'
  | 'admin_disabled'
  | 'invalid_admin_token'
  /** The status page's data and actions need a login session (401, docs/contracts.md#status-page). */
  | 'ui_login_required'
  /** A status page action without the session's CSRF token (403). */
  | 'csrf_token_missing'
  /** A status page POST from another origin (403). */
  | 'cross_origin'
  | 'invalid_api_key'
  | 'agent_not_found'
  | 'provider_not_configured'
  | 'session_not_found'
  | 'session_busy'
  | 'invalid_session_key'
  | 'invalid_session_patch'
  | 'invalid_chat_type'
  | 'live_switch_loop'
  | 'nesting_too_deep'
  | 'invalid_selection_source'
  | 'invalid_json'
  | 'invalid_body'
  | 'incomplete_body'
  /** The body came with a `content-encoding` (gzip, br, …) the gateway does not decode (415). */
  | 'unsupported_content_encoding'
  | 'missing_messages'
  | 'missing_input'
  | 'unsupported_stored_state'
  | 'method_not_allowed'
  | 'model_not_found'
  | 'bad_request'
  | 'invalid_request_target'
  | 'headers_too_large'
  | 'request_timeout'
  | 'rate_limit_exceeded'
  | 'insufficient_quota'
  /** The shared PostgreSQL state cannot be reached: a write that needs it is refused (503). */
  | 'state_store_unreachable'
  | 'shutting_down';

/** Options of {@link GatewayError}. */
export interface GatewayErrorOptions {
  /** A short machine-readable code; defaults to the kind. */
  readonly code?: GatewayErrorCode | undefined;
  /** Seconds the client should wait; sent as the `retry-after` header. */
  readonly retryAfterSeconds?: number | undefined;
  /** Extra fields for the body's `understudy` object (e.g. the attempts of a failed turn). */
  readonly details?: Readonly<Record<string, unknown>> | undefined;
  /**
   * understudy already used its own retries, rotations and fallbacks on this request: a client SDK retrying the
   * same request at once cannot help (the answer then says `x-should-retry: false`, docs/wire-mapping.md#retries).
   * @default false
   */
  readonly exhausted?: boolean | undefined;
  /**
   * The request body field the error is about, as a path from the body's root (`model`, `messages`,
   * `messages[0].content[1].type`); OpenAI's error bodies carry it as `param` (`null` without one,
   * docs/wire-mapping.md#errors). Anthropic's error bodies have no such field: their message starts with it.
   */
  readonly param?: string | undefined;
  readonly cause?: unknown;
}

/**
 * An error with an HTTP status, rendered in the wire format of the endpoint that raised it.
 *
 * @example throw new GatewayError(404, 'not_found', 'unknown model "x"; valid: default, openai/gpt-4o', { code: 'model_not_found' })
 */
export class GatewayError extends UnderstudyError<GatewayErrorCode> {
  readonly status: number;
  readonly kind: GatewayErrorKind;
  readonly retryAfterSeconds: number | undefined;
  readonly details: Readonly<Record<string, unknown>> | undefined;
  readonly exhausted: boolean;
  /** The request body field the error is about (see {@link GatewayErrorOptions.param}); `undefined` for none. */
  readonly param: string | undefined;

  constructor(status: number, kind: GatewayErrorKind, message: string, options: GatewayErrorOptions = {}) {
    super(options.code ?? kind, message, options);
    this.status = status;
    this.kind = kind;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.details = options.details;
    this.exhausted = options.exhausted === true;
    this.param = options.param;
  }
}

/**
 * A 400 naming the bad field and the fix. `param`: the body field it is about, when it is about one (OpenAI's
 * `param`; see {@link GatewayErrorOptions.param}).
 *
 * @example invalidRequest('model: must not be empty; use "default" or "provider/model"', 'invalid_model', 'model')
 */
export function invalidRequest(message: string, code: GatewayErrorCode = 'invalid_request', param?: string): GatewayError {
  return new GatewayError(400, 'invalid_request', message, { code, ...(param === undefined ? {} : { param }) });
}

/**
 * The 500 `internal_error` for a failure of the gateway's own (nothing the client or a provider did): its text
 * points to the gateway log, where the cause is logged; the cause never reaches the client.
 */
export function internalError(cause?: unknown): GatewayError {
  return new GatewayError(500, 'internal', 'internal gateway error (see the gateway log)', { code: 'internal_error', ...(cause === undefined ? {} : { cause }) });
}

/** The 405 for an endpoint hit with another method than the one it serves (`allowed`: POST for chat, GET for the model list). */
export function methodNotAllowed(method: string, path: string, allowed: 'GET' | 'POST'): GatewayError {
  return new GatewayError(405, 'invalid_request', `${method} ${path} is not supported; use ${allowed}`, { code: 'method_not_allowed' });
}
