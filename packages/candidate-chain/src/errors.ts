/**
 * Errors of the candidate-chain builder: branded classes that name the field at fault and the fix.
 */

const CANDIDATE_CHAIN_ERROR = Symbol.for('understudy.error.CandidateChainError');

/**
 * - `invalid_model_ref`: a model reference is neither `provider/model` nor a configured alias.
 * - `missing_model`: no model was requested and none is configured for the agent.
 */
export type CandidateChainErrorCode = 'invalid_model_ref' | 'missing_model';

/** A chain could not be built. `field` is the config path or input field at fault (e.g. `agents.defaults.model.fallbacks[1]`). */
export class CandidateChainError extends Error {
  readonly code: CandidateChainErrorCode;
  readonly field: string;

  constructor(code: CandidateChainErrorCode, field: string, message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.name = 'CandidateChainError';
    this.code = code;
    this.field = field;
    Object.defineProperty(this, CANDIDATE_CHAIN_ERROR, { value: true });
  }

  /** True for a {@link CandidateChainError}, even one from another copy of this package. */
  static isInstance(value: unknown): value is CandidateChainError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[CANDIDATE_CHAIN_ERROR] === true;
  }
}
