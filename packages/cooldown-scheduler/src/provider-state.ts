/**
 * Provider-level views over the usage stats of a provider's profiles (docs/policy.md#retries-probes-and-rotation; the model-failover doc "Cooldown skip vs
 * probe behavior", "Observability and failure summaries").
 */
import type { FailoverReason, ProfileUsageStats } from '@understudy/contracts';
import { REASON_POLICY } from '@understudy/error-classifier';
import type { AvailabilityQuery } from './availability.js';
import { profileUnavailability } from './availability.js';
import { isWindowActive } from './window.js';

/**
 * Tie-break between reasons of equal weight: the more persistent and the more actionable first. Every failover
 * reason has a rank, so the result never depends on object key order.
 */
export const UNAVAILABLE_REASON_PRIORITY: readonly FailoverReason[] = Object.freeze([
  'auth_permanent',
  'auth',
  'billing',
  'format',
  'model_not_found',
  'overloaded',
  'timeout',
  'server_error',
  'rate_limit',
  'tls_certificate',
  'session_expired',
  'empty_response',
  'no_error_details',
  'unclassified',
  'unknown',
  'context_overflow',
  'refusal',
  'abort',
]);

/** Weight of an active disable window: it dominates any number of failure counts. */
const DISABLE_WEIGHT = 1_000_000;

/**
 * Why a provider's profiles are unavailable for a query (the reason its candidates are skipped or probed). Only
 * profiles blocked for the query count. An active disable window dominates (its `disabledReason`); otherwise the
 * failure counts (`failureCounts`) of the cooling profiles are summed (a `modelOnly` reason's only when it is the
 * reason of the blocking window itself) and the largest wins, ties broken by
 * {@link UNAVAILABLE_REASON_PRIORITY}; a cooling profile without counts contributes its `cooldownReason` (else
 * `unknown`) once.
 *
 * @param profiles - the usage stats of the provider's (eligible) profiles.
 * @returns `undefined` when none of them is blocked.
 * @example providerUnavailableReason([{ disabledUntil: 9e12, disabledReason: 'billing' }, { cooldownUntil: 9e12, failureCounts: { rate_limit: 5 } }], { nowMs: 0 }) // 'billing'
 */
export function providerUnavailableReason(
  profiles: readonly (ProfileUsageStats | undefined)[],
  query: AvailabilityQuery,
): FailoverReason | undefined {
  const scores = new Map<FailoverReason, number>();
  const add = (reason: FailoverReason, weight: number): void => {
    scores.set(reason, (scores.get(reason) ?? 0) + weight);
  };
  for (const stats of profiles) {
    const block = profileUnavailability(stats, query);
    if (block === undefined || stats === undefined) continue;
    if (block.lane === 'disable' || isWindowActive(stats.disabledUntil, query.nowMs)) {
      add(stats.disabledReason ?? block.reason, DISABLE_WEIGHT);
      continue;
    }
    // A count about a missing model speaks only for that model's own window, never for another one's.
    const counts = Object.entries(stats.failureCounts ?? {}).filter(
      ([reason, count]) => (count ?? 0) > 0 && (!REASON_POLICY[reason as FailoverReason].modelOnly || block.reason === reason),
    );
    if (counts.length === 0) add(block.reason, 1);
    for (const [reason, count] of counts) add(reason as FailoverReason, count ?? 0);
  }
  let best: FailoverReason | undefined;
  let bestScore = 0;
  for (const reason of UNAVAILABLE_REASON_PRIORITY) {
    const score = scores.get(reason) ?? 0;
    if (score > bestScore) {
      best = reason;
      bestScore = score;
    }
  }
  return best;
}

/**
 * The soonest moment one of the provider's blocked profiles becomes usable for the query again, epoch ms — the
 * "soonest cooldown expiry" of exhaustion messages. Model-aware: a model-scoped cooldown of another model is
 * ignored (that profile is not blocked for this model); for a profile blocked by several windows the last of
 * them counts (the expiry that still blocks the model).
 *
 * @returns `undefined` when no profile is blocked for the query.
 * @example soonestExpiry([{ cooldownUntil: 5_000, cooldownModel: 'a' }, { cooldownUntil: 9_000 }], { nowMs: 0, model: 'b' }) // 9000
 */
export function soonestExpiry(
  profiles: readonly (ProfileUsageStats | undefined)[],
  query: AvailabilityQuery,
): number | undefined {
  let soonest: number | undefined;
  for (const stats of profiles) {
    const until = profileUnavailability(stats, query)?.untilMs;
    if (until !== undefined && (soonest === undefined || until < soonest)) soonest = until;
  }
  return soonest;
}

/**
 * The first of `profiles` blocked for the query by a cooldown understudy computed itself (the 30 s / 1 min /
 * 5 min ladder: a cooldown-lane window not marked `cooldownNamed`, no active disable). Such a window may be probed
 * on the throttle at any time; a provider-named one only near its expiry (docs/policy.md#retries-probes-and-rotation).
 *
 * @returns its index in `profiles`, or -1 when every blocking window was named by the provider or is a disable.
 * @example computedCooldownIndex([{ cooldownUntil: 9e12, cooldownNamed: true }, { cooldownUntil: 9e12 }], { nowMs: 0 }) // 1
 */
export function computedCooldownIndex(profiles: readonly (ProfileUsageStats | undefined)[], query: AvailabilityQuery): number {
  return profiles.findIndex((stats) => {
    const block = profileUnavailability(stats, query);
    return block !== undefined && block.lane === 'cooldown' && stats?.cooldownNamed !== true && !isWindowActive(stats?.disabledUntil, query.nowMs);
  });
}
