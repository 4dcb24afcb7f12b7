/**
 * What `understudy doctor` checks about an agent's state, without changing anything: the database (exists,
 * opens, passes `integrity_check`, fully migrated), the modes of the state folders (0700) and of every file that
 * holds secrets (0600), and legacy auth files waiting for import. Plus the `--fix` for modes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DATABASE_FILE_MODE, DIRECTORY_MODE, pendingMigrations } from './agent-database.js';
import { findLegacyAuthFiles } from './legacy/legacy-files.js';
import { MIGRATION_NAMES } from './migrations.js';
import type { LegacyFileStatus } from './legacy/legacy-files.js';
import { resolveStateRoot, statePathsUnder } from './state-paths.js';
import type { StatePaths } from './state-paths.js';

/** A path whose mode lets someone other than its owner in. */
export interface PermissionProblem {
  readonly path: string;
  /** Current permission bits, e.g. `0o644`. */
  readonly mode: number;
  /** The mode it should have: `0o700` for folders, `0o600` for files. */
  readonly expected: number;
}

/** The state of the database file. */
export interface DatabaseDiagnosis {
  readonly exists: boolean;
  /** `ok` when it opened and passed `integrity_check`; otherwise what went wrong. */
  readonly health: 'ok' | 'missing' | 'unreadable' | 'corrupt';
  /** SQLite's or the integrity check's message when `health` is not `ok`. */
  readonly error?: string | undefined;
  /** Migrations the file has not run (all of them for a missing file). */
  readonly pendingMigrations: readonly string[];
  readonly journalMode?: string | undefined;
}

/** Everything the doctor reports about one agent's state. */
export interface AuthStoreDiagnosis {
  readonly paths: StatePaths;
  readonly database: DatabaseDiagnosis;
  readonly permissionProblems: readonly PermissionProblem[];
  /** Legacy files that exist (blocking ones keep the agent closed until imported). */
  readonly legacyFiles: readonly LegacyFileStatus[];
}

/**
 * Inspects an agent's state without writing anything.
 *
 * @throws {AuthStoreError} `invalid_agent_id`.
 * @example diagnoseAuthStore({ stateDir: '/home/ada/.understudy', agentId: 'main' }).database.health // 'ok'
 */
export function diagnoseAuthStore(options: { readonly stateDir?: string | undefined; readonly agentId: string }): AuthStoreDiagnosis {
  const stateRoot = options.stateDir ?? resolveStateRoot({ homeDir: os.homedir() });
  const paths = statePathsUnder(stateRoot, options.agentId);
  return {
    paths,
    database: diagnoseDatabase(paths.databasePath),
    permissionProblems: findPermissionProblems(paths),
    legacyFiles: findLegacyAuthFiles(paths),
  };
}

/**
 * Sets 0700 on the state folders and 0600 on the database files and legacy secret files that are more open.
 * @returns what was changed.
 */
export function repairAuthStorePermissions(paths: StatePaths): PermissionProblem[] {
  const problems = findPermissionProblems(paths);
  for (const problem of problems) fs.chmodSync(problem.path, problem.expected);
  return problems;
}

/** Folders and secret-bearing files of an agent's state whose mode gives group or others any access. */
export function findPermissionProblems(paths: StatePaths): PermissionProblem[] {
  const folders = [
    paths.stateRoot,
    path.join(paths.stateRoot, 'agents'),
    path.dirname(paths.agentDir),
    paths.agentDir,
    path.dirname(paths.legacy.oauthJson),
  ];
  const files = [
    ...['', '-wal', '-shm'].map((suffix) => paths.databasePath + suffix),
    ...Object.values(paths.legacy).flatMap((legacy) => [legacy, ...importedCopies(legacy)]),
  ];
  const problems: PermissionProblem[] = [];
  for (const [candidates, expected] of [
    [folders, DIRECTORY_MODE],
    [files, DATABASE_FILE_MODE],
  ] as const) {
    for (const candidate of new Set(candidates)) {
      const mode = modeOf(candidate);
      if (mode !== undefined && (mode & 0o077) !== 0) problems.push({ path: candidate, mode, expected });
    }
  }
  return problems;
}

function diagnoseDatabase(databasePath: string): DatabaseDiagnosis {
  if (!fs.existsSync(databasePath)) {
    return { exists: false, health: 'missing', pendingMigrations: [...MIGRATION_NAMES] };
  }
  let sqlite: Database.Database;
  try {
    sqlite = new Database(databasePath, { readonly: true, fileMustExist: true });
  } catch (error) {
    return { exists: true, health: 'unreadable', error: messageOf(error), pendingMigrations: [] };
  }
  try {
    const integrity = sqlite.pragma('integrity_check', { simple: true });
    const journalMode = String(sqlite.pragma('journal_mode', { simple: true }));
    const pending = pendingMigrations(sqlite);
    return integrity === 'ok'
      ? { exists: true, health: 'ok', pendingMigrations: pending, journalMode }
      : { exists: true, health: 'corrupt', error: String(integrity), pendingMigrations: pending, journalMode };
  } catch (error) {
    return { exists: true, health: 'unreadable', error: messageOf(error), pendingMigrations: [] };
  } finally {
    sqlite.close();
  }
}

/** `<file>.imported` and `<file>.imported-<stamp>` copies left by earlier imports. */
function importedCopies(file: string): string[] {
  const dir = path.dirname(file);
  const base = `${path.basename(file)}.imported`;
  try {
    return fs
      .readdirSync(dir)
      .filter((name) => name === base || name.startsWith(`${base}-`))
      .map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

function modeOf(file: string): number | undefined {
  try {
    return fs.statSync(file).mode & 0o777;
  } catch {
    return undefined;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
