/**
 * The request path of the store: the `AuthStorePort` calls that the gateway and the fallback runner make on
 * every proxied request (`loadProviderAuthState`, `resolveCredential`, `updateUsageStats`, `tryAcquireProbe`,
 * `getSession`, `writeSession`).
 *
 * Their SQL is written once and prepared once per store on the better-sqlite3 connection, and their
 * transactions are better-sqlite3 transaction functions created once, so a call costs what SQLite costs (tens
 * of µs) rather than a kysely build and compile per query. Each read-modify-write is still one synchronous
 * `BEGIN IMMEDIATE` transaction (`.immediate()`), and a provider's profiles, order and usage stats are read
 * in one read transaction (one snapshot).
 *
 * The one thing kept between calls is each provider's last decoded state, and only while the database provably
 * did not change: `PRAGMA data_version` moves when any other connection (another process, another handle of this
 * one) commits, and `total_changes()` moves with every write of this connection. Both are read in one statement
 * before each use, so a cooldown another process recorded or cleared is seen by the very next call, and so is
 * one this store wrote.
 */
import type Database from 'better-sqlite3';
import type {
  AuthProfileView,
  Credential,
  ProfileId,
  ProfileUsageStats,
  ProviderAuthState,
  SessionEntry,
  SessionPatch,
  SessionWriteResult,
  UsageStatsTransition,
} from '@understudy/contracts';
import { credentialFromRow } from './credential-rows.js';
import type { CredentialColumns } from './credential-rows.js';
import { providerRange } from './profile-ids.js';
import { parseIdList, toRecord } from './profile-records.js';
import type { ProfileRow } from './profile-records.js';
import { RawSelect, plainColumns } from './raw-select.js';
import type { SelectList } from './raw-select.js';
import type { SessionsTable } from './schema.js';
import { SESSION_COLUMN_NAMES, nextSessionRow, sessionFromRow } from './session-rows.js';
import { parseStoredUsageStats, serializeUsageStats } from './usage-stats-codec.js';

/** A credential row with the profile columns `credentialFromRow` needs. */
type CredentialRow = CredentialColumns & { readonly provider: string; readonly email: string | null };

/** What one read transaction of `loadProviderAuthState` returns, before decoding. */
interface ProviderRows {
  readonly profiles: readonly ProfileRow[];
  /** `[profile_id, stats]` pairs. */
  readonly usageStats: readonly (readonly [string, string])[];
  readonly storedOrder: string | undefined;
}

/** A provider's decoded state, kept while neither counter of {@link RequestPath} moved. */
interface CachedProviderState {
  readonly dataVersion: number;
  readonly ownChanges: number;
  readonly profiles: readonly AuthProfileView[];
  readonly usageStats: Readonly<Record<ProfileId, ProfileUsageStats>>;
  readonly storedOrder: readonly ProfileId[] | undefined;
}

/** A joined profile row (see `ProfileRow`): the same columns as the management listing. */
const PROFILE_SELECT: SelectList<ProfileRow> = {
  id: 'p.id',
  provider: 'p.provider',
  type: 'p.type',
  email: 'p.email',
  created_at: 'p.created_at',
  updated_at: 'p.updated_at',
  api_key: 'c.api_key',
  token: 'c.token',
  access_token: 'c.access_token',
  refresh_token: 'c.refresh_token',
  expires_at: 'c.expires_at',
  project_id: 'c.project_id',
  enterprise_url: 'c.enterprise_url',
  credential_updated_at: 'c.updated_at',
};

/** What `credentialFromRow` needs; the type comes from `profiles`, as in the management listing. */
const CREDENTIAL_SELECT: SelectList<CredentialRow> = {
  provider: 'p.provider',
  email: 'p.email',
  type: 'p.type',
  api_key: 'c.api_key',
  token: 'c.token',
  access_token: 'c.access_token',
  refresh_token: 'c.refresh_token',
  expires_at: 'c.expires_at',
  project_id: 'c.project_id',
  enterprise_url: 'c.enterprise_url',
};

const PROFILES_WITH_CREDENTIALS = 'from profiles p join credentials c on c.profile_id = p.id';

const SESSION_UPSERT =
  `insert into sessions (${SESSION_COLUMN_NAMES.join(', ')}) values (${SESSION_COLUMN_NAMES.map((column) => `@${column}`).join(', ')}) ` +
  `on conflict (key) do update set ${SESSION_COLUMN_NAMES.filter((column) => column !== 'key')
    .map((column) => `${column} = excluded.${column}`)
    .join(', ')}`;

/**
 * The request-path statements and transactions of one connection. Callers check ids, closing and read-only
 * mode first; every method here is synchronous and must not be called after the connection closed.
 */
export class RequestPath {
  readonly #profilesOfProvider: RawSelect<[string], ProfileRow>;
  /** Raw rows: `[profile_id, stats]`. */
  readonly #usageStatsInRange: Database.Statement<[string, string], [string, string]>;
  readonly #orderOf: Database.Statement<[string], string>;
  readonly #credentialOf: RawSelect<[string], CredentialRow>;
  readonly #usageStatsOf: Database.Statement<[string], string>;
  readonly #putUsageStats: Database.Statement<[string, string, number]>;
  readonly #lastProbeOf: Database.Statement<[string], number>;
  readonly #putProbe: Database.Statement<[string, number]>;
  readonly #sessionOf: RawSelect<[string], SessionsTable>;
  readonly #putSession: Database.Statement<[SessionsTable]>;
  /** `PRAGMA data_version`: moves when another connection commits. */
  readonly #dataVersion: Database.Statement<[], number>;
  /** `total_changes()`: moves with every write of this connection. */
  readonly #ownChanges: Database.Statement<[], number>;
  readonly #providerStates = new Map<string, CachedProviderState>();

  readonly #readProvider: Database.Transaction<(provider: string) => ProviderRows>;
  readonly #updateUsageStats: Database.Transaction<(id: ProfileId, transition: UsageStatsTransition, nowMs: () => number) => ProfileUsageStats>;
  readonly #tryAcquireProbe: Database.Transaction<(key: string, nowMs: number, throttleMs: number) => boolean>;
  readonly #releaseProbe: Database.Statement<[string, number]>;
  readonly #writeSession: Database.Transaction<
    (key: string, expectedRevision: number | null, patch: SessionPatch, nowMs: number) => SessionWriteResult
  >;

  constructor(sqlite: Database.Database) {
    this.#profilesOfProvider = new RawSelect(sqlite, PROFILE_SELECT, `${PROFILES_WITH_CREDENTIALS} where p.provider = ? order by p.created_at, p.id`);
    this.#usageStatsInRange = sqlite
      .prepare<[string, string], [string, string]>('select profile_id, stats from usage_stats where profile_id >= ? and profile_id < ?')
      .raw();
    this.#orderOf = sqlite.prepare<[string], string>('select profile_ids from order_overrides where provider = ?').pluck();
    this.#credentialOf = new RawSelect(sqlite, CREDENTIAL_SELECT, `${PROFILES_WITH_CREDENTIALS} where p.id = ?`);
    this.#usageStatsOf = sqlite.prepare<[string], string>('select stats from usage_stats where profile_id = ?').pluck();
    this.#putUsageStats = sqlite.prepare(
      'insert into usage_stats (profile_id, stats, updated_at) values (?, ?, ?) ' +
        'on conflict (profile_id) do update set stats = excluded.stats, updated_at = excluded.updated_at',
    );
    this.#lastProbeOf = sqlite.prepare<[string], number>('select last_probe_at from probe_throttle where key = ?').pluck();
    this.#putProbe = sqlite.prepare(
      'insert into probe_throttle (key, last_probe_at) values (?, ?) on conflict (key) do update set last_probe_at = excluded.last_probe_at',
    );
    this.#sessionOf = new RawSelect(sqlite, plainColumns<SessionsTable>(SESSION_COLUMN_NAMES), 'from sessions where key = ?');
    this.#putSession = sqlite.prepare(SESSION_UPSERT);
    // Two plain statements rather than one `select … from pragma_data_version`: the table-valued pragma opens a
    // virtual-table cursor on every call, which cost twice as much as both of these together (≈ 2.4 µs vs 1 µs).
    this.#dataVersion = sqlite.prepare<[], number>('pragma data_version').pluck();
    this.#ownChanges = sqlite.prepare<[], number>('select total_changes()').pluck();

    this.#readProvider = sqlite.transaction((provider: string): ProviderRows => {
      const [low, high] = providerRange(provider);
      return {
        profiles: this.#profilesOfProvider.all(provider),
        usageStats: this.#usageStatsInRange.all(low, high),
        storedOrder: this.#orderOf.get(provider),
      };
    });
    this.#updateUsageStats = sqlite.transaction((id: ProfileId, transition: UsageStatsTransition, nowMs: () => number) => {
      const stored = this.#usageStatsOf.get(id);
      const next = transition(stored === undefined ? {} : parseStoredUsageStats(stored));
      this.#putUsageStats.run(id, serializeUsageStats(next), nowMs());
      return next;
    });
    this.#releaseProbe = sqlite.prepare<[string, number]>('delete from probe_throttle where key = ? and last_probe_at = ?');
    this.#tryAcquireProbe = sqlite.transaction((key: string, nowMs: number, throttleMs: number) => {
      const lastProbeAt = this.#lastProbeOf.get(key);
      if (lastProbeAt !== undefined && nowMs - lastProbeAt < throttleMs) return false;
      this.#putProbe.run(key, nowMs);
      return true;
    });
    this.#writeSession = sqlite.transaction(
      (key: string, expectedRevision: number | null, patch: SessionPatch, nowMs: number): SessionWriteResult => {
        const next = nextSessionRow(key, this.#sessionOf.get(key), expectedRevision, patch, nowMs);
        if (!next.ok) return next;
        this.#putSession.run(next.row);
        return { ok: true, entry: sessionFromRow(next.row) };
      },
    );
  }

  /**
   * A provider's stored profiles (then `inline`, when given), stored order and usage stats (including stats of
   * ids with no stored profile), read in one read transaction, or the same state decoded by an earlier call
   * when no connection has written the database since. `provider` is normalised. The answer is shared between
   * calls: it must not be mutated (its types are read-only).
   */
  loadProviderAuthState(provider: string, inline: AuthProfileView | undefined): ProviderAuthState {
    const state = this.#providerState(provider);
    const profiles = inline === undefined ? state.profiles : [...state.profiles, inline];
    return state.storedOrder === undefined
      ? { provider, profiles, usageStats: state.usageStats }
      : { provider, profiles, storedOrder: state.storedOrder, usageStats: state.usageStats };
  }

  #providerState(provider: string): CachedProviderState {
    const dataVersion = this.#dataVersion.get() ?? Number.NaN;
    const ownChanges = this.#ownChanges.get() ?? Number.NaN;
    const cached = this.#providerStates.get(provider);
    if (cached !== undefined && cached.dataVersion === dataVersion && cached.ownChanges === ownChanges) return cached;
    // Counters read before the snapshot: a commit in between makes the next call read again, never the reverse.
    const rows = this.#readProvider.deferred(provider);
    const usageStats: Record<ProfileId, ProfileUsageStats> = {};
    for (const [id, stats] of rows.usageStats) usageStats[id] = parseStoredUsageStats(stats);
    const state: CachedProviderState = {
      dataVersion,
      ownChanges,
      profiles: rows.profiles.map(toRecord),
      usageStats,
      storedOrder: rows.storedOrder === undefined ? undefined : parseIdList(rows.storedOrder),
    };
    this.#providerStates.set(provider, state);
    return state;
  }

  /** The credential of a stored profile, secrets wrapped, or `undefined`. `id` is canonical. */
  resolveCredential(id: ProfileId): Credential | undefined {
    const row = this.#credentialOf.get(id);
    return row === undefined ? undefined : credentialFromRow(row, row.provider, row.email);
  }

  /** One `BEGIN IMMEDIATE` read-modify-write of a profile's usage stats; `nowMs` stamps `updated_at`. */
  updateUsageStats(id: ProfileId, transition: UsageStatsTransition, nowMs: () => number): ProfileUsageStats {
    return this.#updateUsageStats.immediate(id, transition, nowMs);
  }

  /** One `BEGIN IMMEDIATE` read-modify-write of a probe slot: taken when free for at least `throttleMs`. */
  tryAcquireProbe(key: string, nowMs: number, throttleMs: number): boolean {
    return this.#tryAcquireProbe.immediate(key, nowMs, throttleMs);
  }

  /** Frees the slot `key` if it is still the one taken at `takenAtMs` (one statement, atomic). */
  releaseProbe(key: string, takenAtMs: number): void {
    this.#releaseProbe.run(key, takenAtMs);
  }

  /** The session entry, or `undefined`. */
  getSession(key: string): SessionEntry | undefined {
    const row = this.#sessionOf.get(key);
    return row === undefined ? undefined : sessionFromRow(row);
  }

  /** One `BEGIN IMMEDIATE` compare-and-set write of a session entry (on its `revision`). */
  writeSession(key: string, expectedRevision: number | null, patch: SessionPatch, nowMs: number): SessionWriteResult {
    return this.#writeSession.immediate(key, expectedRevision, patch, nowMs);
  }
}
