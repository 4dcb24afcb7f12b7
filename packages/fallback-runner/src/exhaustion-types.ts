/**
 * How a run ran out of answers, as data (the model-failover doc "Report failure if exhausted", "Observability and
 * failure summaries"; docs/policy.md#retries-probes-and-rotation "Exhaustion"): the runner's errors carry it, and
 * the HTTP edge renders its replies from it without reading the message.
 */
import type { FailoverReason } from '@understudy/contracts';

/**
 * - `rate_limited`: every candidate failed on a rate limit or was passed over for a rate-limit cooldown.
 * - `cooling_down`: every candidate failed on a rate limit or was passed over for a cooldown after a transient
 *   failure (timeouts, overloads, server errors …), and not all of them were rate limits.
 * - `failed`: the candidates failed for other reasons (or a mix with lasting ones: billing, auth, …).
 * - `ended`: a failure ended the turn before the chain ran out (context overflow, refusal, abort, a failure
 *   after output) or the turn deadline passed.
 */
export type ExhaustionKind = 'rate_limited' | 'cooling_down' | 'failed' | 'ended';

/**
 * The soonest moments things may work again, epoch ms, by scope; each absent when nothing of that scope is known.
 * - `profile`: the soonest end of a window that blocks a whole auth profile (a cooldown or a disable) of an
 *   attempted model.
 * - `model`: the soonest end of a model-scoped cooldown that blocks an attempted model.
 * - `retryAt`: when a retry of the turn may get an answer: per candidate the moment its provider asked for (a
 *   Retry-After or reset time of the failure), else the end of the window that blocks it; the soonest of them.
 */
export interface ExhaustionRecovery {
  readonly profile?: number | undefined;
  readonly model?: number | undefined;
  readonly retryAt?: number | undefined;
}

/** The structured ending of a failed run. */
export interface Exhaustion {
  readonly kind: ExhaustionKind;
  /** The failover reason each candidate ended on, each reason once, in chain order. */
  readonly reasons: readonly FailoverReason[];
  /** The reason of the final failure (the last candidate's). */
  readonly finalReason: FailoverReason;
  /** The final failure's HTTP status as the provider sent it (`null`: none, e.g. a transport failure or a skip). */
  readonly finalStatus: number | null;
  readonly recovery: ExhaustionRecovery;
}

/** The soonest of some moments (epoch ms), ignoring absent ones. */
export function soonestOf(...moments: readonly (number | undefined)[]): number | undefined {
  let soonest: number | undefined;
  for (const moment of moments) {
    if (moment !== undefined && Number.isFinite(moment) && (soonest === undefined || moment < soonest)) soonest = moment;
  }
  return soonest;
}
