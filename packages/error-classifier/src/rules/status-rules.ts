/**
 * HTTP status rules: the reason a status carries when nothing more specific was found in the codes or the text.
 *
 * docs/policy.md#failover-reasons: 500, 502 and 520 are the provider's own failure (`server_error`); 408, 504 and 524 (and the other
 * Cloudflare connection failures 521–523) are time or transport (`timeout`); 503 and 529 are capacity
 * (`overloaded`); a 410 from a gateway says the stream or resource went away, a transient loss (a retired model
 * says so in its body, which the text families read first). Seed 002: a 402 is billing unless its text names a periodic window (read earlier by the
 * text families); a 404 is `model_not_found` unless its body names another cause (also read earlier); a 404
 * with no body at all carries no details (`no_error_details`).
 */
import type { FailoverReason } from '@understudy/contracts';
import type { Verdict } from './rule.js';

const EXACT: Readonly<Record<number, FailoverReason>> = {
  400: 'format',
  401: 'auth',
  402: 'billing',
  403: 'auth',
  404: 'model_not_found',
  // Proxy Authentication Required: a proxy on the way wants credentials (RFC 9110 §15.5.8)
  407: 'auth',
  408: 'timeout',
  410: 'timeout',
  413: 'context_overflow',
  414: 'context_overflow',
  // Failed Dependency: a service the provider depends on failed (a connector's MCP server, an inference backend)
  424: 'server_error',
  429: 'rate_limit',
  499: 'timeout',
  500: 'server_error',
  502: 'server_error',
  503: 'overloaded',
  504: 'timeout',
  520: 'server_error',
  521: 'timeout',
  522: 'timeout',
  523: 'timeout',
  524: 'timeout',
  525: 'server_error',
  526: 'server_error',
  527: 'timeout',
  529: 'overloaded',
  598: 'timeout',
  599: 'timeout',
};

/**
 * The reason an HTTP status carries by itself, or `null` for statuses that are not failures (1xx–3xx) or not
 * HTTP statuses at all.
 *
 * @example reasonOfStatus(429) // 'rate_limit'
 * @example reasonOfStatus(418) // 'format' (other 4xx: the request itself was refused)
 * @example reasonOfStatus(200) // null
 */
export function reasonOfStatus(status: number): FailoverReason | null {
  if (!Number.isInteger(status)) return null;
  const exact = EXACT[status];
  if (exact !== undefined) return exact;
  if (status >= 400 && status < 500) return 'format';
  if (status >= 500 && status < 600) return 'server_error';
  return null;
}

/**
 * The status verdict for `status`, or `null`. `source` tells where the status came from, and the rule id says
 * so: `status.429` (the failure's own), `inner_status.429` (the innermost error inside a wrapper),
 * `text_status.429` (stated in the text).
 */
export function statusVerdict(status: number | null, source: 'input' | 'inner' | 'text'): Verdict | null {
  if (status === null) return null;
  const reason = reasonOfStatus(status);
  if (reason === null) return null;
  const prefix = source === 'input' ? 'status' : source === 'inner' ? 'inner_status' : 'text_status';
  return { reason, rule: `${prefix}.${status}`, matched: String(status) };
}
