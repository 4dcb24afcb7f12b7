/**
 * What each failover reason does: one table, keyed by the closed {@link FailoverReason} union, so a new reason
 * does not compile until it has a row (docs/policy.md#what-each-reason-does).
 */
import type { CooldownScope, FailoverReason } from '@understudy/contracts';

/**
 * How many other auth profiles of the same provider may be tried after this failure.
 * - `none`: no rotation; the candidate is done.
 * - `all`: every remaining eligible profile.
 * - `rate_limit` / `overloaded`: at most `auth.cooldowns.rateLimitedProfileRotations` /
 *   `auth.cooldowns.overloadedProfileRotations` (default 1 each).
 */
export type ProfileRotation = 'none' | 'all' | 'rate_limit' | 'overloaded';

/**
 * Which window a failure opens on the profile.
 * - `cooldown`: short, stepped by error count (30 s / 60 s / 300 s).
 * - `disable`: long, doubling (billing, permanent auth).
 * - `none`: the profile's health is not touched.
 */
export type FailureLane = 'cooldown' | 'disable' | 'none';

/** The policy facts of one failover reason (docs/policy.md#what-each-reason-does). */
export interface ReasonPolicy {
  /** Same-profile transient retries allowed (only before output reached the caller). */
  readonly sameProfileRetry: boolean;
  /** Rotation to other profiles of the same provider. */
  readonly rotation: ProfileRotation;
  /** `true`: move to the next candidate while one remains. `false`: the turn ends here. */
  readonly advancesFallback: boolean;
  readonly lane: FailureLane;
  /** Cooldown scope when the lane is not `none`. */
  readonly scope: CooldownScope | null;
  /** A provider whose profiles are all unavailable for this reason may still be probed. */
  readonly probeable: boolean;
  /**
   * Transient: likely to clear by itself soon. Same-provider siblings may be tried despite a cooldown for a
   * transient reason, and a failed transient probe uses up the provider's one probe of the run.
   */
  readonly transient: boolean;
}

const transientCooldown = (scope: CooldownScope): ReasonPolicy => ({
  sameProfileRetry: true,
  rotation: 'none',
  advancesFallback: true,
  lane: 'cooldown',
  scope,
  probeable: true,
  transient: true,
});

const terminal: ReasonPolicy = {
  sameProfileRetry: false,
  rotation: 'none',
  advancesFallback: false,
  lane: 'none',
  scope: null,
  probeable: true,
  transient: false,
};

const advanceOnly: ReasonPolicy = {
  sameProfileRetry: false,
  rotation: 'none',
  advancesFallback: true,
  lane: 'none',
  scope: null,
  probeable: true,
  transient: false,
};

/** The policy of every failover reason (docs/policy.md#what-each-reason-does). */
export const REASON_POLICY: Readonly<Record<FailoverReason, ReasonPolicy>> = Object.freeze({
  rate_limit: { ...transientCooldown('model'), sameProfileRetry: false, rotation: 'rate_limit' },
  overloaded: { ...transientCooldown('profile'), rotation: 'overloaded' },
  server_error: transientCooldown('profile'),
  timeout: transientCooldown('model'),
  empty_response: transientCooldown('profile'),
  no_error_details: transientCooldown('profile'),
  unclassified: transientCooldown('profile'),
  unknown: transientCooldown('profile'),
  auth: {
    sameProfileRetry: false,
    rotation: 'all',
    advancesFallback: true,
    lane: 'cooldown',
    scope: 'profile',
    probeable: false,
    transient: false,
  },
  auth_permanent: {
    sameProfileRetry: false,
    rotation: 'all',
    advancesFallback: true,
    lane: 'disable',
    scope: 'profile',
    probeable: false,
    transient: false,
  },
  billing: {
    sameProfileRetry: false,
    rotation: 'all',
    advancesFallback: true,
    lane: 'disable',
    scope: 'profile',
    probeable: true,
    transient: false,
  },
  model_not_found: { ...advanceOnly, lane: 'cooldown', scope: 'model' },
  format: advanceOnly,
  session_expired: advanceOnly,
  tls_certificate: advanceOnly,
  context_overflow: terminal,
  refusal: terminal,
  abort: terminal,
});

/** The policy row of a reason. @example policyOf('billing').lane // 'disable' */
export function policyOf(reason: FailoverReason): ReasonPolicy {
  return REASON_POLICY[reason];
}
