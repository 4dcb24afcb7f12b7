/**
 * How long the gateway waits on a client's request (not on providers: those are `models.timeouts`). Without
 * these, a client that sends its headers and then part of a body could hold a connection and an in-flight
 * slot forever. They are constants rather than config keys; the README lists them.
 */

/** Server-side time limits on client requests, ms. */
export interface HttpLimits {
  /** Whole request (headers and body) must arrive within this (Node's `requestTimeout`; then 408 or a closed socket). */
  readonly requestTimeoutMs: number;
  /** Request headers must arrive within this (Node's `headersTimeout`, at most `requestTimeoutMs`). */
  readonly headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this (Node's `keepAliveTimeout`). */
  readonly keepAliveTimeoutMs: number;
  /** A body that stops arriving for this long is answered 408 in the endpoint's error format. */
  readonly bodyIdleTimeoutMs: number;
  /** How often Node checks connections against the request and headers timeouts. */
  readonly checkIntervalMs: number;
}

/** The gateway's limits. @see HttpLimits */
export const DEFAULT_HTTP_LIMITS: HttpLimits = Object.freeze({
  requestTimeoutMs: 60_000,
  headersTimeoutMs: 30_000,
  // Above the 60 s idle timeout of common load balancers, so they close first.
  keepAliveTimeoutMs: 65_000,
  bodyIdleTimeoutMs: 15_000,
  checkIntervalMs: 5_000,
});

/**
 * The limits with overrides applied (tests use short ones), `headersTimeoutMs` capped at `requestTimeoutMs`.
 *
 * @example resolveHttpLimits({ bodyIdleTimeoutMs: 200 }).requestTimeoutMs // 60000
 */
export function resolveHttpLimits(overrides: Partial<HttpLimits> = {}): HttpLimits {
  const limits = { ...DEFAULT_HTTP_LIMITS, ...overrides };
  return { ...limits, headersTimeoutMs: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) };
}
