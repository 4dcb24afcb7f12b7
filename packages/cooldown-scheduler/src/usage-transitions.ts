/**
 * Pure usage-stats transitions (docs/policy.md#windows; the model-failover doc "Cooldowns", "Billing disables", "Model-scoped
 * cooldowns"): what a failure, a success, a probe, time passing or a manual clear does to one profile's
 * {@link ProfileUsageStats}. Each returns a new value (or the same reference when nothing changed), so the store can
 * apply it inside one atomic read-modify-write (`AuthStorePort.updateUsageStats`).
 */
import type { CooldownScope, FailoverReason, ProfileId, ProfileUsageStats } from '@understudy/contracts';
import { isInlineProfileId, providerOfProfileId } from '@understudy/contracts';
import { REASON_POLICY } from '@understudy/error-classifier';
import type { CooldownPolicy } from './policy.js';
import { DEFAULT_COOLDOWN_POLICY, cooldownWindowMs, disableWindowMs, failureWindowMs } from './policy.js';
import { isWindowActive } from './window.js';

type MutableStats = { -readonly [K in keyof ProfileUsageStats]: ProfileUsageStats[K] };

/** One failure to record on a profile. */
export interface FailureEvent {
  readonly reason: FailoverReason;
  /** When it happened, epoch ms. */
  readonly nowMs: number;
  /** The model id (without provider) that failed; needed for a model-scoped cooldown. */
  readonly model?: string | undefined;
  /** The provider's Retry-After, ms; a longer one than the computed window becomes the window. */
  readonly retryAfterMs?: number | null | undefined;
  /**
   * The profile that failed. Its provider picks `billingBackoffHoursByProvider`; an inline id
   * (`<provider>:inline`) gets a fresh first billing window each time, no doubling.
   */
  readonly profileId?: ProfileId | undefined;
  /** The classifier's cooldown scope for this failure; defaults to the reason's scope in `REASON_POLICY`. */
  readonly scope?: CooldownScope | null | undefined;
}

function compact(stats: MutableStats): ProfileUsageStats {
  for (const key of Object.keys(stats) as (keyof MutableStats)[]) {
    if (stats[key] === undefined) delete stats[key];
  }
  if (stats.failureCounts !== undefined && Object.keys(stats.failureCounts).length === 0) delete stats.failureCounts;
  return stats;
}

/**
 * Drops windows that have ended and resets the failure counts once the failure window (`failureWindowHours`,
 * measured from `lastFailureAt`) has passed with no failure. Returns `stats` itself when nothing changed.
 *
 * @example clearExpiredWindows({ cooldownUntil: 30_000, errorCount: 1 }, 30_000) // { errorCount: 1 }
 */
export function clearExpiredWindows(
  stats: ProfileUsageStats,
  nowMs: number,
  policy: CooldownPolicy = DEFAULT_COOLDOWN_POLICY,
): ProfileUsageStats {
  const next: MutableStats = { ...stats };
  let changed = false;
  if (next.cooldownUntil !== undefined && !isWindowActive(next.cooldownUntil, nowMs)) {
    next.cooldownUntil = undefined;
    next.cooldownModel = undefined;
    next.cooldownReason = undefined;
    next.cooldownNamed = undefined;
    changed = true;
  }
  if (next.disabledUntil !== undefined && !isWindowActive(next.disabledUntil, nowMs)) {
    next.disabledUntil = undefined;
    next.disabledReason = undefined;
    changed = true;
  }
  if (
    next.lastFailureAt !== undefined &&
    nowMs - next.lastFailureAt >= failureWindowMs(policy) &&
    (next.errorCount !== undefined || next.failureCounts !== undefined)
  ) {
    next.errorCount = undefined;
    next.failureCounts = undefined;
    changed = true;
  }
  return changed ? compact(next) : stats;
}

/**
 * Records one failure (docs/policy.md#windows). Lane `cooldown`: `errorCount` + 1 and, when no window is active, a
 * cooldown of `cooldownStepsMs[errorCount]` (30 s / 60 s / 300 s), model-scoped (`cooldownModel`) when the
 * reason's scope is `model` and the model is known. Lane `disable` (`billing`, `auth_permanent`): a doubling
 * disable window by the count of that reason inside the failure window, capped. In both lanes a Retry-After
 * longer than the window becomes the window (a cooldown so named by the provider is marked `cooldownNamed`), and an active window is never extended (probes included); a failure
 * of another model (or a profile-scoped failure) during an active model-scoped cooldown widens it to the whole
 * profile, keeping its end — except that a reason that is about the model alone (`modelOnly`: `model_not_found`)
 * never widens a window, and a window it opened gives way to another model's failure, which opens its own window in
 * its place (that window belongs to the missing model, so this is no lengthening); it counts only in `failureCounts`
 * (its own window's step), never in `errorCount` or `lastFailureAt`. Every other failure with a lane counts in `failureCounts` and sets `lastFailureAt`.
 * Reasons of lane `none` (`format`, `context_overflow`, `abort`, …) say nothing about the credential: the stats
 * are returned unchanged (same reference, no `lastFailureAt`).
 *
 * @example recordFailure({}, { reason: 'rate_limit', model: 'gpt-x', nowMs: 0 }, DEFAULT_COOLDOWN_POLICY)
 *   // { errorCount: 1, failureCounts: { rate_limit: 1 }, lastFailureAt: 0, cooldownUntil: 30000, cooldownModel: 'gpt-x', cooldownReason: 'rate_limit' }
 */
export function recordFailure(
  stats: ProfileUsageStats,
  event: FailureEvent,
  policy: CooldownPolicy = DEFAULT_COOLDOWN_POLICY,
): ProfileUsageStats {
  const reasonPolicy = REASON_POLICY[event.reason];
  if (reasonPolicy.lane === 'none') return stats;
  const nowMs = event.nowMs;
  const current = clearExpiredWindows(stats, nowMs, policy);
  const next: MutableStats = { ...current };
  const failureCount = (current.failureCounts?.[event.reason] ?? 0) + 1;
  next.failureCounts = { ...current.failureCounts, [event.reason]: failureCount };
  // A failure about the model alone says nothing of the credential: the profile's own failure clock and error
  // count (its retries in place, its ladder) are left as they are.
  if (!reasonPolicy.modelOnly) next.lastFailureAt = nowMs;
  const retryAfterMs =
    event.retryAfterMs !== undefined && event.retryAfterMs !== null && Number.isFinite(event.retryAfterMs)
      ? Math.max(0, event.retryAfterMs)
      : 0;
  const disableActive = isWindowActive(current.disabledUntil, nowMs);

  if (reasonPolicy.lane === 'cooldown') {
    const errorCount = (current.errorCount ?? 0) + (reasonPolicy.modelOnly ? 0 : 1);
    if (!reasonPolicy.modelOnly) next.errorCount = errorCount;
    const model = event.model?.trim();
    const scope = event.scope === undefined ? reasonPolicy.scope : event.scope;
    const modelScoped = scope === 'model' && model !== undefined && model !== '';
    const otherModel = current.cooldownModel !== undefined && (!modelScoped || model !== current.cooldownModel);
    // A window that only says another model is missing belongs to that model: a real failure opens its own.
    const missingModelsWindow = otherModel && !reasonPolicy.modelOnly && REASON_POLICY[current.cooldownReason ?? 'unknown'].modelOnly;
    if (isWindowActive(current.cooldownUntil, nowMs) && !missingModelsWindow) {
      if (!otherModel || reasonPolicy.modelOnly) return compact(next);
      next.cooldownModel = undefined;
      return compact(next);
    }
    if (disableActive) return compact(next);
    const computedMs = cooldownWindowMs(policy, reasonPolicy.modelOnly ? failureCount : errorCount);
    next.cooldownUntil = nowMs + Math.max(computedMs, retryAfterMs);
    next.cooldownModel = modelScoped ? model : undefined;
    next.cooldownReason = event.reason;
    next.cooldownNamed = retryAfterMs > computedMs ? true : undefined;
    return compact(next);
  }

  if (disableActive) return compact(next);
  const windowMs = disableWindowMs(policy, {
    reason: event.reason === 'auth_permanent' ? 'auth_permanent' : 'billing',
    failureCount,
    provider: event.profileId === undefined ? undefined : providerOfProfileId(event.profileId),
    inline: event.profileId !== undefined && isInlineProfileId(event.profileId),
  });
  next.disabledUntil = nowMs + Math.max(windowMs, retryAfterMs);
  next.disabledReason = event.reason;
  return compact(next);
}

/**
 * Records a success: `lastUsed` = now, failure counts reset, windows cleared (a successful probe ends them) —
 * except a model-scoped cooldown of another model than the one that just answered, which stays.
 *
 * @example recordSuccess({ errorCount: 2, cooldownUntil: 60_000 }, { nowMs: 1_000 }) // { lastUsed: 1000 }
 */
export function recordSuccess(
  stats: ProfileUsageStats,
  event: { readonly nowMs: number; readonly model?: string | undefined },
): ProfileUsageStats {
  const next: MutableStats = { ...stats, lastUsed: event.nowMs };
  next.errorCount = undefined;
  next.failureCounts = undefined;
  next.disabledUntil = undefined;
  next.disabledReason = undefined;
  const model = event.model?.trim();
  const keepsModelCooldown = stats.cooldownModel !== undefined && model !== undefined && model !== stats.cooldownModel;
  if (!keepsModelCooldown) {
    next.cooldownUntil = undefined;
    next.cooldownModel = undefined;
    next.cooldownReason = undefined;
    next.cooldownNamed = undefined;
  }
  return compact(next);
}

/**
 * Records that the profile was probed while unavailable (`lastProbeAt` = now). The probe's outcome is recorded
 * separately with {@link recordFailure} (which never extends the active window) or {@link recordSuccess}.
 */
export function recordProbe(stats: ProfileUsageStats, event: { readonly nowMs: number }): ProfileUsageStats {
  return { ...stats, lastProbeAt: event.nowMs };
}

/**
 * Manual clear (`understudy profiles clear-cooldown`, admin API): drops every cooldown and disable window and
 * the failure counts; keeps `lastUsed`, `lastFailureAt` and `lastProbeAt`.
 *
 * @example clearCooldown({ disabledUntil: 9e12, disabledReason: 'billing', lastUsed: 5 }) // { lastUsed: 5 }
 */
export function clearCooldown(stats: ProfileUsageStats): ProfileUsageStats {
  return compact({
    ...stats,
    cooldownUntil: undefined,
    cooldownModel: undefined,
    cooldownReason: undefined,
    cooldownNamed: undefined,
    disabledUntil: undefined,
    disabledReason: undefined,
    errorCount: undefined,
    failureCounts: undefined,
  });
}
