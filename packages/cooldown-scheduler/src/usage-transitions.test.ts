import type { FailoverReason, ProfileUsageStats } from '@understudy/contracts';
import { FAILOVER_REASONS } from '@understudy/contracts';
import { REASON_POLICY } from '@understudy/error-classifier';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_COOLDOWN_POLICY as policy,
  clearCooldown,
  clearExpiredWindows,
  cooldownWindowMs,
  isProfileAvailable,
  recordFailure,
  recordProbe,
  recordSuccess,
  resolveCooldownPolicy,
} from './index.js';

const MIN = 60_000;
const HOUR = 3_600_000;

function failTimes(
  reason: FailoverReason,
  times: readonly number[],
  extra: { model?: string; profileId?: string } = {},
  start: ProfileUsageStats = {},
  usedPolicy = policy,
): ProfileUsageStats {
  return times.reduce((stats, nowMs) => recordFailure(stats, { reason, nowMs, ...extra }, usedPolicy), start);
}

describe('cooldown lane (the model-failover doc "Cooldowns": 30 s, 1 min, then 5 min by recent error count)', () => {
  it('opens a 30 s window on the first failure, with the reason and counts', () => {
    expect(recordFailure({}, { reason: 'overloaded', nowMs: 1_000 }, policy)).toEqual({
      errorCount: 1,
      failureCounts: { overloaded: 1 },
      lastFailureAt: 1_000,
      cooldownUntil: 31_000,
      cooldownReason: 'overloaded',
    });
  });

  it('steps 30 s → 60 s → 300 s for failures after each window has ended', () => {
    let stats = recordFailure({}, { reason: 'server_error', nowMs: 0 }, policy);
    expect(stats.cooldownUntil).toBe(30_000);
    stats = recordFailure(stats, { reason: 'server_error', nowMs: 30_000 }, policy);
    expect(stats.cooldownUntil).toBe(90_000);
    stats = recordFailure(stats, { reason: 'server_error', nowMs: 90_000 }, policy);
    expect(stats.cooldownUntil).toBe(390_000);
    stats = recordFailure(stats, { reason: 'server_error', nowMs: 390_000 }, policy);
    expect(stats.cooldownUntil).toBe(690_000);
    expect(stats.errorCount).toBe(4);
  });

  it('never extends an active window with more failures (probes included), but counts them', () => {
    const first = recordFailure({}, { reason: 'timeout', nowMs: 0 }, policy);
    const again = recordFailure(first, { reason: 'timeout', nowMs: 10_000, retryAfterMs: 10 * MIN }, policy);
    expect(again.cooldownUntil).toBe(30_000);
    expect(again.errorCount).toBe(2);
    expect(again.failureCounts).toEqual({ timeout: 2 });
    expect(again.lastFailureAt).toBe(10_000);
  });

  it('lets a Retry-After longer than the computed window become the window', () => {
    expect(recordFailure({}, { reason: 'rate_limit', nowMs: 0, retryAfterMs: 20_000 }, policy).cooldownUntil).toBe(30_000);
    expect(recordFailure({}, { reason: 'rate_limit', nowMs: 0, retryAfterMs: 45_000 }, policy).cooldownUntil).toBe(45_000);
    expect(recordFailure({}, { reason: 'rate_limit', nowMs: 0, retryAfterMs: null }, policy).cooldownUntil).toBe(30_000);
    expect(recordFailure({}, { reason: 'rate_limit', nowMs: 0, retryAfterMs: -5 }, policy).cooldownUntil).toBe(30_000);
  });

  it('records cooldownModel for a model-scoped failure with a known model', () => {
    const stats = recordFailure({}, { reason: 'rate_limit', model: ' gpt-x ', nowMs: 0 }, policy);
    expect(stats.cooldownModel).toBe('gpt-x');
    expect(recordFailure({}, { reason: 'rate_limit', nowMs: 0 }, policy).cooldownModel).toBeUndefined();
    expect(recordFailure({}, { reason: 'overloaded', model: 'gpt-x', nowMs: 0 }, policy).cooldownModel).toBeUndefined();
    expect(recordFailure({}, { reason: 'overloaded', model: 'gpt-x', scope: 'model', nowMs: 0 }, policy).cooldownModel).toBe('gpt-x');
    expect(recordFailure({}, { reason: 'rate_limit', model: 'gpt-x', scope: 'profile', nowMs: 0 }, policy).cooldownModel).toBeUndefined();
  });

  it('a model that does not exist never widens another model\'s window, and a real failure of another model opens its own window in its place', () => {
    const missing = recordFailure({}, { reason: 'model_not_found', model: 'nope-1', nowMs: 0 }, policy);
    expect(missing).toMatchObject({ cooldownModel: 'nope-1', cooldownReason: 'model_not_found', cooldownUntil: 30_000 });
    // A second bogus model: counted, but the window stays on nope-1; the real model is still served.
    const twice = recordFailure(missing, { reason: 'model_not_found', model: 'nope-2', nowMs: 1_000 }, policy);
    expect(twice).toMatchObject({ cooldownModel: 'nope-1', cooldownUntil: 30_000, failureCounts: { model_not_found: 2 } });
    // The credential's own failure clock and ladder are untouched: a real model keeps its retries and its first step.
    expect(twice.errorCount).toBeUndefined();
    expect(twice.lastFailureAt).toBeUndefined();
    expect(isProfileAvailable(twice, { nowMs: 2_000, model: 'gpt-real' })).toBe(true);
    // A bogus model during a real model-scoped window does not widen it either.
    const limited = recordFailure({}, { reason: 'rate_limit', model: 'gpt-real', nowMs: 0 }, policy);
    const probed = recordFailure(limited, { reason: 'model_not_found', model: 'nope-1', nowMs: 1_000 }, policy);
    expect(probed).toMatchObject({ cooldownModel: 'gpt-real', cooldownUntil: 30_000 });
    expect(isProfileAvailable(probed, { nowMs: 2_000, model: 'gpt-other' })).toBe(true);
    // A real failure of another model opens its own window in the missing model's place, on its own first step.
    const real = recordFailure(twice, { reason: 'rate_limit', model: 'gpt-real', nowMs: 2_000 }, policy);
    expect(real).toMatchObject({ cooldownModel: 'gpt-real', cooldownReason: 'rate_limit', cooldownUntil: 2_000 + 30_000, errorCount: 1 });
    expect(isProfileAvailable(real, { nowMs: 3_000, model: 'nope-1' })).toBe(true);
    const overloaded = recordFailure(twice, { reason: 'overloaded', model: 'gpt-real', nowMs: 2_000 }, policy);
    expect(overloaded.cooldownModel).toBeUndefined();
    expect(overloaded).toMatchObject({ cooldownReason: 'overloaded', cooldownUntil: 2_000 + 30_000 });
  });

  it('widens an active model-scoped window to the whole profile when another model fails, keeping its end', () => {
    const scoped = recordFailure({}, { reason: 'rate_limit', model: 'gpt-a', nowMs: 0 }, policy);
    const widened = recordFailure(scoped, { reason: 'rate_limit', model: 'gpt-b', nowMs: 5_000 }, policy);
    expect(widened.cooldownModel).toBeUndefined();
    expect(widened.cooldownUntil).toBe(30_000);
    expect(isProfileAvailable(widened, { nowMs: 6_000, model: 'gpt-c' })).toBe(false);
  });

  it('widens it too on a profile-scoped failure, but not on another failure of the same model', () => {
    const scoped = recordFailure({}, { reason: 'rate_limit', model: 'gpt-a', nowMs: 0 }, policy);
    expect(recordFailure(scoped, { reason: 'overloaded', model: 'gpt-a', nowMs: 1 }, policy).cooldownModel).toBeUndefined();
    expect(recordFailure(scoped, { reason: 'rate_limit', model: 'gpt-a', nowMs: 1 }, policy).cooldownModel).toBe('gpt-a');
  });

  it('treats `auth` as a cooldown-lane, profile-wide failure', () => {
    expect(recordFailure({}, { reason: 'auth', model: 'm', nowMs: 0 }, policy)).toMatchObject({
      cooldownUntil: 30_000,
      cooldownReason: 'auth',
      errorCount: 1,
    });
  });

  it('does not open a cooldown while a disable window is active', () => {
    const disabled = recordFailure({}, { reason: 'billing', nowMs: 0 }, policy);
    const after = recordFailure(disabled, { reason: 'rate_limit', model: 'm', nowMs: 1_000 }, policy);
    expect(after.cooldownUntil).toBeUndefined();
    expect(after.disabledUntil).toBe(10 * MIN);
    expect(after.errorCount).toBe(1);
  });
});

describe('failure window (seed: counters reset once the failure window has passed)', () => {
  it('resets the counts when 24 h pass without a failure', () => {
    const stats = failTimes('overloaded', [0, 30_000, 90_000]);
    expect(stats.errorCount).toBe(3);
    const later = recordFailure(stats, { reason: 'overloaded', nowMs: 90_000 + 24 * HOUR }, policy);
    expect(later.errorCount).toBe(1);
    expect(later.failureCounts).toEqual({ overloaded: 1 });
    expect(later.cooldownUntil).toBe(90_000 + 24 * HOUR + 30_000);
  });

  it('keeps counting inside the window', () => {
    const stats = failTimes('overloaded', [0, 23 * HOUR]);
    expect(stats.errorCount).toBe(2);
    expect(stats.cooldownUntil).toBe(23 * HOUR + 60_000);
  });

  it('honours failureWindowHours', () => {
    const short = resolveCooldownPolicy({ failureWindowHours: 1 });
    const stats = failTimes('overloaded', [0, HOUR], {}, {}, short);
    expect(stats.errorCount).toBe(1);
  });
});

describe('disable lane (the model-failover doc "Billing disables"; docs/policy.md#windows)', () => {
  it('disables for 10 min on the first billing failure, then doubles inside the window', () => {
    let stats = recordFailure({}, { reason: 'billing', nowMs: 0, profileId: 'openai:a' }, policy);
    expect(stats).toMatchObject({ disabledUntil: 10 * MIN, disabledReason: 'billing', failureCounts: { billing: 1 } });
    expect(stats.errorCount).toBeUndefined();
    stats = recordFailure(stats, { reason: 'billing', nowMs: 10 * MIN, profileId: 'openai:a' }, policy);
    expect(stats.disabledUntil).toBe(30 * MIN);
    stats = recordFailure(stats, { reason: 'billing', nowMs: 30 * MIN, profileId: 'openai:a' }, policy);
    expect(stats.disabledUntil).toBe(70 * MIN);
  });

  it('never extends an active disable window', () => {
    const stats = failTimes('billing', [0, 5 * MIN]);
    expect(stats.disabledUntil).toBe(10 * MIN);
    expect(stats.failureCounts).toEqual({ billing: 2 });
  });

  it('gives an inline key a fresh 10 min window after each expiry, never doubled', () => {
    const stats = failTimes('billing', [0, 10 * MIN, 20 * MIN, 30 * MIN], { profileId: 'openai:inline' });
    expect(stats.disabledUntil).toBe(40 * MIN);
    expect(stats.failureCounts).toEqual({ billing: 4 });
    expect(isProfileAvailable(stats, { nowMs: 35 * MIN })).toBe(false);
  });

  it('disables auth_permanent for 10 min doubling to a 60 min cap', () => {
    const stats = failTimes('auth_permanent', [0, 10 * MIN, 30 * MIN, 70 * MIN]);
    expect(stats.disabledUntil).toBe(70 * MIN + 60 * MIN);
    expect(stats.disabledReason).toBe('auth_permanent');
  });

  it('uses the per-provider billing start from the profile id', () => {
    const byProvider = resolveCooldownPolicy({ billingBackoffHoursByProvider: { OpenAI: 2 } });
    const stats = recordFailure({}, { reason: 'billing', nowMs: 0, profileId: 'OpenAI:x' }, byProvider);
    expect(stats.disabledUntil).toBe(2 * HOUR);
  });

  it('opens a disable window even while a cooldown is active', () => {
    const cooling = recordFailure({}, { reason: 'rate_limit', model: 'm', nowMs: 0 }, policy);
    const disabled = recordFailure(cooling, { reason: 'billing', nowMs: 1 }, policy);
    expect(disabled.disabledUntil).toBe(1 + 10 * MIN);
    expect(disabled.cooldownUntil).toBe(30_000);
  });

  it('lets a Retry-After longer than the disable window become the window', () => {
    expect(recordFailure({}, { reason: 'billing', nowMs: 0, retryAfterMs: HOUR }, policy).disabledUntil).toBe(HOUR);
  });
});

describe('reasons without a lane leave health untouched', () => {
  it.each(FAILOVER_REASONS.filter((reason) => REASON_POLICY[reason].lane === 'none'))('%s', (reason) => {
    const stats: ProfileUsageStats = { errorCount: 1, lastUsed: 5 };
    expect(recordFailure(stats, { reason, nowMs: 100, model: 'm' }, policy)).toBe(stats);
  });
});

describe('success, probe, manual clear, expiry', () => {
  it('a success resets counts and clears windows', () => {
    const stats = failTimes('overloaded', [0]);
    expect(recordSuccess(stats, { nowMs: 40_000 })).toEqual({ lastUsed: 40_000, lastFailureAt: 0 });
    const disabled = failTimes('billing', [0]);
    expect(recordSuccess(disabled, { nowMs: 1 })).toEqual({ lastUsed: 1, lastFailureAt: 0 });
  });

  it('a success on another model keeps that model-scoped cooldown', () => {
    const scoped = recordFailure({}, { reason: 'rate_limit', model: 'a', nowMs: 0 }, policy);
    expect(recordSuccess(scoped, { nowMs: 1, model: 'b' })).toMatchObject({ cooldownUntil: 30_000, cooldownModel: 'a' });
    expect(recordSuccess(scoped, { nowMs: 1, model: 'a' }).cooldownUntil).toBeUndefined();
  });

  it('records probes', () => {
    expect(recordProbe({ errorCount: 1 }, { nowMs: 7 })).toEqual({ errorCount: 1, lastProbeAt: 7 });
  });

  it('clears a cooldown by hand, keeping usage history', () => {
    const stats = failTimes('billing', [0], {}, { lastUsed: 3, lastProbeAt: 4 });
    expect(clearCooldown(stats)).toEqual({ lastUsed: 3, lastProbeAt: 4, lastFailureAt: 0 });
  });

  it('drops ended windows and returns the same value when nothing changed', () => {
    const stats: ProfileUsageStats = {
      cooldownUntil: 10,
      cooldownModel: 'm',
      cooldownReason: 'rate_limit',
      disabledUntil: 20,
      disabledReason: 'billing',
      errorCount: 1,
      lastFailureAt: 0,
    };
    expect(clearExpiredWindows(stats, 15)).toEqual({ disabledUntil: 20, disabledReason: 'billing', errorCount: 1, lastFailureAt: 0 });
    expect(clearExpiredWindows(stats, 25)).toEqual({ errorCount: 1, lastFailureAt: 0 });
    expect(clearExpiredWindows(stats, 24 * HOUR)).toEqual({ lastFailureAt: 0 });
    expect(clearExpiredWindows(stats, 5)).toBe(stats);
    const noCounts: ProfileUsageStats = { lastFailureAt: 0 };
    expect(clearExpiredWindows(noCounts, 48 * HOUR)).toBe(noCounts);
  });
});

const cooldownReasons = FAILOVER_REASONS.filter((reason) => REASON_POLICY[reason].lane === 'cooldown');
const arbitraryEvent = fc.record({
  reason: fc.constantFrom(...FAILOVER_REASONS),
  model: fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined }),
  retryAfterMs: fc.option(fc.integer({ min: 0, max: 2 * HOUR }), { nil: undefined }),
  gapMs: fc.integer({ min: 0, max: 30 * HOUR }),
  profileId: fc.constantFrom('openai:a', 'openai:inline', undefined),
});

describe('properties', () => {
  it('windows are monotone in the error count and never shorter than a Retry-After', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.option(fc.integer({ min: 0, max: 10 * HOUR }), { nil: undefined }),
        fc.constantFrom(...cooldownReasons),
        fc.constantFrom('default', 'legacy'),
        (priorErrors, retryAfterMs, reason, preset) => {
          const used = resolveCooldownPolicy({ preset });
          expect(cooldownWindowMs(used, priorErrors + 1)).toBeLessThanOrEqual(cooldownWindowMs(used, priorErrors + 2));
          const stats = recordFailure({ errorCount: priorErrors, lastFailureAt: 0 }, { reason, nowMs: 1_000, retryAfterMs }, used);
          const windowMs = (stats.cooldownUntil ?? 0) - 1_000;
          // A missing model's window steps by its own count (here its first), not the profile's error count.
          const step = REASON_POLICY[reason].modelOnly ? 1 : priorErrors + 1;
          expect(windowMs).toBe(Math.max(cooldownWindowMs(used, step), retryAfterMs ?? 0));
          expect(windowMs).toBeGreaterThanOrEqual(retryAfterMs ?? 0);
        },
      ),
    );
  });

  it('disable windows are monotone in the failure count and capped', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), fc.constantFrom('billing' as const, 'auth_permanent' as const), (prior, reason) => {
        const before = recordFailure({ failureCounts: { [reason]: prior }, lastFailureAt: 0 }, { reason, nowMs: 1 }, policy);
        const after = recordFailure({ failureCounts: { [reason]: prior + 1 }, lastFailureAt: 0 }, { reason, nowMs: 1 }, policy);
        expect(after.disabledUntil ?? 0).toBeGreaterThanOrEqual(before.disabledUntil ?? 0);
        expect((after.disabledUntil ?? 0) - 1).toBeLessThanOrEqual(reason === 'billing' ? 24 * HOUR : HOUR);
      }),
    );
  });

  it('an active window is never extended, whatever fails next', () => {
    fc.assert(
      fc.property(fc.array(arbitraryEvent, { minLength: 1, maxLength: 25 }), (events) => {
        let stats: ProfileUsageStats = {};
        let nowMs = 0;
        for (const event of events) {
          nowMs += event.gapMs;
          const next = recordFailure(
            stats,
            { reason: event.reason, nowMs, model: event.model, retryAfterMs: event.retryAfterMs, profileId: event.profileId },
            policy,
          );
          // (A missing model's window belongs to that model: another model's real failure opens its own instead.)
          const missingModels = stats.cooldownReason !== undefined && REASON_POLICY[stats.cooldownReason].modelOnly && !REASON_POLICY[event.reason].modelOnly;
          if (stats.cooldownUntil !== undefined && stats.cooldownUntil > nowMs && !missingModels) expect(next.cooldownUntil).toBe(stats.cooldownUntil);
          if (stats.disabledUntil !== undefined && stats.disabledUntil > nowMs) expect(next.disabledUntil).toBe(stats.disabledUntil);
          stats = next;
        }
      }),
    );
  });

  it('a model-scoped cooldown never blocks another model', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 8 }).filter((text) => text.trim() !== ''),
        fc.string({ minLength: 1, maxLength: 8 }).filter((text) => text.trim() !== ''),
        fc.integer({ min: 0, max: 10 * MIN }),
        (failed, other, elapsedMs) => {
          fc.pre(failed.trim() !== other.trim());
          const stats = recordFailure({}, { reason: 'rate_limit', model: failed, nowMs: 0 }, policy);
          expect(isProfileAvailable(stats, { nowMs: elapsedMs, model: other })).toBe(true);
          expect(isProfileAvailable(stats, { nowMs: elapsedMs, model: failed })).toBe(elapsedMs >= 30_000);
        },
      ),
    );
  });
});

describe('cooldownNamed: whether the provider named the window', () => {
  it('is set when a Retry-After longer than the computed step became the window, and cleared with the window', () => {
    const named = recordFailure({}, { reason: 'rate_limit', nowMs: 0, model: 'm', retryAfterMs: 120_000 });
    expect(named).toMatchObject({ cooldownUntil: 120_000, cooldownNamed: true });
    expect(recordFailure({}, { reason: 'rate_limit', nowMs: 0, model: 'm', retryAfterMs: 2_000 }).cooldownNamed).toBeUndefined();
    expect(recordFailure({}, { reason: 'overloaded', nowMs: 0 }).cooldownNamed).toBeUndefined();
    expect(clearExpiredWindows(named, 120_000).cooldownNamed).toBeUndefined();
    expect(recordSuccess(named, { nowMs: 1, model: 'm' }).cooldownNamed).toBeUndefined();
    expect(clearCooldown(named).cooldownNamed).toBeUndefined();
  });
});
