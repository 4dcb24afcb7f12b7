/**
 * The bench's one error type: bad arguments, a missing input, or a server under test that would not start or
 * answered wrongly, reported as one line (plus the server's log tail).
 */

/** A bench failure with a literal `code` and the underlying `cause`. */
export class BenchError extends Error {
  static readonly brand = Symbol.for('understudy.error.BenchError');
  readonly code: 'bad_arguments' | 'missing_input' | 'server_failed' | 'bad_answer';

  constructor(message: string, code: BenchError['code'], options: { readonly cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'BenchError';
    this.code = code;
    Object.defineProperty(this, BenchError.brand, { value: true });
  }

  static isInstance(value: unknown): value is BenchError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BenchError.brand] === true;
  }
}
