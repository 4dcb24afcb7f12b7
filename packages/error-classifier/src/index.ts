/**
 * `@understudy/error-classifier`: provider failure → failover reason, with the policy table of what each reason
 * does (docs/policy.md#failover-reasons, docs/policy.md#what-each-reason-does).
 */
export { classifyFailure, explainFailure } from './classify-failure.js';
export type { ClassifyOptions, DecisionTrace, FailureExplanation } from './classify-failure.js';
export { parseDurationMs, parseRetryAfter, parseRetryAfterHeader, retryAfterFromText } from './retry-after.js';
export type { RetryAfterSources } from './retry-after.js';
export { reasonOfStatus } from './rules/status-rules.js';
export { statedStatus } from './stated-status.js';
export { HEAD_WINDOW_CHARS, TAIL_WINDOW_CHARS } from './text/normalize-text.js';
export { REASON_POLICY, policyOf } from './policy.js';
export type { FailureLane, ProfileRotation, ReasonPolicy } from './policy.js';
export { formatRepairOf } from './format-repair.js';
