export { REASON_POLICY, policyOf } from './policy.js';
export type { FailureLane, ProfileRotation, ReasonPolicy } from './policy.js';
