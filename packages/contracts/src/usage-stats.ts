/**
 * Usage stats of one auth profile: the routing state that cooldowns, disables and rotation read
 * (docs/policy.md#failover-reasons, the model-failover doc "Cooldowns" / "Billing disables"). A plain serialisable value; every timestamp is
 * epoch ms. The store persists it as-is; `@understudy/cooldown-scheduler` computes its transitions.
 */
import type { FailoverReason } from './failover-reason.js';
import type { ProfileId } from './profile-id.js';

export interface ProfileUsageStats {
  /** Last successful use, epoch ms. Rotation prefers the oldest. */
  readonly lastUsed?: number | undefined;
  /** End of the active cooldown window, epoch ms. */
  readonly cooldownUntil?: number | undefined;
  /** Set when the active cooldown only blocks this model id (model-scoped rate limit / timeout). */
  readonly cooldownModel?: string | undefined;
  /** The reason that opened the active cooldown window. */
  readonly cooldownReason?: FailoverReason | undefined;
  /**
   * `true` when the provider named the active cooldown window: its Retry-After or reset time was longer than the
   * computed step and became the window. Such a window is honoured (no probe before the near-expiry margin);
   * a window understudy computed itself may be probed on the throttle at any time (docs/policy.md#retries-probes-and-rotation).
   */
  readonly cooldownNamed?: boolean | undefined;
  /** Cooldown-lane failures inside the failure window; picks the 30 s / 60 s / 300 s step. */
  readonly errorCount?: number | undefined;
  /** End of the active disable window (billing, auth_permanent), epoch ms. */
  readonly disabledUntil?: number | undefined;
  /** The reason that opened the active disable window. */
  readonly disabledReason?: FailoverReason | undefined;
  /** Failures by reason inside the failure window (disable-lane doubling reads these). */
  readonly failureCounts?: Readonly<Partial<Record<FailoverReason, number>>> | undefined;
  /** Last recorded failure, epoch ms; the failure window is measured from it. */
  readonly lastFailureAt?: number | undefined;
  /** Last probe of this profile while it was unavailable, epoch ms. */
  readonly lastProbeAt?: number | undefined;
}

/** Usage stats of many profiles, by profile id. */
export type UsageStatsMap = Readonly<Record<ProfileId, ProfileUsageStats>>;
