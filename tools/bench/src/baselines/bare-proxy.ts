/**
 * The floor: a bare pass-through proxy in a few dozen lines (`node:http` in front, an undici `Pool` behind) that
 * forwards method, path, headers and body to one upstream and relays the answer as it comes. Whatever
 * understudy adds beyond this is the price of its own work (parsing, failover, the store, re-rendering).
 *
 * Run as a process: `node dist/baselines/bare-proxy.js --upstream URL [--port N]` prints `{"url":…}`.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

/** Hop-by-hop headers a proxy must not forward (RFC 9110 §7.6.1), plus `host`, which undici sets. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host']);

function forwardable(headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
  return kept;
}

/** A running bare proxy. */
export interface BareProxy {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts the bare proxy on loopback in front of `upstream`.
 *
 * @example const proxy = await startBareProxy({ upstream: 'http://127.0.0.1:9001' });
 */
export async function startBareProxy(options: { readonly upstream: string; readonly port?: number }): Promise<BareProxy> {
  const pool = new Pool(options.upstream, { connections: 64, pipelining: 1 });
  const server = createServer({ keepAliveTimeout: 65_000 }, (request, response) => {
    pool
      .request({ method: request.method as 'POST', path: request.url ?? '/', headers: forwardable(request.headers), body: request })
      .then(async (answer) => {
        response.writeHead(answer.statusCode, forwardable(answer.headers));
        await pipeline(answer.body, response);
      })
      .catch(() => {
        if (response.headersSent) response.destroy();
        else response.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway');
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await pool.close();
    },
  };
}

const invokedDirectly = process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(import.meta.filename);
if (invokedDirectly) {
  const { values } = parseArgs({ options: { upstream: { type: 'string' }, port: { type: 'string', default: '0' } }, strict: true });
  if (values.upstream === undefined) {
    process.stderr.write('usage: bare-proxy --upstream URL [--port N]\n');
    process.exit(2);
  }
  const proxy = await startBareProxy({ upstream: values.upstream, port: Number(values.port) });
  process.stdout.write(`${JSON.stringify({ url: proxy.url })}\n`);
  const stop = (): void => {
    void proxy.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
