/**
 * Which bind addresses are loopback (docs/contracts.md#gateway: binding anything else requires `gateway.auth.token`). The
 * gateway checks this after applying `--host`, since a flag may override the config.
 */

/**
 * True for `localhost`, `127.0.0.0/8`, `::1` (also bracketed) and `::ffff:127.x.x.x`.
 *
 * @example isLoopbackHost('127.0.0.1') // true
 * @example isLoopbackHost('0.0.0.0') // false
 */
export function isLoopbackHost(host: string): boolean {
  const text = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (text === 'localhost' || text === '::1' || text === '0:0:0:0:0:0:0:1') return true;
  const v4 = text.startsWith('::ffff:') ? text.slice('::ffff:'.length) : text;
  const parts = v4.split('.');
  return (
    parts.length === 4 &&
    parts[0] === '127' &&
    parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255)
  );
}
