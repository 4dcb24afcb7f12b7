import fs from 'node:fs';
import path from 'node:path';
import { STATE_COPY_LOCK, connectPostgresState, openAuthProfileStore } from '@understudy/auth-profile-store';
import type { AuthProfileStore } from '@understudy/auth-profile-store';
import { Secret } from '@understudy/contracts';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempHome, runStoreCli } from '../test-support/run-store-cli.js';
import type { TempHome } from '../test-support/run-store-cli.js';

const POSTGRES_URL = process.env['UNDERSTUDY_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECRET_KEY = 'test-only-state-copy-key-0123456789abcdef';
const API_KEY = 'sk-test-state-copy-0001';
const REFRESH = 'rt-test-state-copy-0002';
const PASSWORD = 'hunter2-state-copy';
const OTHER_KEY = 'test-only-state-copy-other-key-9876543210zyxw';
const SCHEMAS: string[] = [];
/** A login role with no rights on the test database (trust auth lets it connect), dropped afterwards. */
const NO_RIGHTS_ROLE = `t_state_copy_norights_${String(process.pid)}`;

/** Drops the test schemas (connecting creates the first one, so every run has one to drop). */
async function dropSchemas(names: readonly string[]): Promise<void> {
  const [first = 't_state_copy_none'] = names;
  const state = await connectPostgresState({ url: POSTGRES_URL, schema: first, connectTimeoutMs: 3000, poolSize: 1 });
  try {
    for (const name of names) await state.query({ text: `drop schema if exists ${name} cascade` });
  } finally {
    await state.close();
  }
}

/** True when the test server answers; with CI=true a missing server fails the suite instead of skipping it. */
async function postgresAvailable(): Promise<boolean> {
  try {
    await dropSchemas([`t_state_copy_probe_${String(process.pid)}`]);
    return true;
  } catch (error) {
    if (process.env['CI'] === 'true') throw new Error(`CI=true and no PostgreSQL answers at ${POSTGRES_URL}`, { cause: error });
    return false;
  }
}

const available = await postgresAvailable();

/** Runs one statement on the test server, around the command under test (connecting writes nothing). */
async function pgQuery<Row extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<Row[]> {
  const state = await connectPostgresState({ url: POSTGRES_URL, schema: 't_state_copy_admin', migrations: 'none', connectTimeoutMs: 3000, poolSize: 1 });
  try {
    return (await state.query<Row>({ text, values })).rows;
  } finally {
    await state.close();
  }
}

/** True when the schema exists on the test server: a refused copy must not have created it. */
async function schemaExists(name: string): Promise<boolean> {
  return (await pgQuery('select 1 from information_schema.schemata where schema_name = $1', [name])).length === 1;
}

let temp: TempHome;
let schema: string;

beforeEach(() => {
  temp = makeTempHome();
  schema = `t_state_copy_${String(process.pid)}_${String(SCHEMAS.length)}_${Date.now().toString(36)}`;
  SCHEMAS.push(schema);
});
afterEach(() => temp.remove());
afterAll(async () => {
  if (!available) return;
  await dropSchemas(SCHEMAS);
  await pgQuery(`drop role if exists ${NO_RIGHTS_ROLE}`);
});

const run = (argv: readonly string[], env: Readonly<Record<string, string | undefined>> = { UNDERSTUDY_SECRET_KEY: SECRET_KEY }) =>
  runStoreCli(argv, { home: temp.home, env });

/** A single-host state of two agents: profiles (api key, oauth), a cooldown, an order, a session, a probe. */
async function seedSqlite(): Promise<void> {
  const main = await openAuthProfileStore({ stateDir: temp.stateRoot, agentId: 'main' });
  try {
    await main.upsertProfile({ id: 'openai:a', credential: { type: 'api_key', provider: 'openai', key: new Secret(API_KEY) } });
    await main.upsertProfile({
      id: 'anthropic:ada@example.com',
      credential: { type: 'oauth', provider: 'anthropic', access: new Secret('at-test-state-copy'), refresh: new Secret(REFRESH), expires: 4_102_444_800_000, email: 'ada@example.com' },
    });
    await main.updateUsageStats('openai:a', (stats) => ({ ...stats, errorCount: 3, cooldownUntil: 4_102_444_800_000, lastFailureAt: 1_736_160_000_000 }));
    await main.setOrderOverride('openai', ['openai:a']);
    await main.writeSession('chat-1', null, { modelOverride: 'gpt-4o', providerOverride: 'openai', modelOverrideSource: 'user', authProfileOverride: 'openai:a', authProfileOverrideSource: 'user' }, 1_736_160_000_000);
    expect(await main.tryAcquireProbe('openai', 1_736_160_000_000, 30_000)).toBe(true);
  } finally {
    await main.close();
  }
  const work = await openAuthProfileStore({ stateDir: temp.stateRoot, agentId: 'work' });
  try {
    await work.upsertProfile({ id: 'openai:w', credential: { type: 'api_key', provider: 'openai', key: new Secret('sk-test-state-copy-work') } });
  } finally {
    await work.close();
  }
}

async function withPgStore<T>(agentId: string, body: (store: AuthProfileStore) => Promise<T>): Promise<T> {
  const state = await connectPostgresState({ url: POSTGRES_URL, schema, secretKey: SECRET_KEY, poolSize: 2 });
  const store = await openAuthProfileStore({ stateDir: temp.stateRoot, agentId, postgres: state, closePostgres: true, legacyFiles: 'ignore' });
  try {
    return await body(store);
  } finally {
    await store.close();
  }
}

describe('understudy state copy: argument errors name the flag and the fix', () => {
  it('a missing or empty --from, and a --from without agents/', async () => {
    const missing = await run(['state', 'copy', '--to', POSTGRES_URL]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--from <dir> is required');
    const nowhere = await run(['state', 'copy', '--from', path.join(temp.home, 'nope'), '--to', POSTGRES_URL]);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toMatch(/--from .*nope does not exist: pass the state root/);
    fs.mkdirSync(path.join(temp.home, 'empty'));
    const empty = await run(['state', 'copy', '--from', path.join(temp.home, 'empty'), '--to', POSTGRES_URL]);
    expect(empty.stderr).toContain('has no agents/ folder');
  });

  it('a --to that is not a PostgreSQL URL, without echoing its password', async () => {
    fs.mkdirSync(path.join(temp.stateRoot, 'agents'), { recursive: true });
    const bad = await run(['state', 'copy', '--from', temp.stateRoot, '--to', `mysql://u:${PASSWORD}@db/x`]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--to: the PostgreSQL URL must start with postgres:// or postgresql://: write postgres://');
    expect(bad.stderr).not.toContain(PASSWORD);
    const none = await run(['state', 'copy', '--from', temp.stateRoot]);
    expect(none.stderr).toContain('--to <postgres url> is required');
    const hostless = await run(['state', 'copy', '--from', temp.stateRoot, '--to', `postgres://u:${PASSWORD}@/understudy`]);
    expect(hostless.code).toBe(2);
    expect(hostless.stderr).toContain('--to: the PostgreSQL URL names no host (nor a unix-socket folder in ?host=): write ');
    expect(hostless.stderr).toContain('postgres://[user@]/database?host=/var/run/postgresql');
    expect(hostless.stderr).not.toContain(PASSWORD);
  });
});

describe.runIf(available)('understudy state copy into PostgreSQL', () => {
  it('copies every kind of every agent, a second run changes nothing and says so, and no secret is printed', async () => {
    await seedSqlite();
    const url = new URL(POSTGRES_URL);
    url.password = PASSWORD; // trust auth ignores it; it must never be printed
    const argv = ['state', 'copy', '--from', temp.stateRoot, '--to', url.toString(), '--schema', schema];

    const first = await run([...argv, '--json']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report.unchanged).toBe(false);
    expect(report.agents.map((agent: { agentId: string }) => agent.agentId)).toEqual(['main', 'work']);
    expect(report.agents[0].counts).toEqual({
      profiles: { copied: 2, skipped: 0 },
      credentials: { copied: 2, skipped: 0 },
      usage_stats: { copied: 1, skipped: 0 },
      order_overrides: { copied: 1, skipped: 0 },
      sessions: { copied: 1, skipped: 0 },
      probe_throttle: { copied: 1, skipped: 0 },
    });
    expect(report.totals.profiles).toEqual({ copied: 3, skipped: 0 });
    expect(report.location).toContain(schema);

    const second = await run(argv);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/Nothing changed: .* already holds every row .*\(10 skipped\)/);
    expect(second.stdout).toMatch(/main\s*│\s*profiles\s*│\s*0\s*│\s*2/);

    for (const output of [first.stdout, first.stderr, second.stdout, second.stderr]) {
      for (const secret of [PASSWORD, API_KEY, REFRESH, SECRET_KEY]) expect(output).not.toContain(secret);
    }

    await withPgStore('main', async (store) => {
      expect((await store.listProfiles()).map((profile) => profile.id)).toEqual(['anthropic:ada@example.com', 'openai:a']);
      const credential = await store.resolveCredential('openai:a');
      expect(credential?.type === 'api_key' ? credential.key.reveal() : undefined).toBe(API_KEY);
      expect(await store.getUsageStats('openai:a')).toMatchObject({ errorCount: 3, cooldownUntil: 4_102_444_800_000 });
      expect(await store.getOrderOverride('openai')).toEqual(['openai:a']);
      expect(await store.getSession('chat-1')).toMatchObject({ modelOverride: 'gpt-4o', authProfileOverride: 'openai:a', revision: 1 });
      // The copied throttle holds: no second probe inside its window.
      expect(await store.tryAcquireProbe('openai', 1_736_160_010_000, 30_000)).toBe(false);
    });
    await withPgStore('work', async (store) => {
      expect((await store.listProfiles()).map((profile) => profile.id)).toEqual(['openai:w']);
    });
  });

  it('keeps a row PostgreSQL already holds (counted as skipped) and copies the rest', async () => {
    await seedSqlite();
    await withPgStore('main', async (store) => {
      await store.setOrderOverride('openai', ['openai:b']);
    });
    const result = await run(['state', 'copy', '--from', temp.stateRoot, '--to', POSTGRES_URL, '--schema', schema, '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).agents[0].counts.order_overrides).toEqual({ copied: 0, skipped: 1 });
    await withPgStore('main', async (store) => {
      expect(await store.getOrderOverride('openai')).toEqual(['openai:b']);
    });
  });

  it('refuses to copy credentials without a secret key (exit 2), naming the variable, before creating the schema', async () => {
    await seedSqlite();
    const result = await run(['state', 'copy', '--from', temp.stateRoot, '--to', POSTGRES_URL, '--schema', schema], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('UNDERSTUDY_SECRET_KEY is not set; nothing was written');
    expect(await schemaExists(schema)).toBe(false);
  });

  it('refuses a secret key that is too short (exit 2), before creating the schema', async () => {
    await seedSqlite();
    const result = await run(['state', 'copy', '--from', temp.stateRoot, '--to', POSTGRES_URL, '--schema', schema], { UNDERSTUDY_SECRET_KEY: 'short-key' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('UNDERSTUDY_SECRET_KEY: the secret key is too short (9 characters)');
    expect(result.stderr).not.toContain('short-key');
    expect(await schemaExists(schema)).toBe(false);
  });

  it('refuses a key other than the one the schema was sealed with (exit 2), naming the variable and the fix, writing nothing', async () => {
    await seedSqlite();
    const argv = ['state', 'copy', '--from', temp.stateRoot, '--to', POSTGRES_URL, '--schema', schema, '--json'];
    expect((await run(argv)).code).toBe(0);
    const main = await openAuthProfileStore({ stateDir: temp.stateRoot, agentId: 'main' });
    try {
      await main.upsertProfile({ id: 'openai:late', credential: { type: 'api_key', provider: 'openai', key: new Secret('sk-test-state-copy-late') } });
      await main.setOrderOverride('anthropic', ['anthropic:ada@example.com']);
    } finally {
      await main.close();
    }
    const refused = await run(argv, { UNDERSTUDY_SECRET_KEY: OTHER_KEY });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/UNDERSTUDY_SECRET_KEY is not the key of postgres:\/\/127\.0\.0\.1:5432\/test; nothing was written: stored credentials were sealed with another secret key \(key id [0-9a-f]{8}, this replica has [0-9a-f]{8}\)/);
    expect(refused.stderr).toContain('set UNDERSTUDY_SECRET_KEY to the key the gateways on that schema use, or copy into another --schema');
    for (const secret of [OTHER_KEY, SECRET_KEY]) expect(refused.stderr).not.toContain(secret);
    // Nothing of the refused run arrived: neither the new credential (it would be sealed under the other key) nor plain rows.
    expect(await pgQuery(`select id from ${schema}.profiles where id = 'openai:late'`)).toEqual([]);
    expect(await pgQuery(`select provider from ${schema}.order_overrides where provider = 'anthropic'`)).toEqual([]);
    const sealed = await pgQuery<{ key_id: string }>(`select distinct split_part(api_key, '.', 2) as key_id from ${schema}.credentials where api_key is not null`);
    expect(sealed).toHaveLength(1);

    // With the schema's own key the same copy goes through.
    const again = await run(argv);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).agents[0].counts.credentials).toEqual({ copied: 1, skipped: 2 });
    await withPgStore('main', async (store) => {
      const credential = await store.resolveCredential('openai:late');
      expect(credential?.type === 'api_key' ? credential.key.reveal() : undefined).toBe('sk-test-state-copy-late');
    });
  });

  it('a source database that cannot be read is reported before anything is written to the target', async () => {
    await seedSqlite();
    fs.writeFileSync(path.join(temp.stateRoot, 'agents', 'work', 'agent', 'understudy-agent.sqlite'), 'not a database, just text '.repeat(100));
    const result = await run(['state', 'copy', '--from', temp.stateRoot, '--to', POSTGRES_URL, '--schema', schema]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--from .*: the SQLite state of agent work at .*understudy-agent\.sqlite cannot be read \(SQLITE_NOTADB: file is not a database\): run `understudy doctor --agent work`; nothing was written/);
    expect(await schemaExists(schema)).toBe(false);
  });

  it('a --schema PostgreSQL reserves (pg_catalog) is bad input (exit 2) naming --schema, refused before connecting', async () => {
    await seedSqlite();
    const result = await run(['state', 'copy', '--from', temp.stateRoot, '--to', POSTGRES_URL, '--schema', 'pg_catalog']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--schema: schema "pg_catalog" is reserved by PostgreSQL (pg_* and information_schema): name another, e.g. "understudy"');
  });

  it('--schema public is bad input (exit 2) naming --schema and the fix; from the config it names state.postgres.schema', async () => {
    await seedSqlite();
    const flag = await run(['state', 'copy', '--from', temp.stateRoot, '--to', POSTGRES_URL, '--schema', 'public']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--schema: schema "public" is the database\'s default schema, shared with everything else in it; the shared state needs a schema of its own');
    expect(flag.stderr).toContain('name another, e.g. "understudy"');
    const config = path.join(temp.home, 'public.json5');
    fs.writeFileSync(config, JSON.stringify({ state: { postgres: { schema: 'public' } } }));
    const fromConfig = await run(['state', 'copy', '--from', temp.stateRoot, '--to', POSTGRES_URL, '--config', config]);
    expect(fromConfig.code).toBe(2);
    expect(fromConfig.stderr).toContain('state.postgres.schema: schema "public" is the database\'s default schema');
    expect(await pgQuery("select 1 from pg_tables where schemaname = 'public' and tablename in ('profiles', 'kysely_migration')")).toEqual([]);
  });

  it.runIf(fs.existsSync('/var/run/postgresql/.s.PGSQL.5432'))('copies over the server\'s unix socket (postgres://user@/db?host=/var/run/postgresql)', async () => {
    await seedSqlite();
    const tcp = new URL(POSTGRES_URL);
    const socketUrl = `postgres://${tcp.username || 'postgres'}@/${tcp.pathname.slice(1) || 'test'}?host=/var/run/postgresql`;
    const result = await run(['state', 'copy', '--from', temp.stateRoot, '--to', socketUrl, '--schema', schema, '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { location: string; totals: { profiles: { copied: number } } };
    expect(report.location).toBe(`postgres:///${tcp.pathname.slice(1) || 'test'}?host=/var/run/postgresql (schema ${schema})`);
    expect(report.totals.profiles.copied).toBe(3);
    await withPgStore('work', async (store) => {
      expect((await store.listProfiles()).map((profile) => profile.id)).toEqual(['openai:w']);
    });
  });

  it('a copy into a schema another copy is writing is refused (exit 1) with what to do, and writes nothing', async () => {
    await seedSqlite();
    const other = await connectPostgresState({ url: POSTGRES_URL, schema, migrations: 'none', connectTimeoutMs: 3000, poolSize: 1 });
    try {
      // What a running copy holds while it writes: the schema's copy lock.
      const held = await other.whileHolding(STATE_COPY_LOCK, () => run(['state', 'copy', '--from', temp.stateRoot, '--to', POSTGRES_URL, '--schema', schema]));
      expect(held.held).toBe(true);
      const result = held.held ? held.value : undefined;
      expect(result?.code).toBe(1);
      expect(result?.stderr).toMatch(/another `understudy state copy` into postgres:\/\/.* is running: wait for it to end, then run this one again .*; nothing was written/);
    } finally {
      await other.close();
    }
    expect(await schemaExists(schema)).toBe(false);
  });

  it('a database that does not exist: exit 1 with the server reason, SQLSTATE and the fix, never the password', async () => {
    await seedSqlite();
    const url = new URL(POSTGRES_URL);
    url.pathname = '/understudy_state_copy_no_such_db';
    url.password = PASSWORD;
    const result = await run(['state', 'copy', '--from', temp.stateRoot, '--to', url.toString(), '--schema', schema]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--to postgres://127.0.0.1:5432/understudy_state_copy_no_such_db: ');
    expect(result.stderr).toContain('database "understudy_state_copy_no_such_db" does not exist (SQLSTATE 3D000): check the database name in the URL, or create that database first');
    expect(result.stderr).toContain('nothing was written');
    expect(result.stderr).not.toContain(PASSWORD);
  });

  it('a role without rights: exit 1 with the server reason, SQLSTATE and the grant to give, no schema created', async () => {
    await seedSqlite();
    await pgQuery(`drop role if exists ${NO_RIGHTS_ROLE}`);
    await pgQuery(`create role ${NO_RIGHTS_ROLE} login`);
    const url = new URL(POSTGRES_URL);
    url.username = NO_RIGHTS_ROLE;
    url.password = PASSWORD;
    const result = await run(['state', 'copy', '--from', temp.stateRoot, '--to', url.toString(), '--schema', schema]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('migrating the shared state at postgres://127.0.0.1:5432/test');
    expect(result.stderr).toContain('permission denied for database test (SQLSTATE 42501): give the role the right to create the schema and its tables (GRANT CREATE ON DATABASE');
    expect(result.stderr).not.toContain(PASSWORD);
    expect(await schemaExists(schema)).toBe(false);
  });

  it('an unreachable server is named without its password, with the fix', async () => {
    await seedSqlite();
    const result = await run(['state', 'copy', '--from', temp.stateRoot, '--to', `postgres://u:${PASSWORD}@127.0.0.1:1/test`, '--schema', schema]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--to postgres://127.0.0.1:1/test');
    expect(result.stderr).toContain('check the host, port, database and user in --to');
    expect(result.stderr).not.toContain(PASSWORD);
  });
});
