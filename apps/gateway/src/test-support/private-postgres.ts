/**
 * A PostgreSQL server of the test's own: `initdb` into a temp folder and `pg_ctl` on a free loopback port, so a
 * test can restart or stop a real server without touching the one other suites share. Needs the server binaries
 * (`/usr/lib/postgresql/<version>/bin` or `UNDERSTUDY_TEST_PG_BIN`); as root, the server runs as the `postgres`
 * user (PostgreSQL refuses to run as root).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A running private server. */
export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust auth). */
  readonly url: string;
  /**
   * A restart: `pg_ctl stop -m fast` (every connection cut), `downMs` with no server, then `pg_ctl start`; the
   * server is back when it resolves.
   */
  restart(downMs: number): Promise<void>;
  /** Stops the server and removes its folder. */
  destroy(): void;
}

/** The folder of `initdb` and `pg_ctl`, or `undefined` when this machine has none. */
export function postgresBinaries(): string | undefined {
  const given = process.env['UNDERSTUDY_TEST_PG_BIN'];
  if (given !== undefined) return fs.existsSync(path.join(given, 'pg_ctl')) ? given : undefined;
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs.readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((version) => path.join(root, version, 'bin')).find((dir) => fs.existsSync(path.join(dir, 'pg_ctl')));
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts a fresh server (about 3 s, most of it `initdb`). @throws {Error} with the tool's output when a step fails. */
export async function startPrivatePostgres(bin: string): Promise<PrivatePostgres> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) fs.chownSync(dir, Number(run('id', ['-u', 'postgres']).trim()), Number(run('id', ['-g', 'postgres']).trim()));
  const data = path.join(dir, 'data');
  const port = await freePort();
  const pg = (tool: string, args: readonly string[]): string => (asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]) : run(path.join(bin, tool), args));
  const serverOptions = ['-o', `-p ${String(port)} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, '-l', path.join(dir, 'server.log')];
  pg('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  pg('pg_ctl', ['-D', data, ...serverOptions, '-w', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${String(port)}/postgres`,
    restart: async (downMs) => {
      pg('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      await new Promise((resolve) => setTimeout(resolve, downMs));
      pg('pg_ctl', ['-D', data, ...serverOptions, '-w', 'start']);
    },
    destroy: () => {
      try {
        pg('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function run(command: string, args: readonly string[]): string {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${String(result.status)}): ${result.stdout}${result.stderr}`);
  return result.stdout;
}
