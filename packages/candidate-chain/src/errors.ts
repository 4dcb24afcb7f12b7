/**
 * Errors of the candidate-chain builder, on the one error base of `@understudy/contracts`: they name the field at
 * fault and the fix.
 */
import { UnderstudyError } from '@understudy/contracts';

/**
 * - `invalid_model_ref`: a model reference is neither `provider/model` nor a configured alias.
 * - `missing_model`: no model was requested and none is configured for the agent.
 */
export type CandidateChainErrorCode = 'invalid_model_ref' | 'missing_model';

/** A chain could not be built. `field` is the config path or input field at fault (e.g. `agents.defaults.model.fallbacks[1]`). */
export class CandidateChainError extends UnderstudyError<CandidateChainErrorCode> {
  readonly field: string;

  constructor(code: CandidateChainErrorCode, field: string, message: string, options: { readonly cause?: unknown } = {}) {
    super(code, message, options);
    this.field = field;
  }
}
