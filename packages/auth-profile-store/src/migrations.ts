/**
 * Schema migrations, as code (kysely `Migrator` with an in-code provider: nothing is read from disk, so the
 * built package carries its own schema). Migration names sort in the order they run; never edit a released
 * one, add a new one.
 */
import { sql } from 'kysely';
import type { Kysely, Migration, MigrationProvider } from 'kysely';

const initial: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('profiles')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('provider', 'text', (column) => column.notNull())
      .addColumn('type', 'text', (column) => column.notNull().check(sql`type in ('api_key', 'oauth', 'token')`))
      .addColumn('email', 'text')
      .addColumn('created_at', 'integer', (column) => column.notNull())
      .addColumn('updated_at', 'integer', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('profiles_by_provider').on('profiles').column('provider').execute();

    await db.schema
      .createTable('credentials')
      .addColumn('profile_id', 'text', (column) => column.primaryKey().references('profiles.id').onDelete('cascade'))
      .addColumn('type', 'text', (column) => column.notNull().check(sql`type in ('api_key', 'oauth', 'token')`))
      .addColumn('api_key', 'text')
      .addColumn('token', 'text')
      .addColumn('access_token', 'text')
      .addColumn('refresh_token', 'text')
      .addColumn('expires_at', 'integer')
      .addColumn('project_id', 'text')
      .addColumn('enterprise_url', 'text')
      .addColumn('updated_at', 'integer', (column) => column.notNull())
      .execute();

    await db.schema
      .createTable('usage_stats')
      .addColumn('profile_id', 'text', (column) => column.primaryKey())
      .addColumn('stats', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'integer', (column) => column.notNull())
      .execute();

    await db.schema
      .createTable('order_overrides')
      .addColumn('provider', 'text', (column) => column.primaryKey())
      .addColumn('profile_ids', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'integer', (column) => column.notNull())
      .execute();

    await db.schema
      .createTable('probe_throttle')
      .addColumn('key', 'text', (column) => column.primaryKey())
      .addColumn('last_probe_at', 'integer', (column) => column.notNull())
      .execute();

    await db.schema
      .createTable('sessions')
      .addColumn('key', 'text', (column) => column.primaryKey())
      .addColumn('revision', 'integer', (column) => column.notNull())
      .addColumn('created_at', 'integer', (column) => column.notNull())
      .addColumn('updated_at', 'integer', (column) => column.notNull())
      .addColumn('provider_override', 'text')
      .addColumn('model_override', 'text')
      .addColumn('model_override_source', 'text')
      .addColumn('model_override_origin', 'text')
      .addColumn('auth_profile_override', 'text')
      .addColumn('auth_profile_override_source', 'text')
      .addColumn('auth_profile_override_compaction_count', 'integer')
      .addColumn('compaction_count', 'integer')
      .addColumn('chat_type', 'text')
      .addColumn('fallback_notice', 'text')
      .addColumn('pending_live_switch', 'text')
      .addColumn('last_origin_probe_at', 'integer')
      .execute();
  },
};

/** The OAuth refresh lock of each profile (one holder at a time, with a lease). */
const refreshLocks: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('refresh_locks')
      .addColumn('profile_id', 'text', (column) => column.primaryKey())
      .addColumn('holder', 'text', (column) => column.notNull())
      .addColumn('expires_at', 'integer', (column) => column.notNull())
      .execute();
  },
};

/** Every migration, by name. */
export const MIGRATIONS: Readonly<Record<string, Migration>> = Object.freeze({
  '0001_initial': initial,
  '0002_refresh_locks': refreshLocks,
});

/** Names of every migration, in the order they run. */
export const MIGRATION_NAMES: readonly string[] = Object.freeze(Object.keys(MIGRATIONS).sort());

/** The in-code provider handed to kysely's `Migrator`. */
export const inCodeMigrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve({ ...MIGRATIONS }),
};
