/**
 * The auth-profile store of one agent: credentials, usage stats, per-provider order overrides, sessions and
 * probe throttles in `<stateRoot>/agents/<agentId>/agent/understudy-agent.sqlite` (docs/configuration.md, the model-failover doc
 * "Auth storage", "Rotation order", "Session overrides and live model switching").
 *
 * It implements the runner's `AuthStorePort` and adds the management calls of the CLI and the gateway's admin
 * API. Every routing write (failure/success mark, probe, session write) is one synchronous `BEGIN IMMEDIATE`
 * read-modify-write, so concurrent processes never lose an update; routing writes touch only routing tables,
 * never `credentials`.
 */
import os from 'node:os';
import { inlineProfileId, normalizeProviderId, parseProfileId } from '@understudy/contracts';
import type {
  Credential,
  OAuthCredential,
  ProfileId,
  ProfileUsageStats,
  ProviderAuthState,
  SessionEntry,
  SessionFields,
  SessionPatch,
  SessionWriteResult,
  TokenCredential,
  UsageStatsMap,
  UsageStatsTransition,
} from '@understudy/contracts';
import { openAgentDatabase } from './agent-database.js';
import type { OpenedDatabase } from './agent-database.js';
import { assertStorableCredential, credentialColumns } from './credential-rows.js';
import type { CredentialColumns } from './credential-rows.js';
import { AuthStoreError, LegacyAuthFilesError } from './errors.js';
import { findLegacyAuthFiles } from './legacy/legacy-files.js';
import { PostgresAuthProfileStore } from './postgres/postgres-store.js';
import { RequestPath } from './request-path.js';
import { assertProfileId } from './profile-ids.js';
import {
  assertRemovable,
  checkOrderOverride,
  inlineRecord,
  parseIdList,
  profileToStore,
  refreshedCredentialVerdict,
  storeClosedError,
  storeReadOnlyError,
  toRecord,
  withInlineRecords,
} from './profile-records.js';
import { resetSessionColumns, sessionFromRow } from './session-rows.js';
import { statePathsUnder, resolveStateRoot } from './state-paths.js';
import type { StatePaths } from './state-paths.js';
import type {
  AuthProfileRecord,
  AuthProfileStore,
  InlineKey,
  OpenAuthProfileStoreOptions,
  SaveRefreshedCredentialResult,
  StoreStatus,
  UpsertProfileInput,
} from './store-api.js';
import { parseStoredUsageStats } from './usage-stats-codec.js';

/**
 * Opens (creating and migrating on first use) the auth-profile store of one agent.
 *
 * @throws {LegacyAuthFilesError} when credential-bearing legacy files wait for `understudy doctor --fix`.
 * @throws {AuthStoreError} `invalid_agent_id`, `store_not_found` / `store_not_migrated` (read-only),
 * `store_unavailable`, `migration_failed`.
 * @example
 * const store = await openAuthProfileStore({ stateDir: '/tmp/us', agentId: 'main' });
 * await store.upsertProfile({ credential: { type: 'api_key', provider: 'openai', key: new Secret('sk-…') } });
 * await store.close();
 */
export async function openAuthProfileStore(options: OpenAuthProfileStoreOptions): Promise<AuthProfileStore> {
  const stateRoot = options.stateDir ?? resolveStateRoot({ homeDir: os.homedir() });
  const paths = statePathsUnder(stateRoot, options.agentId);
  if ((options.legacyFiles ?? 'fail-closed') === 'fail-closed') {
    const blocking = findLegacyAuthFiles(paths).filter((file) => file.blocking);
    if (blocking.length > 0) {
      throw new LegacyAuthFilesError(
        paths.agentId,
        blocking.map((file) => ({ path: file.path, why: file.error === undefined ? 'credentials' : 'unreadable' })),
      );
    }
  }
  const inline = new Map<ProfileId, InlineKey>();
  for (const key of options.inlineProfiles ?? []) {
    const provider = normalizeProviderId(key.provider);
    if (provider === '') throw new AuthStoreError('invalid_credential', 'an inline key has an empty provider id');
    inline.set(inlineProfileId(provider), { provider, key: key.key });
  }
  if (options.postgres !== undefined) {
    const store = new PostgresAuthProfileStore({
      paths,
      state: options.postgres,
      inline,
      nowMs: options.nowMs ?? Date.now,
      readOnly: options.readOnly ?? false,
      ownsState: options.closePostgres ?? false,
    });
    try {
      await store.warm();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }
  const database = await openAgentDatabase({
    databasePath: paths.databasePath,
    readOnly: options.readOnly,
    busyTimeoutMs: options.busyTimeoutMs,
  });
  try {
    return new SqliteAuthProfileStore(paths, database, inline, options.nowMs ?? Date.now, options.readOnly ?? false);
  } catch (error) {
    await database.kysely.destroy();
    throw new AuthStoreError('store_unavailable', `cannot prepare the request-path statements of ${paths.databasePath}`, { cause: error });
  }
}

class SqliteAuthProfileStore implements AuthProfileStore {
  readonly agentId: string;
  readonly paths: StatePaths;
  readonly readOnly: boolean;
  readonly backend = 'sqlite' as const;
  readonly location: string;
  readonly #database: OpenedDatabase;
  readonly #inline: ReadonlyMap<ProfileId, InlineKey>;
  readonly #nowMs: () => number;
  readonly #requestPath: RequestPath;
  #closed = false;

  constructor(
    paths: StatePaths,
    database: OpenedDatabase,
    inline: ReadonlyMap<ProfileId, InlineKey>,
    nowMs: () => number,
    readOnly: boolean,
  ) {
    this.agentId = paths.agentId;
    this.paths = paths;
    this.readOnly = readOnly;
    this.location = paths.databasePath;
    this.#database = database;
    this.#inline = inline;
    this.#nowMs = nowMs;
    this.#requestPath = new RequestPath(database.sqlite);
  }

  // ---- AuthStorePort (the request path: prepared statements, see request-path.ts) ----

  async loadProviderAuthState(provider: string): Promise<ProviderAuthState> {
    const normalized = normalizeProviderId(provider);
    return this.#requests().loadProviderAuthState(normalized, this.#inlineRecord(inlineProfileId(normalized)));
  }

  async resolveCredential(profileId: ProfileId): Promise<Credential | undefined> {
    const id = assertProfileId(profileId);
    const inline = this.#inline.get(id);
    if (inline !== undefined) return { type: 'api_key', provider: inline.provider, key: inline.key };
    return this.#requests().resolveCredential(id);
  }

  async updateUsageStats(profileId: ProfileId, transition: UsageStatsTransition): Promise<ProfileUsageStats> {
    const id = assertProfileId(profileId);
    return this.#writableRequests().updateUsageStats(id, transition, this.#nowMs);
  }

  async tryAcquireProbe(key: string, nowMs: number, throttleMs: number): Promise<boolean> {
    return this.#writableRequests().tryAcquireProbe(key, nowMs, throttleMs);
  }

  async releaseProbe(key: string, takenAtMs: number): Promise<void> {
    this.#writableRequests().releaseProbe(key, takenAtMs);
  }

  async tryAcquireRefreshLock(profileId: ProfileId, holder: string, nowMs: number, leaseMs: number): Promise<boolean> {
    const id = assertProfileId(profileId);
    const { queries, kysely } = this.#writable();
    return queries.immediate(() => {
      const current = queries.first(kysely.selectFrom('refresh_locks').select(['holder', 'expires_at']).where('profile_id', '=', id));
      if (current !== undefined && current.holder !== holder && current.expires_at > nowMs) return false;
      const row = { profile_id: id, holder, expires_at: nowMs + leaseMs };
      queries.run(kysely.insertInto('refresh_locks').values(row).onConflict((conflict) => conflict.column('profile_id').doUpdateSet(row)));
      return true;
    });
  }

  async releaseRefreshLock(profileId: ProfileId, holder: string): Promise<void> {
    const id = assertProfileId(profileId);
    const { queries, kysely } = this.#writable();
    queries.immediate(() => queries.run(kysely.deleteFrom('refresh_locks').where('profile_id', '=', id).where('holder', '=', holder)));
  }

  async getSession(key: string): Promise<SessionEntry | undefined> {
    return this.#requests().getSession(key);
  }

  async writeSession(key: string, expectedRevision: number | null, patch: SessionPatch, nowMs: number): Promise<SessionWriteResult> {
    return this.#writableRequests().writeSession(key, expectedRevision, patch, nowMs);
  }

  // ---- profiles ----

  async upsertProfile(input: UpsertProfileInput): Promise<{ readonly profile: AuthProfileRecord; readonly created: boolean }> {
    const { provider, credential, id, email } = profileToStore(input);
    const { queries, kysely } = this.#writable();
    const created = queries.immediate(() => {
      const now = this.#nowMs();
      const existing = queries.first(kysely.selectFrom('profiles').select('created_at').where('id', '=', id));
      const profile = { id, provider, type: credential.type, email, created_at: existing?.created_at ?? now, updated_at: now };
      queries.run(kysely.insertInto('profiles').values(profile).onConflict((conflict) => conflict.column('id').doUpdateSet(profile)));
      const columns = { profile_id: id, ...credentialColumns(credential), updated_at: now };
      queries.run(kysely.insertInto('credentials').values(columns).onConflict((conflict) => conflict.column('profile_id').doUpdateSet(columns)));
      return existing === undefined;
    });
    const profile = await this.getProfile(id);
    if (profile === undefined) throw new AuthStoreError('profile_not_found', `profile "${id}" vanished right after it was stored`);
    return { profile, created };
  }

  async getProfile(profileId: ProfileId): Promise<AuthProfileRecord | undefined> {
    const id = assertProfileId(profileId);
    const inline = this.#inlineRecord(id);
    if (inline !== undefined) return inline;
    const row = this.#open().queries.first(this.#profileQuery().where('profiles.id', '=', id));
    return row === undefined ? undefined : toRecord(row);
  }

  async listProfiles(options: { readonly provider?: string | undefined } = {}): Promise<AuthProfileRecord[]> {
    const provider = options.provider === undefined ? undefined : normalizeProviderId(options.provider);
    let query = this.#profileQuery();
    if (provider !== undefined) query = query.where('profiles.provider', '=', provider);
    return withInlineRecords(
      this.#open().queries.all(query).map((row) => toRecord(row)),
      this.#inline,
      provider,
    );
  }

  async removeProfile(profileId: ProfileId): Promise<boolean> {
    const id = assertProfileId(profileId);
    assertRemovable(id, this.#inline);
    const { queries, kysely } = this.#writable();
    return queries.immediate(() => {
      const removed = queries.run(kysely.deleteFrom('profiles').where('id', '=', id)) > 0;
      queries.run(kysely.deleteFrom('credentials').where('profile_id', '=', id));
      queries.run(kysely.deleteFrom('usage_stats').where('profile_id', '=', id));
      // Every session pin naming it goes too, user and automatic (the model-failover doc "Session stickiness"); the
      // revision moves so a turn that read the session before cannot write the pin back.
      queries.run(
        kysely
          .updateTable('sessions')
          .set((eb) => ({
            auth_profile_override: null,
            auth_profile_override_source: null,
            auth_profile_override_compaction_count: null,
            revision: eb('revision', '+', 1),
            updated_at: this.#nowMs(),
          }))
          .where('auth_profile_override', '=', id),
      );
      const provider = parseProfileId(id)?.provider ?? '';
      const order = queries.first(kysely.selectFrom('order_overrides').select('profile_ids').where('provider', '=', provider));
      if (order !== undefined) {
        const remaining = parseIdList(order.profile_ids).filter((entry) => entry !== id);
        if (remaining.length === 0) queries.run(kysely.deleteFrom('order_overrides').where('provider', '=', provider));
        else {
          queries.run(
            kysely
              .updateTable('order_overrides')
              .set({ profile_ids: JSON.stringify(remaining), updated_at: this.#nowMs() })
              .where('provider', '=', provider),
          );
        }
      }
      return removed;
    });
  }

  async saveRefreshedCredential(profileId: ProfileId, credential: OAuthCredential | TokenCredential): Promise<SaveRefreshedCredentialResult> {
    const id = assertProfileId(profileId);
    assertStorableCredential(credential);
    const { queries, kysely } = this.#writable();
    return queries.immediate((): SaveRefreshedCredentialResult => {
      const stored = queries.first(kysely.selectFrom('credentials').select(['type', 'expires_at']).where('profile_id', '=', id));
      const verdict = refreshedCredentialVerdict(id, stored, credential);
      if (!verdict.saved) return verdict;
      const columns: CredentialColumns = credentialColumns(credential);
      queries.run(kysely.updateTable('credentials').set({ ...columns, updated_at: this.#nowMs() }).where('profile_id', '=', id));
      return verdict;
    });
  }

  // ---- order overrides ----

  async getOrderOverride(provider: string): Promise<ProfileId[] | undefined> {
    const { queries, kysely } = this.#open();
    const row = queries.first(kysely.selectFrom('order_overrides').select('profile_ids').where('provider', '=', normalizeProviderId(provider)));
    return row === undefined ? undefined : parseIdList(row.profile_ids);
  }

  async setOrderOverride(provider: string, profileIds: readonly string[]): Promise<ProfileId[]> {
    const { provider: normalized, ids } = checkOrderOverride(provider, profileIds);
    const { queries, kysely } = this.#writable();
    const values = { provider: normalized, profile_ids: JSON.stringify(ids), updated_at: this.#nowMs() };
    queries.immediate(() =>
      queries.run(kysely.insertInto('order_overrides').values(values).onConflict((conflict) => conflict.column('provider').doUpdateSet(values))),
    );
    return ids;
  }

  async clearOrderOverride(provider: string): Promise<boolean> {
    const { queries, kysely } = this.#writable();
    return queries.immediate(() => queries.run(kysely.deleteFrom('order_overrides').where('provider', '=', normalizeProviderId(provider))) > 0);
  }

  async listOrderOverrides(): Promise<Record<string, ProfileId[]>> {
    const { queries, kysely } = this.#open();
    const rows = queries.all(kysely.selectFrom('order_overrides').select(['provider', 'profile_ids']).orderBy('provider'));
    return Object.fromEntries(rows.map((row) => [row.provider, parseIdList(row.profile_ids)]));
  }

  // ---- usage stats ----

  async getUsageStats(profileId: ProfileId): Promise<ProfileUsageStats> {
    const id = assertProfileId(profileId);
    const { queries, kysely } = this.#open();
    const row = queries.first(kysely.selectFrom('usage_stats').select('stats').where('profile_id', '=', id));
    return row === undefined ? {} : parseStoredUsageStats(row.stats);
  }

  async listUsageStats(): Promise<UsageStatsMap> {
    const { queries, kysely } = this.#open();
    const rows = queries.all(kysely.selectFrom('usage_stats').select(['profile_id', 'stats']).orderBy('profile_id'));
    return Object.fromEntries(rows.map((row) => [row.profile_id, parseStoredUsageStats(row.stats)]));
  }

  // ---- sessions ----

  async listSessions(): Promise<SessionEntry[]> {
    const { queries, kysely } = this.#open();
    return queries.all(kysely.selectFrom('sessions').selectAll().orderBy('updated_at', 'desc').orderBy('key')).map(sessionFromRow);
  }

  async deleteSession(key: string): Promise<boolean> {
    const { queries, kysely } = this.#writable();
    return queries.immediate(() => queries.run(kysely.deleteFrom('sessions').where('key', '=', key)) > 0);
  }

  async resetSession(key: string, nowMs: number, keep: readonly (keyof SessionFields)[] = []): Promise<SessionEntry | undefined> {
    const { queries, kysely } = this.#writable();
    return queries.immediate(() => {
      const current = queries.first(kysely.selectFrom('sessions').selectAll().where('key', '=', key));
      if (current === undefined) return undefined;
      const row = { ...current, ...resetSessionColumns(current, keep), revision: current.revision + 1, updated_at: nowMs };
      queries.run(kysely.updateTable('sessions').set(row).where('key', '=', key));
      return sessionFromRow(row);
    });
  }

  // ---- lifecycle ----

  status(): StoreStatus {
    return { backend: 'sqlite', up: true, pendingMarks: 0, location: this.location, unreadableCredentials: [] };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#database.kysely.destroy();
  }

  /** The store never serialises its inline secrets or anything else but its identity. */
  toJSON(): { readonly agentId: string; readonly databasePath: string } {
    return { agentId: this.agentId, databasePath: this.paths.databasePath };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `AuthProfileStore(${this.agentId} at ${this.paths.databasePath})`;
  }

  // ---- internals ----

  #open(): OpenedDatabase {
    if (this.#closed) throw storeClosedError(this.agentId);
    return this.#database;
  }

  #writable(): OpenedDatabase {
    const database = this.#open();
    if (this.readOnly) throw storeReadOnlyError(this.agentId);
    return database;
  }

  #requests(): RequestPath {
    this.#open();
    return this.#requestPath;
  }

  #writableRequests(): RequestPath {
    this.#writable();
    return this.#requestPath;
  }

  #profileQuery() {
    return this.#open()
      .kysely.selectFrom('profiles')
      .innerJoin('credentials', 'credentials.profile_id', 'profiles.id')
      .select([
        'profiles.id',
        'profiles.provider',
        'profiles.type',
        'profiles.email',
        'profiles.created_at',
        'profiles.updated_at',
        'credentials.api_key',
        'credentials.token',
        'credentials.access_token',
        'credentials.refresh_token',
        'credentials.expires_at',
        'credentials.project_id',
        'credentials.enterprise_url',
      ])
      .select('credentials.updated_at as credential_updated_at')
      .orderBy('profiles.provider')
      .orderBy('profiles.created_at')
      .orderBy('profiles.id');
  }

  #inlineRecord(id: ProfileId): AuthProfileRecord | undefined {
    return inlineRecord(id, this.#inline.get(id));
  }
}

