/**
 * Candidates: the models a turn may try, in order (the model-failover doc "Candidate chain rules", docs/policy.md#failover-reasons).
 */
import type { ModelRef } from './model-ref.js';

/**
 * Why a candidate is in the chain.
 * - `requested`: the model the turn asked for (always first).
 * - `configured_fallback`: from `agents.defaults.model.fallbacks` or an agent's own `fallbacks`.
 * - `override_fallback`: from a caller's `fallbacksOverride` (or a cron job's `payload.fallbacks`).
 * - `configured_primary`: the configured default primary, appended last so the chain can settle back on it.
 */
export type CandidateOrigin = 'requested' | 'configured_fallback' | 'override_fallback' | 'configured_primary';

/** One candidate of a chain. */
export interface Candidate extends ModelRef {
  readonly origin: CandidateOrigin;
}
