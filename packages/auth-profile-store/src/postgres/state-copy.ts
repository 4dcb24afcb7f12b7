/**
 * `understudy state copy`: moves a single-host SQLite state (one database per agent) into the shared PostgreSQL
 * state, row by row, in one transaction per agent. A row whose key PostgreSQL already holds is kept as it is
 * there and counted as skipped, so a second run copies nothing and says so (docs/configuration.md "Moving a
 * single-host state to PostgreSQL"). Credentials are sealed on the way in (`secret-box.ts`); refresh locks are
 * leases of running processes and are not copied.
 *
 * Everything that can be checked is checked before the first write to the target: every source database is
 * read whole, the secret key is there when credentials are to be copied, and the key is the one the schema's
 * sealed values were written with. Only then are the schema's migrations run and the rows copied.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseProfileId } from '@understudy/contracts';
import { sql } from 'kysely';
import type { RawBuilder, Transaction } from 'kysely';
import { openAgentDatabase } from '../agent-database.js';
import { AuthStoreError, LegacyAuthFilesError } from '../errors.js';
import { findLegacyAuthFiles } from '../legacy/legacy-files.js';
import { DATABASE_FILE_NAME, listAgentIds, statePathsUnder } from '../state-paths.js';
import type { AgentDatabase } from '../schema.js';
import type { PgDatabase } from './pg-schema.js';
import { changePayload } from './postgres-state.js';
import type { PostgresState } from './postgres-state.js';
import { SECRET_KEY_HINT, sealCredentialColumns } from './secret-box.js';
import type { SecretBox } from './secret-box.js';

/** The kinds of state `copyStateToPostgres` moves, in the order it reports them. */
export const STATE_COPY_KINDS = ['profiles', 'credentials', 'usage_stats', 'order_overrides', 'sessions', 'probe_throttle'] as const;

/** One of {@link STATE_COPY_KINDS}. */
export type StateCopyKind = (typeof STATE_COPY_KINDS)[number];

/** Rows of one kind: `copied` were written to PostgreSQL, `skipped` were already there (kept unchanged). */
export interface StateCopyCount {
  readonly copied: number;
  readonly skipped: number;
}

/** What one agent's copy did, per kind. */
export interface AgentStateCopyReport {
  readonly agentId: string;
  readonly counts: Readonly<Record<StateCopyKind, StateCopyCount>>;
}

/** Result of {@link copyStateToPostgres}. */
export interface StateCopyReport {
  /** The SQLite state root that was read. */
  readonly stateRoot: string;
  /** The PostgreSQL location written to (host, database, schema; never a password). */
  readonly location: string;
  /** One entry per agent that has a database under the state root, in `listAgentIds` order. */
  readonly agents: readonly AgentStateCopyReport[];
  /** Sums over every agent. */
  readonly totals: Readonly<Record<StateCopyKind, StateCopyCount>>;
  /** True when no row was written (everything was already in PostgreSQL, or there was nothing to copy). */
  readonly unchanged: boolean;
}

/** The advisory lock (per schema) that lets one `state copy` run into a schema at a time. */
export const STATE_COPY_LOCK = 'state copy';

/** Options of {@link copyStateToPostgres}. */
export interface CopyStateToPostgresOptions {
  /** The SQLite state root (`<root>/agents/<id>/agent/understudy-agent.sqlite`). */
  readonly stateRoot: string;
  /**
   * The connected shared state to copy into (`connectPostgresState`, best with `migrations: 'none'`: the copy
   * runs them itself once its checks passed, so a refused copy leaves no schema behind).
   */
  readonly postgres: PostgresState;
  /** Copy only these agents. @default every agent with a database under `stateRoot` */
  readonly agentIds?: readonly string[] | undefined;
}

type Tables = AgentDatabase;
type Row<K extends keyof Tables> = Tables[K];

/**
 * Copies every agent's SQLite state under `stateRoot` into PostgreSQL. Each agent is one transaction, and every
 * running replica is told to reload that agent afterwards. Nothing is written to the target (not even the
 * schema) unless every source database was read, the key is present when there are credentials, and the key
 * matches the sealed values the schema already holds.
 *
 * @throws {AuthStoreError} `store_not_found` when no agent database exists under `stateRoot`; `secret_key_missing` when there are credentials to copy and the state has no secret key;
 *   `secret_key_mismatch` when the schema holds values sealed with another key; `store_not_migrated` when an
 *   agent database needs migrations; `state_refused` / `migration_failed` with the server's reason and SQLSTATE
 *   (wrong database, user or rights, a statement timeout), nothing of that agent written; `state_busy` when
 *   another copy into the same schema is running (nothing written); `copy_incomplete` when an agent after the
 *   first failed (the message names the agents that were copied); `state_unreachable` when the server goes away.
 * @throws {LegacyAuthFilesError} when credential-bearing legacy files wait for `understudy doctor --fix` (they
 *   would be left behind).
 */
export async function copyStateToPostgres(options: CopyStateToPostgresOptions): Promise<StateCopyReport> {
  const stateRoot = path.resolve(options.stateRoot);
  const agentIds = (options.agentIds ?? listAgentIds(stateRoot)).filter((agentId) => fs.existsSync(statePathsUnder(stateRoot, agentId).databasePath));
  if (agentIds.length === 0) {
    throw new AuthStoreError('store_not_found', `no agent database under ${stateRoot} (expected agents/<id>/agent/${DATABASE_FILE_NAME})`);
  }
  const sources: { readonly agentId: string; readonly rows: AgentRows }[] = [];
  for (const agentId of agentIds) {
    const paths = statePathsUnder(stateRoot, agentId);
    // The same fail-closed rule as opening the store: credentials still in legacy files would be left behind.
    const blocking = findLegacyAuthFiles(paths).filter((file) => file.blocking);
    if (blocking.length > 0) {
      throw new LegacyAuthFilesError(agentId, blocking.map((file) => ({ path: file.path, why: file.error === undefined ? 'credentials' : 'unreadable' })));
    }
    sources.push({ agentId, rows: await readAgent(agentId, paths.databasePath) });
  }
  const postgres = options.postgres;
  // No key, no write at all.
  const box = sources.some((source) => source.rows.credentials.length > 0) ? requireKey(postgres.secretBox) : postgres.secretBox;
  if (box !== undefined) {
    // A schema sealed under one key must not get values sealed under another.
    for (const keyId of await postgres.storedKeyIds()) box.assertKeyId(keyId);
  }
  // One copy into a schema at a time: two at once would wait on each other's uncommitted rows until the
  // server's statement timeout cancelled one of them part-way.
  const outcome = await postgres.whileHolding(STATE_COPY_LOCK, async () => {
    await postgres.migrate();
    const copied: AgentStateCopyReport[] = [];
    for (const { agentId, rows } of sources) {
      try {
        copied.push(await copyAgent(agentId, rows, postgres, box));
      } catch (error) {
        const reason = AuthStoreError.isInstance(error) ? error : postgres.refusal(`copying agent ${agentId}`, error);
        if (copied.length === 0) throw reason;
        throw new AuthStoreError(
          'copy_incomplete',
          `agent(s) ${copied.map((agent) => agent.agentId).join(', ')} were copied, ${agentId} and any after it were not: ${reason.message}; run the copy again to finish (rows already there are kept)`,
          { cause: error },
        );
      }
    }
    return copied;
  });
  if (!outcome.held) {
    throw new AuthStoreError(
      'state_busy',
      `another \`understudy state copy\` into ${postgres.location} is running: wait for it to end, then run this one again (rows it copied are kept and counted as skipped)`,
    );
  }
  const agents = outcome.value;
  const totals = sumCounts(agents.map((agent) => agent.counts));
  return {
    stateRoot,
    location: options.postgres.location,
    agents,
    totals,
    unchanged: STATE_COPY_KINDS.every((kind) => totals[kind].copied === 0),
  };
}

/** Every row of one agent's SQLite database, by kind. */
type AgentRows = { readonly [K in StateCopyKind]: readonly Row<K>[] };

/**
 * Reads one agent's database whole (read-only).
 *
 * @throws {AuthStoreError} `store_unavailable` naming the agent, the file and SQLite's words when it cannot be
 *   read; `store_not_migrated` as opening it does.
 */
async function readAgent(agentId: string, databasePath: string): Promise<AgentRows> {
  try {
    return await readAgentRows(databasePath);
  } catch (error) {
    if (AuthStoreError.isInstance(error)) throw error;
    const code = (error as { readonly code?: unknown } | null)?.code;
    const why = `${typeof code === 'string' ? `${code}: ` : ''}${error instanceof Error ? error.message : String(error)}`;
    throw new AuthStoreError('store_unavailable', `the SQLite state of agent ${agentId} at ${databasePath} cannot be read (${why}): run \`understudy doctor --agent ${agentId}\``, {
      cause: error,
    });
  }
}

async function readAgentRows(databasePath: string): Promise<AgentRows> {
  const opened = await openAgentDatabase({ databasePath, readOnly: true });
  try {
    const db = opened.kysely;
    return {
      profiles: await db.selectFrom('profiles').selectAll().orderBy('id').execute(),
      credentials: await db.selectFrom('credentials').selectAll().orderBy('profile_id').execute(),
      usage_stats: await db.selectFrom('usage_stats').selectAll().orderBy('profile_id').execute(),
      order_overrides: await db.selectFrom('order_overrides').selectAll().orderBy('provider').execute(),
      sessions: await db.selectFrom('sessions').selectAll().orderBy('key').execute(),
      probe_throttle: await db.selectFrom('probe_throttle').selectAll().orderBy('key').execute(),
    };
  } finally {
    await opened.kysely.destroy();
  }
}

async function copyAgent(agentId: string, rows: AgentRows, postgres: PostgresState, box: SecretBox | undefined): Promise<AgentStateCopyReport> {
  // Sealed before the transaction; `box` is there whenever some agent has credentials (checked before any write).
  const sealer = rows.credentials.length === 0 ? undefined : requireKey(box);
  const credentials = sealer === undefined ? [] : rows.credentials.map((row) => ({ agent_id: agentId, ...sealCredentialColumns(sealer, agentId, row.profile_id, row) }));
  const counts = await postgres.guard(() =>
    postgres.kysely.transaction().execute(async (trx) => {
      const written = {
        profiles: await insertNew(trx, 'profiles', rows.profiles.map((row) => ({ agent_id: agentId, ...row })), ['agent_id', 'id']),
        credentials: await insertNew(trx, 'credentials', credentials, ['agent_id', 'profile_id']),
        usage_stats: await insertNew(
          trx,
          'usage_stats',
          rows.usage_stats.map((row) => ({ agent_id: agentId, provider: parseProfileId(row.profile_id)?.provider ?? '', ...row })),
          ['agent_id', 'profile_id'],
        ),
        order_overrides: await insertNew(trx, 'order_overrides', rows.order_overrides.map((row) => ({ agent_id: agentId, ...row })), ['agent_id', 'provider']),
        sessions: await insertNew(trx, 'sessions', rows.sessions.map((row) => ({ agent_id: agentId, ...row })), ['agent_id', 'key']),
        probe_throttle: await insertNew(trx, 'probe_throttle', rows.probe_throttle.map((row) => ({ agent_id: agentId, ...row })), ['agent_id', 'key']),
      };
      const result = Object.fromEntries(
        STATE_COPY_KINDS.map((kind) => [kind, { copied: written[kind], skipped: rows[kind].length - written[kind] }]),
      ) as Record<StateCopyKind, StateCopyCount>;
      if (STATE_COPY_KINDS.some((kind) => result[kind].copied > 0)) {
        // Every replica reloads the whole agent: cheaper than one notification per copied row.
        await sql`select pg_notify(${postgres.channel}, ${changePayload(agentId, '*', '')})`.execute(trx);
      }
      return result;
    }),
  );
  return { agentId, counts };
}

/**
 * Inserts the rows PostgreSQL does not hold yet (by primary key) and returns how many were written; rows
 * already there are left unchanged.
 */
async function insertNew<K extends keyof PgDatabase>(
  trx: Transaction<PgDatabase>,
  table: K,
  values: readonly PgDatabase[K][],
  key: readonly (keyof PgDatabase[K] & string)[],
): Promise<number> {
  let written = 0;
  // Batches keep each statement well under PostgreSQL's 65535 bind parameters.
  for (let start = 0; start < values.length; start += 500) {
    const batch = values.slice(start, start + 500);
    const columns = columnsOf(batch);
    if (columns === undefined) continue;
    // The same column list on both sides: `select *` would return the table's column order, which need not be
    // the order of the rows' keys (a swapped profile_id and provider once stored cooldowns no one could read).
    const result = await sql<{ written: number }>`
      with w as (
        insert into ${sql.table(table)} (${columns})
        select ${columns} from json_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(batch)})
        on conflict (${sql.join(key.map((column) => sql.ref(column)))}) do nothing
        returning 1
      ) select count(*)::int as written from w`.execute(trx);
    written += result.rows[0]?.written ?? 0;
  }
  return written;
}

/** The columns of a batch's rows, as identifiers (`undefined` for an empty batch). */
function columnsOf(batch: readonly object[]): RawBuilder<unknown> | undefined {
  const first = batch[0];
  if (first === undefined) return undefined;
  return sql.join(Object.keys(first).map((column) => sql.ref(column)));
}

function requireKey(box: SecretBox | undefined): SecretBox {
  if (box === undefined) {
    throw new AuthStoreError('secret_key_missing', `copying credentials into the shared PostgreSQL state needs a secret key: ${SECRET_KEY_HINT}`);
  }
  return box;
}


function sumCounts(all: readonly Readonly<Record<StateCopyKind, StateCopyCount>>[]): Record<StateCopyKind, StateCopyCount> {
  return Object.fromEntries(
    STATE_COPY_KINDS.map((kind) => [
      kind,
      all.reduce((sum, counts) => ({ copied: sum.copied + counts[kind].copied, skipped: sum.skipped + counts[kind].skipped }), { copied: 0, skipped: 0 }),
    ]),
  ) as Record<StateCopyKind, StateCopyCount>;
}
