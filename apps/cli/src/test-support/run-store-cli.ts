/**
 * Runs the CLI in-process with fake streams and a temporary HOME, for the store-management command tests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { runCli } from '../main.js';

/** What one CLI run produced. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A temporary HOME with an empty `.understudy` state root inside. */
export interface TempHome {
  readonly home: string;
  readonly stateRoot: string;
  remove(): void;
}

/** Creates a temporary HOME. */
export function makeTempHome(): TempHome {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-cli-'));
  return { home, stateRoot: path.join(home, '.understudy'), remove: () => fs.rmSync(home, { recursive: true, force: true }) };
}

/** Runs `understudy <argv>` with `stdin` text and `env` (HOME set to `home`). */
export async function runStoreCli(
  argv: readonly string[],
  options: { readonly home: string; readonly env?: Readonly<Record<string, string | undefined>>; readonly stdin?: string; readonly tty?: boolean },
): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  if (options.tty === true) Object.assign(stdout, { isTTY: true });
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await runCli(argv, {
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    stdout,
    stderr,
    env: { HOME: options.home, ...options.env },
  });
  return { code, stdout: out, stderr: err };
}
