/**
 * The processes under test: spawning a server, waiting until it is ready, reading its resident memory, and
 * stopping it. Each server's output goes to a log file in the run's temp folder (never to a pipe the bench must
 * drain, which would cost the server time under load); the log's tail is quoted when a server fails to start.
 */
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BenchError } from './errors.js';

/** A server process the bench started. */
export interface ServerProcess {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  /** The last lines of its log (for error messages). */
  logTail(lines?: number): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it exited. Idempotent. */
  stop(graceMs?: number): Promise<void>;
}

/** How to start one server. */
export interface SpawnOptions {
  /** Name in progress lines and errors, e.g. `understudy`. */
  readonly name: string;
  /** The program and its arguments (`process.execPath` for Node entries). */
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  /** Output file (stdout and stderr). */
  readonly logFile: string;
  /**
   * How readiness shows: `url-line` (the server prints `{"url":…}` as a JSON line on stdout, as the gateway, the
   * emulator and the bench's own servers do) or `poll` (GET `url` answers 200, for Portkey).
   */
  readonly ready: { readonly kind: 'url-line' } | { readonly kind: 'poll'; readonly url: string };
  /** @default 20000 */
  readonly timeoutMs?: number;
}

function tailOf(file: string, lines: number): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

function exitPromise(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.signalCode ?? String(child.exitCode));
    else child.once('exit', (code, signal) => resolve(signal ?? String(code)));
  });
}

async function waitForUrlLine(file: string, exited: Promise<string>, deadline: number): Promise<string> {
  let done = false;
  void exited.then(() => (done = true));
  for (;;) {
    const line = tailOf(file, 1_000)
      .split('\n')
      .find((candidate) => candidate.startsWith('{"url"'));
    if (line !== undefined) return (JSON.parse(line) as { url: string }).url;
    if (done) throw new Error(`exited with ${await exited} before it printed its URL`);
    if (Date.now() > deadline) throw new Error('did not print its URL in time');
    await sleep(20);
  }
}

async function waitForPoll(url: string, exited: Promise<string>, deadline: number): Promise<string> {
  let done = false;
  void exited.then(() => (done = true));
  for (;;) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      if (response.ok) return url.replace(/\/$/, '');
    } catch {
      // not listening yet
    }
    if (done) throw new Error(`exited with ${await exited} before ${url} answered`);
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 in time`);
    await sleep(50);
  }
}

/**
 * Spawns a server and waits until it is ready.
 *
 * @throws {BenchError} `server_failed` with the log's tail when it exits or times out first (it is killed).
 */
export async function spawnServer(options: SpawnOptions): Promise<ServerProcess> {
  fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
  const fd = fs.openSync(options.logFile, 'w');
  const child = spawn(options.command, [...options.args], {
    cwd: options.cwd,
    env: { ...(options.env ?? process.env) },
    stdio: ['ignore', fd, fd],
  });
  fs.closeSync(fd);
  const exited = exitPromise(child);
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  const stop = async (graceMs = 5000): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    }
  };
  let url: string;
  try {
    url =
      options.ready.kind === 'url-line'
        ? await waitForUrlLine(options.logFile, exited, deadline)
        : await waitForPoll(options.ready.url, exited, deadline);
  } catch (error) {
    await stop(500);
    const tail = tailOf(options.logFile, 15).trim();
    throw new BenchError(`${options.name} did not start: ${(error as Error).message}${tail === '' ? '' : `\n${tail}`}`, 'server_failed', { cause: error });
  }
  if (child.pid === undefined) throw new BenchError(`${options.name} has no pid`, 'server_failed');
  return { name: options.name, url, pid: child.pid, logTail: (lines = 15) => tailOf(options.logFile, lines), stop };
}

/** A free TCP port on loopback (for servers that cannot be told to pick one, like Portkey). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The resident set size of a process in MiB: `VmRSS` from `/proc/<pid>/status`, else `ps -o rss=`.
 * `undefined` when neither can be read (the process is gone).
 */
export function rssMiB(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (match?.[1] !== undefined) return Number(match[1]) / 1024;
  } catch {
    // no procfs: fall back to ps
  }
  try {
    const kib = Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim());
    return Number.isFinite(kib) && kib > 0 ? kib / 1024 : undefined;
  } catch {
    return undefined;
  }
}

let ticksPerSecond: number | undefined;

/**
 * CPU time (user + system) a process has used so far, ms, from `/proc/<pid>/stat` (clock ticks, usually 10 ms
 * each). `undefined` without procfs or when the process is gone.
 */
export function cpuTimeMs(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; fields after its closing parenthesis are space-separated.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of the whole line)
    if (!Number.isFinite(ticks)) return undefined;
    ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    return (ticks * 1000) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

/** Samples a process's RSS every `everyMs` until stopped; `peak()` is the largest sample so far (MiB). */
export function sampleRss(pid: number, everyMs = 100): { peak(): number; stop(): number } {
  let peak = rssMiB(pid) ?? 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMiB(pid) ?? 0);
  }, everyMs);
  return {
    peak: () => peak,
    stop: () => {
      clearInterval(timer);
      peak = Math.max(peak, rssMiB(pid) ?? 0);
      return peak;
    },
  };
}
