/**
 * What to do with a candidate whose provider has no available auth profile (the model-failover doc "Cooldown skip vs probe
 * behavior", docs/policy.md#retries-probes-and-rotation "Probes"). The decision is a value the runner executes.
 */
import type { FailoverReason } from '@understudy/contracts';
import { REASON_POLICY } from '@understudy/error-classifier';
import type { CooldownPolicy } from './policy.js';
import { DEFAULT_COOLDOWN_POLICY } from './policy.js';

/**
 * The store key of a provider's probe slot (`AuthStorePort.tryAcquireProbe`): one probe of the provider per
 * `probeThrottleMs`, across processes. A profile's first call after its cooldown ran out and the failure that
 * opens a computed cooldown take the same slot (docs/policy.md#retries-probes-and-rotation "Probes").
 *
 * @example probeThrottleKey('openai') // 'openai'
 */
export function probeThrottleKey(provider: string): string {
  return provider;
}

/**
 * The store key of one profile's probe slot (`AuthStorePort.tryAcquireProbe` keys): the first call of a profile
 * whose window ran out takes it, and every probe of the profile and the failure that opens its computed cooldown
 * stamp it, so that call never follows the profile's last test by less than one throttle, while another profile
 * of the same provider stays free to answer (docs/policy.md#retries-probes-and-rotation "Probes").
 *
 * @example profileProbeKey('openai:work') // 'probe/openai:work'
 */
export function profileProbeKey(profileId: string): string {
  return `probe/${profileId}`;
}

/**
 * The store key of a profile's retry-in-place slot (`AuthStorePort.tryAcquireProbe` keys): while one request
 * waits to retry the profile in place, another request's failure of it is not retried
 * (docs/policy.md#retries-probes-and-rotation). `profileId` is `null` for a keyless provider.
 *
 * @example retryInPlaceKey('openai', 'openai:work') // 'retry-in-place/openai:work'
 */
export function retryInPlaceKey(provider: string, profileId: string | null): string {
  return `retry-in-place/${profileId ?? provider}`;
}

/** Facts about the candidate and the run; every profile of `provider` is unavailable for the candidate's model. */
export interface UnavailableCandidateInput {
  /** The candidate's provider id (the probe throttle key). */
  readonly provider: string;
  /** First candidate of the chain (the requested model). */
  readonly isPrimary: boolean;
  /** The chain has this one candidate only (no fallback to move to). */
  readonly onlyCandidate: boolean;
  /** An earlier candidate of this run's chain has the same provider (this one is a same-provider sibling model). */
  readonly isSameProviderSibling: boolean;
  /** The provider's unavailable reason ({@link providerUnavailableReason}); `undefined` is treated as `unknown`. */
  readonly reason: FailoverReason | undefined;
  /** Soonest expiry of the provider's blocking windows for this model ({@link soonestExpiry}), epoch ms. */
  readonly soonestExpiryMs: number | undefined;
  /** Current time, epoch ms. */
  readonly nowMs: number;
  /**
   * Last probe of this provider when the caller knows it (epoch ms). When it is within `probeThrottleMs`, the
   * decision is a skip; otherwise the store's throttle (`AuthStorePort.tryAcquireProbe`) has the final word.
   */
  readonly lastProbeAtMs?: number | undefined;
  /** A transient probe of this provider already failed in this run (one per provider per run). */
  readonly transientProbeUsed: boolean;
  /**
   * At least one blocked profile is in a cooldown understudy computed itself ({@link computedCooldownIndex} ≥ 0):
   * the primary may then be probed on the throttle whatever the distance to expiry. When every window was named
   * by the provider (Retry-After, reset time), the near-expiry margin applies. @default false
   */
  readonly computedCooldown?: boolean | undefined;
}

/** Why a candidate is skipped. */
export type SkipWhy =
  | 'persistent_auth'
  | 'billing_disabled'
  | 'not_near_expiry'
  | 'probe_throttled'
  | 'transient_probe_used'
  | 'cooling_down';

/**
 * The decision.
 * - `skip`: pass the candidate over without a request (one `skip` attempt).
 * - `probe`: try the primary's provider despite the windows, after taking the throttle slot
 *   `tryAcquireProbe(throttleKey, nowMs, throttleMs)`; when the slot is taken, skip with `probe_throttled`.
 * - `try_sibling`: try this same-provider sibling model despite the cooldown (the reason is transient); no
 *   throttle, but a transient failure uses up the provider's probe for the run.
 */
export type UnavailableCandidateDecision =
  | { readonly kind: 'skip'; readonly why: SkipWhy; readonly reason: FailoverReason }
  | {
      readonly kind: 'probe';
      readonly reason: FailoverReason;
      readonly throttleKey: string;
      readonly throttleMs: number;
      /** A transient failure of this probe uses up the provider's probe for the run. */
      readonly transient: boolean;
    }
  | { readonly kind: 'try_sibling'; readonly reason: FailoverReason };

/**
 * Decides skip vs probe for a candidate whose provider's profiles are all unavailable (docs/policy.md#retries-probes-and-rotation):
 * persistent auth (`auth`, `auth_permanent`, reasons that are not `probeable`) skips outright; `billing` skips
 * except the primary, probed within `probeNearExpiryMs` of expiry, or at any time when it is the only candidate,
 * always on the per-provider throttle; other reasons: the primary is probed within `probeNearExpiryMs` of the
 * soonest expiry — or at any time while a blocking cooldown is one understudy computed (`computedCooldown`) —
 * always throttled, a same-provider sibling model is tried when the reason is transient; a transient
 * probe is allowed once per provider per run.
 *
 * @example decideUnavailableCandidate({ provider: 'openai', isPrimary: false, onlyCandidate: false,
 *   isSameProviderSibling: false, reason: 'auth', soonestExpiryMs: 1, nowMs: 0, transientProbeUsed: false })
 *   // { kind: 'skip', why: 'persistent_auth', reason: 'auth' }
 */
export function decideUnavailableCandidate(
  input: UnavailableCandidateInput,
  policy: CooldownPolicy = DEFAULT_COOLDOWN_POLICY,
): UnavailableCandidateDecision {
  const reason = input.reason ?? 'unknown';
  const reasonPolicy = REASON_POLICY[reason];
  const skip = (why: SkipWhy): UnavailableCandidateDecision => ({ kind: 'skip', why, reason });
  if (!reasonPolicy.probeable) return skip('persistent_auth');

  const nearExpiry =
    input.soonestExpiryMs === undefined || input.soonestExpiryMs - input.nowMs <= policy.probeNearExpiryMs;
  const throttled =
    input.lastProbeAtMs !== undefined && input.nowMs - input.lastProbeAtMs < policy.probeThrottleMs;
  const probe: UnavailableCandidateDecision = {
    kind: 'probe',
    reason,
    throttleKey: probeThrottleKey(input.provider),
    throttleMs: policy.probeThrottleMs,
    transient: reasonPolicy.transient,
  };

  if (reason === 'billing') {
    if (!input.isPrimary) return skip('billing_disabled');
    if (!nearExpiry && !input.onlyCandidate) return skip('billing_disabled');
    return throttled ? skip('probe_throttled') : probe;
  }
  if (reasonPolicy.transient && input.transientProbeUsed) return skip('transient_probe_used');
  if (input.isPrimary) {
    if (!nearExpiry && input.computedCooldown !== true) return skip('not_near_expiry');
    return throttled ? skip('probe_throttled') : probe;
  }
  if (reasonPolicy.transient && input.isSameProviderSibling) return { kind: 'try_sibling', reason };
  return skip('cooling_down');
}
