/**
 * Telling our own exceptions from provider failures. An attempt function may throw what an SDK threw for a
 * provider answer or a broken connection (an error with a `status`, a `code` such as `ECONNRESET`, or a
 * `cause` that carries one); those are classified and may mark the auth profile. A bare JavaScript engine
 * error — a `TypeError`, a `RangeError` such as "Maximum call stack size exceeded", a `ReferenceError` — with
 * none of those facts is a bug or an input our code could not handle: no provider answered, so it must never
 * mark a profile (docs/policy.md#what-each-reason-does). The runner lets it end the turn unchanged, and the
 * caller reports it as its own error.
 */

/**
 * True for an engine error (`TypeError`, `RangeError`, `ReferenceError`, `SyntaxError`, `EvalError`,
 * `URIError`) that carries no `status`, no `code` and no `cause`: an exception of ours, not a provider failure.
 *
 * @example isOwnException(new RangeError('Maximum call stack size exceeded')) // true
 * @example isOwnException(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })) // false
 */
export function isOwnException(error: unknown): boolean {
  const engineError =
    error instanceof TypeError ||
    error instanceof RangeError ||
    error instanceof ReferenceError ||
    error instanceof SyntaxError ||
    error instanceof EvalError ||
    error instanceof URIError;
  if (!engineError) return false;
  const fields = error as unknown as Record<string, unknown>;
  return fields['status'] === undefined && fields['code'] === undefined && error.cause === undefined;
}
