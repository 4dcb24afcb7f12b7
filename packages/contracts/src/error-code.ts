/**
 * Reading the error code off a thrown error (Node's `code`, undici's `UND_ERR_*`), for the providers' transport
 * failures and the runner's failures thrown by an attempt alike.
 */

/** How many links of an error's `cause` chain are read, the error itself included. */
const MAX_CAUSE_DEPTH = 4;

/**
 * The error code of a thrown value: the first non-empty string `code` on the error itself or along its
 * `cause` chain, reading at most 4 links (the error and three causes; a cycle ends there too), or `undefined`.
 * `fetch` wraps a socket error as `TypeError('fetch failed', { cause })`, so the code that tells a timeout
 * from a refused connection is often on the cause. Never throws, for any value.
 *
 * @example errorCode(Object.assign(new Error('reset'), { code: 'ECONNRESET' })) // 'ECONNRESET'
 * @example errorCode(new TypeError('fetch failed', { cause: { code: 'UND_ERR_CONNECT_TIMEOUT' } })) // 'UND_ERR_CONNECT_TIMEOUT'
 * @example errorCode('boom') // undefined
 */
export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && typeof current === 'object' && current !== null; depth += 1) {
    const { code, cause } = current as { readonly code?: unknown; readonly cause?: unknown };
    if (typeof code === 'string' && code !== '') return code;
    current = cause;
  }
  return undefined;
}
