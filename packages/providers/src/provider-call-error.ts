import type { ProviderFailure } from '@understudy/contracts';
import { UnderstudyError } from '@understudy/contracts';

/**
 * The error codes of `@understudy/providers` (snake_case, like every package's).
 * - `provider_call_failed`: a started stream failed ({@link ProviderCallError}).
 * - `invalid_provider_options`: a client was built with unusable options ({@link ProviderOptionsError}).
 * - `stream_failed`: a stream could not be read further (internal, turned into a failure).
 * - `wire_error`: a wire value is not an answer (internal, turned into a failure).
 */
export type ProviderErrorCode = 'provider_call_failed' | 'invalid_provider_options' | 'stream_failed' | 'wire_error';

/**
 * A provider call that failed, carrying the {@link ProviderFailure} the classifier reads.
 *
 * The clients never throw it from `complete()` or `stream()`: those return failures as values
 * (`{ ok: false, failure }`). It is thrown only while iterating a {@link ChatStream} that had already started
 * (its `failure.outputStarted` is then `true`), because an async iterator can only end or throw.
 * Its message is the failure's message; neither carries a secret.
 */
export class ProviderCallError extends UnderstudyError<'provider_call_failed'> {
  readonly failure: ProviderFailure;

  constructor(failure: ProviderFailure, options: { readonly cause?: unknown } = {}) {
    super('provider_call_failed', failure.message ?? 'provider call failed', options);
    this.failure = failure;
  }
}

/**
 * Invalid client options (a bad `baseUrl`, an unknown `api`, a negative timeout): a programming or
 * configuration error, thrown by {@link createProviderClient} at construction, never during a call.
 */
export class ProviderOptionsError extends UnderstudyError<'invalid_provider_options'> {
  /** The option at fault, e.g. `timeouts.stallTimeoutMs`. */
  readonly field: string;

  constructor(field: string, message: string, options: { readonly cause?: unknown } = {}) {
    super('invalid_provider_options', `${field}: ${message}`, options);
    this.field = field;
  }
}
