/**
 * Reading the request target (the part of the request line between the method and the HTTP version) as a URL
 * without ever throwing. The target comes from the client as it was sent: `//`, `//[`, `//a:99999/` or `//%`
 * are valid origin-form paths to Node's HTTP parser, but handed to `new URL(target, base)` they read as a
 * protocol-relative URL with a bad host and throw. Here an origin-form target (`/…`) is always a path of a fixed
 * base, an absolute-form target (`http://host/path`, which HTTP/1.1 servers must accept) gives its path and
 * query, and anything else is refused.
 */

import { invalidRequest } from '../gateway-error.js';

/** The base every origin-form target is read against: the gateway never uses the host part. */
const BASE = 'http://gateway.invalid';

/**
 * Decodes one percent-encoded path segment (`/v1/models/{id}`, `/admin/profiles/{id}`, `/admin/sessions/{key}`).
 * @throws {GatewayError} 400 `invalid_request` when the segment is not valid percent-encoding (`%@@`, a lone `%`),
 *   which `decodeURIComponent` would otherwise throw as a `URIError` from inside request handling.
 */
export function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw invalidRequest('the path segment is not valid percent-encoding');
  }
}

/** What {@link parseRequestTarget} read. */
export type RequestTarget =
  | { readonly ok: true; readonly url: URL }
  | {
      readonly ok: false;
      /** Why the target cannot be used, safe to show the client (it does not repeat the target). */
      readonly problem: string;
    };

/**
 * The request target as a URL whose `pathname` and `searchParams` the router reads. Never throws.
 *
 * - `/path?query` (origin form): always a path, whatever it contains (`//`, `//[`, `//a:99999/`, `//%` are paths).
 * - `http://host/path?query` or `https://…` (absolute form): its path and query; the host is ignored.
 * - anything else (including the asterisk form `*`, which no route serves), or an absent target: `{ ok: false }` (the router answers 400 `invalid_request_target`).
 *
 * @example parseRequestTarget('//').ok // true, pathname '//'
 * @example parseRequestTarget('http://[').ok // false
 */
export function parseRequestTarget(target: string | undefined): RequestTarget {
  if (target === undefined || target === '') return { ok: false, problem: 'the request has no target: send a path such as /v1/chat/completions' };
  if (target.startsWith('/')) {
    const url = readUrl(target);
    return url === undefined ? { ok: false, problem: 'the request target is not a valid path' } : { ok: true, url };
  }
  const absolute = readAbsolute(target);
  if (absolute !== undefined) return { ok: true, url: absolute };
  return { ok: false, problem: 'the request target must be a path starting with "/" (or an absolute http URL)' };
}

/** An origin-form target read against the fixed base; `undefined` when even that fails. */
function readUrl(path: string): URL | undefined {
  try {
    // Concatenated, not `new URL(path, BASE)`: a leading `//` must stay part of the path.
    return new URL(`${BASE}${path}`);
  } catch {
    return undefined;
  }
}

/** An absolute-form `http(s)` target's path and query against the fixed base; `undefined` otherwise. */
function readAbsolute(target: string): URL | undefined {
  try {
    const url = new URL(target);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return readUrl(`${url.pathname}${url.search}`);
  } catch {
    return undefined;
  }
}
