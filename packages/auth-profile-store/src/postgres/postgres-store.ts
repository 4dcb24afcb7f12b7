/**
 * The auth-profile store of one agent over the shared PostgreSQL state (README "Running several replicas",
 * docs/configuration.md): the same `AuthProfileStore` as the SQLite one, with the same guarantees.
 *
 * - Every usage-stats mark is one transaction that locks the profile's row (`select … for update`) before it
 *   reads, so concurrent replicas never lose a mark. The probe throttle is one `insert … on conflict do update
 *   … where` statement. Session writes compare-and-set on `revision` under a row lock. Routing writes touch
 *   only routing tables, never `credentials`.
 * - Every write notifies (`pg_notify`, delivered at commit) which provider, credential or session changed; the
 *   provider states, credentials and sessions a replica reads are cached per replica and dropped when such a
 *   notification arrives (`state-cache.ts` states the bound).
 * - Credentials are sealed with AES-256-GCM (`secret-box.ts`); without a key they are refused.
 * - While the server is unreachable the store answers from the last state it read, applies marks to that
 *   state and keeps them, in order, to write back when the server answers again; probes fall back to a
 *   throttle of this replica; session writes and management writes fail with `state_unreachable`.
 */
import { inlineProfileId, normalizeProviderId, parseProfileId } from '@understudy/contracts';
import type {
  AuthProfileView,
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
import type pg from 'pg';
import { sql } from 'kysely';
import type { Transaction } from 'kysely';
import { assertStorableCredential, credentialColumns, credentialFromRow } from '../credential-rows.js';
import type { CredentialColumns } from '../credential-rows.js';
import { AuthStoreError } from '../errors.js';
import { assertProfileId } from '../profile-ids.js';
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
} from '../profile-records.js';
import type { ProfileRow } from '../profile-records.js';
import type { CredentialsTable, SessionsTable } from '../schema.js';
import { SESSION_COLUMN_NAMES, nextSessionRow, resetSessionColumns, sessionFromRow } from '../session-rows.js';
import type { StatePaths } from '../state-paths.js';
import type { AuthProfileRecord, AuthProfileStore, InlineKey, SaveRefreshedCredentialResult, StoreStatus, UpsertProfileInput } from '../store-api.js';
import { parseStoredUsageStats, serializeUsageStats } from '../usage-stats-codec.js';
import { changePayload } from './postgres-state.js';
import type { PostgresState, StateChange } from './postgres-state.js';
import type { PgDatabase } from './pg-schema.js';
import { SEALED_COLUMNS, SECRET_KEY_HINT, sealContext, sealCredentialColumns } from './secret-box.js';
import type { SecretBox } from './secret-box.js';
import { StateCache } from './state-cache.js';


/** Most marks kept while the server is unreachable; older ones are dropped (and logged) beyond this. */
const MAX_PENDING_MARKS = 10_000;

/** True for the error the shared state throws while its server cannot be reached. */
function isUnreachable(error: unknown): boolean {
  return AuthStoreError.isInstance(error) && error.code === 'state_unreachable';
}

/** The stored part of a provider's state (the inline profile is added on the way out). */
interface StoredProviderState {
  readonly profiles: readonly AuthProfileView[];
  readonly storedOrder: readonly ProfileId[] | undefined;
  readonly usageStats: UsageStatsMap;
}

interface PendingMark {
  readonly id: ProfileId;
  readonly transition: UsageStatsTransition;
}

/** `select` list of a listing row: secret columns only say whether they are set, never carry the secret. */
const PRESENCE = (column: string): string => `case when c.${column} is null then null else '*' end as ${column}`;
const PROFILE_COLUMNS = [
  'p.id',
  'p.provider',
  'p.type',
  'p.email',
  'p.created_at',
  'p.updated_at',
  ...SEALED_COLUMNS.map(PRESENCE),
  'c.expires_at',
  'c.project_id',
  'c.enterprise_url',
  'c.updated_at as credential_updated_at',
].join(', ');

const PROVIDER_STATE_SQL = `select
  (select coalesce(json_agg(x order by x.created_at, x.id), '[]'::json) from (
     select ${PROFILE_COLUMNS} from profiles p join credentials c on c.agent_id = p.agent_id and c.profile_id = p.id
     where p.agent_id = $1 and p.provider = $2) x) as profiles,
  (select coalesce(json_object_agg(profile_id, stats), '{}'::json) from usage_stats where agent_id = $1 and provider = $2) as usage_stats,
  (select profile_ids from order_overrides where agent_id = $1 and provider = $2) as stored_order`;

const CREDENTIAL_SQL = `select p.provider, p.email, p.type, c.api_key, c.token, c.access_token, c.refresh_token, c.expires_at, c.project_id, c.enterprise_url
  from profiles p join credentials c on c.agent_id = p.agent_id and c.profile_id = p.id where p.agent_id = $1 and p.id = $2`;

const SESSION_FIELDS_SQL = SESSION_COLUMN_NAMES.join(', ');
const SESSION_SELECT_SQL = `select ${SESSION_FIELDS_SQL} from sessions where agent_id = $1 and key = $2`;
const SESSION_UPSERT_SQL =
  `with w as (insert into sessions (agent_id, ${SESSION_FIELDS_SQL}) values ($1, ${SESSION_COLUMN_NAMES.map((_, index) => `$${String(index + 2)}`).join(', ')}) ` +
  `on conflict (agent_id, key) do update set ${SESSION_COLUMN_NAMES.filter((column) => column !== 'key')
    .map((column) => `${column} = excluded.${column}`)
    .join(', ')}) select pg_notify($${String(SESSION_COLUMN_NAMES.length + 2)}, $${String(SESSION_COLUMN_NAMES.length + 3)})`;

const USAGE_UPSERT_SQL =
  'with w as (insert into usage_stats (agent_id, profile_id, provider, stats, updated_at) values ($1, $2, $3, $4, $5) ' +
  'on conflict (agent_id, profile_id) do update set stats = excluded.stats, updated_at = excluded.updated_at) select pg_notify($6, $7)';

const PROBE_SQL =
  'insert into probe_throttle (agent_id, key, last_probe_at) values ($1, $2, $3::bigint) ' +
  'on conflict (agent_id, key) do update set last_probe_at = excluded.last_probe_at ' +
  'where probe_throttle.last_probe_at <= $3::bigint - $4::bigint returning last_probe_at';

const PROBE_RELEASE_SQL = 'delete from probe_throttle where agent_id = $1 and key = $2 and last_probe_at = $3::bigint';

const REFRESH_LOCK_SQL =
  'insert into refresh_locks (agent_id, profile_id, holder, expires_at) values ($1, $2, $3, $4::bigint + $5::bigint) ' +
  'on conflict (agent_id, profile_id) do update set holder = excluded.holder, expires_at = excluded.expires_at ' +
  'where refresh_locks.holder = excluded.holder or refresh_locks.expires_at <= $4::bigint returning holder';

/** Options the factory hands over (see `openAuthProfileStore`). */
export interface PostgresStoreSetup {
  readonly paths: StatePaths;
  readonly state: PostgresState;
  readonly inline: ReadonlyMap<ProfileId, InlineKey>;
  readonly nowMs: () => number;
  readonly readOnly: boolean;
  /** `close()` closes `state` too. */
  readonly ownsState: boolean;
}

/** The PostgreSQL-backed store of one agent. Build it with `openAuthProfileStore({ postgres })`. */
export class PostgresAuthProfileStore implements AuthProfileStore {
  readonly agentId: string;
  readonly paths: StatePaths;
  readonly readOnly: boolean;
  readonly backend = 'postgres' as const;
  readonly location: string;
  readonly #state: PostgresState;
  readonly #inline: ReadonlyMap<ProfileId, InlineKey>;
  readonly #nowMs: () => number;
  readonly #providers: StateCache<StoredProviderState>;
  readonly #credentials: StateCache<Credential | null>;
  readonly #sessions: StateCache<SessionEntry | null>;
  readonly #localProbes = new Map<string, number>();
  /** Outage only: refresh locks of this replica, holder and lease end. */
  readonly #localRefreshLocks = new Map<ProfileId, { readonly holder: string; readonly expiresAt: number }>();
  readonly #pending: PendingMark[] = [];
  /** Profiles whose credential could not be opened with this key (see {@link StoreStatus.unreadableCredentials}). */
  readonly #unreadable = new Set<ProfileId>();
  readonly #unsubscribe: (() => void)[] = [];
  readonly #ownsState: boolean;
  #replaying: Promise<void> | undefined;
  #closed = false;

  constructor(setup: PostgresStoreSetup) {
    this.agentId = setup.paths.agentId;
    this.paths = setup.paths;
    this.readOnly = setup.readOnly;
    this.location = setup.state.location;
    this.#state = setup.state;
    this.#inline = setup.inline;
    this.#nowMs = setup.nowMs;
    this.#ownsState = setup.ownsState;
    this.#providers = new StateCache(setup.state, 1000);
    this.#credentials = new StateCache(setup.state, 1000);
    this.#sessions = new StateCache(setup.state, 10_000);
    this.#unsubscribe.push(
      setup.state.onChange((change) => this.#onChange(change)),
      setup.state.onStatus((status) => {
        if (status.up) void this.#replayPending();
      }),
    );
  }

  /** Reads every provider's state once, so an outage right after start still has a last known state to serve. */
  async warm(): Promise<void> {
    const result = await this.#state.query<{ provider: string }>({
      name: 'understudy_providers',
      text: 'select provider from profiles where agent_id = $1 union select provider from usage_stats where agent_id = $1 union select provider from order_overrides where agent_id = $1',
      values: [this.agentId],
    });
    const providers = new Set([...result.rows.map((row) => row.provider), ...[...this.#inline.values()].map((key) => key.provider)]);
    await Promise.all([...providers].map((provider) => this.loadProviderAuthState(provider)));
  }

  // ---- AuthStorePort ----

  async loadProviderAuthState(provider: string): Promise<ProviderAuthState> {
    this.#open();
    const normalized = normalizeProviderId(provider);
    const stored = await this.#storedProviderState(normalized);
    const inline = this.#inlineRecord(inlineProfileId(normalized));
    const profiles = inline === undefined ? stored.profiles : [...stored.profiles, inline];
    return stored.storedOrder === undefined
      ? { provider: normalized, profiles, usageStats: stored.usageStats }
      : { provider: normalized, profiles, storedOrder: stored.storedOrder, usageStats: stored.usageStats };
  }

  async resolveCredential(profileId: ProfileId): Promise<Credential | undefined> {
    this.#open();
    const id = assertProfileId(profileId);
    const inline = this.#inline.get(id);
    if (inline !== undefined) return { type: 'api_key', provider: inline.provider, key: inline.key };
    const cached = this.#credentials.fresh(id);
    if (cached !== undefined) return cached ?? undefined;
    const ticket = this.#credentials.ticket(id);
    let row: (CredentialColumns & { provider: string; email: string | null }) | undefined;
    try {
      row = (await this.#state.query<CredentialColumns & { provider: string; email: string | null }>({ name: 'understudy_credential', text: CREDENTIAL_SQL, values: [this.agentId, id] })).rows[0];
    } catch (error) {
      const known = this.#credentials.lastKnown(id);
      if (isUnreachable(error) && known !== undefined) return known ?? undefined;
      throw error;
    }
    let credential: Credential | null;
    try {
      credential = row === undefined ? null : credentialFromRow(this.#openColumns(id, row), row.provider, row.email);
      this.#unreadable.delete(id);
    } catch (error) {
      if (!(AuthStoreError.isInstance(error) && (error.code === 'secret_key_mismatch' || error.code === 'credential_corrupt'))) throw error;
      // One unreadable credential costs its profile, not the agent: the request goes on with the others, and
      // status() (so /healthz) names it until the key or the row is fixed.
      if (!this.#unreadable.has(id)) this.#state.logger.error({ agent: this.agentId, profile: id, code: error.code }, `the credential of ${id} cannot be opened; the profile is skipped: ${error.message}`);
      this.#unreadable.add(id);
      credential = null;
    }
    this.#credentials.put(id, credential, ticket);
    return credential ?? undefined;
  }

  async updateUsageStats(profileId: ProfileId, transition: UsageStatsTransition): Promise<ProfileUsageStats> {
    this.#writable();
    const id = assertProfileId(profileId);
    if (this.#pending.length > 0 || !this.#state.status().up) return this.#markLocally(id, transition);
    try {
      return await this.#writeMark(id, transition);
    } catch (error) {
      if (isUnreachable(error)) return this.#markLocally(id, transition);
      throw error;
    }
  }

  async tryAcquireProbe(key: string, nowMs: number, throttleMs: number): Promise<boolean> {
    this.#writable();
    try {
      const result = await this.#state.query({ name: 'understudy_probe', text: PROBE_SQL, values: [this.agentId, key, nowMs, throttleMs] });
      return result.rowCount === 1;
    } catch (error) {
      if (!isUnreachable(error)) throw error;
      // Outage: this replica's own throttle (the shared one cannot be asked).
      const last = this.#localProbes.get(key);
      if (last !== undefined && nowMs - last < throttleMs) return false;
      this.#localProbes.set(key, nowMs);
      return true;
    }
  }

  async releaseProbe(key: string, takenAtMs: number): Promise<void> {
    this.#writable();
    if (this.#localProbes.get(key) === takenAtMs) this.#localProbes.delete(key);
    try {
      await this.#state.query({ name: 'understudy_probe_release', text: PROBE_RELEASE_SQL, values: [this.agentId, key, takenAtMs] });
    } catch (error) {
      // Outage: the shared slot runs out by itself at the end of its window.
      if (!isUnreachable(error)) throw error;
    }
  }

  async tryAcquireRefreshLock(profileId: ProfileId, holder: string, nowMs: number, leaseMs: number): Promise<boolean> {
    this.#writable();
    const id = assertProfileId(profileId);
    try {
      const result = await this.#state.query({ name: 'understudy_refresh_lock', text: REFRESH_LOCK_SQL, values: [this.agentId, id, holder, nowMs, leaseMs] });
      return result.rowCount === 1;
    } catch (error) {
      if (!isUnreachable(error)) throw error;
      // Outage: a lock of this replica (other replicas cannot be asked).
      const current = this.#localRefreshLocks.get(id);
      if (current !== undefined && current.holder !== holder && current.expiresAt > nowMs) return false;
      this.#localRefreshLocks.set(id, { holder, expiresAt: nowMs + leaseMs });
      return true;
    }
  }

  async releaseRefreshLock(profileId: ProfileId, holder: string): Promise<void> {
    this.#writable();
    const id = assertProfileId(profileId);
    if (this.#localRefreshLocks.get(id)?.holder === holder) this.#localRefreshLocks.delete(id);
    try {
      await this.#state.query({
        name: 'understudy_refresh_unlock',
        text: 'delete from refresh_locks where agent_id = $1 and profile_id = $2 and holder = $3',
        values: [this.agentId, id, holder],
      });
    } catch (error) {
      // Outage: the lease runs out by itself.
      if (!isUnreachable(error)) throw error;
    }
  }

  async getSession(key: string): Promise<SessionEntry | undefined> {
    this.#open();
    const cached = this.#sessions.fresh(key);
    if (cached !== undefined) return cached ?? undefined;
    const ticket = this.#sessions.ticket(key);
    let row: SessionsTable | undefined;
    try {
      row = (await this.#state.query<SessionsTable>({ name: 'understudy_session', text: SESSION_SELECT_SQL, values: [this.agentId, key] })).rows[0];
    } catch (error) {
      if (isUnreachable(error)) return this.#sessions.lastKnown(key) ?? undefined;
      throw error;
    }
    const entry = row === undefined ? null : sessionFromRow(row);
    this.#sessions.put(key, entry, ticket);
    return entry ?? undefined;
  }

  async writeSession(key: string, expectedRevision: number | null, patch: SessionPatch, nowMs: number): Promise<SessionWriteResult> {
    this.#writable();
    const result = await this.#state.transaction(async (client): Promise<SessionWriteResult> => {
      const found = await client.query<SessionsTable>({ name: 'understudy_session_lock', text: `${SESSION_SELECT_SQL} for update`, values: [this.agentId, key] });
      const current = found.rows[0];
      const next = nextSessionRow(key, current, expectedRevision, patch, nowMs);
      if (!next.ok) return next;
      const row = next.row;
      if (current === undefined) {
        // No row to lock yet: a concurrent first write wins the insert, and this one reports the conflict.
        const inserted = await client.query({
          name: 'understudy_session_insert',
          text: `insert into sessions (agent_id, ${SESSION_FIELDS_SQL}) values ($1, ${SESSION_COLUMN_NAMES.map((_, index) => `$${String(index + 2)}`).join(', ')}) on conflict (agent_id, key) do nothing`,
          values: [this.agentId, ...SESSION_COLUMN_NAMES.map((column) => row[column])],
        });
        if (inserted.rowCount !== 1) {
          const winner = await client.query<SessionsTable>({ name: 'understudy_session', text: SESSION_SELECT_SQL, values: [this.agentId, key] });
          return { ok: false, current: winner.rows[0] === undefined ? undefined : sessionFromRow(winner.rows[0]) };
        }
        await this.#notify(client, 's', key);
      } else {
        await client.query({
          name: 'understudy_session_upsert',
          text: SESSION_UPSERT_SQL,
          values: [this.agentId, ...SESSION_COLUMN_NAMES.map((column) => row[column]), this.#state.channel, changePayload(this.agentId, 's', key)],
        });
      }
      return { ok: true, entry: sessionFromRow(row) };
    });
    if (result.ok) this.#sessions.invalidate(key);
    return result;
  }

  // ---- profiles ----

  async upsertProfile(input: UpsertProfileInput): Promise<{ readonly profile: AuthProfileRecord; readonly created: boolean }> {
    this.#writable();
    const { provider, credential, id, email } = profileToStore(input);
    const box = this.#box('storing');
    const sealed = this.#sealColumns(id, credentialColumns(credential), box);
    const created = await this.#state.guard(() =>
      this.#state.kysely.transaction().execute(async (trx) => {
        const now = this.#nowMs();
        const existing = await trx.selectFrom('profiles').select('created_at').where('agent_id', '=', this.agentId).where('id', '=', id).forUpdate().executeTakeFirst();
        const profile = { agent_id: this.agentId, id, provider, type: credential.type, email, created_at: existing?.created_at ?? now, updated_at: now };
        await trx.insertInto('profiles').values(profile).onConflict((conflict) => conflict.columns(['agent_id', 'id']).doUpdateSet(profile)).execute();
        const columns = { agent_id: this.agentId, profile_id: id, ...sealed, updated_at: now };
        await trx.insertInto('credentials').values(columns).onConflict((conflict) => conflict.columns(['agent_id', 'profile_id']).doUpdateSet(columns)).execute();
        await this.#notifyKysely(trx, [['p', provider], ['c', id]]);
        return existing === undefined;
      }),
    );
    this.#providers.invalidate(provider);
    this.#credentials.invalidate(id);
    const profile = await this.getProfile(id);
    if (profile === undefined) throw new AuthStoreError('profile_not_found', `profile "${id}" vanished right after it was stored`);
    return { profile, created };
  }

  async getProfile(profileId: ProfileId): Promise<AuthProfileRecord | undefined> {
    this.#open();
    const id = assertProfileId(profileId);
    const inline = this.#inlineRecord(id);
    if (inline !== undefined) return inline;
    const result = await this.#state.query<ProfileRow>({
      name: 'understudy_profile',
      text: `select ${PROFILE_COLUMNS} from profiles p join credentials c on c.agent_id = p.agent_id and c.profile_id = p.id where p.agent_id = $1 and p.id = $2`,
      values: [this.agentId, id],
    });
    return result.rows[0] === undefined ? undefined : toRecord(result.rows[0]);
  }

  async listProfiles(options: { readonly provider?: string | undefined } = {}): Promise<AuthProfileRecord[]> {
    this.#open();
    const provider = options.provider === undefined ? undefined : normalizeProviderId(options.provider);
    const result = await this.#state.query<ProfileRow>({
      text: `select ${PROFILE_COLUMNS} from profiles p join credentials c on c.agent_id = p.agent_id and c.profile_id = p.id where p.agent_id = $1 ${provider === undefined ? '' : 'and p.provider = $2'} order by p.provider, p.created_at, p.id`,
      values: provider === undefined ? [this.agentId] : [this.agentId, provider],
    });
    return withInlineRecords(
      result.rows.map((row) => toRecord(row)),
      this.#inline,
      provider,
    );
  }

  async removeProfile(profileId: ProfileId): Promise<boolean> {
    const id = assertProfileId(profileId);
    assertRemovable(id, this.#inline);
    this.#writable();
    const provider = parseProfileId(id)?.provider ?? '';
    const removed = await this.#state.guard(() =>
      this.#state.kysely.transaction().execute(async (trx) => {
        const deleted = await trx.deleteFrom('profiles').where('agent_id', '=', this.agentId).where('id', '=', id).executeTakeFirst();
        await trx.deleteFrom('usage_stats').where('agent_id', '=', this.agentId).where('profile_id', '=', id).execute();
        const order = await trx
          .selectFrom('order_overrides')
          .select('profile_ids')
          .where('agent_id', '=', this.agentId)
          .where('provider', '=', provider)
          .forUpdate()
          .executeTakeFirst();
        if (order !== undefined) {
          const remaining = parseIdList(order.profile_ids).filter((entry) => entry !== id);
          const where = trx.deleteFrom('order_overrides').where('agent_id', '=', this.agentId).where('provider', '=', provider);
          if (remaining.length === 0) await where.execute();
          else {
            await trx
              .updateTable('order_overrides')
              .set({ profile_ids: JSON.stringify(remaining), updated_at: this.#nowMs() })
              .where('agent_id', '=', this.agentId)
              .where('provider', '=', provider)
              .execute();
          }
        }
        // Every session pin naming it goes too, user and automatic (the model-failover doc "Session stickiness"),
        // as in SQLite; the revision moves so a turn that read the session before cannot write the pin back.
        const unpinned = await trx
          .updateTable('sessions')
          .set((eb) => ({
            auth_profile_override: null,
            auth_profile_override_source: null,
            auth_profile_override_compaction_count: null,
            revision: eb('revision', '+', 1),
            updated_at: this.#nowMs(),
          }))
          .where('agent_id', '=', this.agentId)
          .where('auth_profile_override', '=', id)
          .returning('key')
          .execute();
        await this.#notifyKysely(trx, [['p', provider], ['c', id], ...unpinned.map((row): ['s', string] => ['s', row.key])]);
        for (const row of unpinned) this.#sessions.invalidate(row.key);
        return (deleted.numDeletedRows ?? 0n) > 0n;
      }),
    );
    this.#providers.invalidate(provider);
    this.#credentials.invalidate(id);
    return removed;
  }

  async saveRefreshedCredential(profileId: ProfileId, credential: OAuthCredential | TokenCredential): Promise<SaveRefreshedCredentialResult> {
    this.#writable();
    const id = assertProfileId(profileId);
    assertStorableCredential(credential);
    const box = this.#box('storing');
    const sealed = this.#sealColumns(id, credentialColumns(credential), box);
    const provider = parseProfileId(id)?.provider ?? '';
    const result = await this.#state.guard(() =>
      this.#state.kysely.transaction().execute(async (trx): Promise<SaveRefreshedCredentialResult> => {
        const stored = await trx
          .selectFrom('credentials')
          .select(['type', 'expires_at'])
          .where('agent_id', '=', this.agentId)
          .where('profile_id', '=', id)
          .forUpdate()
          .executeTakeFirst();
        const verdict = refreshedCredentialVerdict(id, stored, credential);
        if (!verdict.saved) return verdict;
        await trx
          .updateTable('credentials')
          .set({ ...sealed, updated_at: this.#nowMs() })
          .where('agent_id', '=', this.agentId)
          .where('profile_id', '=', id)
          .execute();
        await this.#notifyKysely(trx, [['p', provider], ['c', id]]);
        return verdict;
      }),
    );
    this.#providers.invalidate(provider);
    this.#credentials.invalidate(id);
    return result;
  }

  // ---- order overrides ----

  async getOrderOverride(provider: string): Promise<ProfileId[] | undefined> {
    this.#open();
    const row = await this.#state.guard(() =>
      this.#state.kysely
        .selectFrom('order_overrides')
        .select('profile_ids')
        .where('agent_id', '=', this.agentId)
        .where('provider', '=', normalizeProviderId(provider))
        .executeTakeFirst(),
    );
    return row === undefined ? undefined : parseIdList(row.profile_ids);
  }

  async setOrderOverride(provider: string, profileIds: readonly string[]): Promise<ProfileId[]> {
    const { provider: normalized, ids } = checkOrderOverride(provider, profileIds);
    this.#writable();
    const values = { agent_id: this.agentId, provider: normalized, profile_ids: JSON.stringify(ids), updated_at: this.#nowMs() };
    await this.#state.guard(() =>
      this.#state.kysely.transaction().execute(async (trx) => {
        await trx.insertInto('order_overrides').values(values).onConflict((conflict) => conflict.columns(['agent_id', 'provider']).doUpdateSet(values)).execute();
        await this.#notifyKysely(trx, [['p', normalized]]);
      }),
    );
    this.#providers.invalidate(normalized);
    return ids;
  }

  async clearOrderOverride(provider: string): Promise<boolean> {
    this.#writable();
    const normalized = normalizeProviderId(provider);
    const removed = await this.#state.guard(() =>
      this.#state.kysely.transaction().execute(async (trx) => {
        const result = await trx.deleteFrom('order_overrides').where('agent_id', '=', this.agentId).where('provider', '=', normalized).executeTakeFirst();
        await this.#notifyKysely(trx, [['p', normalized]]);
        return (result.numDeletedRows ?? 0n) > 0n;
      }),
    );
    this.#providers.invalidate(normalized);
    return removed;
  }

  async listOrderOverrides(): Promise<Record<string, ProfileId[]>> {
    this.#open();
    const rows = await this.#state.guard(() =>
      this.#state.kysely.selectFrom('order_overrides').select(['provider', 'profile_ids']).where('agent_id', '=', this.agentId).orderBy('provider').execute(),
    );
    return Object.fromEntries(rows.map((row) => [row.provider, parseIdList(row.profile_ids)]));
  }

  // ---- usage stats ----

  async getUsageStats(profileId: ProfileId): Promise<ProfileUsageStats> {
    this.#open();
    const id = assertProfileId(profileId);
    const row = await this.#state.guard(() =>
      this.#state.kysely.selectFrom('usage_stats').select('stats').where('agent_id', '=', this.agentId).where('profile_id', '=', id).executeTakeFirst(),
    );
    return row === undefined ? {} : parseStoredUsageStats(row.stats);
  }

  async listUsageStats(): Promise<UsageStatsMap> {
    this.#open();
    const rows = await this.#state.guard(() =>
      this.#state.kysely.selectFrom('usage_stats').select(['profile_id', 'stats']).where('agent_id', '=', this.agentId).orderBy('profile_id').execute(),
    );
    return Object.fromEntries(rows.map((row) => [row.profile_id, parseStoredUsageStats(row.stats)]));
  }

  // ---- sessions ----

  async listSessions(): Promise<SessionEntry[]> {
    this.#open();
    const rows = await this.#state.guard(() =>
      this.#state.kysely
        .selectFrom('sessions')
        .select([...SESSION_COLUMN_NAMES])
        .where('agent_id', '=', this.agentId)
        .orderBy('updated_at', 'desc')
        .orderBy('key')
        .execute(),
    );
    return rows.map((row) => sessionFromRow(row));
  }

  async deleteSession(key: string): Promise<boolean> {
    this.#writable();
    const removed = await this.#state.guard(() =>
      this.#state.kysely.transaction().execute(async (trx) => {
        const result = await trx.deleteFrom('sessions').where('agent_id', '=', this.agentId).where('key', '=', key).executeTakeFirst();
        await this.#notifyKysely(trx, [['s', key]]);
        return (result.numDeletedRows ?? 0n) > 0n;
      }),
    );
    this.#sessions.invalidate(key);
    return removed;
  }

  async resetSession(key: string, nowMs: number, keep: readonly (keyof SessionFields)[] = []): Promise<SessionEntry | undefined> {
    this.#writable();
    const entry = await this.#state.guard(() =>
      this.#state.kysely.transaction().execute(async (trx) => {
        const current = await trx
          .selectFrom('sessions')
          .select([...SESSION_COLUMN_NAMES])
          .where('agent_id', '=', this.agentId)
          .where('key', '=', key)
          .forUpdate()
          .executeTakeFirst();
        if (current === undefined) return undefined;
        const row: SessionsTable = { ...current, ...resetSessionColumns(current, keep), revision: current.revision + 1, updated_at: nowMs };
        await trx.updateTable('sessions').set(row).where('agent_id', '=', this.agentId).where('key', '=', key).execute();
        await this.#notifyKysely(trx, [['s', key]]);
        return sessionFromRow(row);
      }),
    );
    this.#sessions.invalidate(key);
    return entry;
  }

  // ---- lifecycle ----

  status(): StoreStatus {
    const status = this.#state.status();
    return { backend: 'postgres', up: status.up, pendingMarks: this.#pending.length, location: this.location, unreadableCredentials: [...this.#unreadable] };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#replayPending().catch(() => undefined);
    this.#closed = true;
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    if (this.#ownsState) await this.#state.close();
  }

  /** The store never serialises secrets: only its identity. */
  toJSON(): { readonly agentId: string; readonly location: string } {
    return { agentId: this.agentId, location: this.location };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `AuthProfileStore(${this.agentId} at ${this.location})`;
  }

  // ---- internals ----

  #open(): void {
    if (this.#closed) throw storeClosedError(this.agentId);
  }

  #writable(): void {
    this.#open();
    if (this.readOnly) throw storeReadOnlyError(this.agentId);
  }

  async #storedProviderState(provider: string): Promise<StoredProviderState> {
    const cached = this.#providers.fresh(provider);
    if (cached !== undefined) return cached;
    const ticket = this.#providers.ticket(provider);
    let row: { profiles: ProfileRow[]; usage_stats: Record<string, string>; stored_order: string | null } | undefined;
    try {
      row = (await this.#state.query<{ profiles: ProfileRow[]; usage_stats: Record<string, string>; stored_order: string | null }>({
        name: 'understudy_provider_state',
        text: PROVIDER_STATE_SQL,
        values: [this.agentId, provider],
      })).rows[0];
    } catch (error) {
      const known = this.#providers.lastKnown(provider);
      if (isUnreachable(error) && known !== undefined) return known;
      throw error;
    }
    const usageStats: Record<ProfileId, ProfileUsageStats> = {};
    for (const [id, stats] of Object.entries(row?.usage_stats ?? {})) usageStats[id] = parseStoredUsageStats(stats);
    const stored: StoredProviderState = {
      profiles: (row?.profiles ?? []).map(toRecord),
      storedOrder: row?.stored_order === null || row?.stored_order === undefined ? undefined : parseIdList(row.stored_order),
      usageStats,
    };
    this.#providers.put(provider, stored, ticket);
    return stored;
  }

  /** One mark, row-locked: the row is created first when missing, then locked, read, transitioned, written. */
  async #writeMark(id: ProfileId, transition: UsageStatsTransition): Promise<ProfileUsageStats> {
    const provider = parseProfileId(id)?.provider ?? '';
    const next = await this.#state.transaction(async (client) => {
      const locked = async (): Promise<string | undefined> =>
        (await client.query<{ stats: string }>({ name: 'understudy_usage_lock', text: 'select stats from usage_stats where agent_id = $1 and profile_id = $2 for update', values: [this.agentId, id] })).rows[0]?.stats;
      let stored = await locked();
      if (stored === undefined) {
        await client.query({
          name: 'understudy_usage_seed',
          text: `insert into usage_stats (agent_id, profile_id, provider, stats, updated_at) values ($1, $2, $3, '{}', $4) on conflict (agent_id, profile_id) do nothing`,
          values: [this.agentId, id, provider, this.#nowMs()],
        });
        stored = await locked();
      }
      const result = transition(stored === undefined ? {} : parseStoredUsageStats(stored));
      await client.query({
        name: 'understudy_usage_put',
        text: USAGE_UPSERT_SQL,
        values: [this.agentId, id, provider, serializeUsageStats(result), this.#nowMs(), this.#state.channel, changePayload(this.agentId, 'p', provider)],
      });
      return result;
    });
    this.#providers.invalidate(provider);
    return next;
  }

  /** Outage: the mark goes into the last known state of its provider and waits, in order, to be written. */
  #markLocally(id: ProfileId, transition: UsageStatsTransition): ProfileUsageStats {
    const provider = parseProfileId(id)?.provider ?? '';
    const known = this.#providers.lastKnown(provider);
    const next = transition(known?.usageStats[id] ?? {});
    if (known !== undefined) this.#providers.remember(provider, { ...known, usageStats: { ...known.usageStats, [id]: next } });
    if (this.#pending.length >= MAX_PENDING_MARKS) {
      this.#pending.shift();
      this.#state.logger.error({ agent: this.agentId }, `more than ${String(MAX_PENDING_MARKS)} marks waited for the shared state; the oldest was dropped`);
    }
    this.#pending.push({ id, transition });
    if (this.#state.status().up) void this.#replayPending();
    return next;
  }

  /** Writes the marks kept during an outage, oldest first; stops at the first that cannot be written. */
  #replayPending(): Promise<void> {
    if (this.#replaying !== undefined) return this.#replaying;
    if (this.#pending.length === 0 || this.#closed) return Promise.resolve();
    const run = async (): Promise<void> => {
      let written = 0;
      while (this.#pending.length > 0 && this.#state.status().up) {
        const mark = this.#pending[0] as PendingMark;
        try {
          await this.#writeMark(mark.id, mark.transition);
        } catch (error) {
          if (isUnreachable(error)) break;
          this.#state.logger.error({ agent: this.agentId, profile: mark.id, err: error instanceof Error ? error.message : String(error) }, 'a kept mark could not be written back; dropped');
        }
        this.#pending.shift();
        written += 1;
      }
      if (written > 0) this.#state.logger.info({ agent: this.agentId, written, left: this.#pending.length }, 'marks kept during the outage written back');
    };
    this.#replaying = run().finally(() => {
      this.#replaying = undefined;
    });
    return this.#replaying;
  }

  #onChange(change: StateChange): void {
    if (change.agentId !== '*' && change.agentId !== this.agentId) return;
    switch (change.kind) {
      case 'p':
        this.#providers.invalidate(change.key);
        break;
      case 'c':
        this.#credentials.invalidate(change.key);
        break;
      case 's':
        this.#sessions.invalidate(change.key);
        break;
      case '*':
        this.#providers.invalidateAll();
        this.#credentials.invalidateAll();
        this.#sessions.invalidateAll();
        break;
    }
  }

  async #notify(client: pg.PoolClient, kind: StateChange['kind'], key: string): Promise<void> {
    await client.query({ name: 'understudy_notify', text: 'select pg_notify($1, $2)', values: [this.#state.channel, changePayload(this.agentId, kind, key)] });
  }

  async #notifyKysely(trx: Transaction<PgDatabase>, changes: readonly (readonly [StateChange['kind'], string])[]): Promise<void> {
    for (const [kind, key] of changes) {
      await sql`select pg_notify(${this.#state.channel}, ${changePayload(this.agentId, kind, key)})`.execute(trx);
    }
  }

  #box(action: 'storing' | 'reading'): SecretBox {
    const box = this.#state.secretBox;
    if (box === undefined) {
      throw new AuthStoreError('secret_key_missing', `${action} credentials in the shared PostgreSQL state needs a secret key: ${SECRET_KEY_HINT}`);
    }
    return box;
  }

  #sealColumns(id: ProfileId, columns: CredentialColumns, box: SecretBox): CredentialColumns {
    return sealCredentialColumns(box, this.agentId, id, columns);
  }

  #openColumns<Row extends Pick<CredentialsTable, (typeof SEALED_COLUMNS)[number]>>(id: ProfileId, row: Row): Row {
    const sealedPresent = SEALED_COLUMNS.some((column) => row[column] !== null);
    if (!sealedPresent) return row;
    const box = this.#box('reading');
    const opened: Record<string, unknown> = { ...row };
    for (const column of SEALED_COLUMNS) {
      const value = row[column];
      if (value !== null) opened[column] = box.open(value, sealContext(this.agentId, id, column));
    }
    return opened as Row;
  }

  #inlineRecord(id: ProfileId): AuthProfileRecord | undefined {
    return inlineRecord(id, this.#inline.get(id));
  }
}
