/**
 * What each failover reason does: one table, keyed by the closed {@link FailoverReason} union, so a new reason
 * does not compile until it has a row (docs/policy.md#what-each-reason-does).
 */
import type { CooldownScope, FailoverReason } from '@understudy/contracts';

/**
 * How many other auth profiles of the same provider may be tried after this failure.
 * - `none`: no rotation; the candidate is done.
 * - `all`: every remaining eligible profile.
 * - `rate_limit` / `overloaded` / `timeout`: at most `auth.cooldowns.rateLimitedProfileRotations` /
 *   `auth.cooldowns.overloadedProfileRotations` / `auth.cooldowns.timeoutProfileRotations` (default 1 each; the
 *   model-failover doc lists timeouts among the rotation triggers).
 */
export type ProfileRotation = 'none' | 'all' | 'rate_limit' | 'overloaded' | 'timeout';

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
  /**
   * A Retry-After of at most `retry.provider.maxRetryAfterWaitMs` (5 s) is waited out on the same profile —
   * counted against the retry budget and window — when rotation finds no other eligible profile, even where
   * `sameProfileRetry` is false (docs/policy.md#retries-probes-and-rotation).
   */
  readonly waitsShortRetryAfter: boolean;
  /**
   * A failure that used up one of understudy's own time limits (connect, headers, first token, stall, whole
   * request) is retried on the same profile only when nothing else can answer: no other profile left to rotate
   * to and no later candidate. Fast transport failures (reset, refused, hang-up) keep `sameProfileRetry`.
   */
  readonly timeLimitRetryLastResort: boolean;
  /**
   * The turn does not end when a later candidate has a larger declared context window (`contextWindow` model
   * metadata, `contextFallbacks`): the run moves on to it, passing over the others (`context_overflow`).
   */
  readonly advancesToLargerWindow: boolean;
  /** Rotation to other profiles of the same provider. */
  readonly rotation: ProfileRotation;
  /** `true`: move to the next candidate while one remains. `false`: the turn ends here. */
  readonly advancesFallback: boolean;
  readonly lane: FailureLane;
  /** Cooldown scope when the lane is not `none`. */
  readonly scope: CooldownScope | null;
  /**
   * The failure is about the model alone (it does not exist, or is not served to this key), never about the key:
   * a window it opens never widens another model's window to the whole profile, and gives way to a failure of
   * another model, which opens its own window in its place (docs/policy.md#windows "Model scope"). A caller naming
   * models that do not exist can then not take a healthy profile out of service.
   */
  readonly modelOnly: boolean;
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
  waitsShortRetryAfter: false,
  timeLimitRetryLastResort: false,
  advancesToLargerWindow: false,
  rotation: 'none',
  advancesFallback: true,
  lane: 'cooldown',
  scope,
  modelOnly: false,
  probeable: true,
  transient: true,
});

const terminal: ReasonPolicy = {
  sameProfileRetry: false,
  waitsShortRetryAfter: false,
  timeLimitRetryLastResort: false,
  advancesToLargerWindow: false,
  rotation: 'none',
  advancesFallback: false,
  lane: 'none',
  scope: null,
  modelOnly: false,
  probeable: true,
  transient: false,
};

const advanceOnly: ReasonPolicy = {
  sameProfileRetry: false,
  waitsShortRetryAfter: false,
  timeLimitRetryLastResort: false,
  advancesToLargerWindow: false,
  rotation: 'none',
  advancesFallback: true,
  lane: 'none',
  scope: null,
  modelOnly: false,
  probeable: true,
  transient: false,
};

/** The policy of every failover reason (docs/policy.md#what-each-reason-does). */
export const REASON_POLICY: Readonly<Record<FailoverReason, ReasonPolicy>> = Object.freeze({
  rate_limit: { ...transientCooldown('model'), sameProfileRetry: false, waitsShortRetryAfter: true, rotation: 'rate_limit' },
  overloaded: { ...transientCooldown('profile'), rotation: 'overloaded' },
  server_error: transientCooldown('profile'),
  timeout: { ...transientCooldown('model'), timeLimitRetryLastResort: true, rotation: 'timeout' },
  empty_response: transientCooldown('profile'),
  no_error_details: transientCooldown('profile'),
  unclassified: transientCooldown('profile'),
  unknown: transientCooldown('profile'),
  auth: {
    sameProfileRetry: false,
    waitsShortRetryAfter: false,
    timeLimitRetryLastResort: false,
    advancesToLargerWindow: false,
    rotation: 'all',
    advancesFallback: true,
    lane: 'cooldown',
    scope: 'profile',
    modelOnly: false,
    probeable: false,
    transient: false,
  },
  auth_permanent: {
    sameProfileRetry: false,
    waitsShortRetryAfter: false,
    timeLimitRetryLastResort: false,
    advancesToLargerWindow: false,
    rotation: 'all',
    advancesFallback: true,
    lane: 'disable',
    scope: 'profile',
    modelOnly: false,
    probeable: false,
    transient: false,
  },
  billing: {
    sameProfileRetry: false,
    waitsShortRetryAfter: false,
    timeLimitRetryLastResort: false,
    advancesToLargerWindow: false,
    rotation: 'all',
    advancesFallback: true,
    lane: 'disable',
    scope: 'profile',
    modelOnly: false,
    probeable: true,
    transient: false,
  },
  model_not_found: { ...advanceOnly, lane: 'cooldown', scope: 'model', modelOnly: true },
  format: advanceOnly,
  session_expired: advanceOnly,
  tls_certificate: advanceOnly,
  context_overflow: { ...terminal, advancesToLargerWindow: true },
  refusal: terminal,
  abort: terminal,
});

/** The policy row of a reason. @example policyOf('billing').lane // 'disable' */
export function policyOf(reason: FailoverReason): ReasonPolicy {
  return REASON_POLICY[reason];
}
