/**
 * What every store-management command shares: the common options (`--agent`, `--config`, `--state-dir`,
 * `--json`), loading the config and resolving the agent's state paths, opening the agent's store with the
 * config's inline keys, and turning known errors into one clear line with the right exit code.
 */
import type { Command } from 'commander';
import { AuthStoreError, DEFAULT_AGENT_ID, LegacyAuthFilesError, connectPostgresState, listAgentIds, openAuthProfileStore } from '@understudy/auth-profile-store';
import type { AuthProfileStore, StatePaths } from '@understudy/auth-profile-store';
import { ConfigError, inlineKeysOf } from '@understudy/config';
import type { UnderstudyConfig } from '@understudy/config';
import { ConfigFileError, homeDirOf, loadConfig, resolveConfigLocation, resolveSharedState } from '@understudy/runtime';
import type { LoadedConfig } from '@understudy/runtime';
import { CliError, ExitCode, settingsOf } from './io.js';
import type { CliIo } from './io.js';
import { colorsFor } from './output.js';
import type { Colors } from './output.js';
import { resolveCliStatePaths } from './state-paths.js';

/** The options every store-management command takes. */
export interface CommonOptions {
  readonly agent: string;
  readonly config?: string | undefined;
  readonly stateDir?: string | undefined;
  readonly json?: boolean | undefined;
}

/** Adds `--agent`, `--config`, `--state-dir` and `--json` to a command. */
export function addCommonOptions(command: Command): Command {
  return command
    .option('--agent <id>', 'agent id', DEFAULT_AGENT_ID)
    .option('--config <file>', 'config file (default: $UNDERSTUDY_CONFIG, else ~/.understudy/understudy.json5)')
    .option('--state-dir <dir>', 'state root (default: $UNDERSTUDY_STATE_DIR, else config state.dir, else ~/.understudy)')
    .option('--json', 'print JSON for scripts (stdout holds the JSON alone)');
}

/** A command's resolved surroundings. */
export interface CommandContext {
  readonly io: CliIo;
  readonly json: boolean;
  readonly colors: Colors;
  readonly agentId: string;
  readonly loaded: LoadedConfig;
  readonly config: UnderstudyConfig;
  readonly paths: StatePaths;
}

/**
 * Loads the config and resolves the agent's state paths.
 *
 * @throws {ConfigFileError | ConfigError | AuthStoreError} (see {@link toCliError}).
 */
export function commandContext(options: CommonOptions, io: CliIo): CommandContext {
  const homeDir = homeDirOf(io.env);
  const settings = settingsOf(io);
  const loaded = loadConfig(resolveConfigLocation({ flag: options.config, settings, homeDir }), io.env);
  const paths = resolveCliStatePaths({ agentId: options.agent, stateDirFlag: options.stateDir, settings, homeDir, config: loaded.config });
  return {
    io,
    json: options.json === true,
    colors: colorsFor(io.stdout, io.env),
    agentId: paths.agentId,
    loaded,
    config: loaded.config,
    paths,
  };
}

/**
 * Refuses an agent that neither the config names (`main` or an `agents.entries` key) nor the state root holds, so
 * a read-only command such as `models status --agent ghost` reports the typo instead of creating an empty store
 * for it. Commands that add state (`models auth add`) may create a new agent and do not call this.
 *
 * @throws {CliError} exit code 2 (`unknown_agent`) naming the known agents and how to add one.
 */
export function requireKnownAgent(context: CommandContext): void {
  const known = new Set([DEFAULT_AGENT_ID, ...Object.keys(context.config.agents.entries)]);
  // Shared PostgreSQL state keeps every agent in one schema: a store there is never created by a read.
  if (known.has(context.agentId) || resolveSharedState(context.config, context.io.env) !== undefined) return;
  const stored = listAgentIds(context.paths.stateRoot);
  if (stored.includes(context.agentId)) return;
  throw new CliError(
    `unknown agent "${context.agentId}": known agents are ${[...new Set([...known, ...stored])].join(', ')}; ` +
      `check --agent, or add agents.entries.${context.agentId} to the config (models auth add --agent ${context.agentId} creates its store)`,
    { exitCode: ExitCode.usage, code: 'unknown_agent' },
  );
}

/**
 * Opens the agent's store (fails closed on unimported legacy files): its SQLite file, or the shared PostgreSQL
 * state when `UNDERSTUDY_POSTGRES_URL` / `state.postgres.url` is set (README "Running several replicas"); the
 * store's `close()` then closes that connection too.
 */
async function openStore(context: CommandContext, options: { readonly readOnly?: boolean } = {}): Promise<AuthProfileStore> {
  const base = {
    stateDir: context.paths.stateRoot,
    agentId: context.agentId,
    inlineProfiles: inlineKeysOf(context.config),
    readOnly: options.readOnly ?? false,
  };
  const shared = resolveSharedState(context.config, context.io.env);
  if (shared === undefined) return openAuthProfileStore(base);
  const postgres = await connectPostgresState({
    url: shared.url,
    schema: shared.schema,
    poolSize: 2,
    secretKey: shared.secretKey,
    migrations: options.readOnly === true ? 'check' : 'run',
  });
  try {
    return await openAuthProfileStore({ ...base, postgres, closePostgres: true });
  } catch (error) {
    await postgres.close();
    throw error;
  }
}

/** An error SQLite raised through better-sqlite3 (`SqliteError`, `SQLITE_*` code). */
function sqliteCode(error: unknown): string | undefined {
  const code = (error as { readonly code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/**
 * A store failure with the facts a person needs: which agent, which file, SQLite's words, and the command that
 * checks it. Other errors pass through.
 */
function withStorePath(context: CommandContext, error: unknown): unknown {
  const root = AuthStoreError.isInstance(error) && error.cause !== undefined ? error.cause : error;
  const code = sqliteCode(root);
  if (code === undefined) return error;
  const doctor = context.agentId === DEFAULT_AGENT_ID ? 'understudy doctor' : `understudy doctor --agent ${context.agentId}`;
  return new CliError(
    `the state store of agent ${context.agentId} at ${context.paths.databasePath} cannot be used (${code}: ${(root as Error).message}): run \`${doctor}\``,
    { exitCode: ExitCode.failure, code: 'store_unavailable', cause: error },
  );
}

/** Runs `body` with the agent's store open, closing it afterwards. */
export async function withStore<T>(context: CommandContext, body: (store: AuthProfileStore) => Promise<T>): Promise<T> {
  let store: AuthProfileStore;
  try {
    store = await openStore(context);
  } catch (error) {
    throw withStorePath(context, error);
  }
  try {
    return await body(store);
  } catch (error) {
    throw withStorePath(context, error);
  } finally {
    await store.close();
  }
}

const BAD_INPUT_STORE_CODES = new Set([
  'invalid_agent_id',
  'invalid_profile_id',
  'invalid_credential',
  'invalid_order',
  'reserved_profile_id',
  'profile_not_found',
]);

/**
 * The CLI error for anything a command throws: bad input (config, ids, credentials) exits 2; the store failing
 * (legacy files waiting for `doctor --fix`, SQLite trouble) exits 1. Messages never carry a secret.
 */
export function toCliError(error: unknown): CliError {
  if (CliError.isInstance(error)) return error;
  if (ConfigError.isInstance(error)) return new CliError(error.message, { exitCode: ExitCode.usage, code: error.code, cause: error });
  if (ConfigFileError.isInstance(error)) {
    return new CliError(error.message, { exitCode: error.code === 'config_unreadable' ? ExitCode.failure : ExitCode.usage, code: error.code, cause: error });
  }
  if (LegacyAuthFilesError.isInstance(error)) return new CliError(error.message, { exitCode: ExitCode.failure, code: error.code, cause: error });
  if (AuthStoreError.isInstance(error)) {
    return new CliError(error.message, { exitCode: BAD_INPUT_STORE_CODES.has(error.code) ? ExitCode.usage : ExitCode.failure, code: error.code, cause: error });
  }
  return new CliError(error instanceof Error ? error.message : String(error), { exitCode: ExitCode.failure, cause: error });
}

/** Wraps a commander action so every error leaves as a {@link CliError}. */
export function cliAction<Args extends unknown[]>(body: (...args: Args) => Promise<void>): (...args: Args) => Promise<void> {
  return async (...args: Args) => {
    try {
      await body(...args);
    } catch (error) {
      throw toCliError(error);
    }
  };
}
