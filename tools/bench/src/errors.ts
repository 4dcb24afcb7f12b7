/**
 * The bench's one error type: bad arguments, a missing input, or a server under test that would not start or
 * answered wrongly, reported as one line (plus the server's log tail).
 */
import { UnderstudyError } from '@understudy/contracts';

/** A bench failure with a literal `code` and the underlying `cause`. */
export class BenchError extends UnderstudyError<'bad_arguments' | 'missing_input' | 'server_failed' | 'bad_answer'> {
  constructor(message: string, code: BenchError['code'], options: { readonly cause?: unknown } = {}) {
    super(code, message, options);
  }
}
