/**
 * The side-by-side set-up shared by the gateway and failover suites: the fixed upstream, and the proxies in
 * front of it as separate processes, each checked with one real request before anything is timed. Portkey is
 * optional: when it cannot start or answers wrongly, the reason is returned and its figures are skipped.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EmulatorScript } from '@understudy/provider-emulator/client';
import { EmulatorControlError, emulatorControl } from '@understudy/provider-emulator/client';
import { BenchError } from '../errors.js';
import { spawnServer } from '../processes.js';
import type { ServerProcess } from '../processes.js';
import { portkeyVersion, startPortkey } from '../baselines/portkey.js';

/** A temp folder for one suite's config files, state and server logs. */
export interface RunFolder {
  readonly dir: string;
  /** Removes the folder, unless `keep` (after a failure, so the logs can be read). */
  remove(keep: boolean): void;
}

/** Creates a run folder under the OS temp folder. */
export function runFolder(prefix: string): RunFolder {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `understudy-bench-${prefix}-`));
  return {
    dir,
    remove: (keep) => {
      if (!keep) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A program of this package's build (`tools/bench/dist/<relative>`). @throws {BenchError} `missing_input` when not built. */
export function benchEntry(repoRoot: string, relative: string): string {
  const entry = path.join(repoRoot, 'tools/bench/dist', relative);
  if (!fs.existsSync(entry)) throw new BenchError(`${entry} is missing: build the bench first (\`pnpm bench\` does)`, 'missing_input');
  return entry;
}

/** Spawns the fixed upstream (`dist/upstream/fixed-upstream.js`). */
export function spawnUpstream(repoRoot: string, dir: string): Promise<ServerProcess> {
  return spawnServer({
    name: 'upstream',
    command: process.execPath,
    args: [benchEntry(repoRoot, 'upstream/fixed-upstream.js')],
    logFile: path.join(dir, 'upstream.log'),
    ready: { kind: 'url-line' },
  });
}

/** Spawns the bare undici proxy (`dist/baselines/bare-proxy.js`) in front of `upstreamUrl`. */
export function spawnBareProxy(repoRoot: string, dir: string, upstreamUrl: string): Promise<ServerProcess> {
  return spawnServer({
    name: 'bare-proxy',
    command: process.execPath,
    args: [benchEntry(repoRoot, 'baselines/bare-proxy.js'), '--upstream', upstreamUrl],
    logFile: path.join(dir, 'bare-proxy.log'),
    ready: { kind: 'url-line' },
  });
}

/**
 * Spawns the provider emulator (`tools/provider-emulator/dist/main.js`, built by `pnpm bench`) with no script:
 * every request gets an ok answer until {@link setEmulatorScript} says otherwise.
 *
 * @throws {BenchError} `missing_input` when the emulator is not built; `server_failed` when it does not start.
 */
export function spawnEmulator(repoRoot: string, dir: string, name: string): Promise<ServerProcess> {
  const entry = path.join(repoRoot, 'tools/provider-emulator/dist/main.js');
  if (!fs.existsSync(entry)) throw new BenchError(`${entry} is missing: run the bench through \`pnpm bench\`, which builds the emulator first`, 'missing_input');
  return spawnServer({
    name,
    command: process.execPath,
    args: [entry, '--port', '0'],
    logFile: path.join(dir, `${name}.log`),
    ready: { kind: 'url-line' },
  });
}

/**
 * Replaces an emulator's script through its typed control client (`POST /__script`, which also restarts every
 * route's steps and call counts).
 *
 * @throws {BenchError} `bad_answer` when the emulator refuses the script or does not answer.
 */
export async function setEmulatorScript(emulatorUrl: string, script: EmulatorScript): Promise<void> {
  try {
    await emulatorControl(emulatorUrl).setScript(script);
  } catch (error) {
    if (!EmulatorControlError.isInstance(error)) throw error;
    throw new BenchError(`the emulator refused the script: ${error.message.slice(0, 300)}`, 'bad_answer', { cause: error });
  }
}

/** The calls an emulator's route named `route` has had since its script was last set (`GET /__stats`). */
export async function emulatorRouteCalls(emulatorUrl: string, route: string): Promise<number> {
  const stats = await emulatorControl(emulatorUrl).stats();
  return stats.routes.find((each) => each.name === route)?.calls ?? 0;
}

/** Portkey, or why it is not there. */
export type PortkeyStart = { readonly ok: true; readonly server: ServerProcess; readonly version: string } | { readonly ok: false; readonly reason: string };

/** Starts Portkey; a failure is returned as a reason (with the first line of its log), never thrown. */
export async function tryStartPortkey(dir: string): Promise<PortkeyStart> {
  try {
    const version = portkeyVersion();
    return { ok: true, server: await startPortkey(path.join(dir, 'portkey.log')), version };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: `Portkey could not run here: ${message.split('\n').slice(0, 3).join(' | ')}` };
  }
}

/** Stops every server (in parallel), ignoring ones already gone. */
export async function stopAll(servers: readonly (ServerProcess | undefined)[]): Promise<void> {
  await Promise.allSettled(servers.map((server) => server?.stop()));
}
