import type { ProviderFailure } from '@understudy/contracts';

const brand = Symbol.for('understudy.error.ProviderCallError');

/**
 * A provider call that failed, carrying the {@link ProviderFailure} the classifier reads.
 *
 * The clients never throw it from `complete()` or `stream()`: those return failures as values
 * (`{ ok: false, failure }`). It is thrown only while iterating a {@link ChatStream} that had already started
 * (its `failure.outputStarted` is then `true`), because an async iterator can only end or throw.
 * Its message is the failure's message; neither carries a secret.
 */
export class ProviderCallError extends Error {
  readonly code = 'PROVIDER_CALL_FAILED' as const;
  readonly failure: ProviderFailure;

  constructor(failure: ProviderFailure, options?: { readonly cause?: unknown }) {
    super(failure.message ?? 'provider call failed', options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProviderCallError';
    this.failure = failure;
    Object.defineProperty(this, brand, { value: true, enumerable: false });
  }

  /** Duplicate-install-safe check for a {@link ProviderCallError}. */
  static isInstance(value: unknown): value is ProviderCallError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
  }
}

const optionsBrand = Symbol.for('understudy.error.ProviderOptionsError');

/**
 * Invalid client options (a bad `baseUrl`, an unknown `api`, a negative timeout): a programming or
 * configuration error, thrown by {@link createProviderClient} at construction, never during a call.
 */
export class ProviderOptionsError extends Error {
  readonly code = 'PROVIDER_OPTIONS_INVALID' as const;
  /** The option at fault, e.g. `timeouts.stallTimeoutMs`. */
  readonly field: string;

  constructor(field: string, message: string, options?: { readonly cause?: unknown }) {
    super(`${field}: ${message}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProviderOptionsError';
    this.field = field;
    Object.defineProperty(this, optionsBrand, { value: true, enumerable: false });
  }

  /** Duplicate-install-safe check for a {@link ProviderOptionsError}. */
  static isInstance(value: unknown): value is ProviderOptionsError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[optionsBrand] === true;
  }
}
