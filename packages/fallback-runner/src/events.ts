/**
 * `model_fallback_decision` events (the model-failover doc "Observability and failure summaries"): one per skipped, probed,
 * failed or answering candidate, with the flat `fallbackStep*` fields that let log exporters rebuild each
 * transition — even the primary's failure when the last fallback fails too.
 */
import type { FailoverReason, ProfileId } from '@understudy/contracts';

/** Which decision an event reports. */
export type FallbackDecision =
  | 'skip_candidate'
  | 'probe_cooldown_candidate'
  | 'candidate_failed'
  | 'candidate_succeeded'
  /** A stream broke after output and the answer was continued (or its continuation was tried) on this candidate. */
  | 'continued_after_output';

/**
 * Where a step led.
 * - `next_candidate`: the run moved on to `fallbackStepToModel`.
 * - `probing`: a cooling-down candidate is being probed.
 * - `succeeded`: `fallbackStepToModel` answered (for `continued_after_output`: its continuation started).
 * - `exhausted`: nothing was left to try.
 * - `turn_ended`: a terminal failure (context overflow, refusal, abort, after output) or the deadline ended the turn.
 */
export type FallbackStepOutcome = 'next_candidate' | 'probing' | 'succeeded' | 'exhausted' | 'turn_ended';

/**
 * One fallback decision. Flat on purpose: every field is a log field.
 *
 * - `provider` / `model` / `profile`: the candidate the decision is about (`profile` null when none was used).
 * - `candidateIndex` / `candidateCount`: its place in the chain (0 = primary).
 * - `fallbackStepFromModel`: the `provider/model` the step leaves (for `candidate_succeeded`: the first candidate
 *   that failed in this run).
 * - `fallbackStepToModel`: where the step goes (next candidate, or the model that answered).
 * - `fallbackStepFromFailureReason` / `fallbackStepFromFailureDetail`: why the step's origin failed (classifier
 *   rule id, or why it was skipped).
 * - `continuationFailureReason`: for `continued_after_output` whose request failed (`fallbackStepFinalOutcome`
 *   `turn_ended`), the continuation's own failure reason; `reason` / `fallbackStepFromFailureReason` are then
 *   still the failure that broke the stream.
 * - `atMs`: when the decision was taken, epoch ms.
 */
export interface FallbackDecisionEvent {
  readonly event: 'model_fallback_decision';
  readonly decision: FallbackDecision;
  readonly provider: string;
  readonly model: string;
  readonly profile: ProfileId | null;
  readonly reason?: FailoverReason | undefined;
  readonly status?: number | undefined;
  readonly candidateIndex: number;
  readonly candidateCount: number;
  readonly fallbackStepFromModel?: string | undefined;
  readonly fallbackStepToModel?: string | undefined;
  readonly fallbackStepFromFailureReason?: FailoverReason | undefined;
  readonly fallbackStepFromFailureDetail?: string | undefined;
  readonly fallbackStepFinalOutcome?: FallbackStepOutcome | undefined;
  readonly continuationFailureReason?: FailoverReason | undefined;
  readonly atMs: number;
}

/** The log message of every decision event (the pino `msg`). */
export const FALLBACK_DECISION_MESSAGE = 'model_fallback_decision';

/** Drops `undefined` fields so logs and JSON stay flat and small. */
export function compactEvent(event: FallbackDecisionEvent): FallbackDecisionEvent {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(event)) if (value !== undefined) out[key] = value;
  return out as unknown as FallbackDecisionEvent;
}
