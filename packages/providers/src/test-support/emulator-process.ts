/**
 * The provider emulator as a child process (`node tools/provider-emulator/dist/main.js --port 0`), driven
 * through its HTTP control API: `POST /__script`, `GET|DELETE /__requests`, `GET /__stats`.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** What the emulator records per request (the fields these tests read). */
export interface EmulatorRecord {
  readonly method: string;
  readonly path: string;
  readonly api: string;
  readonly model: string | null;
  readonly stream: boolean;
  readonly keyFingerprint: string | null;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly outcome: string;
  /** Which TCP connection carried the request (numbered by the emulator). */
  readonly connection: number;
}

/** A running emulator process. */
export interface EmulatorProcess {
  readonly url: string;
  setScript(script: unknown): Promise<void>;
  requests(): Promise<EmulatorRecord[]>;
  clearRequests(): Promise<void>;
  oauthRefreshes(): Promise<number>;
  close(): Promise<void>;
}

const MAIN = path.resolve(import.meta.dirname, '../../../../tools/provider-emulator/dist/main.js');

async function control(url: string, method: string, pathname: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${url}${pathname}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  const value: unknown = await response.json();
  if (!response.ok) throw new Error(`emulator ${method} ${pathname}: ${JSON.stringify(value)}`);
  return value;
}

/** Starts an emulator process with `script` (default: echo answers for everything). */
export async function startEmulatorProcess(script?: unknown): Promise<EmulatorProcess> {
  const child: ChildProcess = spawn(process.execPath, [MAIN, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const stdout = child.stdout;
  if (stdout === null) throw new Error('the emulator process has no stdout');
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: stdout });
    lines.once('line', (line) => {
      lines.close();
      resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`emulator exited (${code}) before listening: ${stderr}`)));
  });
  const emulator: EmulatorProcess = {
    url,
    setScript: async (value) => {
      await control(url, 'POST', '/__script', value);
    },
    requests: async () => (await control(url, 'GET', '/__requests')) as EmulatorRecord[],
    clearRequests: async () => {
      await control(url, 'DELETE', '/__requests');
    },
    oauthRefreshes: async () => ((await control(url, 'GET', '/__stats')) as { oauthRefreshes: number }).oauthRefreshes,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
  if (script !== undefined) await emulator.setScript(script);
  return emulator;
}
