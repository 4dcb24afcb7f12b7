/**
 * `understudy doctor --fix`: imports an agent's legacy auth files into its SQLite store (docs/configuration.md, the model-failover doc
 * "Auth storage": legacy files are imported only by the doctor; until then the agent fails closed).
 *
 * Rules:
 * - Files are merged first: credentials from `auth-profiles.json`, then `auth.json`, then `credentials/oauth.json`
 *   (a later file's duplicate id is skipped, unless it is the same kind of expiring credential with a later
 *   expiry); orders and usage stats from `auth-profiles.json` (older layout), overridden per provider / per profile
 *   by `auth-state.json` (newer layout).
 * - Everything is written in ONE `BEGIN IMMEDIATE` transaction. The store wins: a profile, order or usage-stats
 *   value that the store already holds is kept and reported (`kept_stored`), except an OAuth/token credential
 *   whose legacy copy expires later (`updated`). Identical values report `unchanged`, so a second run is a no-op.
 * - After the commit, each file that was read is renamed to `<name>.imported` (`<name>.imported-<epoch ms>` when
 *   that exists) with mode 0600, so it no longer blocks the agent and its secrets stay private. A file that could
 *   not be parsed is left in place and reported; it keeps blocking the agent until it is fixed or moved away.
 */
import fs from 'node:fs';
import os from 'node:os';
import type { Credential, ProfileId, ProfileUsageStats } from '@understudy/contracts';
import { DATABASE_FILE_MODE, openAgentDatabase } from '../agent-database.js';
import type { OpenedDatabase } from '../agent-database.js';
import { credentialColumns, sameCredentialColumns } from '../credential-rows.js';
import { resolveStateRoot, statePathsUnder } from '../state-paths.js';
import { serializeUsageStats } from '../usage-stats-codec.js';
import { findLegacyAuthFiles } from './legacy-files.js';
import type { LegacyFileKind, LegacyProfile, LegacySkip } from './legacy-files.js';

/** Options of {@link importLegacyAuthFiles}. */
export interface ImportLegacyAuthFilesOptions {
  /** The state root. @default `~/.understudy` */
  readonly stateDir?: string | undefined;
  readonly agentId: string;
  /** Clock for stamps and rename suffixes, epoch ms. @default Date.now */
  readonly nowMs?: (() => number) | undefined;
  /** @default 5000 */
  readonly busyTimeoutMs?: number | undefined;
}

/** What happened to one imported item. */
export type LegacyImportAction = 'created' | 'updated' | 'unchanged' | 'kept_stored' | 'duplicate';

/** The outcome of an import, for the doctor's report. Never contains a secret. */
export interface LegacyImportReport {
  readonly agentId: string;
  readonly databasePath: string;
  readonly files: readonly {
    readonly kind: LegacyFileKind;
    readonly path: string;
    readonly status: 'imported' | 'unreadable' | 'rename_failed';
    readonly renamedTo?: string | undefined;
    readonly error?: string | undefined;
  }[];
  readonly profiles: readonly { readonly id: ProfileId; readonly file: string; readonly action: LegacyImportAction; readonly detail?: string | undefined }[];
  readonly orders: readonly { readonly provider: string; readonly action: LegacyImportAction }[];
  readonly usageStats: readonly { readonly profileId: ProfileId; readonly action: LegacyImportAction }[];
  readonly skipped: readonly LegacySkip[];
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends readonly (infer E)[] ? E[] : T[K] };

/**
 * Imports the agent's legacy auth files and renames them. Safe to run again: nothing is imported twice and the
 * store's values win.
 *
 * @throws {AuthStoreError} when the store cannot be opened or migrated.
 * @example
 * const report = await importLegacyAuthFiles({ stateDir: '/home/ada/.understudy', agentId: 'main' });
 * report.profiles // [{ id: 'openai:default', file: '…/auth-profiles.json', action: 'created' }]
 */
export async function importLegacyAuthFiles(options: ImportLegacyAuthFilesOptions): Promise<LegacyImportReport> {
  const nowMs = options.nowMs ?? Date.now;
  const stateRoot = options.stateDir ?? resolveStateRoot({ homeDir: os.homedir() });
  const paths = statePathsUnder(stateRoot, options.agentId);
  const report: Mutable<LegacyImportReport> = {
    agentId: paths.agentId,
    databasePath: paths.databasePath,
    files: [],
    profiles: [],
    orders: [],
    usageStats: [],
    skipped: [],
  };
  const found = findLegacyAuthFiles(paths);
  if (found.length === 0) return report;

  const profiles = new Map<ProfileId, LegacyProfile>();
  const orders = new Map<string, readonly ProfileId[]>();
  const usageStats = new Map<ProfileId, ProfileUsageStats>();
  const read = found.filter((file) => file.content !== undefined);
  for (const file of found) {
    if (file.content === undefined) report.files.push({ kind: file.kind, path: file.path, status: 'unreadable', error: file.error });
  }
  // Routing state: the older layout (auth-profiles.json) first, the newer auth-state.json overriding it.
  const byRoutingAge = [...read].sort((a, b) => Number(a.kind === 'auth-state.json') - Number(b.kind === 'auth-state.json'));
  for (const file of byRoutingAge) {
    const content = file.content;
    if (content === undefined) continue;
    for (const [provider, ids] of Object.entries(content.orders)) orders.set(provider, ids);
    for (const [id, stats] of Object.entries(content.usageStats)) usageStats.set(id, stats);
  }
  for (const file of read) {
    const content = file.content;
    if (content === undefined) continue;
    report.skipped.push(...content.skipped);
    for (const profile of content.profiles) {
      const earlier = profiles.get(profile.id);
      if (earlier === undefined) profiles.set(profile.id, profile);
      else if (expiresLater(profile.credential, earlier.credential)) {
        profiles.set(profile.id, profile);
        report.profiles.push({ id: earlier.id, file: earlier.file, action: 'duplicate', detail: `superseded by ${profile.file}, which expires later` });
      } else {
        report.profiles.push({ id: profile.id, file: profile.file, action: 'duplicate', detail: `already taken from ${earlier.file}` });
      }
    }
  }

  const database = await openAgentDatabase({ databasePath: paths.databasePath, busyTimeoutMs: options.busyTimeoutMs });
  try {
    database.queries.immediate(() => {
      const now = nowMs();
      for (const profile of profiles.values()) report.profiles.push({ ...importProfile(database, profile, now), id: profile.id, file: profile.file });
      for (const [provider, ids] of orders) report.orders.push({ provider, action: importOrder(database, provider, ids, now) });
      for (const [profileId, stats] of usageStats) report.usageStats.push({ profileId, action: importUsageStats(database, profileId, stats, now) });
    });
  } finally {
    await database.kysely.destroy();
  }

  const suffixStamp = nowMs();
  for (const file of read) {
    const target = fs.existsSync(`${file.path}.imported`) ? `${file.path}.imported-${suffixStamp}` : `${file.path}.imported`;
    try {
      fs.renameSync(file.path, target);
      fs.chmodSync(target, DATABASE_FILE_MODE);
      report.files.push({ kind: file.kind, path: file.path, status: 'imported', renamedTo: target });
    } catch (error) {
      report.files.push({ kind: file.kind, path: file.path, status: 'rename_failed', error: (error as NodeJS.ErrnoException).code ?? String(error) });
    }
  }
  return report;
}

function importProfile(database: OpenedDatabase, profile: LegacyProfile, now: number): { action: LegacyImportAction; detail?: string } {
  const { queries, kysely } = database;
  const { credential } = profile;
  const columns = credentialColumns(credential);
  const stored = queries.first(kysely.selectFrom('credentials').selectAll().where('profile_id', '=', profile.id));
  const email = credential.type === 'oauth' ? (credential.email ?? null) : null;
  if (stored === undefined) {
    const row = { id: profile.id, provider: credential.provider, type: credential.type, email, created_at: now, updated_at: now };
    queries.run(kysely.insertInto('profiles').values(row).onConflict((conflict) => conflict.column('id').doUpdateSet(row)));
    queries.run(kysely.insertInto('credentials').values({ profile_id: profile.id, ...columns, updated_at: now }));
    return { action: 'created' };
  }
  if (sameCredentialColumns(stored, columns)) return { action: 'unchanged' };
  const legacyExpiry = columns.expires_at;
  if (stored.type === columns.type && stored.expires_at !== null && legacyExpiry !== null && legacyExpiry > stored.expires_at) {
    queries.run(kysely.updateTable('credentials').set({ ...columns, updated_at: now }).where('profile_id', '=', profile.id));
    return { action: 'updated', detail: 'the legacy credential expires later than the stored one' };
  }
  return { action: 'kept_stored', detail: 'the store already holds a different credential for this id; the legacy one was not imported' };
}

function importOrder(database: OpenedDatabase, provider: string, ids: readonly ProfileId[], now: number): LegacyImportAction {
  const { queries, kysely } = database;
  const text = JSON.stringify(ids);
  const stored = queries.first(kysely.selectFrom('order_overrides').select('profile_ids').where('provider', '=', provider));
  if (stored !== undefined) return stored.profile_ids === text ? 'unchanged' : 'kept_stored';
  queries.run(kysely.insertInto('order_overrides').values({ provider, profile_ids: text, updated_at: now }));
  return 'created';
}

function importUsageStats(database: OpenedDatabase, profileId: ProfileId, stats: ProfileUsageStats, now: number): LegacyImportAction {
  const { queries, kysely } = database;
  const text = serializeUsageStats(stats);
  const stored = queries.first(kysely.selectFrom('usage_stats').select('stats').where('profile_id', '=', profileId));
  if (stored !== undefined) return stored.stats === text ? 'unchanged' : 'kept_stored';
  queries.run(kysely.insertInto('usage_stats').values({ profile_id: profileId, stats: text, updated_at: now }));
  return 'created';
}

/** True when `candidate` is the same kind of expiring credential as `current` and expires later. */
function expiresLater(candidate: Credential, current: Credential): boolean {
  if (candidate.type !== current.type || candidate.type === 'api_key' || current.type === 'api_key') return false;
  return candidate.expires !== undefined && current.expires !== undefined && candidate.expires > current.expires;
}
