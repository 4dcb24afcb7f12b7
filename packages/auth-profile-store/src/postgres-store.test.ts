import { spawn } from 'node:child_process';
import path from 'node:path';
import { Secret } from '@understudy/contracts';
import type { ProfileUsageStats } from '@understudy/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PG_MIGRATION_NAMES, connectPostgresState, openAuthProfileStore } from './index.js';
import type { AuthProfileStore, ConnectPostgresStateOptions, PostgresState } from './index.js';
import { buildChildScript } from './test-support/build-child.js';
import { TcpProxy } from './test-support/tcp-proxy.js';
import { makeTempStateRoot, removeTempStateRoot } from './test-support/temp-state.js';
import { TEST_POSTGRES_URL, TEST_SECRET_KEY, adminQuery, dropSchemas, freshSchema, postgresAvailable } from './test-support/test-postgres.js';

const available = await postgresAvailable();
const schemas: string[] = [];
const cleanups: (() => Promise<void>)[] = [];
let root: string;

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  await dropSchemas(schemas);
});

function newSchema(label: string): string {
  const schema = freshSchema(label);
  schemas.push(schema);
  return schema;
}

async function connect(schema: string, options: Partial<ConnectPostgresStateOptions> = {}): Promise<PostgresState> {
  const state = await connectPostgresState({ url: TEST_POSTGRES_URL, schema, secretKey: TEST_SECRET_KEY, poolSize: 3, ...options });
  cleanups.push(() => state.close());
  return state;
}

async function open(state: PostgresState, agentId = 'main', inlineKey?: string): Promise<AuthProfileStore> {
  root = makeTempStateRoot('understudy-pg-');
  const dir = root;
  const store = await openAuthProfileStore({
    stateDir: dir,
    agentId,
    postgres: state,
    ...(inlineKey === undefined ? {} : { inlineProfiles: [{ provider: 'anthropic', key: new Secret(inlineKey) }] }),
  });
  cleanups.push(async () => {
    await store.close();
    removeTempStateRoot(dir);
  });
  return store;
}

const bump = (stats: ProfileUsageStats): ProfileUsageStats => ({ ...stats, errorCount: (stats.errorCount ?? 0) + 1 });

async function until(condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.runIf(available)('PostgreSQL state: schema and migrations', () => {
  it('replicas starting together on a fresh schema migrate it once', async () => {
    const schema = newSchema('migrate');
    const states = await Promise.all([0, 1, 2, 3].map(() => connect(schema)));
    expect(states).toHaveLength(4);
    const rows = await adminQuery<{ name: string }>(`select name from ${schema}.kysely_migration order by name`);
    expect(rows.map((row) => row.name)).toEqual([...PG_MIGRATION_NAMES]);
    expect(await (states[0] as PostgresState).pendingMigrations()).toEqual([]);
  }, 30_000);

  it('with migrations: check, a fresh schema is refused with the command that migrates it', async () => {
    const schema = newSchema('check');
    await expect(connect(schema, { migrations: 'check' })).rejects.toMatchObject({ code: 'store_not_migrated', message: expect.stringContaining('understudy doctor --fix') });
  });

  it('keeps agents apart in one schema', async () => {
    const state = await connect(newSchema('agents'));
    const main = await open(state, 'main');
    const coder = await open(state, 'coder');
    await main.upsertProfile({ credential: { type: 'api_key', provider: 'openai', key: new Secret('sk-test-main-0001') } });
    await main.updateUsageStats('openai:default', bump);
    await main.writeSession('s', null, { modelOverride: 'gpt-4o' }, 1);
    expect(await coder.listProfiles()).toEqual([]);
    expect(await coder.listUsageStats()).toEqual({});
    expect(await coder.getSession('s')).toBeUndefined();
    expect((await main.listProfiles()).map((profile) => profile.id)).toEqual(['openai:default']);
  });

  it('refuses a schema PostgreSQL keeps for itself before connecting', async () => {
    for (const schema of ['pg_catalog', 'pg_toast', 'information_schema']) {
      await expect(connectPostgresState({ url: TEST_POSTGRES_URL, schema })).rejects.toMatchObject({
        code: 'invalid_postgres_options',
        message: `schema "${schema}" is reserved by PostgreSQL (pg_* and information_schema): name another, e.g. "understudy"`,
      });
    }
  });

  it('with migrations: none, nothing is written until migrate() runs', async () => {
    const schema = newSchema('none');
    const state = await connect(schema, { migrations: 'none' });
    const exists = async (): Promise<boolean> => (await adminQuery(`select 1 from information_schema.schemata where schema_name = $1`, [schema])).length === 1;
    expect(await state.storedKeyIds()).toEqual([]);
    expect(await state.pendingMigrations()).toEqual([...PG_MIGRATION_NAMES]);
    expect(await exists()).toBe(false);
    expect(await state.migrate()).toEqual([...PG_MIGRATION_NAMES]);
    expect(await exists()).toBe(true);
  });

  it('a database that does not exist is refused with the server reason, its SQLSTATE and the fix, never the password', async () => {
    const url = new URL(TEST_POSTGRES_URL);
    url.pathname = '/understudy_no_such_database';
    url.password = 'hunter2-refused';
    const state = await connect(newSchema('nodb'), { url: url.toString(), migrations: 'none' });
    const read = (await state.storedKeyIds().catch((caught: unknown) => caught)) as Error & { code: string };
    expect(read.code).toBe('state_refused');
    expect(read.message).toContain('database "understudy_no_such_database" does not exist (SQLSTATE 3D000): check the database name in the URL');
    const migrate = (await state.migrate().catch((caught: unknown) => caught)) as Error & { code: string };
    expect(migrate.code).toBe('migration_failed');
    expect(migrate.message).toContain('does not exist (SQLSTATE 3D000)');
    for (const message of [read.message, migrate.message]) expect(message).not.toContain('hunter2-refused');
  });

  it('storedKeyIds names the key of the sealed values, and another key fails the one key comparison', async () => {
    const schema = newSchema('keyids');
    const state = await connect(schema);
    const store = await open(state);
    await store.upsertProfile({ credential: { type: 'api_key', provider: 'openai', key: new Secret('sk-test-key-ids-0001') } });
    const ids = await state.storedKeyIds();
    expect(ids).toEqual([state.secretBox?.keyId]);
    const other = await connect(schema, { secretKey: 'another-test-secret-key-9876543210zyxw', migrations: 'none' });
    expect(() => other.secretBox?.assertKeyId(ids[0] ?? '')).toThrow(expect.objectContaining({ code: 'secret_key_mismatch' }));
    expect(() => state.secretBox?.assertKeyId(ids[0] ?? '')).not.toThrow();
  });

  it('rejects a schema name that is not a plain identifier', async () => {
    await expect(connectPostgresState({ url: TEST_POSTGRES_URL, schema: 'x; drop table y' })).rejects.toMatchObject({ code: 'invalid_postgres_options' });
  });

  it('names host and database, never the password, when the server cannot be reached', async () => {
    const error = (await connectPostgresState({ url: 'postgres://ada:hunter2-secret@127.0.0.1:1/nowhere', schema: newSchema('down'), connectTimeoutMs: 500 }).catch(
      (caught: unknown) => caught,
    )) as Error & { code: string };
    expect(error.code).toBe('state_unreachable');
    expect(error.message).toContain('postgres://127.0.0.1:1/nowhere');
    expect(error.message).not.toContain('hunter2');
  });
});

describe.runIf(available)('PostgreSQL state: credentials at rest', () => {
  it('seals every secret column with AES-256-GCM; the raw rows hold no secret and inline keys are not stored', async () => {
    const schema = newSchema('sealed');
    const store = await open(await connect(schema), 'main', 'sk-test-inline-never-stored');
    await store.upsertProfile({ credential: { type: 'api_key', provider: 'openai', key: new Secret('sk-test-plain-api-key-0001') } });
    await store.upsertProfile({
      credential: { type: 'oauth', provider: 'google', access: new Secret('at-test-access-0002'), refresh: new Secret('rt-test-refresh-0003'), expires: 5, email: 'ada@example.com' },
    });
    await store.updateUsageStats('anthropic:inline', bump);
    const dump = JSON.stringify(await adminQuery(`select * from ${schema}.credentials`)) + JSON.stringify(await adminQuery(`select * from ${schema}.usage_stats`));
    for (const secret of ['sk-test-plain-api-key-0001', 'at-test-access-0002', 'rt-test-refresh-0003', 'sk-test-inline-never-stored']) expect(dump).not.toContain(secret);
    const [row] = await adminQuery<{ api_key: string }>(`select api_key from ${schema}.credentials where profile_id = 'openai:default'`);
    expect(row?.api_key).toMatch(/^v1\.[0-9a-f]{8}\./);
    expect((await adminQuery(`select * from ${schema}.profiles where id = 'anthropic:inline'`)).length).toBe(0);
    const credential = await store.resolveCredential('google:ada@example.com');
    expect(credential?.type === 'oauth' && credential.refresh?.reveal()).toBe('rt-test-refresh-0003');
    expect(JSON.stringify(store)).not.toContain('postgres://postgres@');
  });

  it('without a key refuses to store a credential and says what to set; routing state still works', async () => {
    const schema = newSchema('nokey');
    const store = await open(await connect(schema, { secretKey: undefined }));
    await expect(store.upsertProfile({ credential: { type: 'api_key', provider: 'openai', key: new Secret('sk-test-refused-0004') } })).rejects.toMatchObject({
      code: 'secret_key_missing',
      message:
        'storing credentials in the shared PostgreSQL state needs a secret key: set UNDERSTUDY_SECRET_KEY (or the variable named by state.secretKeyEnv) to a random value of at least 32 characters, e.g. `openssl rand -base64 32`',
    });
    expect((await store.updateUsageStats('openai:default', bump)).errorCount).toBe(1);
    expect((await adminQuery(`select * from ${schema}.credentials`)).length).toBe(0);
  });

  it('a replica with another key skips that credential and reports it, instead of sending garbage or failing the agent', async () => {
    const schema = newSchema('mismatch');
    const writer = await open(await connect(schema));
    await writer.upsertProfile({ credential: { type: 'api_key', provider: 'openai', key: new Secret('sk-test-mismatch-0005') } });
    await writer.upsertProfile({ id: 'anthropic:ok', credential: { type: 'api_key', provider: 'anthropic', key: new Secret('sk-test-mismatch-0006') } });
    const lines: string[] = [];
    const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (_fields: object, message: string) => lines.push(message) };
    const reader = await open(await connect(schema, { secretKey: 'another-test-secret-key-9876543210zyxw', logger }), 'main', 'sk-test-inline-0007');
    expect(await reader.resolveCredential('openai:default')).toBeUndefined();
    expect(await reader.resolveCredential('openai:default')).toBeUndefined();
    expect(reader.status().unreadableCredentials).toEqual(['openai:default']);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('same UNDERSTUDY_SECRET_KEY');
    expect(lines.join('\n')).not.toContain('sk-test-mismatch');
    // The rest of the agent still works: inline keys, routing state, listing (which never reads secrets).
    expect(await reader.resolveCredential('anthropic:inline')).toMatchObject({ type: 'api_key' });
    expect((await reader.loadProviderAuthState('openai')).profiles.map((profile) => profile.id)).toEqual(['openai:default']);
    expect((await reader.listProfiles()).find((profile) => profile.id === 'openai:default')?.facts.hasSecret).toBe(true);
    // Once the row is gone, the report goes too.
    await writer.removeProfile('openai:default');
    await until(async () => (await reader.resolveCredential('openai:default')) === undefined && reader.status().unreadableCredentials.length === 0, 'the report to clear');
  });

  it('refuses a key shorter than 32 characters', async () => {
    await expect(connectPostgresState({ url: TEST_POSTGRES_URL, schema: newSchema('short'), secretKey: 'short' })).rejects.toMatchObject({ code: 'invalid_secret_key' });
  });
});

describe.runIf(available)('PostgreSQL state: the per-replica cache and its staleness bound', () => {
  it('a write on one replica reaches another replica that cached the state as soon as the notification arrives', async () => {
    const schema = newSchema('notify');
    // A cache that would otherwise be served for a minute: only the notification can explain the refresh.
    const a = await open(await connect(schema, { cacheMaxAgeMs: 60_000 }));
    const stateB = await connect(schema, { cacheMaxAgeMs: 60_000 });
    const b = await open(stateB);
    expect((await b.loadProviderAuthState('openai')).usageStats).toEqual({});
    await a.updateUsageStats('openai:x', (stats) => ({ ...stats, cooldownUntil: 123 }));
    await stateB.sync();
    expect((await b.loadProviderAuthState('openai')).usageStats['openai:x']?.cooldownUntil).toBe(123);
    await a.writeSession('s', null, { modelOverride: 'm1' }, 1);
    await until(async () => (await b.getSession('s'))?.modelOverride === 'm1', 'the session write to reach replica B');
  });

  it('serves a cached state without reading the database, and never past cacheMaxAgeMs', async () => {
    const schema = newSchema('ttl');
    let clock = 0;
    const state = await connect(schema, { cacheMaxAgeMs: 1000, monotonicMs: () => clock });
    const store = await open(state);
    await store.updateUsageStats('openai:x', (stats) => ({ ...stats, errorCount: 1 }));
    await state.sync(); // the store's own notification has arrived: nothing invalidates what it reads next
    expect((await store.loadProviderAuthState('openai')).usageStats['openai:x']?.errorCount).toBe(1);
    // A write that sends no notification (as if it were lost): the cache keeps serving until its age bound.
    await adminQuery(`update ${schema}.usage_stats set stats = '{"errorCount":7}'`);
    clock = 1000;
    expect((await store.loadProviderAuthState('openai')).usageStats['openai:x']?.errorCount).toBe(1);
    clock = 1001;
    expect((await store.loadProviderAuthState('openai')).usageStats['openai:x']?.errorCount).toBe(7);
  });

  it('bypasses the cache while its listener is disconnected, and caches again after it reconnected', async () => {
    const schema = newSchema('listener');
    // The listener reconnects a second after it was cut: long enough for the read below to happen while it is
    // down even on a loaded machine. The cut is seen through onStatus, not by polling, so a quick reconnect
    // between two polls cannot hide it.
    const state = await connect(schema, { cacheMaxAgeMs: 60_000, retryIntervalMs: 1000 });
    const store = await open(state);
    await store.updateUsageStats('openai:x', (stats) => ({ ...stats, errorCount: 1 }));
    expect((await store.loadProviderAuthState('openai')).usageStats['openai:x']?.errorCount).toBe(1);
    let cut = false;
    const stopWatching = state.onStatus((status) => {
      if (!status.listening) cut = true;
    });
    cleanups.push(() => {
      stopWatching();
      return Promise.resolve();
    });
    await adminQuery(`select pg_terminate_backend(pid) from pg_stat_activity where query = $1`, [`listen ${state.channel}`]);
    await until(() => cut, 'the listener to notice it was cut');
    await adminQuery(`update ${schema}.usage_stats set stats = '{"errorCount":8}'`);
    expect((await store.loadProviderAuthState('openai')).usageStats['openai:x']?.errorCount).toBe(8);
    await until(() => state.status().listening, 'the listener to reconnect');
    expect((await store.loadProviderAuthState('openai')).usageStats['openai:x']?.errorCount).toBe(8);
  });
});

describe.runIf(available)('PostgreSQL state: the server goes away and comes back', () => {
  it('serves the last known state, keeps marks and writes them back, refuses session writes meanwhile', async () => {
    const schema = newSchema('outage');
    const target = new URL(TEST_POSTGRES_URL);
    const proxy = new TcpProxy({ host: target.hostname, port: Number(target.port === '' ? 5432 : target.port) });
    await proxy.start();
    cleanups.push(() => proxy.stop());
    const url = new URL(TEST_POSTGRES_URL);
    url.port = String(proxy.port);
    const state = await connect(schema, { url: url.toString(), retryIntervalMs: 50, connectTimeoutMs: 500 });
    const store = await open(state);
    await store.upsertProfile({ credential: { type: 'api_key', provider: 'openai', key: new Secret('sk-test-outage-0006') } });
    await store.writeSession('s', null, { modelOverride: 'gpt-4o' }, 1);
    expect((await store.loadProviderAuthState('openai')).profiles).toHaveLength(1);
    expect((await store.resolveCredential('openai:default'))?.type).toBe('api_key');
    expect((await store.getSession('s'))?.modelOverride).toBe('gpt-4o');

    await proxy.stop();
    // The first call that meets the outage marks the store down; each call still answers.
    const marked = await store.updateUsageStats('openai:default', (stats) => ({ ...stats, cooldownUntil: 999, errorCount: 1 }));
    expect(marked.cooldownUntil).toBe(999);
    expect(store.status()).toMatchObject({ backend: 'postgres', up: false, pendingMarks: 1 });
    const during = await store.loadProviderAuthState('openai');
    expect(during.profiles.map((profile) => profile.id)).toEqual(['openai:default']);
    expect(during.usageStats['openai:default']?.cooldownUntil).toBe(999);
    expect((await store.resolveCredential('openai:default'))?.type).toBe('api_key');
    expect((await store.getSession('s'))?.modelOverride).toBe('gpt-4o');
    expect(await store.tryAcquireProbe('openai', 10, 1000)).toBe(true);
    expect(await store.tryAcquireProbe('openai', 20, 1000)).toBe(false);
    await store.updateUsageStats('openai:default', bump);
    await expect(store.writeSession('s', 1, { modelOverride: 'other' }, 2)).rejects.toMatchObject({ code: 'state_unreachable' });

    await proxy.start();
    await until(() => store.status().up && store.status().pendingMarks === 0, 'recovery and write-back');
    const [row] = await adminQuery<{ stats: string }>(`select stats from ${schema}.usage_stats where profile_id = 'openai:default'`);
    expect(JSON.parse(row?.stats ?? '{}')).toMatchObject({ cooldownUntil: 999, errorCount: 2 });
    expect((await store.writeSession('s', 1, { modelOverride: 'other' }, 3)).ok).toBe(true);
  }, 30_000);
});

describe.runIf(available)('PostgreSQL state: several processes marking one profile', () => {
  let childScript: string;
  beforeAll(async () => {
    childScript = await buildChildScript(path.join(import.meta.dirname, 'test-support', 'mark-failures-child.ts'));
  }, 60_000);

  it('4 processes x 100 row-locked marks end with exactly 400 errors', async () => {
    const schema = newSchema('procs');
    await connect(schema);
    const dir = makeTempStateRoot('understudy-pg-procs-');
    cleanups.push(() => Promise.resolve(removeTempStateRoot(dir)));
    const results = await Promise.all(
      [0, 1, 2, 3].map(
        () =>
          new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
            const child = spawn(process.execPath, [childScript, dir, 'openai:shared', '100', TEST_POSTGRES_URL, schema], { stdio: ['ignore', 'ignore', 'pipe'] });
            let stderr = '';
            child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
            child.on('error', reject);
            child.on('close', (code) => resolve({ code, stderr }));
          }),
      ),
    );
    for (const result of results) expect(result).toEqual({ code: 0, stderr: '' });
    const [row] = await adminQuery<{ stats: string }>(`select stats from ${schema}.usage_stats where agent_id = 'main' and profile_id = 'openai:shared'`);
    const stats = JSON.parse(row?.stats ?? '{}') as ProfileUsageStats;
    expect(stats.errorCount).toBe(400);
    expect(stats.failureCounts).toEqual({ rate_limit: 400 });
  }, 60_000);
});
