/**
 * Where in the exchange a provider failure happened.
 * - `connect`: before a connection was established (DNS, refused, TLS, connect timeout).
 * - `headers`: connected, but the response headers did not arrive (reset, headers timeout).
 * - `body`: headers arrived; the non-streaming body was an error or could not be read.
 * - `stream`: a streaming response failed after it started (time-to-first-token, stall, cut, error event).
 * - `request`: nothing was sent: the request could not be built or serialised for this provider (a request its
 *   format cannot carry, one too deeply nested to serialise). No provider answered, so such a failure never
 *   marks an auth profile (docs/policy.md#what-each-reason-does).
 */
export type FailurePhase = 'request' | 'connect' | 'headers' | 'body' | 'stream';

/** Why a request was aborted: the caller gave up (`user`) or one of our own timeouts fired (`timeout`). */
export type AbortCause = 'user' | 'timeout';

/**
 * Everything understudy learned from one failed provider call, as the providers produce it and the
 * classifier reads it (docs/contracts.md#classify plus transport facts). Every field is optional because real failures
 * arrive with any subset of them.
 *
 * - `status`: HTTP status, or `null`/absent for transport failures.
 * - `headers`: response headers, lower-cased names.
 * - `body`: raw response body text (providers keep at most the first 64 KiB).
 * - `message`: an SDK or transport error message, which may itself embed a status and a JSON body.
 * - `code`: an error code such as `ECONNRESET`, `UND_ERR_HEADERS_TIMEOUT` or `RESOURCE_EXHAUSTED`.
 * - `errorType`: a structured error type such as `overloaded_error`.
 * - `details`: extra strings from the error object.
 * - `phase`: where the exchange failed.
 * - `outputStarted`: `true` when output had already reached the caller; such a failure is terminal.
 * - `abortCause`: set when the request was aborted, telling a user abort from a timeout.
 * - `timeoutKind`: which of our timeouts fired, when one did.
 */
export interface ProviderFailure {
  readonly provider?: string | undefined;
  readonly model?: string | undefined;
  readonly status?: number | null | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly body?: string | undefined;
  readonly message?: string | undefined;
  readonly code?: string | undefined;
  readonly errorType?: string | undefined;
  readonly details?: readonly string[] | undefined;
  readonly phase?: FailurePhase | undefined;
  readonly outputStarted?: boolean | undefined;
  readonly abortCause?: AbortCause | undefined;
  readonly timeoutKind?: 'connect' | 'headers' | 'first_token' | 'stall' | 'body' | 'turn' | undefined;
}

/**
 * The error code a failure carries when one of understudy's own time limits expired, by which one
 * (`ProviderFailure.timeoutKind`): undici's own codes for the connect, headers and body timeouts, `ETIMEDOUT`
 * for the first-token, stall and whole-turn deadlines. The one list of timeout codes: the providers write these
 * codes, the runner reads them (see {@link isTimeoutCode}) to tell a spent time limit from other failures.
 */
export const TIMEOUT_CODES: Readonly<Record<NonNullable<ProviderFailure['timeoutKind']>, string>> = Object.freeze({
  connect: 'UND_ERR_CONNECT_TIMEOUT',
  headers: 'UND_ERR_HEADERS_TIMEOUT',
  body: 'UND_ERR_BODY_TIMEOUT',
  first_token: 'ETIMEDOUT',
  stall: 'ETIMEDOUT',
  turn: 'ETIMEDOUT',
});

const TIMEOUT_CODE_SET: ReadonlySet<string> = new Set(Object.values(TIMEOUT_CODES));

/**
 * True when `code` is one of {@link TIMEOUT_CODES}, compared case-insensitively (`etimedout` counts).
 *
 * @example isTimeoutCode('UND_ERR_HEADERS_TIMEOUT') // true
 * @example isTimeoutCode('ECONNRESET') // false
 */
export function isTimeoutCode(code: string): boolean {
  return TIMEOUT_CODE_SET.has(code.toUpperCase());
}
