/**
 * Errors of the fallback runner, on the one error base of `@understudy/contracts` (brand, snake_case `code`,
 * `cause`; `isInstance` survives duplicate installs (the model-failover doc "Report failure if exhausted", "Observability and failure
 * summaries", "Session overrides and live model switching").
 */
import type { Candidate, FailoverReason, FailureClassification, ModelRef, ProfileId } from '@understudy/contracts';
import { UnderstudyError, formatModelRef } from '@understudy/contracts';
import type { AttemptRecord } from './attempt-record.js';
import type { Exhaustion } from './exhaustion-types.js';
import { soonestOf } from './exhaustion-types.js';

/** The error codes of the fallback runner. */
export type FallbackRunnerErrorCode = 'failover_error' | 'all_models_failed' | 'live_session_model_switch' | 'invalid_fallback_options';

/**
 * How a {@link FailoverError} ended the turn.
 * - `exhausted`: the only candidate failed (or was skipped); nothing was left to try.
 * - `terminal`: a failure that never advances fallback: context overflow, refusal, a user abort, or any failure
 *   after output reached the caller.
 * - `deadline`: the turn deadline passed before another attempt could start.
 */
export type FailoverErrorKind = 'exhausted' | 'terminal' | 'deadline';

/**
 * Fields of a {@link FailoverError}: the error's own `kind`, `reason`, `provider`, `model`, `profile`, `status`
 * and `attempts` as the error keeps them, and these optional ones.
 */
export interface FailoverErrorInit extends Pick<FailoverError, 'kind' | 'reason' | 'provider' | 'model' | 'profile' | 'status' | 'attempts'> {
  readonly classification?: FailureClassification | undefined;
  /** The failure happened after output reached the caller. */
  readonly outputStarted?: boolean | undefined;
  /** For a failure after output: the chain of the run, which a continuation walks on from this candidate. */
  readonly chain?: readonly Candidate[] | undefined;
  /** Soonest moment a blocked auth profile of the attempted models is usable again, epoch ms. */
  readonly soonestCooldownExpiry?: number | undefined;
  /**
   * How the run ended, as data. @default for `exhausted`: kind `failed`; otherwise kind `ended`; reasons
   * `[reason]`, the status as final status, `soonestCooldownExpiry` as the moment to retry.
   */
  readonly exhaustion?: Exhaustion | undefined;
  readonly cause?: unknown;
}

/**
 * A turn failed on one candidate: the only candidate failed (`kind: 'exhausted'`), or a failure ended the turn
 * (`kind: 'terminal'`, `endedTurn`), or the turn deadline passed (`kind: 'deadline'`, reason `timeout`). The
 * message is `<provider/model>: <summary>`; it never holds a raw provider body.
 */
export class FailoverError extends UnderstudyError<'failover_error'> {
  readonly kind: FailoverErrorKind;
  readonly reason: FailoverReason;
  readonly provider: string;
  readonly model: string;
  readonly profile: ProfileId | null;
  /** The provider's HTTP status unchanged (`null` for transport failures and skips). */
  readonly status: number | null;
  readonly classification: FailureClassification | undefined;
  readonly outputStarted: boolean;
  /** For a failure after output: the run's chain (`continueAfterOutput` walks on from this candidate). */
  readonly chain: readonly Candidate[] | undefined;
  /** Every attempt of the run, in order (a frozen copy). */
  readonly attempts: readonly AttemptRecord[];
  readonly soonestCooldownExpiry: number | undefined;
  /** How the run ended, as data: what the HTTP edge renders its reply from. */
  readonly exhaustion: Exhaustion;

  constructor(message: string, init: FailoverErrorInit) {
    super('failover_error', message, init);
    this.kind = init.kind;
    this.reason = init.reason;
    this.provider = init.provider;
    this.model = init.model;
    this.profile = init.profile;
    this.status = init.status;
    this.classification = init.classification;
    this.outputStarted = init.outputStarted === true;
    this.chain = init.chain;
    this.attempts = Object.freeze([...init.attempts]);
    this.soonestCooldownExpiry = init.soonestCooldownExpiry;
    this.exhaustion = init.exhaustion ?? {
      kind: init.kind === 'exhausted' ? 'failed' : 'ended',
      reasons: [init.reason],
      finalReason: init.reason,
      finalStatus: init.status,
      recovery: init.soonestCooldownExpiry === undefined ? {} : { retryAt: init.soonestCooldownExpiry },
    };
  }

  /** `true` when this failure ended the turn without trying the remaining candidates. */
  get endedTurn(): boolean {
    return this.kind !== 'exhausted';
  }
}

/** Fields of a {@link FallbackSummaryError}. */
export interface FallbackSummaryErrorInit {
  readonly attempts: readonly AttemptRecord[];
  /** How the run ended: kind, reasons, soonest recovery per scope. */
  readonly exhaustion: Exhaustion;
  /** The last candidate's failure. */
  readonly cause?: unknown;
}

/**
 * Every candidate of the chain failed or was skipped (the model-failover doc "Report failure if exhausted"). The message is
 * `All models failed (N): <provider/model>: <summary> | …`, N counting the candidates that were tried or
 * skipped, followed by "All models are temporarily rate-limited …" (exhaustion kind `rate_limited`) or "All
 * models are cooling down after …" (kind `cooling_down`) with the moment to retry.
 */
export class FallbackSummaryError extends UnderstudyError<'all_models_failed'> {
  readonly attempts: readonly AttemptRecord[];
  /** How the run ended, as data: what the HTTP edge renders its reply from. */
  readonly exhaustion: Exhaustion;

  constructor(message: string, init: FallbackSummaryErrorInit) {
    super('all_models_failed', message, init);
    this.attempts = Object.freeze([...init.attempts]);
    this.exhaustion = init.exhaustion;
  }

  /** Soonest moment a blocked auth profile of the attempted models is usable again (model-aware), epoch ms. */
  get soonestCooldownExpiry(): number | undefined {
    return soonestOf(this.exhaustion.recovery.profile, this.exhaustion.recovery.model);
  }

  /** Every candidate failed on a rate limit or was passed over for a rate-limit cooldown (kind `rate_limited`). */
  get allRateLimited(): boolean {
    return this.exhaustion.kind === 'rate_limited';
  }
}

/**
 * The user switched the session's model during the run (a pending live switch) to a model that is not a later
 * candidate of this run's chain: the run hands the turn back so its owner can run it on `target` (the model-failover doc
 * "Session overrides and live model switching"). The pending switch has been cleared.
 */
export class LiveSessionModelSwitchError extends UnderstudyError<'live_session_model_switch'> {
  readonly target: ModelRef;
  readonly authProfile: ProfileId | undefined;
  readonly attempts: readonly AttemptRecord[];

  constructor(
    target: ModelRef,
    init: { readonly authProfile?: ProfileId | undefined; readonly attempts: readonly AttemptRecord[]; readonly cause?: unknown },
  ) {
    super('live_session_model_switch', `The session switched to ${formatModelRef(target)} during the turn; run the turn on that model`, init);
    this.target = target;
    this.authProfile = init.authProfile;
    this.attempts = Object.freeze([...init.attempts]);
  }
}

/** An option of the runner (or one of its environment variables) is unusable; `field` names it. */
export class FallbackOptionsError extends UnderstudyError<'invalid_fallback_options'> {
  readonly field: string;

  constructor(field: string, message: string) {
    super('invalid_fallback_options', `${field}: ${message}`);
    this.field = field;
  }
}
