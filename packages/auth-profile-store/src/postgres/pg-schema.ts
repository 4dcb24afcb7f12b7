/**
 * Table shapes of the PostgreSQL state (see `pg-migrations.ts`), for kysely: the SQLite tables of
 * `../schema.ts` with the agent id leading every key, and the provider beside each usage-stats row.
 */
import type {
  CredentialsTable,
  OrderOverridesTable,
  ProbeThrottleTable,
  ProfilesTable,
  RefreshLocksTable,
  SessionsTable,
  UsageStatsTable,
} from '../schema.js';

/** Adds the `agent_id` column. */
type OfAgent<Table> = { readonly agent_id: string } & Table;

/** The whole PostgreSQL state, as kysely sees it. */
export interface PgDatabase {
  readonly profiles: OfAgent<ProfilesTable>;
  readonly credentials: OfAgent<CredentialsTable>;
  readonly usage_stats: OfAgent<UsageStatsTable> & { readonly provider: string };
  readonly order_overrides: OfAgent<OrderOverridesTable>;
  readonly probe_throttle: OfAgent<ProbeThrottleTable>;
  readonly sessions: OfAgent<SessionsTable>;
  readonly refresh_locks: OfAgent<RefreshLocksTable>;
}
