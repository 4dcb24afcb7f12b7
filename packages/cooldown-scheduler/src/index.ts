/**
 * `@understudy/cooldown-scheduler`: pure cooldown and disable windows, auth-profile order, availability and
 * probe/skip decisions (docs/policy.md; the model-failover doc "Rotation order", "Cooldowns", "Billing disables", "Cooldown skip vs
 * probe behavior"). Every function takes `nowMs`; nothing reads a clock or does I/O.
 */
export { CooldownPolicyError } from './errors.js';
export type { CooldownPolicyIssue } from './errors.js';
export {
  COOLDOWN_PRESETS,
  DEFAULT_COOLDOWN_POLICY,
  cooldownPolicySchema,
  cooldownWindowMs,
  disableWindowMs,
  failureWindowMs,
  resolveCooldownPolicy,
} from './policy.js';
export type { CooldownPolicy, CooldownPolicyInput, CooldownPreset, CooldownPresetValues, DisableReason } from './policy.js';
export { clearCooldown, clearExpiredWindows, recordFailure, recordProbe, recordSuccess } from './usage-transitions.js';
export type { FailureEvent } from './usage-transitions.js';
export { isProfileAvailable, profileUnavailability, profileUnavailableUntil, windowRanOut } from './availability.js';
export type { AvailabilityQuery, ProfileUnavailability, WindowLane } from './availability.js';
export { checkProfileEligibility, resolveProfileOrder } from './profile-order.js';
export type {
  ConfiguredProfile,
  Eligibility,
  IneligibleReason,
  OrderedProfile,
  ProfileOrder,
  ProfileOrderInput,
  ProfileOrderSource,
  ProfilePin,
} from './profile-order.js';
export { UNAVAILABLE_REASON_PRIORITY, computedCooldownIndex, providerUnavailableReason, soonestExpiry } from './provider-state.js';
export { decideUnavailableCandidate, probeThrottleKey, profileProbeKey, retryInPlaceKey } from './probe-decision.js';
export type { SkipWhy, UnavailableCandidateDecision, UnavailableCandidateInput } from './probe-decision.js';
export { maxProfileRotations, retryBackoffCeilingMs, retryDelayMs } from './retry-delay.js';
export { DEFAULT_RETRY_BASE_DELAY_MS, DEFAULT_RETRY_MAX_DELAY_MS } from './policy.js';
export type { RetryDelayInput } from './retry-delay.js';
export { isInlineKeyDisabled } from './inline-keys.js';
