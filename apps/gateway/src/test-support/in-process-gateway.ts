/**
 * A gateway created in the test process (no build, no child process) on a loopback port, with a temporary
 * state root and its log lines captured: for tests that need short client-request limits, a shutdown under
 * their control, or a state file broken on purpose.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { parseConfig } from '@understudy/config';
import { parseRuntimeEnv } from '@understudy/runtime';
import type { Gateway, ListenInfo } from '../gateway.js';
import { createGateway } from '../gateway.js';
import type { HttpLimits } from '../http/server-limits.js';
import { createLogger } from '../logger.js';

/** The admin token of in-process gateways. */
export const IN_PROCESS_ADMIN_TOKEN = 'admin-in-process-token-42';

/** A running in-process gateway. */
export interface InProcessGateway extends ListenInfo {
  readonly gateway: Gateway;
  readonly stateDir: string;
  /** Parsed log lines so far. */
  logLines(): Record<string, unknown>[];
  /** The raw log text so far. */
  logText(): string;
  /** `fetch` against the admin API. */
  admin(method: string, endpoint: string, body?: unknown): Promise<{ readonly status: number; readonly json: unknown }>;
  /** Closes the gateway (if not closed yet) and removes the state root. */
  stop(): Promise<void>;
}

/**
 * Starts a gateway with `config` (merged over a minimal one: admin token, port 0, no provider) in the test
 * process.
 *
 * @param options.prepare - runs on the state root before the gateway starts (e.g. to break a database).
 */
export async function startInProcessGateway(
  options: {
    readonly config?: Record<string, unknown>;
    readonly httpLimits?: Partial<HttpLimits>;
    readonly prepare?: (stateDir: string) => Promise<void> | void;
    readonly logLevel?: string;
  } = {},
): Promise<InProcessGateway> {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-gw-'));
  await options.prepare?.(stateDir);
  let text = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  const given = options.config ?? {};
  const config = parseConfig({
    ...given,
    gateway: { port: 0, auth: { adminToken: IN_PROCESS_ADMIN_TOKEN }, logLevel: options.logLevel ?? 'debug', ...(given['gateway'] as object | undefined) },
  });
  const gateway = createGateway({
    config,
    settings: { ...parseRuntimeEnv({}), stateDir },
    homeDir: stateDir,
    logger: createLogger({ level: config.gateway.logLevel, destination }),
    processMetrics: false,
    httpLimits: options.httpLimits,
  });
  const info = await gateway.listen();
  return {
    ...info,
    gateway,
    stateDir,
    logText: () => text,
    logLines: () =>
      text
        .trim()
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    admin: async (method, endpoint, body) => {
      const response = await fetch(`${info.url}${endpoint}`, {
        method,
        headers: { authorization: `Bearer ${IN_PROCESS_ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, json: (await response.json()) as unknown };
    },
    stop: async () => {
      await gateway.close({ graceMs: 0 });
      fs.rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** A raw TCP client, for requests `fetch` cannot make (a body that stops half way). */
export interface RawClient {
  write(text: string): void;
  /** Everything received so far. */
  received(): string;
  /** Resolves once the server closed the connection, with everything received. */
  readonly closed: Promise<string>;
  destroy(): void;
}

/** Opens a raw TCP connection to `port` on 127.0.0.1. */
export async function rawClient(port: number): Promise<RawClient> {
  const socket = net.connect({ host: '127.0.0.1', port });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  return {
    write: (text) => socket.write(text),
    received: () => received,
    closed,
    destroy: () => socket.destroy(),
  };
}
