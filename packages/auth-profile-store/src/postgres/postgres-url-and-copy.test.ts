/**
 * The PostgreSQL URL and schema the shared state accepts (unix-socket URLs as `pg` reads them; `public` and
 * PostgreSQL's own schemas refused with the fix), connecting through the real unix socket of the test server,
 * and `state copy` runs serialised per schema: a copy that finds another one running is refused cleanly
 * (`state_busy`, nothing written), and two copies started together never surface a statement timeout.
 */
import fs from 'node:fs';
import pg from 'pg';
import { Secret } from '@understudy/contracts';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AuthStoreError } from '../errors.js';
import { STATE_COPY_LOCK, connectPostgresState, copyStateToPostgres, describePostgresUrl, openAuthProfileStore, parsePostgresUrl, schemaProblem } from '../index.js';
import type { StateCopyReport } from '../index.js';
import { makeTempStateRoot, removeTempStateRoot } from '../test-support/temp-state.js';
import { TEST_POSTGRES_URL, TEST_SECRET_KEY, adminQuery, dropSchemas, freshSchema, postgresAvailable } from '../test-support/test-postgres.js';

const available = await postgresAvailable();
/** The test server's unix-socket folder (Debian's PostgreSQL packages put it here). */
const SOCKET_DIR = '/var/run/postgresql';
const socketAvailable = available && fs.existsSync(`${SOCKET_DIR}/.s.PGSQL.5432`);
const schemas: string[] = [];
const roots: string[] = [];

afterEach(() => {
  for (const root of roots.splice(0)) removeTempStateRoot(root);
});
afterAll(async () => {
  if (available) await dropSchemas(schemas);
});

function newSchema(label: string): string {
  const schema = freshSchema(label);
  schemas.push(schema);
  return schema;
}

function codeOf(error: unknown): string | undefined {
  return AuthStoreError.isInstance(error) ? error.code : undefined;
}

async function failure(run: () => unknown): Promise<AuthStoreError> {
  try {
    await run();
  } catch (error) {
    if (AuthStoreError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an AuthStoreError');
}

describe('PostgreSQL URLs and schema names', () => {
  it('reads unix-socket URLs as pg does: ?host=, an empty host, a %2F-encoded host', () => {
    expect(parsePostgresUrl('postgres://postgres@/test?host=/var/run/postgresql')).toMatchObject({ host: '/var/run/postgresql', socket: true, database: 'test', user: 'postgres' });
    expect(parsePostgresUrl('postgres:///test?host=/var/run/postgresql')).toMatchObject({ host: '/var/run/postgresql', socket: true, database: 'test' });
    expect(parsePostgresUrl('postgresql://%2Fvar%2Frun%2Fpostgresql/test')).toMatchObject({ host: '/var/run/postgresql', socket: true, database: 'test' });
    expect(parsePostgresUrl('postgres://u:p%40ss@db.internal:5433/understudy')).toMatchObject({ host: 'db.internal', socket: false, port: '5433', user: 'u', password: 'p@ss' });
  });

  it('refuses what is no PostgreSQL URL, naming the forms to write and never echoing the URL', async () => {
    for (const url of ['mysql://u:hunter2-url@db/x', 'postgres://', 'postgres://h:notaport/db', 'db.internal:5432']) {
      const error = await failure(() => parsePostgresUrl(url));
      expect(error.code).toBe('invalid_postgres_options');
      expect(error.message).toContain('postgres://[user@]/database?host=/var/run/postgresql');
      expect(error.message).not.toContain('hunter2-url');
    }
  });

  it('describes a socket URL by its folder and a TCP one by host and port, without user or password', () => {
    expect(describePostgresUrl('postgres://postgres:hunter2-d@/test?host=/var/run/postgresql')).toBe('postgres:///test?host=/var/run/postgresql');
    expect(describePostgresUrl('postgresql://%2Fvar%2Frun%2Fpostgresql/test')).toBe('postgres:///test?host=/var/run/postgresql');
    expect(describePostgresUrl('postgres://u:hunter2-d@db.internal:5433/understudy')).toBe('postgres://db.internal:5433/understudy');
  });

  it('refuses public and PostgreSQL\'s own schemas with the fix; understudy and test names pass', () => {
    expect(schemaProblem('public')).toMatch(/schema "public" is the database's default schema.*name another, e.g. "understudy"/);
    expect(schemaProblem('pg_catalog')).toContain('reserved by PostgreSQL');
    expect(schemaProblem('information_schema')).toContain('reserved by PostgreSQL');
    expect(schemaProblem('Bad-Name')).toContain('lower-case letters, digits and _');
    expect(schemaProblem('understudy')).toBeUndefined();
    expect(schemaProblem('public_understudy')).toBeUndefined();
  });

  it.runIf(available)('connectPostgresState refuses schema public before it writes anything', async () => {
    const error = await failure(() => connectPostgresState({ url: TEST_POSTGRES_URL, schema: 'public' }));
    expect(error.code).toBe('invalid_postgres_options');
    expect(await adminQuery("select 1 from pg_tables where schemaname = 'public' and tablename = 'kysely_migration'")).toEqual([]);
  });
});

describe.runIf(socketAvailable)('the shared state over the unix socket of the test server', () => {
  it('connects, migrates and stores through each socket URL form', async () => {
    const user = new URL(TEST_POSTGRES_URL).username || 'postgres';
    const database = new URL(TEST_POSTGRES_URL).pathname.slice(1) || 'test';
    for (const url of [
      `postgres://${user}@/${database}?host=${SOCKET_DIR}`,
      `postgres:///${database}?host=${SOCKET_DIR}&user=${user}`,
      `postgresql://${user}@${encodeURIComponent(SOCKET_DIR)}/${database}`,
    ]) {
      const schema = newSchema('socket');
      const state = await connectPostgresState({ url, schema, secretKey: TEST_SECRET_KEY, poolSize: 2 });
      try {
        expect(state.location).toBe(`postgres:///${database}?host=${SOCKET_DIR} (schema ${schema})`);
        // Over the socket, the server has no address of its own for this connection.
        expect((await state.query<{ addr: string | null }>({ text: 'select inet_server_addr() as addr' })).rows[0]?.addr).toBeNull();
        const root = makeTempStateRoot('understudy-pg-socket-');
        roots.push(root);
        const store = await openAuthProfileStore({ stateDir: root, agentId: 'main', postgres: state, legacyFiles: 'ignore' });
        await store.upsertProfile({ id: 'openai:sock', credential: { type: 'api_key', provider: 'openai', key: new Secret('sk-test-socket-0001') } });
        await store.updateUsageStats('openai:sock', (stats) => ({ ...stats, errorCount: 1 }));
        expect((await store.listUsageStats())['openai:sock']?.errorCount).toBe(1);
        await store.close();
      } finally {
        await state.close();
      }
    }
  });
});

/** A SQLite state root with `agents` agents of `sessions` sessions and one profile each. */
async function seedState(agents: number, sessions: number): Promise<string> {
  const root = makeTempStateRoot('understudy-pg-copy-');
  roots.push(root);
  for (let index = 0; index < agents; index += 1) {
    const store = await openAuthProfileStore({ stateDir: root, agentId: `agent${String(index)}` });
    try {
      await store.upsertProfile({ id: 'openai:a', credential: { type: 'api_key', provider: 'openai', key: new Secret(`sk-test-copy-${String(index)}`) } });
      for (let session = 0; session < sessions; session += 1) {
        await store.writeSession(`s-${String(session)}`, null, { modelOverride: 'gpt-4o', providerOverride: 'openai', modelOverrideSource: 'user' }, 1_736_160_000_000);
      }
    } finally {
      await store.close();
    }
  }
  return root;
}

async function copyInto(root: string, schema: string, statementTimeoutMs?: number): Promise<StateCopyReport> {
  const state = await connectPostgresState({ url: TEST_POSTGRES_URL, schema, secretKey: TEST_SECRET_KEY, poolSize: 2, migrations: 'none', statementTimeoutMs });
  try {
    return await copyStateToPostgres({ stateRoot: root, postgres: state });
  } finally {
    await state.close();
  }
}

describe.runIf(available)('state copy runs one at a time per schema', () => {
  it('a copy that finds another one running is refused with state_busy, naming what to do, and writes nothing', async () => {
    const root = await seedState(1, 3);
    const schema = newSchema('copy_busy');
    // Another copy's session holds the lock.
    const other = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await other.connect();
    try {
      await other.query('select pg_advisory_lock(hashtext($1))', [`understudy ${STATE_COPY_LOCK} ${schema}`]);
      const error = await failure(() => copyInto(root, schema));
      expect(error.code).toBe('state_busy');
      expect(error.message).toMatch(/another `understudy state copy` into postgres:\/\/.* is running: wait for it to end, then run this one again/);
      // Refused before migrating: not even the schema was created.
      expect(await adminQuery('select 1 from information_schema.schemata where schema_name = $1', [schema])).toEqual([]);
    } finally {
      await other.end();
    }
    // Once the other copy is done, the same copy goes through.
    const report = await copyInto(root, schema);
    expect(report.totals.sessions).toEqual({ copied: 3, skipped: 0 });
  });

  it('a copy held up past the statement timeout by another writer\'s rows says so and what to do, and writes nothing of that agent', async () => {
    const root = await seedState(1, 3);
    const schema = newSchema('copy_timeout');
    await (await connectPostgresState({ url: TEST_POSTGRES_URL, schema })).close();
    // Another writer (outside any copy) holds an uncommitted row the copy wants to insert.
    const writer = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await writer.connect();
    try {
      await writer.query('begin');
      await writer.query(`insert into ${schema}.sessions (agent_id, key, revision, created_at, updated_at) values ('agent0', 's-1', 1, 0, 0)`);
      const error = await failure(() => copyInto(root, schema, 300));
      expect(error.code).toBe('state_refused');
      expect(error.message).toMatch(/^copying agent agent0 at postgres:\/\/.* failed: .*\(SQLSTATE 57014\): a statement ran past the statement timeout, waiting on rows another writer held .*run it again once that writer is done/);
      await writer.query('rollback');
    } finally {
      await writer.end();
    }
    expect(await adminQuery(`select 1 from ${schema}.profiles`)).toEqual([]);
  });

  it('two large copies started together: each copies or is refused with state_busy, never a statement timeout, and every row arrives once', async () => {
    const root = await seedState(2, 1500);
    const schema = newSchema('copy_race');
    const outcomes = await Promise.allSettled([copyInto(root, schema), copyInto(root, schema)]);
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => codeOf(outcome.reason) ?? String(outcome.reason));
    expect(refused.every((code) => code === 'state_busy')).toBe(true);
    const reports = outcomes.filter((outcome) => outcome.status === 'fulfilled').map((outcome) => outcome.value);
    expect(reports.length).toBeGreaterThanOrEqual(1);
    expect(reports.reduce((sum, report) => sum + report.totals.sessions.copied, 0)).toBe(3000);
    const counted = await adminQuery<{ n: number }>(`select count(*)::int as n from ${schema}.sessions`);
    expect(counted[0]?.n).toBe(3000);
  }, 120_000);
});
