/**
 * `understudy state copy --from <state dir> --to <postgres url>`: moves a single-host SQLite state (every agent's
 * profiles and credentials, usage stats and cooldowns, order overrides, sessions, probe throttles) into the
 * shared PostgreSQL state of several gateway replicas (README "Running several replicas"). Rows PostgreSQL
 * already holds are kept and counted as skipped, so running it twice changes nothing and says so. The URL is
 * printed without its user and password; secrets are never printed.
 *
 * Exit codes follow the CLI's convention (docs/contracts.md "state copy"): 2 for what the operator gave wrong
 * and can see without a server (flags, config, the secret key missing, too short or not the schema's key, a
 * reserved schema, a --from without databases), 1 for a runtime failure (the server unreachable or refusing,
 * a source store that cannot be read). Either way nothing was written to the target.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AuthStoreError, STATE_COPY_KINDS, connectPostgresState, copyStateToPostgres, describePostgresUrl, parsePostgresUrl } from '@understudy/auth-profile-store';
import type { StateCopyReport } from '@understudy/auth-profile-store';
import { POSTGRES_URL_ENV, SECRET_KEY_ENV, loadConfig, resolveConfigLocation, homeDirOf, resolveSharedState } from '@understudy/runtime';
import { CliError, ExitCode, settingsOf, writeLine } from '../io.js';
import type { RegisterCommand } from '../main.js';
import { colorsFor, renderTable, writeJson } from '../output.js';
import { cliAction } from '../store-context.js';

interface StateCopyOptions {
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  readonly schema?: string | undefined;
  readonly config?: string | undefined;
  readonly json?: boolean | undefined;
}

/** The `--from` folder: it must exist and hold `agents/`. @throws {CliError} `bad_input` (exit 2). */
function sourceRoot(from: string | undefined): string {
  const given = from?.trim();
  if (given === undefined || given === '') {
    throw new CliError('--from <dir> is required: the SQLite state root to copy (the folder holding agents/, e.g. ~/.understudy)', { exitCode: ExitCode.usage, code: 'bad_input' });
  }
  const root = path.resolve(given);
  if (!fs.existsSync(path.join(root, 'agents'))) {
    const what = fs.existsSync(root) ? 'has no agents/ folder' : 'does not exist';
    throw new CliError(`--from ${root} ${what}: pass the state root that holds agents/<id>/agent/understudy-agent.sqlite (e.g. ~/.understudy)`, {
      exitCode: ExitCode.usage,
      code: 'bad_input',
    });
  }
  return root;
}

/**
 * The `--to` URL: a PostgreSQL URL as `pg` reads it (a host, or a unix-socket folder: `?host=/var/run/postgresql`).
 *
 * @throws {CliError} `bad_input` (exit 2); the message never shows the URL's secrets.
 */
function targetUrl(to: string | undefined): string {
  const given = to?.trim();
  const example = 'e.g. --to postgres://user@db.internal:5432/understudy';
  if (given === undefined || given === '') {
    throw new CliError(`--to <postgres url> is required: the shared state to copy into, ${example}`, { exitCode: ExitCode.usage, code: 'bad_input' });
  }
  try {
    parsePostgresUrl(given);
  } catch (error) {
    throw new CliError(`--to: ${(error as Error).message} (${example})`, {
      exitCode: ExitCode.usage,
      code: 'bad_input',
      cause: error,
    });
  }
  return given;
}

/**
 * The CLI error of a refused copy (nothing was written): the flag or variable to fix and how, with the exit
 * code of the CLI's convention. Other errors pass through to `toCliError`.
 */
function copyFailure(error: unknown, facts: { readonly stateRoot: string; readonly where: string; readonly secretKeyEnv: string }): unknown {
  if (!AuthStoreError.isInstance(error)) return error;
  const nothing = 'nothing was written';
  switch (error.code) {
    case 'store_not_found':
      return new CliError(`--from ${facts.stateRoot}: ${error.message}`, { exitCode: ExitCode.usage, code: error.code, cause: error });
    case 'secret_key_missing':
      return new CliError(`${facts.secretKeyEnv} is not set; ${nothing}: ${error.message}`, { exitCode: ExitCode.usage, code: error.code, cause: error });
    case 'secret_key_mismatch':
      return new CliError(
        `${facts.secretKeyEnv} is not the key of ${facts.where}; ${nothing}: ${error.message} (set ${facts.secretKeyEnv} to the key the gateways on that schema use, or copy into another --schema)`,
        { exitCode: ExitCode.usage, code: error.code, cause: error },
      );
    case 'store_unavailable':
    case 'store_not_migrated':
      return new CliError(`--from ${facts.stateRoot}: ${error.message}; ${nothing}`, { exitCode: ExitCode.failure, code: error.code, cause: error });
    case 'state_refused':
    case 'migration_failed':
      return new CliError(`--to ${facts.where}: ${error.message}; ${nothing}`, { exitCode: ExitCode.failure, code: error.code, cause: error });
    case 'state_busy':
      return new CliError(`--to ${facts.where}: ${error.message}; ${nothing}`, { exitCode: ExitCode.failure, code: error.code, cause: error });
    case 'copy_incomplete':
      return new CliError(`--to ${facts.where}: ${error.message}`, { exitCode: ExitCode.failure, code: error.code, cause: error });
    case 'state_unreachable':
      return new CliError(`--to ${facts.where}: ${error.message}; check the host, port, database and user in --to and that the server is running`, {
        exitCode: ExitCode.failure,
        code: error.code,
        cause: error,
      });
    default:
      return error;
  }
}

/** One line per agent and kind, for people. */
function renderReport(report: StateCopyReport, colors: ReturnType<typeof colorsFor>): string {
  const rows = report.agents.flatMap((agent) =>
    STATE_COPY_KINDS.map((kind) => [agent.agentId, kind, String(agent.counts[kind].copied), String(agent.counts[kind].skipped)]),
  );
  return renderTable(['agent', 'kind', 'copied', 'skipped'], rows, colors);
}

/** Registers `state copy`. */
export const registerStateCommands: RegisterCommand = (program, io, state) => {
  const group = program.command('state').description('The state store: move a single-host SQLite state into shared PostgreSQL.');

  group
    .command('copy')
    .description('Copy every agent of a SQLite state root into PostgreSQL (rows already there are kept; safe to run again).')
    .option('--from <dir>', 'the SQLite state root (the folder holding agents/, e.g. ~/.understudy)')
    .option('--to <url>', 'the PostgreSQL URL of the shared state (postgres://user@host:5432/db)')
    .option('--schema <name>', 'the schema of the shared state (default: config state.postgres.schema, else understudy)')
    .option('--config <file>', 'config file, for state.postgres.schema and state.secretKeyEnv (default: $UNDERSTUDY_CONFIG, else ~/.understudy/understudy.json5)')
    .option('--json', 'print JSON for scripts (stdout holds the JSON alone)')
    .action(
      cliAction(async (options: StateCopyOptions) => {
        const stateRoot = sourceRoot(options.from);
        const url = targetUrl(options.to);
        const where = describePostgresUrl(url);
        const loaded = loadConfig(resolveConfigLocation({ flag: options.config, settings: settingsOf(io), homeDir: homeDirOf(io.env) }), io.env);
        // The key and schema are found as for a gateway on this URL (state.secretKeyEnv, state.postgres.schema).
        const shared = resolveSharedState(loaded.config, { ...io.env, [POSTGRES_URL_ENV]: url });
        const secretKeyEnv = shared?.secretKeyEnv ?? SECRET_KEY_ENV;
        let postgres;
        try {
          postgres = await connectPostgresState({
            url,
            schema: options.schema ?? shared?.schema,
            poolSize: 2,
            secretKey: shared?.secretKey,
            // The copy migrates only once every check passed: a refused copy leaves no schema behind.
            migrations: 'none',
            connectTimeoutMs: 5000,
          });
        } catch (error) {
          // Nothing reached the server yet: what fails here is the schema name or the key itself.
          if (AuthStoreError.isInstance(error) && error.code === 'invalid_postgres_options') {
            // The schema came from --schema, else from the config's state.postgres.schema.
            const field = options.schema === undefined ? 'state.postgres.schema' : '--schema';
            throw new CliError(`${field}: ${error.message}`, { exitCode: ExitCode.usage, code: error.code, cause: error });
          }
          if (AuthStoreError.isInstance(error) && error.code === 'invalid_secret_key') {
            throw new CliError(`${secretKeyEnv}: ${error.message}`, { exitCode: ExitCode.usage, code: error.code, cause: error });
          }
          throw copyFailure(error, { stateRoot, where, secretKeyEnv });
        }
        let report: StateCopyReport;
        try {
          report = await copyStateToPostgres({ stateRoot, postgres });
        } catch (error) {
          throw copyFailure(error, { stateRoot, where, secretKeyEnv });
        } finally {
          await postgres.close();
        }
        if (options.json === true) {
          writeJson(io.stdout, report);
        } else {
          writeLine(io.stdout, renderReport(report, colorsFor(io.stdout, io.env)));
          const copied = STATE_COPY_KINDS.reduce((sum, kind) => sum + report.totals[kind].copied, 0);
          const skipped = STATE_COPY_KINDS.reduce((sum, kind) => sum + report.totals[kind].skipped, 0);
          writeLine(
            io.stdout,
            report.unchanged
              ? `Nothing changed: ${report.location} already holds every row of ${stateRoot} (${String(skipped)} skipped).`
              : `Copied ${String(copied)} row(s) from ${stateRoot} into ${report.location}; ${String(skipped)} already there were kept.`,
          );
        }
        state.exitCode = ExitCode.ok;
      }),
    );
};
