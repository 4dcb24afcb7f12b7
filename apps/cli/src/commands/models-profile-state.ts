/**
 * The state of an auth profile as `models status` and `models auth list` show it (the model-failover doc "Cooldowns",
 * "Billing disables"): `ok`, `cooling until <ISO> (<reason>, <model>)` or `disabled until <ISO> (<reason>)`.
 * When it is usable again is the cooldown scheduler's answer (`profileUnavailability`, docs/policy.md#windows):
 * this module only words it.
 */
import type { FailoverReason, ProfileUsageStats } from '@understudy/contracts';
import { isoTime } from '@understudy/contracts';
import { profileUnavailability } from '@understudy/cooldown-scheduler';

/** A profile's routing state at one moment. */
export interface ProfileStateView {
  readonly state: 'ok' | 'cooling' | 'disabled';
  /** End of the window that blocks the profile longest, epoch ms. */
  readonly untilMs?: number | undefined;
  readonly reason?: FailoverReason | undefined;
  /** Set for a model-scoped cooldown: the only model it blocks. */
  readonly model?: string | undefined;
}

/**
 * The state of a profile from its usage stats, as the scheduler sees it: asked about the model its cooldown is
 * scoped to (so a model-scoped cooldown shows), the window that ends last decides (a disable wins a tie).
 *
 * @example profileState({ cooldownUntil: 60_000, cooldownReason: 'rate_limit', cooldownModel: 'gpt-x' }, 0)
 * // { state: 'cooling', untilMs: 60000, reason: 'rate_limit', model: 'gpt-x' }
 */
export function profileState(stats: ProfileUsageStats | undefined, nowMs: number): ProfileStateView {
  const block = profileUnavailability(stats, { nowMs, model: stats?.cooldownModel });
  if (block === undefined) return { state: 'ok' };
  return {
    state: block.lane === 'disable' ? 'disabled' : 'cooling',
    untilMs: block.untilMs,
    reason: block.reason,
    ...(block.model === undefined ? {} : { model: block.model }),
  };
}

/** The human text of a state. */
export function describeProfileState(view: ProfileStateView): string {
  if (view.state === 'ok') return 'ok';
  const details = [view.reason, view.model].filter((part) => part !== undefined).join(', ');
  return `${view.state} until ${isoTime(view.untilMs, '')} (${details})`;
}
