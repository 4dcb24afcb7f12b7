/**
 * `understudy gateway [--config F] [--host H] [--port N]` (docs/contracts.md#gateway): starts the gateway app's own entry
 * point as a child process (apps never import apps), with the terminal inherited, SIGINT / SIGTERM forwarded,
 * and the gateway's exit code passed through. The entry is the `understudy-gateway` bin of the
 * `@understudy/gateway` package this package depends on, found by Node's module resolution: the same in this
 * repository (a workspace link) and in an installed CLI (a dependency under `node_modules`).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { CliError, ExitCode } from '../io.js';
import type { CliIo } from '../io.js';
import type { RegisterCommand } from '../main.js';

/** The variable that points the command at another gateway entry (an installed copy, a test double). */
export const GATEWAY_ENTRY_ENV = 'UNDERSTUDY_GATEWAY_ENTRY';

/** The gateway package and the bin of it that the command runs. */
const GATEWAY_PACKAGE = '@understudy/gateway';
const GATEWAY_BIN = 'understudy-gateway';

/**
 * The gateway's entry: `UNDERSTUDY_GATEWAY_ENTRY`, else the `understudy-gateway` bin of the `@understudy/gateway`
 * package as this module resolves it (its `package.json` is resolved, then its `bin` map is read; resolving is not
 * importing, so nothing of the gateway is loaded into the CLI).
 *
 * @example gatewayEntry({}) // '/usr/lib/node_modules/@understudy/cli/node_modules/@understudy/gateway/dist/main.js'
 * @throws {CliError} code `gateway_not_installed` when the gateway package cannot be resolved or has no such bin.
 */
export function gatewayEntry(env: Readonly<Record<string, string | undefined>>): string {
  const override = env[GATEWAY_ENTRY_ENV]?.trim();
  if (override !== undefined && override !== '') return path.resolve(override);
  let manifestPath: string;
  try {
    manifestPath = createRequire(import.meta.url).resolve(`${GATEWAY_PACKAGE}/package.json`);
  } catch (error) {
    throw new CliError(`the gateway package ${GATEWAY_PACKAGE} is not installed next to the CLI: reinstall @understudy/cli`, {
      code: 'gateway_not_installed',
      cause: error,
    });
  }
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { bin?: unknown };
  const bin = typeof manifest.bin === 'object' && manifest.bin !== null ? (manifest.bin as Record<string, unknown>)[GATEWAY_BIN] : undefined;
  if (typeof bin !== 'string') {
    throw new CliError(`${manifestPath} has no "${GATEWAY_BIN}" bin: reinstall @understudy/cli`, { code: 'gateway_not_installed' });
  }
  return path.resolve(path.dirname(manifestPath), bin);
}

/** The gateway's arguments for the command's options. */
export function gatewayArguments(options: { readonly config?: string; readonly host?: string; readonly port?: string }): string[] {
  return [
    ...(options.config === undefined ? [] : ['--config', options.config]),
    ...(options.host === undefined ? [] : ['--host', options.host]),
    ...(options.port === undefined ? [] : ['--port', options.port]),
  ];
}

const SIGNAL_NUMBERS: Readonly<Record<string, number>> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15, SIGKILL: 9 };

/**
 * Runs the gateway in a child process until it exits.
 *
 * @returns its exit code (128 + the signal number when a signal ended it).
 * @throws {CliError} when the entry is missing (not built yet).
 */
async function runGatewayProcess(args: readonly string[], io: CliIo): Promise<number> {
  const entry = gatewayEntry(io.env);
  if (!fs.existsSync(entry)) {
    throw new CliError(`the gateway is not built (${entry} is missing): run "pnpm build", or start it with "pnpm start"`, {
      code: 'gateway_not_built',
    });
  }
  const child = spawn(process.execPath, [entry, ...args], { stdio: 'inherit', env: { ...io.env } });
  const forward = (signal: NodeJS.Signals): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, forward);
  try {
    return await new Promise<number>((resolve, reject) => {
      child.once('error', (error) => reject(new CliError(`could not start the gateway: ${error.message}`, { cause: error })));
      child.once('exit', (code, signal) => resolve(code ?? (signal === null ? ExitCode.failure : 128 + (SIGNAL_NUMBERS[signal] ?? 0))));
    });
  } finally {
    for (const signal of signals) process.off(signal, forward);
  }
}

/** Registers `gateway`. */
export const registerGatewayCommand: RegisterCommand = (program, io, state) => {
  program
    .command('gateway')
    .description('Run the HTTP gateway (OpenAI- and Anthropic-compatible, with failover) in the foreground.')
    .option('--config <file>', 'config file (default: $UNDERSTUDY_CONFIG, else ~/.understudy/understudy.json5)')
    .option('--host <host>', 'bind address (default 127.0.0.1; any other needs gateway.auth.token)')
    .option('--port <n>', 'bind port (default 4317; 0 picks a free one)')
    .action(async (options: { config?: string; host?: string; port?: string }) => {
      state.exitCode = await runGatewayProcess(gatewayArguments(options), io);
    });
};
