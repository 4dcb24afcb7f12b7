/**
 * The PostgreSQL schema, as kysely migrations (in-code provider, like the SQLite ones in `../migrations.ts`).
 * One schema holds every agent: the agent id leads every primary key. Text keys use the "C" collation, so
 * listings sort byte-wise exactly as SQLite does whatever the server's locale. Timestamps are epoch ms in
 * `bigint` columns (read back as numbers, see `postgres-state.ts`). Credential secret columns hold sealed text
 * (`secret-box.ts`), never plain secrets. Never edit a released migration; add a new one.
 */
import { sql } from 'kysely';
import type { Kysely, Migration, MigrationProvider } from 'kysely';

const initial: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`
      create table profiles (
        agent_id text collate "C" not null,
        id text collate "C" not null,
        provider text collate "C" not null,
        type text not null check (type in ('api_key', 'oauth', 'token')),
        email text,
        created_at bigint not null,
        updated_at bigint not null,
        primary key (agent_id, id)
      )`.execute(db);
    await sql`create index profiles_by_provider on profiles (agent_id, provider)`.execute(db);
    await sql`
      create table credentials (
        agent_id text collate "C" not null,
        profile_id text collate "C" not null,
        type text not null check (type in ('api_key', 'oauth', 'token')),
        api_key text,
        token text,
        access_token text,
        refresh_token text,
        expires_at bigint,
        project_id text,
        enterprise_url text,
        updated_at bigint not null,
        primary key (agent_id, profile_id),
        foreign key (agent_id, profile_id) references profiles (agent_id, id) on delete cascade
      )`.execute(db);
    await sql`
      create table usage_stats (
        agent_id text collate "C" not null,
        profile_id text collate "C" not null,
        provider text collate "C" not null,
        stats text not null,
        updated_at bigint not null,
        primary key (agent_id, profile_id)
      )`.execute(db);
    await sql`create index usage_stats_by_provider on usage_stats (agent_id, provider)`.execute(db);
    await sql`
      create table order_overrides (
        agent_id text collate "C" not null,
        provider text collate "C" not null,
        profile_ids text not null,
        updated_at bigint not null,
        primary key (agent_id, provider)
      )`.execute(db);
    await sql`
      create table probe_throttle (
        agent_id text collate "C" not null,
        key text collate "C" not null,
        last_probe_at bigint not null,
        primary key (agent_id, key)
      )`.execute(db);
    await sql`
      create table sessions (
        agent_id text collate "C" not null,
        key text collate "C" not null,
        revision integer not null,
        created_at bigint not null,
        updated_at bigint not null,
        provider_override text,
        model_override text,
        model_override_source text,
        model_override_origin text,
        auth_profile_override text,
        auth_profile_override_source text,
        auth_profile_override_compaction_count integer,
        compaction_count integer,
        chat_type text,
        fallback_notice text,
        pending_live_switch text,
        last_origin_probe_at bigint,
        primary key (agent_id, key)
      )`.execute(db);
  },
};

/** The OAuth refresh lock of each profile (one holder at a time, with a lease), as in SQLite's `0002`. */
const refreshLocks: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`
      create table refresh_locks (
        agent_id text collate "C" not null,
        profile_id text collate "C" not null,
        holder text not null,
        expires_at bigint not null,
        primary key (agent_id, profile_id)
      )`.execute(db);
  },
};

/** Every PostgreSQL migration, by name. */
export const PG_MIGRATIONS: Readonly<Record<string, Migration>> = Object.freeze({
  '0001_initial': initial,
  '0002_refresh_locks': refreshLocks,
});

/** Names of every PostgreSQL migration, in the order they run. */
export const PG_MIGRATION_NAMES: readonly string[] = Object.freeze(Object.keys(PG_MIGRATIONS).sort());

/** The in-code provider handed to kysely's `Migrator`. */
export const pgMigrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve({ ...PG_MIGRATIONS }),
};
