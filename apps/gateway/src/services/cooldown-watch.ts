/**
 * Watches the usage-stats writes of turns for the cooldown metrics (docs/operations.md#observability): each
 * cooldown or disable window a write opens (`understudy_cooldown_window_seconds`), and the time from a
 * profile's first window of an outage to its first success afterwards (`understudy_recovery_seconds`).
 *
 * The outage start is kept in this process only (one entry per profile in an outage, bounded by the configured
 * profiles): a success another replica records, or one after a restart, is not counted as a recovery here.
 */
import type { ProfileId, ProfileUsageStats } from '@understudy/contracts';
import type { GatewayMetrics } from '../metrics.js';

/** The window of `after` that `before` did not have (a new one, or a later end), with its lane and reason. */
function openedWindow(
  before: ProfileUsageStats,
  after: ProfileUsageStats,
): { readonly lane: 'cooldown' | 'disable'; readonly untilMs: number; readonly reason: string } | undefined {
  if (after.disabledUntil !== undefined && after.disabledUntil !== before.disabledUntil) {
    return { lane: 'disable', untilMs: after.disabledUntil, reason: after.disabledReason ?? 'unknown' };
  }
  if (after.cooldownUntil !== undefined && after.cooldownUntil !== before.cooldownUntil) {
    return { lane: 'cooldown', untilMs: after.cooldownUntil, reason: after.cooldownReason ?? 'unknown' };
  }
  return undefined;
}

/** The provider id of a `provider:name` profile id. */
function providerOf(profileId: ProfileId): string {
  const colon = profileId.indexOf(':');
  return colon === -1 ? profileId : profileId.slice(0, colon);
}

/** Turns usage-stats transitions into the cooldown and recovery metrics. */
export class CooldownWatch {
  readonly #metrics: GatewayMetrics;
  readonly #nowMs: () => number;
  /** `agent\u0000profile` → when its outage started and the reason that opened it. */
  readonly #outages = new Map<string, { readonly startedAtMs: number; readonly reason: string }>();

  constructor(options: { readonly metrics: GatewayMetrics; readonly nowMs: () => number }) {
    this.#metrics = options.metrics;
    this.#nowMs = options.nowMs;
  }

  /** Records what one write of a profile's usage stats changed. */
  observe(agentId: string, profileId: ProfileId, before: ProfileUsageStats, after: ProfileUsageStats): void {
    const key = `${agentId}\u0000${profileId}`;
    const provider = providerOf(profileId);
    const nowMs = this.#nowMs();
    const opened = openedWindow(before, after);
    if (opened !== undefined) {
      this.#metrics.cooldownWindowSeconds.observe({ provider, lane: opened.lane, reason: opened.reason }, Math.max(0, opened.untilMs - nowMs) / 1000);
      if (!this.#outages.has(key)) this.#outages.set(key, { startedAtMs: nowMs, reason: opened.reason });
      return;
    }
    // A success clears the failure counts (docs/policy.md): the outage, if this process saw it start, is over.
    const recovered = after.lastUsed !== undefined && after.lastUsed !== before.lastUsed && after.errorCount === undefined && after.disabledUntil === undefined;
    if (!recovered) return;
    const outage = this.#outages.get(key);
    if (outage === undefined) return;
    this.#outages.delete(key);
    this.#metrics.recoverySeconds.observe({ provider, reason: outage.reason }, Math.max(0, nowMs - outage.startedAtMs) / 1000);
  }
}
