/**
 * Whether an auth profile can take a request for a model now (the model-failover doc "Model-scoped cooldowns", docs/policy.md#windows):
 * a disable window blocks the whole profile; a model-scoped cooldown blocks only its `cooldownModel`; any other
 * cooldown blocks the whole profile.
 */
import type { FailoverReason, ProfileUsageStats } from '@understudy/contracts';
import { isWindowActive } from './window.js';

/** The lane of a window: `cooldown` (short, by error count) or `disable` (long, doubling). */
export type WindowLane = 'cooldown' | 'disable';

/** What to ask about: the time, and the model the request is for (omit it to ask about the whole profile). */
export interface AvailabilityQuery {
  /** Current time, epoch ms. */
  readonly nowMs: number;
  /**
   * Model id (without provider) the request is for. A model-scoped cooldown blocks the profile only when this
   * equals its `cooldownModel`; without a model, a model-scoped cooldown does not block.
   */
  readonly model?: string | undefined;
}

/** Why and until when a profile is unavailable for a query. */
export interface ProfileUnavailability {
  /** When the profile becomes usable for the query again, epoch ms: the latest of the windows that block it. */
  readonly untilMs: number;
  /** The lane of the window that ends last (`disable` wins a tie). */
  readonly lane: WindowLane;
  /** The reason of that window (`disabledReason`, else `cooldownReason`, else `unknown`). */
  readonly reason: FailoverReason;
  /** Set when the only block is a model-scoped cooldown for this model id. */
  readonly model?: string | undefined;
}

/** True when the cooldown of `stats` applies to `model` (profile-wide, or scoped to exactly this model). */
function cooldownBlocks(stats: ProfileUsageStats, model: string | undefined): boolean {
  if (stats.cooldownModel === undefined) return true;
  return model !== undefined && model.trim() === stats.cooldownModel;
}

/**
 * Why a profile is unavailable for a query, or `undefined` when it is available (no active window blocks it).
 *
 * @param stats - the profile's usage stats (`undefined`: never used, available).
 * @example profileUnavailability({ cooldownUntil: 30_000, cooldownModel: 'gpt-x' }, { nowMs: 0, model: 'gpt-y' }) // undefined
 */
export function profileUnavailability(
  stats: ProfileUsageStats | undefined,
  query: AvailabilityQuery,
): ProfileUnavailability | undefined {
  if (stats === undefined) return undefined;
  const disabled = isWindowActive(stats.disabledUntil, query.nowMs) ? stats.disabledUntil : undefined;
  const cooling =
    isWindowActive(stats.cooldownUntil, query.nowMs) && cooldownBlocks(stats, query.model) ? stats.cooldownUntil : undefined;
  if (disabled !== undefined && (cooling === undefined || disabled >= cooling)) {
    return { untilMs: disabled, lane: 'disable', reason: stats.disabledReason ?? 'unknown' };
  }
  if (cooling !== undefined) {
    return {
      untilMs: cooling,
      lane: 'cooldown',
      reason: stats.cooldownReason ?? 'unknown',
      ...(stats.cooldownModel === undefined ? {} : { model: stats.cooldownModel }),
    };
  }
  return undefined;
}

/**
 * When the profile becomes usable for the query again (epoch ms), or `undefined` when it is usable now.
 *
 * @example profileUnavailableUntil({ disabledUntil: 600_000, disabledReason: 'billing' }, { nowMs: 0 }) // 600000
 */
export function profileUnavailableUntil(
  stats: ProfileUsageStats | undefined,
  query: AvailabilityQuery,
): number | undefined {
  return profileUnavailability(stats, query)?.untilMs;
}

/**
 * True when no active window blocks the profile for the query. A model-scoped cooldown leaves sibling models of
 * the same profile usable (the model-failover doc "Model-scoped cooldowns").
 *
 * @example isProfileAvailable({ cooldownUntil: 30_000, cooldownModel: 'gpt-x' }, { nowMs: 0, model: 'gpt-x' }) // false
 */
export function isProfileAvailable(stats: ProfileUsageStats | undefined, query: AvailabilityQuery): boolean {
  return profileUnavailability(stats, query) === undefined;
}

/**
 * Whether the profile is coming back from a window: the last cooldown recorded for `query.model` (or the last
 * disable window) has run out, and nothing has been recorded since — a success or a new window would have removed
 * or replaced it (`recordSuccess`, `recordFailure`; `understudy models auth clear-cooldown` removes it too). The
 * provider has not been seen healthy since it failed, so the profile's first call is the provider's probe
 * (docs/policy.md#retries-probes-and-rotation "Probes"): it takes the probe slot and gets no retry in place.
 *
 * @example windowRanOut({ cooldownUntil: 30_000 }, { nowMs: 40_000 }) // true
 * @example windowRanOut({ cooldownUntil: 30_000, cooldownModel: 'a' }, { nowMs: 40_000, model: 'b' }) // false
 * @example windowRanOut({ cooldownUntil: 50_000 }, { nowMs: 40_000 }) // false (still cooling: unavailable)
 */
export function windowRanOut(stats: ProfileUsageStats | undefined, query: AvailabilityQuery): boolean {
  if (stats === undefined) return false;
  const cooldownEnded = stats.cooldownUntil !== undefined && !isWindowActive(stats.cooldownUntil, query.nowMs) && cooldownBlocks(stats, query.model);
  const disableEnded = stats.disabledUntil !== undefined && !isWindowActive(stats.disabledUntil, query.nowMs);
  return (cooldownEnded || disableEnded) && profileUnavailability(stats, query) === undefined;
}
