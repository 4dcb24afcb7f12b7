import { FAILOVER_REASONS } from '@understudy/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RetryDelayInput } from './index.js';
import {
  DEFAULT_COOLDOWN_POLICY,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  maxProfileRotations,
  resolveCooldownPolicy,
  retryBackoffCeilingMs,
  retryDelayMs,
} from './index.js';

describe('retry delay (docs/policy.md#retries-probes-and-rotation: full jitter, base 250 ms, cap 5 s, or the Retry-After)', () => {
  it.each<[string, RetryDelayInput, number | null]>([
    ['first retry waits up to the base', { attempt: 1, random: () => 0.999 }, 249],
    ['jitter can be zero', { attempt: 3, random: () => 0 }, 0],
    ['the ceiling doubles per retry', { attempt: 3, random: () => 0.5 }, 500],
    ['the ceiling is capped at 5 s', { attempt: 10, random: () => 0.5 }, 2_500],
    ['a custom base and cap', { attempt: 2, baseMs: 100, capMs: 150, random: () => 1 }, 150],
    ['attempt numbers below 1 count as the first retry', { attempt: 0, random: () => 0.5 }, 125],
    ['a Retry-After is waited exactly (rounded up to whole ms)', { attempt: 1, retryAfterMs: 20_000.2, random: () => 0 }, 20_001],
    ['a Retry-After is no backoff: the ceiling does not bound it', { attempt: 1, retryAfterMs: 60_001, random: () => 0 }, 60_001],
    ['a null Retry-After falls back to backoff', { attempt: 1, retryAfterMs: null, random: () => 0.5 }, 125],
    ['a wait longer than the rest of the retry window means no retry', { attempt: 1, retryAfterMs: 5_000, remainingWindowMs: 4_999, random: () => 0 }, null],
    ['a wait that fits the window is fine', { attempt: 1, retryAfterMs: 5_000, remainingWindowMs: 5_000, random: () => 0 }, 5_000],
    ['random values outside [0, 1) are clamped', { attempt: 1, random: () => 7 }, 250],
  ])('%s', (_sentence, input, expected) => {
    expect(retryDelayMs(input)).toBe(expected);
  });

  it('never exceeds the cap and never goes negative', () => {
    fc.assert(
      fc.property(fc.integer({ min: -3, max: 100 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, unit) => {
        const delay = retryDelayMs({ attempt, random: () => unit });
        expect(delay).not.toBeNull();
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(5_000);
      }),
    );
  });
});

describe('profile rotations per reason (docs/policy.md#what-each-reason-does)', () => {
  it.each([
    ['rate_limit', 1],
    ['overloaded', 1],
    ['auth', Number.POSITIVE_INFINITY],
    ['auth_permanent', Number.POSITIVE_INFINITY],
    ['billing', Number.POSITIVE_INFINITY],
    ['server_error', 0],
    ['format', 0],
  ] as const)('%s rotates through %s other profiles', (reason, expected) => {
    expect(maxProfileRotations(reason, DEFAULT_COOLDOWN_POLICY)).toBe(expected);
  });

  it('reads rateLimitedProfileRotations and overloadedProfileRotations', () => {
    const policy = resolveCooldownPolicy({ rateLimitedProfileRotations: 3, overloadedProfileRotations: 0 });
    expect(maxProfileRotations('rate_limit', policy)).toBe(3);
    expect(maxProfileRotations('overloaded', policy)).toBe(0);
  });

  it('answers for every reason', () => {
    for (const reason of FAILOVER_REASONS) expect(maxProfileRotations(reason, DEFAULT_COOLDOWN_POLICY)).toBeGreaterThanOrEqual(0);
  });
});

describe('retryDelayMs defaults (one owner each, issue 13)', () => {
  it('backs off from 250 ms, capped at 5000 ms, by default', () => {
    expect([DEFAULT_RETRY_BASE_DELAY_MS, DEFAULT_RETRY_MAX_DELAY_MS]).toEqual([250, 5_000]);
    const almostOne = () => 1 - Number.EPSILON;
    expect(retryDelayMs({ attempt: 1, random: almostOne })).toBe(249);
    expect(retryDelayMs({ attempt: 10, random: almostOne })).toBe(4_999);
  });
});

describe('retryBackoffCeilingMs', () => {
  it('doubles from the base per retry and stops at the cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((attempt) => retryBackoffCeilingMs(attempt, 250, 5_000))).toEqual([250, 500, 1_000, 2_000, 4_000, 5_000]);
  });

  it('is the bound retryDelayMs draws its jittered backoff under', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 60_000 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, baseMs, capMs, unit) => {
        const delay = retryDelayMs({ attempt, baseMs, capMs, random: () => unit });
        expect(delay).not.toBeNull();
        expect(delay as number).toBeLessThanOrEqual(retryBackoffCeilingMs(attempt, baseMs, capMs));
      }),
    );
  });
});
