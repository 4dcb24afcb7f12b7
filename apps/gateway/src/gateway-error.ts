/**
 * The one error the HTTP layer renders: a status, a kind that each wire format maps to its own error type, a
 * message that is safe to show (no provider bodies, no secrets), and an optional Retry-After.
 */

/**
 * What went wrong, independent of the wire format. OpenAI and Anthropic renderers map it to their own `type`.
 * - `invalid_request`: the request itself is wrong (400, 413, 422).
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

const brand = Symbol.for('understudy.error.GatewayError');

/** Options of {@link GatewayError}. */
export interface GatewayErrorOptions {
  /** A short machine-readable code (`model_not_found`, `invalid_json`, a failover reason, …). */
  readonly code?: string | undefined;
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
  readonly cause?: unknown;
}

/**
 * An error with an HTTP status, rendered in the wire format of the endpoint that raised it.
 *
 * @example throw new GatewayError(404, 'not_found', 'unknown model "x"; valid: default, openai/gpt-4o', { code: 'model_not_found' })
 */
export class GatewayError extends Error {
  readonly status: number;
  readonly kind: GatewayErrorKind;
  readonly code: string;
  readonly retryAfterSeconds: number | undefined;
  readonly details: Readonly<Record<string, unknown>> | undefined;
  readonly exhausted: boolean;

  constructor(status: number, kind: GatewayErrorKind, message: string, options: GatewayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayError';
    this.status = status;
    this.kind = kind;
    this.code = options.code ?? kind;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.details = options.details;
    this.exhausted = options.exhausted === true;
    Object.defineProperty(this, brand, { value: true, enumerable: false });
  }

  /** Duplicate-install-safe check. */
  static isInstance(value: unknown): value is GatewayError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
  }
}

/** A 400 naming the bad field and the fix. */
export function invalidRequest(message: string, code = 'invalid_request'): GatewayError {
  return new GatewayError(400, 'invalid_request', message, { code });
}
