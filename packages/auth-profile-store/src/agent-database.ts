/**
 * Opens one agent's SQLite file: folders 0700 and file 0600 when created, WAL, a busy timeout, foreign keys,
 * and the schema migrated to the latest version with kysely's `Migrator` inside one `BEGIN IMMEDIATE`
 * transaction (so two processes opening a fresh file at once migrate it exactly once).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { AuthStoreError } from './errors.js';
import { MIGRATION_NAMES, inCodeMigrationProvider } from './migrations.js';
import type { AgentDatabase } from './schema.js';
import { SyncQueries } from './sync-queries.js';

/** Default wait for another process's write lock, ms. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** Mode of folders the store creates. */
export const DIRECTORY_MODE = 0o700;
/** Mode of the database file (and so of its `-wal` and `-shm` files, which SQLite creates alike). */
export const DATABASE_FILE_MODE = 0o600;

/** An open agent database. */
export interface OpenedDatabase {
  readonly sqlite: Database.Database;
  /** Builds typed queries; also drives the migrator. `destroy()` closes `sqlite`. */
  readonly kysely: Kysely<AgentDatabase>;
  readonly queries: SyncQueries;
}

/** Options of {@link openAgentDatabase}. */
export interface OpenAgentDatabaseOptions {
  readonly databasePath: string;
  /** Open without creating, migrating or writing anything. @default false */
  readonly readOnly?: boolean | undefined;
  /** @default 5000 */
  readonly busyTimeoutMs?: number | undefined;
}

const migrationsInProgress = new Map<string, Promise<void>>();

/**
 * Opens (and when writable, creates and migrates) an agent database.
 *
 * @throws {AuthStoreError} `store_not_found` (read-only and no file), `store_not_migrated` (read-only and an
 * older schema), `migration_failed`, or `store_unavailable` when SQLite cannot open the file.
 */
export async function openAgentDatabase(options: OpenAgentDatabaseOptions): Promise<OpenedDatabase> {
  const readOnly = options.readOnly ?? false;
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  const databasePath = path.resolve(options.databasePath);
  if (readOnly) {
    if (!fs.existsSync(databasePath)) {
      throw new AuthStoreError('store_not_found', `no auth-profile store at ${databasePath} yet`);
    }
  } else {
    createPrivateFile(databasePath);
  }

  let sqlite: Database.Database;
  try {
    sqlite = new Database(databasePath, { readonly: readOnly, fileMustExist: true, timeout: busyTimeoutMs });
  } catch (error) {
    throw new AuthStoreError('store_unavailable', `cannot open the auth-profile store at ${databasePath}`, { cause: error });
  }
  try {
    sqlite.pragma(`busy_timeout = ${Math.max(0, Math.trunc(busyTimeoutMs))}`);
    if (!readOnly) {
      sqlite.pragma('journal_mode = WAL');
      // WAL + NORMAL: a commit survives a crash or SIGKILL of the writing process (only power loss can drop
      // the last commits), at a fraction of FULL's fsync cost on every usage-stats mark.
      sqlite.pragma('synchronous = NORMAL');
    }
    sqlite.pragma('foreign_keys = ON');
    // Sorts and temporary indexes of the listing queries stay in memory (the data is tiny); the page cache is
    // better-sqlite3's default of 16 MB, far more than an agent's store, so reads after the first hit memory.
    sqlite.pragma('temp_store = MEMORY');
    const kysely = new Kysely<AgentDatabase>({ dialect: new SqliteDialect({ database: sqlite }) });
    const opened: OpenedDatabase = { sqlite, kysely, queries: new SyncQueries(sqlite) };
    const pending = pendingMigrations(sqlite);
    if (pending.length > 0) {
      if (readOnly) {
        throw new AuthStoreError(
          'store_not_migrated',
          `the auth-profile store at ${databasePath} needs migrations (${pending.join(', ')}); open it writable once, e.g. with \`understudy doctor --fix\``,
        );
      }
      await migrateOnce(databasePath, () => migrate(opened));
    }
    return opened;
  } catch (error) {
    sqlite.close();
    throw error;
  }
}

/** Names of the migrations this database has not run yet (all of them for a fresh file). */
export function pendingMigrations(sqlite: Database.Database): string[] {
  const table = sqlite.prepare(`select name from sqlite_master where type = 'table' and name = 'kysely_migration'`).get();
  if (table === undefined) return [...MIGRATION_NAMES];
  const done = new Set(
    (sqlite.prepare('select name from kysely_migration').all() as { name: string }[]).map((row) => row.name),
  );
  return MIGRATION_NAMES.filter((name) => !done.has(name));
}

/**
 * Runs the kysely migrator inside one `BEGIN IMMEDIATE` transaction on this connection. SQLite DDL is
 * transactional, so a failed migration leaves the file as it was, and a second process waits for the first
 * and then finds nothing left to do.
 */
async function migrate(opened: OpenedDatabase): Promise<void> {
  const { sqlite, kysely } = opened;
  const migrator = new Migrator({ db: kysely, provider: inCodeMigrationProvider });
  sqlite.exec('BEGIN IMMEDIATE');
  try {
    const { error, results } = await migrator.migrateToLatest();
    if (error !== undefined) {
      const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'setup';
      throw new AuthStoreError('migration_failed', `migrating the auth-profile store failed at ${failed}`, { cause: error });
    }
    sqlite.exec('COMMIT');
  } catch (error) {
    if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
    throw AuthStoreError.isInstance(error)
      ? error
      : new AuthStoreError('migration_failed', 'migrating the auth-profile store failed', { cause: error });
  }
}

/**
 * Serialises migrations of one file inside this process: a second connection blocking synchronously on the
 * write lock would stall the event loop that the first connection's async migrator needs.
 */
async function migrateOnce(databasePath: string, run: () => Promise<void>): Promise<void> {
  const previous = migrationsInProgress.get(databasePath) ?? Promise.resolve();
  const current = previous.catch(() => undefined).then(run);
  migrationsInProgress.set(databasePath, current);
  try {
    await current;
  } finally {
    if (migrationsInProgress.get(databasePath) === current) migrationsInProgress.delete(databasePath);
  }
}

/**
 * Creates the database file's folders (0700) and the empty file itself (0600) when they are missing. Existing
 * folders and files keep their modes (`understudy doctor` reports and fixes them).
 */
function createPrivateFile(databasePath: string): void {
  fs.mkdirSync(path.dirname(databasePath), { recursive: true, mode: DIRECTORY_MODE });
  try {
    fs.closeSync(fs.openSync(databasePath, 'wx', DATABASE_FILE_MODE));
    fs.chmodSync(databasePath, DATABASE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new AuthStoreError('store_unavailable', `cannot create the auth-profile store at ${databasePath}`, { cause: error });
    }
  }
}
