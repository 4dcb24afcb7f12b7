/**
 * Table shapes of the agent database, for kysely's typed query builder. Secrets live only in `credentials`;
 * routing state (`usage_stats`, `order_overrides`, `probe_throttle`, `sessions`) lives in tables of its own, so
 * a routing write can never touch a credential. Every timestamp is epoch ms.
 */
import type { CredentialType } from '@understudy/contracts';

/** One stored auth profile (metadata, no secret). */
export interface ProfilesTable {
  readonly id: string;
  readonly provider: string;
  readonly type: CredentialType;
  readonly email: string | null;
  readonly created_at: number;
  readonly updated_at: number;
}

/** The credential of a stored profile. Columns that do not apply to its type are null. */
export interface CredentialsTable {
  readonly profile_id: string;
  readonly type: CredentialType;
  /** `api_key` only. */
  readonly api_key: string | null;
  /** `token` only. */
  readonly token: string | null;
  /** `oauth` only. */
  readonly access_token: string | null;
  /** `oauth` only. */
  readonly refresh_token: string | null;
  /** `oauth` access-token or `token` expiry. */
  readonly expires_at: number | null;
  readonly project_id: string | null;
  readonly enterprise_url: string | null;
  readonly updated_at: number;
}

/** Usage stats of one profile (stored or inline), as the JSON of `ProfileUsageStats`. */
export interface UsageStatsTable {
  readonly profile_id: string;
  readonly stats: string;
  readonly updated_at: number;
}

/** A per-provider order set with `models auth order set` (JSON array of profile ids). */
export interface OrderOverridesTable {
  readonly provider: string;
  readonly profile_ids: string;
  readonly updated_at: number;
}

/** The last probe taken under a throttle key (usually a provider id). */
export interface ProbeThrottleTable {
  readonly key: string;
  readonly last_probe_at: number;
}

/** Who holds the OAuth refresh lock of a profile, until when (epoch ms). */
export interface RefreshLocksTable {
  readonly profile_id: string;
  readonly holder: string;
  readonly expires_at: number;
}

/** One session entry; nested values (`fallback_notice`, `pending_live_switch`) are JSON. */
export interface SessionsTable {
  readonly key: string;
  readonly revision: number;
  readonly created_at: number;
  readonly updated_at: number;
  readonly provider_override: string | null;
  readonly model_override: string | null;
  readonly model_override_source: string | null;
  readonly model_override_origin: string | null;
  readonly auth_profile_override: string | null;
  readonly auth_profile_override_source: string | null;
  readonly auth_profile_override_compaction_count: number | null;
  readonly compaction_count: number | null;
  readonly chat_type: string | null;
  readonly fallback_notice: string | null;
  readonly pending_live_switch: string | null;
  readonly last_origin_probe_at: number | null;
}

/** The whole database, as kysely sees it. */
export interface AgentDatabase {
  readonly profiles: ProfilesTable;
  readonly credentials: CredentialsTable;
  readonly usage_stats: UsageStatsTable;
  readonly order_overrides: OrderOverridesTable;
  readonly probe_throttle: ProbeThrottleTable;
  readonly refresh_locks: RefreshLocksTable;
  readonly sessions: SessionsTable;
}
