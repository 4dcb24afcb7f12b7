/**
 * `@understudy/provider-emulator/client`: the typed client of the emulator's control API (control.ts), and the
 * one way programs start the emulator as a child process. Tests, the demo and the bench drive the emulator
 * through it instead of writing `fetch` calls to `/__…` paths and casting the answers.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { UnderstudyError } from '@understudy/contracts';
import type { EmulatorStats, RecordedRequest } from './control.js';
import { CONTROL_PATHS, urlOfReadyLine } from './control.js';
import type { EmulatorScript } from './script.js';

export type { EmulatorStats, RecordedRequest } from './control.js';
export type { EmulatorRoute, EmulatorScript, EmulatorStep, OAuthStep } from './script.js';

/**
 * A control call that did not succeed: the emulator answered a status other than 200 (a refused script is a
 * 400 whose message names the bad field), or could not be reached (`status` 0, the network error as `cause`).
 */
export class EmulatorControlError extends UnderstudyError<'emulator_control_failed'> {
  /** The HTTP status the emulator answered; 0 when it did not answer. */
  readonly status: number;

  constructor(message: string, status: number, options: { readonly cause?: unknown } = {}) {
    super('emulator_control_failed', message, options);
    this.status = status;
  }
}

/** The control API of one running emulator. Every method throws {@link EmulatorControlError} on a failed call. */
export interface EmulatorControl {
  /** `http://host:port` of the emulator, no trailing slash. */
  readonly url: string;
  /**
   * Replaces the script and restarts every route's steps and call counts (`POST /__script`). A string is sent
   * as JSON5 text, anything else as JSON. The recorded requests are kept.
   * @throws {EmulatorControlError} with status 400 when the emulator refuses the script.
   */
  setScript(script: EmulatorScript | string): Promise<void>;
  /** Every recorded request since the last clear, oldest first (`GET /__requests`). */
  requests(): Promise<RecordedRequest[]>;
  /** Forgets the recorded requests and the OAuth refresh count (`DELETE /__requests`). */
  clearRequests(): Promise<void>;
  /** The counters (`GET /__stats`). */
  stats(): Promise<EmulatorStats>;
}

async function call(url: string, method: string, pathname: string, body?: string, contentType?: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(`${url}${pathname}`, {
      method,
      ...(body === undefined ? {} : { body, headers: { 'content-type': contentType ?? 'application/json' } }),
    });
  } catch (error) {
    throw new EmulatorControlError(`emulator ${method} ${pathname}: no answer from ${url}`, 0, { cause: error });
  }
  const text = await response.text();
  if (response.status !== 200) throw new EmulatorControlError(`emulator ${method} ${pathname}: ${response.status} ${text.slice(0, 500)}`, response.status);
  return JSON.parse(text) as unknown;
}

/**
 * The control client of the emulator listening at `url` (as printed in its ready line, or
 * `EmulatorHandle.url`). Makes no call until a method is used.
 *
 * @example const control = emulatorControl(url); await control.setScript({ routes: [{ steps: [{ status: 429 }] }] });
 */
export function emulatorControl(url: string): EmulatorControl {
  return {
    url,
    setScript: async (script) => {
      if (typeof script === 'string') await call(url, 'POST', CONTROL_PATHS.script, script, 'text/plain');
      else await call(url, 'POST', CONTROL_PATHS.script, JSON.stringify(script));
    },
    requests: async () => (await call(url, 'GET', CONTROL_PATHS.requests)) as RecordedRequest[],
    clearRequests: async () => {
      await call(url, 'DELETE', CONTROL_PATHS.requests);
    },
    stats: async () => (await call(url, 'GET', CONTROL_PATHS.stats)) as EmulatorStats,
  };
}

/**
 * Options of {@link spawnEmulator}.
 * - `script`: set through `POST /__script` once the process listens; without one every request gets an ok
 *   answer echoing the last user message.
 * - `stderr`: `'pipe'` keeps the process's stderr for {@link EmulatorProcess.stderr}; `'inherit'` passes it
 *   through. @default 'pipe'
 * - `readyTimeoutMs`: how long the process may take to print its ready line. @default 20000
 */
export interface SpawnEmulatorOptions {
  readonly script?: EmulatorScript | string | undefined;
  readonly stderr?: 'pipe' | 'inherit' | undefined;
  readonly readyTimeoutMs?: number | undefined;
}

/** An emulator running as a child process, with its control client. */
export interface EmulatorProcess extends EmulatorControl {
  /** What the process wrote to stderr so far (empty with `stderr: 'inherit'`). */
  stderr(): string;
  /** Sends SIGTERM and resolves once the process has exited (at once when it already had). */
  stop(): Promise<void>;
}

/** The built command line, `dist/main.js` of this package (the same path from `src/` and from `dist/`). */
const MAIN = path.resolve(import.meta.dirname, '../dist/main.js');

/**
 * Starts `node dist/main.js --port 0` (the package must be built), waits for its ready line and returns its
 * control client.
 *
 * @throws {EmulatorControlError} (status 0) when `dist/main.js` is not built, or the process exits or stays silent
 * for `readyTimeoutMs` before it listens; with status 400 when the emulator refuses `script` (the process is
 * stopped then).
 * @example const emulator = await spawnEmulator({ script }); try { … } finally { await emulator.stop(); }
 */
export async function spawnEmulator(options: SpawnEmulatorOptions = {}): Promise<EmulatorProcess> {
  if (!existsSync(MAIN)) throw new EmulatorControlError(`${MAIN} is missing: build @understudy/provider-emulator first (pnpm nx build @understudy/provider-emulator)`, 0);
  const child = spawn(process.execPath, [MAIN, '--port', '0'], { stdio: ['ignore', 'pipe', options.stderr ?? 'pipe'] });
  const stdout = child.stdout;
  if (stdout === null) throw new EmulatorControlError('the emulator process has no stdout', 0);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const timeoutMs = options.readyTimeoutMs ?? 20_000;
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: stdout });
    const timer = setTimeout(() => reject(new EmulatorControlError(`the emulator printed no ready line in ${timeoutMs} ms: ${stderr}`, 0)), timeoutMs);
    lines.on('line', (line) => {
      const found = urlOfReadyLine(line);
      if (found === undefined) return;
      clearTimeout(timer);
      lines.close();
      stdout.resume();
      resolve(found);
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new EmulatorControlError(`the emulator exited (${String(child.exitCode ?? child.signalCode)}) before it listened: ${stderr}`, 0));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  const emulator: EmulatorProcess = { ...emulatorControl(url), stderr: () => stderr, stop };
  if (options.script !== undefined) {
    try {
      await emulator.setScript(options.script);
    } catch (error) {
      await stop();
      throw error;
    }
  }
  return emulator;
}
