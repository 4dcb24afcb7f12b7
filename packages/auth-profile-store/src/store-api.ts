/**
 * The public shape of the auth-profile store: the runner's `AuthStorePort` plus the management calls of the CLI
 * and the gateway's admin API, and the inputs and results of those calls.
 */
import type {
  AuthProfileView,
  AuthStorePort,
  Credential,
  CredentialType,
  OAuthCredential,
  ProfileId,
  ProfileUsageStats,
  Secret,
  SessionEntry,
  SessionFields,
  TokenCredential,
  UsageStatsMap,
} from '@understudy/contracts';
import type { PostgresState } from './postgres/postgres-state.js';
import type { StatePaths } from './state-paths.js';

/** An inline config key (`models.providers.<id>.apiKey`): it becomes the `<provider>:inline` profile. */
export interface InlineKey {
  readonly provider: string;
  readonly key: Secret;
}

/** Options of `openAuthProfileStore`. */
export interface OpenAuthProfileStoreOptions {
  /** The state root, as the app chose it (`UNDERSTUDY_STATE_DIR`, `state.dir`; see `resolveStateRoot`). @default `~/.understudy` */
  readonly stateDir?: string | undefined;
  /** The agent whose store to open, e.g. `main`. */
  readonly agentId: string;
  /** Inline config keys; their secrets stay in memory, only their usage stats are stored. @default [] */
  readonly inlineProfiles?: readonly InlineKey[] | undefined;
  /** Clock for `createdAt`/`updatedAt` stamps, epoch ms. @default Date.now */
  readonly nowMs?: (() => number) | undefined;
  /** Open an existing store without creating, migrating or writing. Writes then fail. @default false */
  readonly readOnly?: boolean | undefined;
  /** How long to wait for another process's write lock, ms. @default 5000 */
  readonly busyTimeoutMs?: number | undefined;
  /**
   * `fail-closed` refuses to open while credential-bearing legacy files wait for `understudy doctor --fix`
   * (the model-failover doc "Auth storage"). `ignore` is for the doctor itself. @default 'fail-closed'
   */
  readonly legacyFiles?: 'fail-closed' | 'ignore' | undefined;
  /**
   * Serve this agent from the shared PostgreSQL state (`connectPostgresState`) instead of its SQLite file. The
   * state is shared by every agent store of the process and closed by its owner, not by the store.
   * @default SQLite under `stateDir`
   */
  readonly postgres?: PostgresState | undefined;
  /** The store owns `postgres`: its `close()` closes the connection too (one-shot commands). @default false */
  readonly closePostgres?: boolean | undefined;
}

/** Which database serves a store, and whether it answers. */
export interface StoreStatus {
  readonly backend: 'sqlite' | 'postgres';
  /** False while the PostgreSQL server cannot be reached (the store then serves the last state it read). */
  readonly up: boolean;
  /** Usage-stats marks taken while down and not yet written back. */
  readonly pendingMarks: number;
  /** The database file, or `postgres://host:port/db (schema s)`; never a password. */
  readonly location: string;
  /**
   * Stored profiles whose credential could not be opened (sealed under another `UNDERSTUDY_SECRET_KEY`, or
   * corrupt): `resolveCredential` answers `undefined` for them, so requests go on without them. Always empty on
   * SQLite, which seals nothing.
   */
  readonly unreadableCredentials: readonly ProfileId[];
}

/** A profile as the management commands list it: the routing view plus metadata, never the secret. */
export interface AuthProfileRecord extends AuthProfileView {
  readonly type: CredentialType;
  /** When the profile was first stored, epoch ms (absent for inline profiles). */
  readonly createdAt?: number | undefined;
  /** When its credential was last written, epoch ms (absent for inline profiles). */
  readonly credentialUpdatedAt?: number | undefined;
  readonly projectId?: string | undefined;
  readonly enterpriseUrl?: string | undefined;
}

/** Input of {@link AuthProfileStore.upsertProfile}. */
export interface UpsertProfileInput {
  /**
   * `provider:name`, or just a name (the credential's provider is prefixed). @default `<provider>:<email>` for
   * an OAuth credential with an email, else `<provider>:default`
   */
  readonly id?: string | undefined;
  readonly credential: Credential;
}

/** Result of {@link AuthProfileStore.saveRefreshedCredential}. */
export type SaveRefreshedCredentialResult =
  | { readonly saved: true }
  /** `stored_is_newer`: another process already stored a credential that expires later; it was kept. */
  | { readonly saved: false; readonly reason: 'stored_is_newer' };

/** The store of one agent: the runner's port plus management calls. Every call is atomic. */
export interface AuthProfileStore extends AuthStorePort {
  readonly agentId: string;
  readonly paths: StatePaths;
  readonly readOnly: boolean;
  /** `sqlite` (one file per agent) or `postgres` (shared by replicas). */
  readonly backend: 'sqlite' | 'postgres';
  /** The database file, or the PostgreSQL host, database and schema (never a password). */
  readonly location: string;
  /** Backend, health and marks waiting to be written. */
  status(): StoreStatus;
  /**
   * Stores a profile with its credential, replacing the credential of an existing profile of that id (its
   * usage stats are kept).
   * @throws {AuthStoreError} `invalid_profile_id`, `reserved_profile_id` (`<provider>:inline`), `invalid_credential`,
   *   `secret_key_missing` (PostgreSQL without a secret key).
   */
  upsertProfile(input: UpsertProfileInput): Promise<{ readonly profile: AuthProfileRecord; readonly created: boolean }>;
  /** One profile (stored or inline), or `undefined`. */
  getProfile(profileId: ProfileId): Promise<AuthProfileRecord | undefined>;
  /** Every profile (stored, then inline, by provider), optionally of one provider. */
  listProfiles(options?: { readonly provider?: string | undefined }): Promise<AuthProfileRecord[]>;
  /**
   * Removes a stored profile, its credential and usage stats, drops it from stored orders and clears every
   * session pin (user or automatic) that names it.
   * @returns `false` when there was no such profile.
   * @throws {AuthStoreError} `reserved_profile_id` for an inline profile (remove the key from the config instead).
   */
  removeProfile(profileId: ProfileId): Promise<boolean>;
  /**
   * OAuth/token refresh write-back: replaces only the credential of an existing profile of the same type,
   * unless the stored one expires later (another process refreshed first).
   * @throws {AuthStoreError} `profile_not_found`, `invalid_credential` (type change or bad credential).
   */
  saveRefreshedCredential(profileId: ProfileId, credential: OAuthCredential | TokenCredential): Promise<SaveRefreshedCredentialResult>;
  /** The stored order override of a provider, or `undefined`. */
  getOrderOverride(provider: string): Promise<ProfileId[] | undefined>;
  /**
   * Stores a provider's order override (deduplicated, normalised).
   * @throws {AuthStoreError} `invalid_order` when empty or an id belongs to another provider.
   */
  setOrderOverride(provider: string, profileIds: readonly string[]): Promise<ProfileId[]>;
  /** Removes a provider's order override. @returns `false` when there was none. */
  clearOrderOverride(provider: string): Promise<boolean>;
  /** Every stored order override, by provider. */
  listOrderOverrides(): Promise<Record<string, ProfileId[]>>;
  /** A profile's usage stats (`{}` when none are stored). */
  getUsageStats(profileId: ProfileId): Promise<ProfileUsageStats>;
  /** Every stored usage-stats value, by profile id. */
  listUsageStats(): Promise<UsageStatsMap>;
  /** Every session entry, most recently updated first. */
  listSessions(): Promise<SessionEntry[]>;
  /** Deletes a session entry. @returns `false` when there was none. */
  deleteSession(key: string): Promise<boolean>;
  /**
   * Clears every field of a session except `keep`, bumping its revision (so a stale compare-and-set write
   * still fails). @returns the entry after the reset, or `undefined` when there was none.
   */
  resetSession(key: string, nowMs: number, keep?: readonly (keyof SessionFields)[]): Promise<SessionEntry | undefined>;
  /** Closes the database. Further calls fail with `store_closed`. */
  close(): Promise<void>;
}
