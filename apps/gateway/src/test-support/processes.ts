/**
 * Real processes for the end-to-end suites, each on an ephemeral loopback port: the provider emulator
 * (`tools/provider-emulator/dist/main.js`, started by its typed client) and the gateway (`apps/gateway/dist/main.js`,
 * with its output captured).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EmulatorControl, EmulatorScript } from '@understudy/provider-emulator/client';
import { spawnEmulator } from '@understudy/provider-emulator/client';

export type { RecordedRequest } from '@understudy/provider-emulator/client';

/** The built gateway entry. */
export const GATEWAY_MAIN = path.resolve(import.meta.dirname, '../../dist/main.js');
/** The built emulator entry. */
export const EMULATOR_MAIN = path.resolve(import.meta.dirname, '../../../../tools/provider-emulator/dist/main.js');

/** A spawned process with its captured output. */
interface Spawned {
  readonly child: ChildProcess;
  readonly url: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or 128 + signal) once the process exited. */
  readonly exited: Promise<number>;
}

async function spawnReady(
  entry: string,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  timeoutMs = 20_000,
): Promise<Spawned> {
  const child = spawn(process.execPath, [entry, ...args], { env: { ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${path.basename(entry)} did not become ready in ${timeoutMs} ms\n${err}`)), timeoutMs);
    const check = (): void => {
      const line = out.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line === undefined) return;
      clearTimeout(timer);
      try {
        resolve((JSON.parse(line) as { url: string }).url);
      } catch (error) {
        reject(error as Error);
      }
    };
    child.stdout?.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${path.basename(entry)} exited with ${code} before it was ready\n${err}`));
    });
  });
  return { child, url, stdout: () => out, stderr: () => err, exited };
}

/**
 * A running provider emulator (its typed control client, `@understudy/provider-emulator/client`), except that
 * `setScript` also forgets the recorded requests, so that a test reads only the requests of its own script.
 */
export interface EmulatorProcess extends EmulatorControl {
  /** Stops the process and waits for its exit. */
  stop(): Promise<void>;
}

/** Starts the emulator (the built `dist/main.js`) with a script. */
export async function startEmulator(script: EmulatorScript = { routes: [] }): Promise<EmulatorProcess> {
  const emulator = await spawnEmulator({ script });
  return {
    ...emulator,
    setScript: async (next) => {
      await emulator.setScript(next);
      await emulator.clearRequests();
    },
  };
}

/** A running gateway. */
export interface GatewayProcess {
  readonly url: string;
  readonly stateDir: string;
  readonly child: ChildProcess;
  /** Everything it wrote so far. */
  stdout(): string;
  stderr(): string;
  /** Sends a signal and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number>;
  readonly exited: Promise<number>;
}

/** Options of {@link startGateway}. */
export interface StartGatewayOptions {
  /** Written as the config file; omitted: no config file (the default location is empty). */
  readonly config?: unknown;
  readonly env?: Readonly<Record<string, string>>;
  readonly args?: readonly string[];
  /** Prepare the state dir before start (e.g. store profiles). */
  readonly prepare?: (stateDir: string) => Promise<void>;
}

/** Starts the gateway on an ephemeral port with a temp state dir and home. */
export async function startGateway(options: StartGatewayOptions): Promise<GatewayProcess> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-gateway-'));
  const stateDir = path.join(dir, 'state');
  const home = path.join(dir, 'home');
  fs.mkdirSync(home);
  await options.prepare?.(stateDir);
  const args = [...(options.args ?? ['--port', '0'])];
  if (options.config !== undefined) {
    const file = path.join(dir, 'understudy.json5');
    fs.writeFileSync(file, JSON.stringify(options.config, null, 2));
    args.push('--config', file);
  }
  const env: Record<string, string | undefined> = {
    PATH: process.env['PATH'],
    HOME: home,
    UNDERSTUDY_STATE_DIR: stateDir,
    ...options.env,
  };
  const spawned = await spawnReady(GATEWAY_MAIN, args, env);
  return {
    url: spawned.url,
    stateDir,
    child: spawned.child,
    stdout: spawned.stdout,
    stderr: spawned.stderr,
    exited: spawned.exited,
    stop: async (signal = 'SIGTERM') => {
      if (spawned.child.exitCode === null && spawned.child.signalCode === null) spawned.child.kill(signal);
      const code = await spawned.exited;
      fs.rmSync(dir, { recursive: true, force: true });
      return code;
    },
  };
}

/** Runs the gateway entry to completion (for start-up failures) and returns its exit code and output. */
export async function runGatewayToExit(args: readonly string[], env: Readonly<Record<string, string>>): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [GATEWAY_MAIN, ...args], { env: { PATH: process.env['PATH'], ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number>((resolve) => child.once('exit', (exitCode) => resolve(exitCode ?? 1)));
  return { code, stdout, stderr };
}

/**
 * Polls a process's stderr until `done` holds for it, for at most `limitMs` (the gateway's log destination
 * buffers info lines for up to `LOG_FLUSH_INTERVAL_MS`, apps/gateway/src/logger.ts), and returns what it has
 * then, so the caller's expectation reports what was missing.
 */
export async function stderrWhen(process: { stderr(): string }, done: (stderr: string) => boolean, limitMs = 10_000): Promise<string> {
  for (const started = Date.now(); !done(process.stderr()) && Date.now() - started < limitMs; ) await new Promise((resolve) => setTimeout(resolve, 20));
  return process.stderr();
}

/** The access lines (`"msg":"request"`) in a gateway's stderr. */
export function accessLineCount(stderr: string): number {
  return stderr.split('\n').filter((line) => line.includes('"msg":"request"')).length;
}
