/**
 * End to end: what the built gateway accepts as its shared state at start (README "Running several replicas",
 * docs/configuration.md): a unix-socket URL (`?host=/var/run/postgresql`, as node-postgres reads it) works
 * against the test server's real socket; a URL without host and the schema `public` stop the start with exit 2,
 * naming the variable or config field and the fix, before anything is written.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureConfig } from './test-support/e2e-fixture.js';
import { runGatewayToExit, startGateway } from './test-support/processes.js';
import { TEST_POSTGRES_URL, chat, dropReplicaSchema, postgresAvailable, replicaEnv, replicaSchema } from './test-support/replica-state.js';

const SCHEMA = replicaSchema('shared_start');
const SOCKET_DIR = '/var/run/postgresql';
const available = await postgresAvailable(SCHEMA);
const dirs: string[] = [];

afterAll(async () => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  if (available) await dropReplicaSchema(SCHEMA);
});

/** Writes `config` to a temp file and runs the gateway with it until it exits. */
async function startToExit(config: unknown, env: Readonly<Record<string, string>>): Promise<{ code: number; stdout: string; stderr: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-shared-start-'));
  dirs.push(dir);
  const file = path.join(dir, 'understudy.json5');
  fs.writeFileSync(file, JSON.stringify(config));
  return runGatewayToExit(['--config', file, '--port', '0'], { HOME: dir, UNDERSTUDY_STATE_DIR: path.join(dir, 'state'), ...env });
}

describe('the shared state a gateway is started with', () => {
  it('UNDERSTUDY_POSTGRES_URL without a host: exit 2 naming the variable and the URL forms, never the password', async () => {
    const result = await startToExit(fixtureConfig('http://127.0.0.1:9'), { ...replicaEnv('postgres://u:hunter2-start@/understudy') });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('UNDERSTUDY_POSTGRES_URL: the PostgreSQL URL names no host (nor a unix-socket folder in ?host=)');
    expect(result.stderr).toContain('postgres://[user@]/database?host=/var/run/postgresql');
    expect(result.stderr).not.toContain('hunter2-start');
  });

  it('state.postgres.schema "public": exit 2 naming the field and the fix', async () => {
    const result = await startToExit({ ...fixtureConfig('http://127.0.0.1:9'), state: { postgres: { schema: 'public' } } }, replicaEnv(TEST_POSTGRES_URL));
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('state.postgres.schema: schema "public" is the database\'s default schema');
    expect(result.stderr).toContain('name another, e.g. "understudy"');
  });

  it.runIf(available && fs.existsSync(`${SOCKET_DIR}/.s.PGSQL.5432`))('serves on the shared state through the server\'s unix socket', async () => {
    const tcp = new URL(TEST_POSTGRES_URL);
    const database = tcp.pathname.slice(1) || 'test';
    const socketUrl = `postgres://${tcp.username || 'postgres'}@/${database}?host=${SOCKET_DIR}`;
    const gateway = await startGateway({ config: { ...fixtureConfig('http://127.0.0.1:9'), state: { postgres: { schema: SCHEMA } } }, env: replicaEnv(socketUrl) });
    try {
      const health = async (): Promise<unknown> => ((await (await fetch(`${gateway.url}/healthz`)).json()) as { state?: unknown }).state;
      // The URL names no TCP host: the shared state is reached through the socket or not at all.
      expect(await health()).toMatchObject({ backend: 'postgres', up: true });
      // A turn reads and marks the shared state (every upstream here refuses connections, so the answer is the gateway's own).
      await chat(gateway, 'over the socket');
      expect(await health()).toMatchObject({ backend: 'postgres', up: true, pendingMarks: 0 });
    } finally {
      await gateway.stop();
    }
  }, 30_000);
});
