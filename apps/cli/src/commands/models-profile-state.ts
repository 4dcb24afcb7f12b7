/**
 * The state of an auth profile as `models status` and `models auth list` show it (the model-failover doc "Cooldowns",
 * "Billing disables"): `ok`, `cooling until <ISO> (<reason>, <model>)` or `disabled until <ISO> (<reason>)`.
 */
import type { FailoverReason, ProfileUsageStats } from '@understudy/contracts';
import { isoTime } from '../output.js';

/** A profile's routing state at one moment. */
export interface ProfileStateView {
  readonly state: 'ok' | 'cooling' | 'disabled';
  /** End of the active window, epoch ms. */
  readonly untilMs?: number | undefined;
  readonly reason?: FailoverReason | undefined;
  /** Set for a model-scoped cooldown: the only model it blocks. */
  readonly model?: string | undefined;
}

/**
 * The state of a profile from its usage stats: an active disable window wins over a cooldown.
 *
 * @example profileState({ cooldownUntil: 60_000, cooldownReason: 'rate_limit', cooldownModel: 'gpt-x' }, 0)
 * // { state: 'cooling', untilMs: 60000, reason: 'rate_limit', model: 'gpt-x' }
 */
export function profileState(stats: ProfileUsageStats | undefined, nowMs: number): ProfileStateView {
  if (stats?.disabledUntil !== undefined && stats.disabledUntil > nowMs) {
    return { state: 'disabled', untilMs: stats.disabledUntil, reason: stats.disabledReason ?? 'unknown' };
  }
  if (stats?.cooldownUntil !== undefined && stats.cooldownUntil > nowMs) {
    return {
      state: 'cooling',
      untilMs: stats.cooldownUntil,
      reason: stats.cooldownReason ?? 'unknown',
      ...(stats.cooldownModel === undefined ? {} : { model: stats.cooldownModel }),
    };
  }
  return { state: 'ok' };
}

/** The human text of a state. */
export function describeProfileState(view: ProfileStateView): string {
  if (view.state === 'ok') return 'ok';
  const details = [view.reason, view.model].filter((part) => part !== undefined).join(', ');
  return `${view.state} until ${isoTime(view.untilMs)} (${details})`;
}
