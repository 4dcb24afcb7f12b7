/**
 * The CLI's view of the process, injected so commands are testable in-process.
 */
import type { Readable, Writable } from 'node:stream';
import type { AuthStoreErrorCode } from '@understudy/auth-profile-store';
import type { ConfigError } from '@understudy/config';
import { UnderstudyError } from '@understudy/contracts';
import type { ConfigFileErrorCode, RuntimeEnv } from '@understudy/runtime';
import { RuntimeEnvError, parseRuntimeEnv } from '@understudy/runtime';

export interface CliIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Exit codes of the `understudy` command. */
export const ExitCode = {
  ok: 0,
  /** A runtime failure (a store that cannot be opened, a gateway that failed to start). */
  failure: 1,
  /** Bad input: invalid arguments, an invalid config, scenario or input line. */
  usage: 2,
} as const;

/**
 * The codes of {@link CliError}, snake_case: the CLI's own, or the code of the package error it reports.
 */
export type CliErrorCode =
  | 'cli_error'
  | 'bad_input'
  | 'invalid_profile_id'
  | 'invalid_now'
  | 'invalid_scenario'
  | 'scenario_unreadable'
  | 'gateway_not_built'
  | 'gateway_not_installed'
  | 'store_unavailable'
  | 'unknown_agent'
  | 'invalid_environment'
  /** A failed OAuth device login: `oauth_` + the OAuth error (`oauth_access_denied`, `oauth_expired_token`, …). */
  | `oauth_${string}`
  | ConfigError['code']
  | ConfigFileErrorCode
  | AuthStoreErrorCode;

/**
 * An error the CLI reports as one clear line and an exit code, never a stack trace.
 * `code` is a literal identifier for scripts.
 */
export class CliError extends UnderstudyError<CliErrorCode> {
  readonly exitCode: number;

  constructor(message: string, options: { readonly exitCode?: number; readonly code?: CliErrorCode; readonly cause?: unknown } = {}) {
    super(options.code ?? 'cli_error', message, options);
    this.exitCode = options.exitCode ?? ExitCode.failure;
  }
}

const parsedSettings = new WeakMap<CliIo, RuntimeEnv>();

/**
 * The environment's settings (docs/configuration.md#environment-variables), parsed once per {@link CliIo}.
 *
 * @throws {CliError} `invalid_environment` (exit 2) naming the variable whose value is refused.
 */
export function settingsOf(io: CliIo): RuntimeEnv {
  const known = parsedSettings.get(io);
  if (known !== undefined) return known;
  let settings: RuntimeEnv;
  try {
    settings = parseRuntimeEnv(io.env);
  } catch (error) {
    if (RuntimeEnvError.isInstance(error)) throw new CliError(error.message, { exitCode: ExitCode.usage, code: error.code, cause: error });
    throw error;
  }
  parsedSettings.set(io, settings);
  return settings;
}

/** Writes a line to a stream. */
export function writeLine(stream: Writable, text: string): void {
  stream.write(text.endsWith('\n') ? text : `${text}\n`);
}
