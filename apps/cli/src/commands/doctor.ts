/**
 * `understudy doctor [--fix]`: checks the config, the agent's store (readable, intact, migrated), the modes of the
 * state files, and legacy auth files. `--fix` imports legacy files (the model-failover doc: only the doctor imports them),
 * creates/migrates the store and tightens modes. Without `--agent` it does so for every agent under the state
 * root; with `--agent ID` for that one. Exit 0 when nothing is left in error, else 1.
 */
import {
  AuthStoreError,
  connectPostgresState,
  diagnoseAuthStore,
  importLegacyAuthFiles,
  listAgentIds,
  openAuthProfileStore,
  repairAuthStorePermissions,
} from '@understudy/auth-profile-store';
import type { AuthStoreDiagnosis, LegacyImportReport, StatePaths } from '@understudy/auth-profile-store';
import { parseConfig } from '@understudy/config';
import type { UnderstudyConfig } from '@understudy/config';
import type { Command } from 'commander';
import { ExitCode, settingsOf, writeLine } from '../io.js';
import type { CliIo } from '../io.js';
import type { RegisterCommand } from '../main.js';
import { homeDirOf, loadConfig, resolveConfigLocation, resolveSharedState } from '@understudy/runtime';
import { colorsFor, renderTable, writeJson } from '../output.js';
import type { Colors } from '../output.js';
import { resolveCliStatePaths } from '../state-paths.js';
import { addCommonOptions, cliAction, toCliError } from '../store-context.js';
import type { CommonOptions } from '../store-context.js';

/** The verdict of one check. `fixed`: it was wrong and `--fix` repaired it. */
export type CheckStatus = 'ok' | 'warn' | 'error' | 'fixed';

/** One line of the doctor's report. */
export interface DoctorCheck {
  readonly name: 'config' | 'legacy files' | 'store' | 'permissions' | 'shared state';
  readonly status: CheckStatus;
  readonly detail: string;
}

/** The `doctor --json` document. */
export interface DoctorReport {
  readonly agent: string;
  readonly ok: boolean;
  readonly configPath: string;
  readonly stateRoot: string;
  readonly databasePath: string;
  readonly checks: readonly DoctorCheck[];
  /** What `--fix` imported, when there was something to import. */
  readonly import: LegacyImportReport | null;
  /**
   * Without `--agent`: the reports of the other agents under the state root (the top level is the default
   * agent's, and `ok` covers them all).
   */
  readonly otherAgents?: readonly DoctorReport[] | undefined;
}

interface DoctorOptions extends CommonOptions {
  readonly fix?: boolean | undefined;
}

const octal = (mode: number): string => `0${mode.toString(8)}`;

function checkConfig(options: DoctorOptions, io: CliIo): { check: DoctorCheck; config: UnderstudyConfig; configPath: string } {
  const location = resolveConfigLocation({ flag: options.config, settings: settingsOf(io), homeDir: homeDirOf(io.env) });
  try {
    const loaded = loadConfig(location, io.env);
    const detail = loaded.found ? `valid: ${loaded.path}` : `no config file at ${loaded.path}: defaults apply`;
    return { check: { name: 'config', status: 'ok', detail }, config: loaded.config, configPath: loaded.path };
  } catch (error) {
    return { check: { name: 'config', status: 'error', detail: toCliError(error).message }, config: parseConfig({}), configPath: location.path };
  }
}

async function checkLegacyFiles(diagnosis: AuthStoreDiagnosis, fix: boolean, stateRoot: string): Promise<{ check: DoctorCheck; report: LegacyImportReport | null }> {
  const files = diagnosis.legacyFiles;
  if (files.length === 0) return { check: { name: 'legacy files', status: 'ok', detail: 'none' }, report: null };
  const names = files.map((file) => `${file.path}${file.error === undefined ? '' : ` (${file.error})`}`).join(', ');
  if (!fix) {
    const blocking = files.some((file) => file.blocking);
    return {
      check: {
        name: 'legacy files',
        status: blocking ? 'error' : 'warn',
        detail: `${blocking ? 'credential-bearing legacy files keep this agent closed' : 'legacy routing state not imported'}: ${names}; run \`understudy doctor --fix\` to import them`,
      },
      report: null,
    };
  }
  const report = await importLegacyAuthFiles({ stateDir: stateRoot, agentId: diagnosis.paths.agentId });
  const count = (entries: readonly { readonly action: string }[], action: string): number => entries.filter((entry) => entry.action === action).length;
  const summary = ['created', 'updated', 'unchanged', 'kept_stored']
    .map((action) => `${count(report.profiles, action)} ${action.replace('_', ' ')}`)
    .join(', ');
  const left = report.files.filter((file) => file.status !== 'imported');
  const detail =
    `profiles: ${summary}; orders: ${report.orders.length}; usage stats: ${report.usageStats.length}; skipped entries: ${report.skipped.length}` +
    (left.length === 0 ? '; files renamed to *.imported' : `; NOT imported: ${left.map((file) => `${file.path} (${file.error ?? file.status})`).join(', ')}`);
  return { check: { name: 'legacy files', status: left.length === 0 ? 'fixed' : 'error', detail }, report };
}

async function checkStore(diagnosis: AuthStoreDiagnosis, fix: boolean): Promise<DoctorCheck> {
  const { database, paths } = diagnosis;
  if (database.health === 'corrupt' || database.health === 'unreadable') {
    return { name: 'store', status: 'error', detail: `${paths.databasePath} is ${database.health}: ${database.error ?? 'unknown error'}; restore it from a backup or move it away` };
  }
  const needsWork = database.health === 'missing' || database.pendingMigrations.length > 0 || database.journalMode !== 'wal';
  if (!needsWork) return { name: 'store', status: 'ok', detail: `${paths.databasePath}: readable, integrity ok, schema current, WAL` };
  const what = database.health === 'missing' ? 'not created yet' : database.pendingMigrations.length > 0 ? `needs migrations ${database.pendingMigrations.join(', ')}` : `journal mode ${database.journalMode ?? '?'}`;
  if (!fix) {
    return { name: 'store', status: database.health === 'missing' ? 'ok' : 'warn', detail: `${paths.databasePath}: ${what} (done on first use, or by \`understudy doctor --fix\`)` };
  }
  const store = await openAuthProfileStore({ stateDir: paths.stateRoot, agentId: paths.agentId, legacyFiles: 'ignore' });
  await store.close();
  return { name: 'store', status: 'fixed', detail: `${paths.databasePath}: ${what} → created/migrated, WAL` };
}

function checkPermissions(paths: StatePaths, fix: boolean): DoctorCheck {
  const diagnosis = diagnoseAuthStore({ stateDir: paths.stateRoot, agentId: paths.agentId });
  const problems = diagnosis.permissionProblems;
  if (problems.length === 0) return { name: 'permissions', status: 'ok', detail: 'state folders 0700, secret files 0600' };
  const list = problems.map((problem) => `${problem.path} is ${octal(problem.mode)}, want ${octal(problem.expected)}`).join('; ');
  if (!fix) return { name: 'permissions', status: 'error', detail: `${list}; run \`understudy doctor --fix\`` };
  repairAuthStorePermissions(paths);
  return { name: 'permissions', status: 'fixed', detail: problems.map((problem) => `${problem.path}: ${octal(problem.mode)} → ${octal(problem.expected)}`).join('; ') };
}

/**
 * Runs every check (and fix) for the agent of `options.agent`, or with `allAgents` for every agent under the
 * state root (the default agent's report on top, the others in `otherAgents`).
 */
async function runDoctor(options: DoctorOptions, io: CliIo, scope: { readonly allAgents?: boolean } = {}): Promise<DoctorReport> {
  const config = checkConfig(options, io);
  const paths = resolveCliStatePaths({ agentId: options.agent, stateDirFlag: options.stateDir, settings: settingsOf(io), homeDir: homeDirOf(io.env), config: config.config });
  const doctored = await doctorOf(options, config, paths);
  // The shared state is one for every agent: checked (and migrated by --fix) once, on the first report.
  const shared = await checkSharedState(config.config, io, paths.agentId, paths.stateRoot, options.fix === true);
  const first = shared === undefined ? doctored : { ...doctored, ok: doctored.ok && shared.status !== 'error', checks: [...doctored.checks, shared] };
  if (scope.allAgents !== true) return first;
  const others: DoctorReport[] = [];
  for (const agentId of listAgentIds(paths.stateRoot)) {
    if (agentId === paths.agentId) continue;
    const agentPaths = resolveCliStatePaths({ agentId, stateDirFlag: options.stateDir, settings: settingsOf(io), homeDir: homeDirOf(io.env), config: config.config });
    others.push(await doctorOf(options, config, agentPaths));
  }
  if (others.length === 0) return first;
  return { ...first, ok: first.ok && others.every((report) => report.ok), otherAgents: others };
}

/**
 * The shared PostgreSQL state, when one is configured: the server answers, the schema is migrated (`--fix`
 * runs the migrations), and the secret key is set and opens the stored credentials.
 */
async function checkSharedState(config: UnderstudyConfig, io: CliIo, agentId: string, stateRoot: string, fix: boolean): Promise<DoctorCheck | undefined> {
  let shared;
  try {
    shared = resolveSharedState(config, io.env);
  } catch (error) {
    return { name: 'shared state', status: 'error', detail: (error as Error).message };
  }
  if (shared === undefined) return undefined;
  const connect = (migrations: 'run' | 'check') =>
    connectPostgresState({ url: shared.url, schema: shared.schema, poolSize: 2, secretKey: shared.secretKey, migrations, connectTimeoutMs: 5000 });
  let state;
  let migrated = false;
  try {
    try {
      state = await connect('check');
    } catch (error) {
      if (!(AuthStoreError.isInstance(error) && error.code === 'store_not_migrated') || !fix) throw error;
      state = await connect('run');
      migrated = true;
    }
  } catch (error) {
    return { name: 'shared state', status: 'error', detail: (error as Error).message };
  }
  try {
    const where = `${state.location}: reachable, schema ${migrated ? 'migrated' : 'current'}`;
    if (shared.secretKey === undefined) {
      return { name: 'shared state', status: 'warn', detail: `${where}; no ${shared.secretKeyEnv}: credentials cannot be stored or read there (set it on every replica)` };
    }
    const store = await openAuthProfileStore({ stateDir: stateRoot, agentId, postgres: state, legacyFiles: 'ignore', readOnly: true });
    try {
      const stored = (await store.listProfiles()).filter((profile) => profile.source === 'store');
      for (const profile of stored) await store.resolveCredential(profile.id);
      return { name: 'shared state', status: migrated ? 'fixed' : 'ok', detail: `${where}; ${shared.secretKeyEnv} opens ${String(stored.length)} stored credential(s)` };
    } catch (error) {
      return { name: 'shared state', status: 'error', detail: `${where}; ${(error as Error).message}` };
    } finally {
      await store.close();
    }
  } finally {
    await state.close();
  }
}

async function doctorOf(options: DoctorOptions, config: ReturnType<typeof checkConfig>, paths: StatePaths): Promise<DoctorReport> {
  const fix = options.fix === true;
  const diagnosis = diagnoseAuthStore({ stateDir: paths.stateRoot, agentId: paths.agentId });
  const legacy = await checkLegacyFiles(diagnosis, fix, paths.stateRoot);
  const store = await checkStore(fix ? diagnoseAuthStore({ stateDir: paths.stateRoot, agentId: paths.agentId }) : diagnosis, fix);
  const permissions = checkPermissions(paths, fix);
  const checks = [config.check, legacy.check, store, permissions];
  return {
    agent: paths.agentId,
    ok: checks.every((check) => check.status !== 'error'),
    configPath: config.configPath,
    stateRoot: paths.stateRoot,
    databasePath: paths.databasePath,
    checks,
    import: legacy.report,
  };
}

function paint(colors: Colors, status: CheckStatus): string {
  switch (status) {
    case 'ok':
      return colors.green('ok');
    case 'fixed':
      return colors.green('fixed');
    case 'warn':
      return colors.yellow('warn');
    case 'error':
      return colors.red('error');
  }
}

function printReport(io: CliIo, report: DoctorReport, colors: Colors): void {
  printAgentReport(io, report, colors);
  for (const other of report.otherAgents ?? []) printAgentReport(io, other, colors);
}

function printAgentReport(io: CliIo, report: DoctorReport, colors: Colors): void {
  writeLine(io.stdout, `understudy doctor: agent ${report.agent}, state ${report.stateRoot}`);
  writeLine(io.stdout, renderTable(['check', 'status', 'detail'], report.checks.map((check) => [check.name, paint(colors, check.status), check.detail]), colors));
  const skipped = report.import?.skipped ?? [];
  if (skipped.length > 0) {
    writeLine(io.stdout, 'Skipped while importing:');
    writeLine(io.stdout, renderTable(['file', 'entry', 'why'], skipped.map((skip) => [skip.file, skip.at, skip.reason]), colors));
  }
  const notes = (report.import?.profiles ?? []).filter((entry) => entry.action === 'kept_stored' || entry.action === 'duplicate');
  for (const note of notes) writeLine(io.stdout, `${note.id}: ${note.action.replace('_', ' ')} (${note.detail ?? ''})`);
}

/** Registers `doctor`. */
export const registerDoctorCommand: RegisterCommand = (program, io, state) => {
  addCommonOptions(
    program
      .command('doctor')
      .description('Check config, store, file modes and legacy auth files of every agent (or --agent ID); --fix imports and repairs.')
      .option('--fix', 'import legacy files, create/migrate the store, fix modes'),
  ).action(
    cliAction(async (options: DoctorOptions, command: Command) => {
      // No --agent on the command line: every agent under the state root.
      const report = await runDoctor(options, io, { allAgents: command.getOptionValueSource('agent') !== 'cli' });
      if (options.json === true) writeJson(io.stdout, report);
      else printReport(io, report, colorsFor(io.stdout, io.env));
      state.exitCode = report.ok ? ExitCode.ok : ExitCode.failure;
    }),
  );
};
