/**
 * The Portkey AI gateway (`@portkey-ai/gateway` 1.15.2, a devDependency of this package) as a baseline: started
 * as `node …/build/start-server.js --port=N --headless` (the PID is then the server itself), configured per
 * request through its `x-portkey-config` header against the same upstream as everything else.
 *
 * Portkey has no host option: it binds all interfaces (`*:N`), not only loopback. The bench only talks to it
 * over 127.0.0.1 and stops it at the end of each suite.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { freePort, spawnServer } from '../processes.js';
import type { ServerProcess } from '../processes.js';

/** The version the figures were taken with (read from the installed package). */
export function portkeyVersion(): string {
  const require = createRequire(import.meta.url);
  return (require('@portkey-ai/gateway/package.json') as { version: string }).version;
}

/** The installed `start-server.js`, resolved from this package. @throws when the package is not installed. */
function portkeyEntry(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@portkey-ai/gateway/package.json')), 'build/start-server.js');
}

/**
 * Starts Portkey on a free port and waits until `GET /` answers.
 *
 * @throws {BenchError} `server_failed` (with its log's tail) when it does not start; the caller turns that into a
 *   skipped figure, never a made-up one.
 */
export async function startPortkey(logFile: string): Promise<ServerProcess> {
  const port = await freePort();
  return spawnServer({
    name: 'portkey',
    command: process.execPath,
    args: [portkeyEntry(), `--port=${port}`, '--headless'],
    logFile,
    ready: { kind: 'poll', url: `http://127.0.0.1:${port}/` },
  });
}

/** One Portkey target: an OpenAI-compatible provider at `baseUrl` (e.g. `http://127.0.0.1:9001/v1`). */
function target(baseUrl: string): Record<string, string> {
  return { provider: 'openai', api_key: 'sk-bench-portkey', custom_host: baseUrl };
}

/** The `x-portkey-config` header value for a single target. */
export function portkeySingleConfig(baseUrl: string): string {
  return JSON.stringify(target(baseUrl));
}

/**
 * The `x-portkey-config` header value for a fallback from `primaryBaseUrl` to `fallbackBaseUrl`: on the statuses
 * of `onStatusCodes` (default `[429]`), or, with `null`, on any failure (Portkey's own default, which also covers
 * a primary that never answers). No `request_timeout` is set: Portkey's default (none) applies.
 */
export function portkeyFallbackConfig(primaryBaseUrl: string, fallbackBaseUrl: string, onStatusCodes: readonly number[] | null = [429]): string {
  const strategy = onStatusCodes === null ? { mode: 'fallback' } : { mode: 'fallback', on_status_codes: onStatusCodes };
  return JSON.stringify({ strategy, targets: [target(primaryBaseUrl), target(fallbackBaseUrl)] });
}
