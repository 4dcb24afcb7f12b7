/**
 * One process's connection to the shared PostgreSQL state (docs/configuration.md, "Running several replicas" in
 * the README): a `pg` pool, kysely over it, the schema migrations, one `LISTEN` connection that tells every
 * agent store of this process which cached state another replica changed, and the health of the server.
 *
 * Health: a query that fails because the server cannot be reached (refused, reset, shut down, timed out) marks
 * the state `down`; while down, calls fail at once with `state_unreachable` instead of waiting on the network,
 * and a timer checks the server every `retryIntervalMs`. When it answers again the state is `up`, the listener
 * reconnects, every cache is flushed (notifications sent meanwhile were missed) and the status listeners run
 * (the agent stores replay the marks they kept while down).
 */
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { parse as parseConnectionString } from 'pg-connection-string';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import type { Logger } from '@understudy/contracts';
import { silentLogger } from '@understudy/contracts';
import { AuthStoreError } from '../errors.js';
import { PG_MIGRATION_NAMES, pgMigrationProvider } from './pg-migrations.js';
import type { PgDatabase } from './pg-schema.js';
import { SEALED_COLUMNS, SecretBox } from './secret-box.js';

/** The schema used when none is given. */
export const DEFAULT_PG_SCHEMA = 'understudy';
/** Default largest number of pooled connections per process. */
export const DEFAULT_PG_POOL_SIZE = 10;
/** Default longest age of a cached provider state or session, ms (the fallback bound; see the README). */
export const DEFAULT_CACHE_MAX_AGE_MS = 1000;

const SCHEMA_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Why `schema` cannot hold the shared state, or `undefined` when it can: it must match the pattern, must not be
 * one PostgreSQL keeps for itself (`pg_*`: pg_catalog, pg_toast, …; `information_schema`), and must not be
 * `public`, the database's default schema that everything else in it shares: the shared state's tables have
 * plain names (profiles, credentials, sessions, usage_stats, …) and need a schema of their own
 * (docs/configuration.md).
 *
 * @example schemaProblem('understudy') // undefined
 */
export function schemaProblem(schema: string): string | undefined {
  if (!SCHEMA_PATTERN.test(schema)) return `schema "${schema}" must be lower-case letters, digits and _ (at most 63), e.g. "understudy"`;
  if (schema.startsWith('pg_') || schema === 'information_schema') {
    return `schema "${schema}" is reserved by PostgreSQL (pg_* and information_schema): name another, e.g. "understudy"`;
  }
  if (schema === 'public') {
    return 'schema "public" is the database\'s default schema, shared with everything else in it; the shared state needs a schema of its own (its tables are named profiles, credentials, sessions, …): name another, e.g. "understudy"';
  }
  return undefined;
}

/** What a PostgreSQL URL says, read as `pg` reads it (pg-connection-string). */
export interface PostgresUrlParts {
  /** A host name or address, or the folder of a unix socket (`socket` true). */
  readonly host: string;
  /** True when `host` is a unix-socket folder (`?host=/var/run/postgresql` or a `%2F`-encoded host). */
  readonly socket: boolean;
  readonly port?: string | undefined;
  readonly database?: string | undefined;
  readonly user?: string | undefined;
  /** Decoded; empty when none. Never put it in a message. */
  readonly password: string;
}

/** The URL forms a message suggests. */
export const POSTGRES_URL_FORMS = 'postgres://[user[:password]@]host[:port]/database, or for a unix socket postgres://[user@]/database?host=/var/run/postgresql';

/**
 * Reads a PostgreSQL URL the way `pg` does (pg-connection-string), unix-socket forms included:
 * `postgres://user@/db?host=/var/run/postgresql`, `postgres:///db?host=/var/run/postgresql`,
 * `postgresql://%2Fvar%2Frun%2Fpostgresql/db`.
 *
 * @throws {AuthStoreError} `invalid_postgres_options` when it is not a `postgres://` / `postgresql://` URL, does
 *   not parse, or names no host or socket folder; the message never contains the URL.
 */
export function parsePostgresUrl(url: string): PostgresUrlParts {
  const fail = (why: string): never => {
    throw new AuthStoreError('invalid_postgres_options', `the PostgreSQL URL ${why}: write ${POSTGRES_URL_FORMS}`);
  };
  const given = url.trim();
  if (!/^postgres(ql)?:\/\//i.test(given)) fail('must start with postgres:// or postgresql://');
  let parsed: ReturnType<typeof parseConnectionString> | undefined;
  try {
    parsed = parseConnectionString(given);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined) return fail('does not parse');
  const host = parsed.host ?? '';
  if (host === '') fail('names no host (nor a unix-socket folder in ?host=)');
  const text = (value: string | null | undefined): string | undefined => (value === undefined || value === null || value === '' ? undefined : value);
  return {
    host,
    socket: host.startsWith('/'),
    port: text(parsed.port),
    database: text(parsed.database),
    user: text(parsed.user),
    password: parsed.password ?? '',
  };
}

/** Options of {@link connectPostgresState}. */
export interface ConnectPostgresStateOptions {
  /** `postgres://user:password@host:port/database` (from `state.postgres.url` or `UNDERSTUDY_POSTGRES_URL`). */
  readonly url: string;
  /** Schema holding the tables (created when missing): lower-case letters, digits, `_`. @default 'understudy' */
  readonly schema?: string | undefined;
  /**
   * The secret key text (`UNDERSTUDY_SECRET_KEY`, at least 32 characters). Without it, credentials cannot be
   * stored (`secret_key_missing`) and stored ones cannot be read; routing state works. @default none
   */
  readonly secretKey?: string | undefined;
  /** Largest number of pooled connections. @default 10 */
  readonly poolSize?: number | undefined;
  /** Longest wait for a new connection, ms. @default 2000 */
  readonly connectTimeoutMs?: number | undefined;
  /** Server-side statement timeout (also bounds row-lock waits), ms. @default 5000 */
  readonly statementTimeoutMs?: number | undefined;
  /** How long a cached provider state or session may be served at most, ms (0: no cache). @default 1000 */
  readonly cacheMaxAgeMs?: number | undefined;
  /** While the server is unreachable, how often to check it again, ms. @default 500 */
  readonly retryIntervalMs?: number | undefined;
  /**
   * `run`: create the schema and run pending migrations (under an advisory lock, so replicas starting together
   * migrate once). `check`: fail with `store_not_migrated` when some are pending. `none`: neither, and nothing
   * is written: the caller runs {@link PostgresState.migrate} once its own checks passed (`state copy` does).
   * @default 'run'
   */
  readonly migrations?: 'run' | 'check' | 'none' | undefined;
  /** Where outages and recoveries are logged. @default silent */
  readonly logger?: Logger | undefined;
  /** Monotonic clock for cache ages, ms. @default performance.now */
  readonly monotonicMs?: (() => number) | undefined;
}

/** What a notification says changed: a provider's state (`p`), a credential (`c`), a session (`s`), or all (`*`). */
export interface StateChange {
  readonly agentId: string;
  readonly kind: 'p' | 'c' | 's' | '*';
  readonly key: string;
}

/** Health of the shared state as this process sees it. */
export interface PostgresStateStatus {
  /** False while the server cannot be reached. */
  readonly up: boolean;
  /** True while the `LISTEN` connection is up (caches are used only then). */
  readonly listening: boolean;
  /** When `up` last changed, epoch ms. */
  readonly sinceMs: number;
  /** Why the server was last found unreachable (an error code or short message, never a URL). */
  readonly lastError?: string | undefined;
}

/** A pg error code that means the server or the network failed, not the statement. */
function isOutageCode(code: string): boolean {
  return code.startsWith('08') || code.startsWith('57P') || code === '53300' || code.startsWith('58');
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'ECONNABORTED']);
// "timeout exceeded when trying to connect" is not here: pg-pool says that when every pooled connection is busy,
// which is load, not an outage (and the pool below waits for a free connection instead).
const OUTAGE_MESSAGES = /connection terminated|timeout expired|connection error|not queryable|Client was closed|Cannot use a pool after calling end/i;

/** True when `error` says the PostgreSQL server could not be reached or went away. */
export function isOutageError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { readonly code?: unknown }).code;
  if (typeof code === 'string') {
    if (/^[0-9A-Z]{5}$/.test(code)) return isOutageCode(code);
    if (NETWORK_CODES.has(code)) return true;
  }
  if (error instanceof AggregateError) return error.errors.some(isOutageError);
  return OUTAGE_MESSAGES.test(error.message);
}

/**
 * What to do about a statement or connection the server refused, by SQLSTATE (class `28` is any authorization
 * failure).
 */
function refusalFix(code: string | undefined): string {
  if (code === '3D000') return 'check the database name in the URL, or create that database first';
  if (code?.startsWith('28') === true) return 'check the user and password in the URL and that the server lets that user connect (pg_hba.conf)';
  if (code === '57014') {
    return 'a statement ran past the statement timeout, waiting on rows another writer held (another state copy run, or gateways writing the same rows): run it again once that writer is done (rows already there are kept)';
  }
  if (code === '42501') {
    return 'give the role the right to create the schema and its tables (GRANT CREATE ON DATABASE <db> TO <role>), or name a schema the role owns';
  }
  return 'check the database, user and schema of the URL, and that the role may create the schema and its tables';
}

/**
 * The server's reason for a refusal, for a message: its text and SQLSTATE, and what to do. `secret` (the URL's
 * password) is cut out should the text ever contain it.
 */
function refusalReason(error: unknown, secret: string): string {
  const code = (error as { readonly code?: unknown } | null)?.code;
  const sqlState = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
  const raw = error instanceof Error ? error.message : String(error);
  const text = (secret === '' ? raw : raw.split(secret).join('***')).slice(0, 300);
  return `${text}${sqlState === undefined ? '' : ` (SQLSTATE ${sqlState})`}: ${refusalFix(sqlState)}`;
}

/** The password of a PostgreSQL URL, decoded (empty when there is none or the URL does not parse). */
function passwordOf(url: string): string {
  try {
    return parsePostgresUrl(url).password;
  } catch {
    return '';
  }
}

/** A short, secret-free description of an outage error for logs and status. */
function describeOutage(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  const code = (error as { readonly code?: unknown }).code;
  if (typeof code === 'string') return code;
  if (error instanceof AggregateError && error.errors[0] !== undefined) return describeOutage(error.errors[0]);
  return error.message.slice(0, 120);
}

/** Integer columns (`bigint`, oid 20) come back as numbers: every stored value is an epoch ms or a count. */
function numericTypes(driver: PgDriver): pg.CustomTypesConfig {
  return {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === 20 ? (value: string) => Number(value) : driver.types.getTypeParser(oid, format ?? 'text'),
  } as unknown as pg.CustomTypesConfig;
}

/** The `pg` module. */
type PgDriver = typeof pg;

/**
 * `pg`, loaded the first time a PostgreSQL state is connected: a gateway or CLI on SQLite state never loads it
 * (start-up time and idle memory; issue 17).
 */
async function loadPg(): Promise<PgDriver> {
  return (await import('pg')).default;
}

/** The channel notifications of a schema travel on. */
function channelOf(schema: string): string {
  return `understudy_state_${schema}`;
}

/**
 * A short description of where the state lives, without user or password (for logs, status, JSON):
 * `postgres://host:port/database`, or `postgres:///database?host=/socket/folder` for a unix socket.
 */
export function describePostgresUrl(url: string): string {
  let parts: PostgresUrlParts;
  try {
    parts = parsePostgresUrl(url);
  } catch {
    return 'postgres://(unparsable url)';
  }
  const port = parts.port === undefined ? '' : `:${parts.port}`;
  const database = parts.database === undefined ? '' : encodeURIComponent(parts.database);
  if (parts.socket) return `postgres:///${database}?host=${parts.host}${parts.port === undefined ? '' : `&port=${parts.port}`}`;
  return `postgres://${parts.host.includes(':') ? `[${parts.host}]` : parts.host}${port}/${database}`;
}

/**
 * Connects to the shared state: checks the options, opens the pool, creates the schema and runs migrations
 * (or checks them), and starts listening for changes.
 *
 * @throws {AuthStoreError} `invalid_postgres_options` (a schema {@link schemaProblem} refuses, a URL
 *   {@link parsePostgresUrl} refuses, the pool size), `invalid_secret_key`,
 *   `state_unreachable` (server unreachable; the message names host and database, never the password),
 *   `store_not_migrated` (`migrations: 'check'`), `migration_failed` (with the server's reason and SQLSTATE),
 *   `state_refused` (`migrations: 'check'`: the server refused the connection or the query, with its reason).
 */
export async function connectPostgresState(options: ConnectPostgresStateOptions): Promise<PostgresState> {
  const schema = options.schema ?? DEFAULT_PG_SCHEMA;
  const problem = schemaProblem(schema);
  if (problem !== undefined) throw new AuthStoreError('invalid_postgres_options', problem);
  parsePostgresUrl(options.url);
  const poolSize = options.poolSize ?? DEFAULT_PG_POOL_SIZE;
  if (!Number.isInteger(poolSize) || poolSize < 1) {
    throw new AuthStoreError('invalid_postgres_options', `poolSize must be a positive integer, not ${String(poolSize)}`);
  }
  const box = options.secretKey === undefined || options.secretKey.trim() === '' ? undefined : SecretBox.fromKeyText(options.secretKey);
  const state = new PostgresState(options, schema, poolSize, box, await loadPg());
  try {
    await state.prepare(options.migrations ?? 'run');
  } catch (error) {
    await state.close();
    throw error;
  }
  return state;
}

/** The shared state connection of one process; agent stores are opened over it (`openAuthProfileStore`). */
export class PostgresState {
  readonly schema: string;
  readonly channel: string;
  /** Where the state lives, without credentials. */
  readonly location: string;
  /** The credential sealer, when a secret key was given. */
  readonly secretBox: SecretBox | undefined;
  readonly cacheMaxAgeMs: number;
  readonly monotonicMs: () => number;
  readonly logger: Logger;
  readonly kysely: Kysely<PgDatabase>;
  readonly #pg: PgDriver;
  readonly #pool: pg.Pool;
  readonly #clientConfig: pg.ClientConfig;
  /** The URL's password, cut out of any server text put into a message. */
  readonly #password: string;
  readonly #retryIntervalMs: number;
  readonly #changeListeners = new Set<(change: StateChange) => void>();
  readonly #statusListeners = new Set<(status: PostgresStateStatus) => void>();
  readonly #syncWaiters = new Map<string, () => void>();
  #listener: pg.Client | undefined;
  #listening = false;
  #listenerEpoch = 0;
  #up = true;
  #sinceMs = Date.now();
  #lastError: string | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #listenTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: ConnectPostgresStateOptions, schema: string, poolSize: number, box: SecretBox | undefined, driver: PgDriver) {
    this.#pg = driver;
    this.schema = schema;
    this.channel = channelOf(schema);
    this.location = `${describePostgresUrl(options.url)} (schema ${schema})`;
    this.#password = passwordOf(options.url);
    this.secretBox = box;
    this.cacheMaxAgeMs = options.cacheMaxAgeMs ?? DEFAULT_CACHE_MAX_AGE_MS;
    this.monotonicMs = options.monotonicMs ?? (() => performance.now());
    this.logger = options.logger ?? silentLogger;
    this.#retryIntervalMs = options.retryIntervalMs ?? 500;
    const statementTimeoutMs = Math.max(0, Math.trunc(options.statementTimeoutMs ?? 5000));
    this.#clientConfig = {
      connectionString: options.url,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 2000,
      keepAlive: true,
      options: `-c search_path=${schema} -c statement_timeout=${String(statementTimeoutMs)}`,
      types: numericTypes(driver),
      application_name: 'understudy',
    };
    // pg-pool applies connectionTimeoutMillis to the wait for a free connection too; under load that wait is
    // not an outage. So the pool waits as long as it takes (each holder is bounded by the statement timeout)
    // and only opening a connection is timed, by the client itself.
    this.#pool = new driver.Pool({ ...this.#poolConfig(), max: poolSize, idleTimeoutMillis: 30_000 });
    // An idle pooled connection that the server closes (restart, admin kill) emits here; without a listener
    // the process would crash. The next query finds out and marks the state down if the server is gone.
    this.#pool.on('error', (error) => this.logger.debug({ err: describeOutage(error) }, 'an idle PostgreSQL connection closed'));
    // A checked-out connection that dies between two statements emits on the client; the statement in
    // flight (or the next one) fails and is handled there, so the event itself only needs a listener.
    this.#pool.on('connect', (client) => client.on('error', () => undefined));
    this.kysely = new Kysely<PgDatabase>({ dialect: new PostgresDialect({ pool: this.#pool }) });
  }

  /** Schema, migrations and listener; called once by {@link connectPostgresState}. */
  async prepare(migrations: 'run' | 'check' | 'none'): Promise<void> {
    if (migrations === 'run') await this.migrate();
    else if (migrations === 'check') {
      const pending = await this.pendingMigrations();
      if (pending.length > 0) {
        throw new AuthStoreError(
          'store_not_migrated',
          `the shared state at ${this.location} needs migrations (${pending.join(', ')}); run \`understudy doctor --fix\` or start a gateway once`,
        );
      }
    }
    await this.#listen();
  }

  /**
   * Names of the migrations the schema has not run yet (all of them before the first start). Reads only.
   *
   * @throws {AuthStoreError} `state_unreachable`; `state_refused` with the server's reason.
   */
  async pendingMigrations(): Promise<string[]> {
    return this.#read(async () => {
      if (!(await this.#hasTable('kysely_migration'))) return [...PG_MIGRATION_NAMES];
      const done = await this.#pool.query<{ name: string }>(`select name from ${this.schema}.kysely_migration`);
      const names = new Set(done.rows.map((row) => row.name));
      return PG_MIGRATION_NAMES.filter((name) => !names.has(name));
    });
  }

  /**
   * The key ids ({@link SecretBox.keyIdOf}) of the sealed credential values the schema already holds, each once
   * (none for a schema without tables yet). Reads only: `state copy` compares them with its key before writing.
   *
   * @throws {AuthStoreError} `state_unreachable`; `state_refused` with the server's reason.
   */
  async storedKeyIds(): Promise<string[]> {
    return this.#read(async () => {
      if (!(await this.#hasTable('credentials'))) return [];
      const values = SEALED_COLUMNS.map((column) => `select ${column} as sealed from ${this.schema}.credentials where ${column} is not null`).join(' union all ');
      const rows = await this.#pool.query<{ sealed: string }>(values);
      const ids = new Set<string>();
      for (const row of rows.rows) {
        const keyId = SecretBox.keyIdOf(row.sealed);
        if (keyId !== undefined) ids.add(keyId);
      }
      return [...ids].sort();
    });
  }

  /** True when the schema has `table` (false too when the schema itself does not exist). */
  async #hasTable(table: string): Promise<boolean> {
    const found = await this.#pool.query<{ found: string | null }>('select to_regclass($1) as found', [`${this.schema}.${table}`]);
    return found.rows[0] !== undefined && found.rows[0].found !== null;
  }

  /** A read of the schema's own bookkeeping: an outage is `state_unreachable`, a refusal `state_refused`. */
  async #read<T>(body: () => Promise<T>): Promise<T> {
    try {
      return await this.guard(body);
    } catch (error) {
      if (AuthStoreError.isInstance(error)) throw error;
      throw new AuthStoreError('state_refused', `the shared state at ${this.location} cannot be read: ${refusalReason(error, this.#password)}`, { cause: error });
    }
  }

  /**
   * Creates the schema and runs pending migrations under a session advisory lock on one dedicated connection,
   * so replicas starting at once wait for each other and the later ones find nothing to do.
   *
   * @returns the names of the migrations this call ran.
   * @throws {AuthStoreError} `migration_failed`, `state_unreachable`.
   */
  async migrate(): Promise<string[]> {
    const db = this.#dedicatedConnection();
    try {
      await this.guard(() => sql`select pg_advisory_lock(hashtext(${`understudy migrations ${this.schema}`}))`.execute(db));
      await sql`create schema if not exists ${sql.id(this.schema)}`.execute(db);
      const migrator = new Migrator({ db, provider: pgMigrationProvider, migrationTableSchema: this.schema });
      const { error, results } = await migrateDespiteOthersDrops(migrator);
      if (error !== undefined) {
        const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'setup';
        throw new AuthStoreError('migration_failed', `migrating the shared state at ${this.location} failed at ${failed}: ${refusalReason(error, this.#password)}`, {
          cause: error,
        });
      }
      return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
    } catch (error) {
      if (AuthStoreError.isInstance(error)) throw error;
      throw isOutageError(error)
        ? this.#unavailable(error)
        : new AuthStoreError('migration_failed', `migrating the shared state at ${this.location} failed: ${refusalReason(error, this.#password)}`, { cause: error });
    } finally {
      // Closing the connection releases the session lock too.
      await db.destroy().catch(() => undefined);
    }
  }

  /**
   * Runs `body` while this process holds the session advisory lock `purpose` of this schema (taken on a
   * connection of its own, released when `body` ends), or answers `{ held: false }` at once, without running
   * `body`, when another session holds it. `state copy` serialises its runs so.
   *
   * @throws {AuthStoreError} `state_unreachable`; what `body` throws, unchanged.
   */
  async whileHolding<T>(purpose: string, body: () => Promise<T>): Promise<{ readonly held: true; readonly value: T } | { readonly held: false }> {
    const db = this.#dedicatedConnection();
    try {
      const taken = await this.guard(() => sql<{ held: boolean }>`select pg_try_advisory_lock(hashtext(${`understudy ${purpose} ${this.schema}`})) as held`.execute(db));
      if (taken.rows[0]?.held !== true) return { held: false };
      return { held: true, value: await body() };
    } finally {
      // Closing the connection releases the session lock too.
      await db.destroy().catch(() => undefined);
    }
  }

  /**
   * The server's refusal of what this state was `doing`, as `state_refused` with its reason, SQLSTATE and the
   * fix (never the URL's password).
   */
  refusal(doing: string, error: unknown): AuthStoreError {
    return new AuthStoreError('state_refused', `${doing} at ${this.location} failed: ${refusalReason(error, this.#password)}`, { cause: error });
  }

  /** One connection of its own (session locks), off the pool; the caller destroys it. */
  #dedicatedConnection(): Kysely<unknown> {
    const pool = new this.#pg.Pool({ ...this.#poolConfig(), max: 1 });
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    return new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  }

  /** Current health. */
  status(): PostgresStateStatus {
    return { up: this.#up, listening: this.#listening, sinceMs: this.#sinceMs, ...(this.#lastError === undefined ? {} : { lastError: this.#lastError }) };
  }

  /** The listener epoch: it changes whenever the `LISTEN` connection (re)connects or drops. */
  get listenerEpoch(): number {
    return this.#listenerEpoch;
  }

  /** True while cached state may be served: the server is up and the listener connected. */
  get cacheUsable(): boolean {
    return this.#up && this.#listening && this.cacheMaxAgeMs > 0;
  }

  /** Calls `listener` with every change notified on this schema (and `*` for each agent after a reconnect). */
  onChange(listener: (change: StateChange) => void): () => void {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  }

  /** Calls `listener` whenever `up` or `listening` changes. */
  onStatus(listener: (status: PostgresStateStatus) => void): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  /**
   * One query on the pool (named queries are prepared once per connection).
   * @throws {AuthStoreError} `state_unreachable` at once while down, or when the server cannot be reached.
   */
  async query<Row extends pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<Row>> {
    this.#assertUsable();
    try {
      return await this.#pool.query<Row>(config);
    } catch (error) {
      throw this.#outage(error);
    }
  }

  /**
   * Runs `body` inside `BEGIN … COMMIT` on one pooled connection; a throw rolls back. Errors of `body`'s own
   * logic pass through unchanged; a lost server becomes `state_unreachable`.
   */
  async transaction<T>(body: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    this.#assertUsable();
    let client: pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw this.#outage(error);
    }
    let broken: unknown;
    try {
      await client.query('begin');
      const result = await body(client);
      await client.query('commit');
      return result;
    } catch (error) {
      if (isOutageError(error)) {
        broken = error;
        throw this.#outage(error);
      }
      await client.query('rollback').catch((rollbackError: unknown) => {
        broken = rollbackError;
      });
      throw error;
    } finally {
      client.release(broken === undefined ? undefined : (broken as Error));
    }
  }

  /** Runs a kysely call, turning a lost server into `state_unreachable` (and marking the state down). */
  async guard<T>(body: () => Promise<T>): Promise<T> {
    this.#assertUsable();
    try {
      return await body();
    } catch (error) {
      if (isOutageError(error)) throw this.#outage(error);
      throw error;
    }
  }

  /**
   * Resolves once this process has received every change notification committed before the call: it notifies
   * a token and waits for it to come back (PostgreSQL delivers notifications in commit order). With the
   * listener down there is nothing to wait for (caches are bypassed then).
   *
   * @throws {AuthStoreError} `state_unreachable` when the server cannot be reached or the token does not come
   *   back within `timeoutMs`.
   */
  async sync(timeoutMs = 5000): Promise<void> {
    if (!this.#listening) return;
    const token = crypto.randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const arrived = new Promise<void>((resolve, reject) => {
      this.#syncWaiters.set(token, resolve);
      timer = setTimeout(() => {
        this.#syncWaiters.delete(token);
        reject(new AuthStoreError('state_unreachable', `no change notification came back from ${this.location} within ${String(timeoutMs)} ms`));
      }, timeoutMs);
    });
    try {
      await this.query({ text: 'select pg_notify($1, $2)', values: [this.channel, `${SYNC_PREFIX}${token}`] });
      await arrived;
    } finally {
      clearTimeout(timer);
      this.#syncWaiters.delete(token);
    }
  }

  /** Stops the retry timer and the listener and closes the pool. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    clearTimeout(this.#listenTimer);
    const listener = this.#listener;
    this.#listener = undefined;
    this.#listening = false;
    await listener?.end().catch(() => undefined);
    await this.kysely.destroy().catch(() => undefined);
    // kysely ends the pool only if it ever ran a query itself; the request path uses the pool directly.
    if (!this.#pool.ended) await this.#pool.end().catch(() => undefined);
  }

  toJSON(): { readonly location: string } {
    return { location: this.location };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `PostgresState(${this.location})`;
  }

  // ---- internals ----

  /** Pool options: the client config, with the connect timeout moved into the client (see the constructor). */
  #poolConfig(): pg.PoolConfig {
    const { connectionTimeoutMillis, ...rest } = this.#clientConfig;
    const TimedClient = class extends this.#pg.Client {
      constructor(config?: pg.ClientConfig) {
        super({ ...config, connectionTimeoutMillis });
      }
    };
    return { ...rest, Client: TimedClient };
  }

  #assertUsable(): void {
    if (this.#closed) throw new AuthStoreError('store_closed', `the shared state at ${this.location} is closed`);
    if (!this.#up) {
      throw new AuthStoreError('state_unreachable', `the shared state at ${this.location} is unreachable (${this.#lastError ?? 'down'}); retrying every ${String(this.#retryIntervalMs)} ms`);
    }
  }

  #unavailable(error: unknown): AuthStoreError {
    return new AuthStoreError('state_unreachable', `the shared state at ${this.location} is unreachable (${describeOutage(error)})`, { cause: error });
  }

  /** Marks the state down when `error` is an outage; returns what to throw. */
  #outage(error: unknown): unknown {
    if (!isOutageError(error)) return error;
    this.#markDown(error);
    return this.#unavailable(error);
  }

  #markDown(error: unknown): void {
    this.#lastError = describeOutage(error);
    if (!this.#up || this.#closed) return;
    this.#up = false;
    this.#sinceMs = Date.now();
    this.logger.warn({ state: this.location, err: this.#lastError }, 'shared state store unreachable: serving the last known state, keeping marks to write back');
    this.#emitStatus();
    this.#scheduleRetry();
  }

  #scheduleRetry(): void {
    if (this.#closed) return;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => void this.#retry(), this.#retryIntervalMs);
    this.#retryTimer.unref();
  }

  async #retry(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#pool.query('select 1');
    } catch (error) {
      this.#lastError = describeOutage(error);
      this.#scheduleRetry();
      return;
    }
    this.#up = true;
    this.#sinceMs = Date.now();
    this.logger.warn({ state: this.location }, 'shared state store reachable again');
    await this.#listen();
    this.#emitStatus();
  }

  async #listen(): Promise<void> {
    if (this.#closed || this.#listener !== undefined) return;
    const client = new this.#pg.Client(this.#clientConfig);
    this.#listener = client;
    const lost = (error?: unknown): void => {
      if (this.#listener !== client) return;
      this.#listener = undefined;
      this.#listening = false;
      this.#listenerEpoch += 1;
      client.removeAllListeners('notification');
      void client.end().catch(() => undefined);
      if (error !== undefined) this.logger.debug({ err: describeOutage(error) }, 'the PostgreSQL change listener disconnected');
      this.#emitStatus();
      if (this.#closed) return;
      clearTimeout(this.#listenTimer);
      this.#listenTimer = setTimeout(() => {
        if (this.#up) void this.#listen();
      }, this.#retryIntervalMs);
      this.#listenTimer.unref();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.channel !== this.channel || message.payload === undefined) return;
      if (message.payload.startsWith(SYNC_PREFIX)) {
        const token = message.payload.slice(SYNC_PREFIX.length);
        this.#syncWaiters.get(token)?.();
        this.#syncWaiters.delete(token);
        return;
      }
      this.#dispatch(parseChange(message.payload));
    });
    try {
      await client.connect();
      await client.query(`listen ${this.channel}`);
    } catch (error) {
      lost(error);
      return;
    }
    if (this.#listener !== client) return;
    // Everything cached before this point may have missed notifications: start over.
    this.#listenerEpoch += 1;
    this.#listening = true;
    this.#dispatch({ agentId: '*', kind: '*', key: '' });
    this.#emitStatus();
  }

  #dispatch(change: StateChange | undefined): void {
    if (change === undefined) return;
    for (const listener of this.#changeListeners) listener(change);
  }

  #emitStatus(): void {
    const status = this.status();
    for (const listener of this.#statusListeners) {
      try {
        listener(status);
      } catch (error) {
        this.logger.error({ err: error instanceof Error ? error.message : String(error) }, 'a state status listener failed');
      }
    }
  }
}

/** Payload prefix of {@link PostgresState.sync} tokens (`#` never starts an agent id). */
const SYNC_PREFIX = '#sync#';

/** Largest notification payload PostgreSQL accepts is 8000 bytes; longer keys notify the whole agent. */
const MAX_PAYLOAD_BYTES = 7900;

/** The payload of a change notification: `<agent>\n<kind>\n<key>`. */
export function changePayload(agentId: string, kind: StateChange['kind'], key: string): string {
  const payload = `${agentId}\n${kind}\n${key}`;
  return Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES ? `${agentId}\n*\n` : payload;
}

function parseChange(payload: string): StateChange | undefined {
  const first = payload.indexOf('\n');
  const second = payload.indexOf('\n', first + 1);
  if (first < 0 || second < 0) return undefined;
  const kind = payload.slice(first + 1, second);
  if (kind !== 'p' && kind !== 'c' && kind !== 's' && kind !== '*') return undefined;
  return { agentId: payload.slice(0, first), kind, key: payload.slice(second + 1) };
}

/** SQLSTATEs of a schema or table that vanished while it was being read: `invalid_schema_name`, `undefined_table`. */
const VANISHED_WHILE_READ = new Set(['3F000', '42P01']);
/** How often a migration run is started again after another schema vanished under its table listing. */
const MIGRATION_RUNS = 5;

/**
 * `migrator.migrateToLatest()`, run again (up to 5 runs) when it failed before running any migration because a
 * schema or table vanished while kysely listed the tables of every schema to find its own migration table (its
 * introspection reads all schemas; another tenant or replica dropping a schema of the same database meanwhile
 * makes that listing fail). Our own schema exists and is locked by then, so the error is never about it; a
 * migration itself runs in a transaction, so a failed run left nothing half done.
 */
export async function migrateDespiteOthersDrops(migrator: Migrator): ReturnType<Migrator['migrateToLatest']> {
  for (let run = 1; ; run += 1) {
    const outcome = await migrator.migrateToLatest();
    const code = (outcome.error as { code?: unknown } | undefined)?.code;
    const ranNone = (outcome.results ?? []).length === 0;
    if (run >= MIGRATION_RUNS || !ranNone || typeof code !== 'string' || !VANISHED_WHILE_READ.has(code)) return outcome;
  }
}
