/**
 * The cooldown and recovery metrics from usage-stats transitions (docs/operations.md#observability): a window
 * opened is observed with its length, lane and reason; an outage's recovery is timed from its first window to
 * the first success, once; what this process never saw start is no recovery.
 */
import { DEFAULT_COOLDOWN_POLICY, recordFailure, recordSuccess } from '@understudy/cooldown-scheduler';
import type { ProfileUsageStats } from '@understudy/contracts';
import { describe, expect, it } from 'vitest';
import { GatewayMetrics } from '../metrics.js';
import { CooldownWatch } from './cooldown-watch.js';

function setup(): { watch: CooldownWatch; clock: { nowMs: number }; text: () => Promise<string> } {
  const metrics = new GatewayMetrics({ activeWindows: () => Promise.resolve([]), defaultMetrics: false });
  const clock = { nowMs: 1_000_000 };
  const watch = new CooldownWatch({ metrics, nowMs: () => clock.nowMs });
  return { watch, clock, text: async () => (await metrics.render()).text };
}

/** Applies a transition the way the store does and shows it to the watch. */
function apply(watch: CooldownWatch, profileId: string, stats: ProfileUsageStats, next: ProfileUsageStats): ProfileUsageStats {
  watch.observe('main', profileId, stats, next);
  return next;
}

const series = (text: string, name: string): string[] => text.split('\n').filter((line) => line.startsWith(name));

describe('CooldownWatch', () => {
  it('observes each window opened with its length, lane and reason, and the recovery from the first one', async () => {
    const { watch, clock, text } = setup();
    let stats: ProfileUsageStats = {};
    stats = apply(watch, 'openai:a', stats, recordFailure(stats, { reason: 'rate_limit', nowMs: clock.nowMs }, DEFAULT_COOLDOWN_POLICY));
    clock.nowMs += 10_000;
    // A failure inside the active window opens nothing (the window is not extended; the count goes up).
    stats = apply(watch, 'openai:a', stats, recordFailure(stats, { reason: 'rate_limit', nowMs: clock.nowMs }, DEFAULT_COOLDOWN_POLICY));
    clock.nowMs += 25_000;
    // The window ran out; the next failure (the third counted) opens the 300 s step.
    stats = apply(watch, 'openai:a', stats, recordFailure(stats, { reason: 'rate_limit', nowMs: clock.nowMs }, DEFAULT_COOLDOWN_POLICY));
    clock.nowMs += 5_000;
    stats = apply(watch, 'openai:a', stats, recordSuccess(stats, { nowMs: clock.nowMs }));
    const metrics = await text();
    expect(series(metrics, 'understudy_cooldown_window_seconds_count')).toEqual(['understudy_cooldown_window_seconds_count{provider="openai",lane="cooldown",reason="rate_limit"} 2']);
    expect(series(metrics, 'understudy_cooldown_window_seconds_sum')).toEqual(['understudy_cooldown_window_seconds_sum{provider="openai",lane="cooldown",reason="rate_limit"} 330']);
    // From the first window (t0) to the success (t0 + 40 s), once.
    expect(series(metrics, 'understudy_recovery_seconds_sum')).toEqual(['understudy_recovery_seconds_sum{provider="openai",reason="rate_limit"} 40']);
    expect(series(metrics, 'understudy_recovery_seconds_count')).toEqual(['understudy_recovery_seconds_count{provider="openai",reason="rate_limit"} 1']);
    apply(watch, 'openai:a', stats, recordSuccess(stats, { nowMs: clock.nowMs + 2_000 }));
    expect(series(await text(), 'understudy_recovery_seconds_count')).toEqual(['understudy_recovery_seconds_count{provider="openai",reason="rate_limit"} 1']);
  });

  it('counts a disable window in its lane, and no recovery for an outage it did not see start', async () => {
    const { watch, clock, text } = setup();
    const before: ProfileUsageStats = {};
    const disabled = apply(watch, 'anthropic:work', before, recordFailure(before, { reason: 'billing', nowMs: clock.nowMs, profileId: 'anthropic:work' }, DEFAULT_COOLDOWN_POLICY));
    expect(series(await text(), 'understudy_cooldown_window_seconds_count')).toEqual(['understudy_cooldown_window_seconds_count{provider="anthropic",lane="disable",reason="billing"} 1']);
    // Another agent's profile of the same id, whose outage this process never saw: its success is no recovery.
    watch.observe('other-agent', 'anthropic:work', disabled, recordSuccess(disabled, { nowMs: clock.nowMs + 1_000 }));
    expect(series(await text(), 'understudy_recovery_seconds_count')).toEqual([]);
  });
});
