/**
 * `@understudy/fallback-runner`: `runWithModelFallback` — transient retries, auth-profile rotation, cooldown
 * probes, model fallback, attempt records, fallback notices and `model_fallback_decision` events (the model-failover doc
 * "Runtime flow", docs/policy.md). Core: every effect (time, randomness, logging, storage, provider calls) comes in
 * through the `@understudy/contracts` ports. In-memory ports for tests: `@understudy/fallback-runner/testing`.
 */
export { runWithModelFallback } from './run.js';
export type { FallbackConfig, FallbackRequest, FallbackRunResult, RunWithModelFallbackOptions } from './options.js';
export type { AttemptKind, AttemptRecord } from './attempt-record.js';
export { FailoverError, FallbackOptionsError, FallbackSummaryError, LiveSessionModelSwitchError } from './errors.js';
export type { FailoverErrorInit, FailoverErrorKind, FallbackRunnerErrorCode, FallbackSummaryErrorInit } from './errors.js';
export type { Exhaustion, ExhaustionKind, ExhaustionRecovery } from './exhaustion-types.js';
export { FALLBACK_DECISION_MESSAGE } from './events.js';
export type { FallbackDecision, FallbackDecisionEvent, FallbackStepOutcome } from './events.js';
export {
  AuthFailureSkipCache,
  MAX_SKIP_TTL_MS,
  MIN_SKIP_TTL_MS,
  clampSkipTtlMs,
} from './skip-cache.js';
export type { SkipCacheKey } from './skip-cache.js';
export { fallbackClearedNoticeText, fallbackNoticeText } from './notice.js';
export { REASON_TEXT, failureSummary, isTransientReason } from './failure-text.js';
export { isOwnException } from './own-exception.js';
export { MAX_LIVE_SWITCHES, runFollowingLiveSwitches } from './live-switch-owner.js';
export type { FollowLiveSwitchesOptions } from './live-switch-owner.js';
export { isUserPin } from './session-state.js';
export { configuredModelPatch, sessionResetPatch, userModelPatch } from './user-selection.js';
export type { UserModelSelection } from './user-selection.js';
export { markFailureAfterOutput } from './retry.js';
export { continueAfterOutput } from './continuation.js';
export type { ContinuationOutcome, ContinueAfterOutputOptions } from './continuation.js';
