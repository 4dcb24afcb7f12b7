/**
 * The CLI's view of the process, injected so commands are testable in-process.
 */
import type { Readable, Writable } from 'node:stream';

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
 * An error the CLI reports as one clear line and an exit code, never a stack trace.
 * `code` is a literal identifier for scripts.
 */
export class CliError extends Error {
  static readonly brand = Symbol.for('understudy.error.CliError');
  readonly exitCode: number;
  readonly code: string;

  constructor(message: string, options: { readonly exitCode?: number; readonly code?: string; readonly cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CliError';
    this.exitCode = options.exitCode ?? ExitCode.failure;
    this.code = options.code ?? 'cli_error';
    Object.defineProperty(this, CliError.brand, { value: true });
  }

  static isInstance(value: unknown): value is CliError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[CliError.brand] === true;
  }
}

/** Writes a line to a stream. */
export function writeLine(stream: Writable, text: string): void {
  stream.write(text.endsWith('\n') ? text : `${text}\n`);
}
