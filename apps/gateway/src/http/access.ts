/**
 * Who may call the gateway (docs/contracts.md#gateway): with `gateway.auth.token` set, every request carries it as
 * `Authorization: Bearer <token>` or `x-api-key: <token>` (what the Anthropic SDK sends); the admin API needs
 * `gateway.auth.adminToken` as a bearer token. Comparisons take constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Constant-time comparison of a presented token with the expected one. */
export function tokenMatches(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  return timingSafeEqual(digest(presented), digest(expected));
}

/** The bearer token of `Authorization`, if any. */
export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const value = headers.authorization;
  if (value === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return match?.[1];
}

/** True when the request may use the API: no token is configured, or it carries the right one. */
export function clientAllowed(headers: IncomingHttpHeaders, token: string | undefined): boolean {
  if (token === undefined) return true;
  const bearer = bearerToken(headers);
  const apiKey = headers['x-api-key'];
  return tokenMatches(bearer, token) || (typeof apiKey === 'string' && tokenMatches(apiKey, token));
}
