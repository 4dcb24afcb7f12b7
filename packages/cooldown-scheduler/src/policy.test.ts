import { describe, expect, it } from 'vitest';
import {
  COOLDOWN_PRESETS,
  CooldownPolicyError,
  DEFAULT_COOLDOWN_POLICY,
  cooldownPolicySchema,
  cooldownWindowMs,
  disableWindowMs,
  failureWindowMs,
  resolveCooldownPolicy,
} from './index.js';
import * as z from 'zod';

const MIN = 60_000;
const HOUR = 3_600_000;

describe('cooldown policy defaults (docs/policy.md#windows, docs/policy.md#retries-probes-and-rotation)', () => {
  it.each([
    ['cooldown steps are 30 s, 60 s, 300 s', 'cooldownStepsMs', [30_000, 60_000, 300_000]],
    ['the first billing disable lasts ten minutes', 'billingBackoffHours', 1 / 6],
    ['billing doubling is capped at 24 h', 'billingMaxHours', 24],
    ['the failure window is 24 h', 'failureWindowHours', 24],
    ['permanent auth starts at 10 min', 'authPermanentBackoffMinutes', 10],
    ['permanent auth is capped at 60 min', 'authPermanentMaxMinutes', 60],
    ['overloaded allows one same-provider rotation', 'overloadedProfileRotations', 1],
    ['rate limits allow one same-provider rotation', 'rateLimitedProfileRotations', 1],
    ['retry backoff base is 250 ms', 'overloadedBackoffMs', 250],
    ['the primary is probed within 2 min of expiry', 'probeNearExpiryMs', 120_000],
    ['probes are throttled to one per 30 s per provider', 'probeThrottleMs', 30_000],
    ['legacy auto overrides probe their origin every 5 min', 'legacyOverrideProbeIntervalMs', 300_000],
  ] as const)('%s', (_sentence, key, expected) => {
    expect(DEFAULT_COOLDOWN_POLICY[key]).toEqual(expected);
  });

  it('is frozen and has the default preset', () => {
    expect(Object.isFrozen(DEFAULT_COOLDOWN_POLICY)).toBe(true);
    expect(Object.isFrozen(DEFAULT_COOLDOWN_POLICY.cooldownStepsMs)).toBe(true);
    expect(DEFAULT_COOLDOWN_POLICY.preset).toBe('default');
    expect(resolveCooldownPolicy()).toEqual(DEFAULT_COOLDOWN_POLICY);
    expect(resolveCooldownPolicy(undefined)).toEqual(DEFAULT_COOLDOWN_POLICY);
  });
});

describe('legacy preset (the older model-failover doc: 1 min, 5 min, 25 min, 1 h; billing from 5 h doubling to 24 h)', () => {
  const legacy = resolveCooldownPolicy({ preset: 'legacy' });
  it('uses the older cooldown steps and billing start', () => {
    expect(legacy.cooldownStepsMs).toEqual([MIN, 5 * MIN, 25 * MIN, HOUR]);
    expect(legacy.billingBackoffHours).toBe(5);
    expect(legacy.billingMaxHours).toBe(24);
    expect(COOLDOWN_PRESETS.legacy.cooldownStepsMs).toEqual(legacy.cooldownStepsMs);
  });
  it.each([
    [1, MIN],
    [2, 5 * MIN],
    [3, 25 * MIN],
    [4, HOUR],
    [9, HOUR],
  ])('cooldown after failure %i is %i ms', (count, expected) => {
    expect(cooldownWindowMs(legacy, count)).toBe(expected);
  });
  it.each([
    [1, 5 * HOUR],
    [2, 10 * HOUR],
    [3, 20 * HOUR],
    [4, 24 * HOUR],
  ])('billing disable after failure %i is %i ms', (count, expected) => {
    expect(disableWindowMs(legacy, { reason: 'billing', failureCount: count })).toBe(expected);
  });
  it('lets explicit knobs win over the preset', () => {
    const custom = resolveCooldownPolicy({ preset: 'legacy', cooldownStepsMs: [1_000], billingBackoffHours: 1 });
    expect(custom.cooldownStepsMs).toEqual([1_000]);
    expect(custom.billingBackoffHours).toBe(1);
  });
});

describe('windows of the default policy', () => {
  it.each([
    [0, 30_000],
    [1, 30_000],
    [2, 60_000],
    [3, 300_000],
    [50, 300_000],
  ])('cooldown for error count %i is %i ms (30 s, 1 min, then 5 min cap)', (count, expected) => {
    expect(cooldownWindowMs(DEFAULT_COOLDOWN_POLICY, count)).toBe(expected);
  });

  it.each([
    ['billing', 1, 10 * MIN],
    ['billing', 2, 20 * MIN],
    ['billing', 4, 80 * MIN],
    ['billing', 8, 1280 * MIN],
    ['billing', 9, 24 * HOUR],
    ['billing', 200, 24 * HOUR],
    ['auth_permanent', 1, 10 * MIN],
    ['auth_permanent', 2, 20 * MIN],
    ['auth_permanent', 3, 40 * MIN],
    ['auth_permanent', 4, 60 * MIN],
  ] as const)('%s disable after failure %i is %i ms (10 min doubling, capped)', (reason, count, expected) => {
    expect(disableWindowMs(DEFAULT_COOLDOWN_POLICY, { reason, failureCount: count })).toBe(expected);
  });

  it('gives an inline key a fresh first billing window, no doubling', () => {
    expect(disableWindowMs(DEFAULT_COOLDOWN_POLICY, { reason: 'billing', failureCount: 5, inline: true })).toBe(10 * MIN);
  });

  it('uses per-provider billing overrides with normalised provider ids', () => {
    const policy = resolveCooldownPolicy({ billingBackoffHoursByProvider: { ' OpenAI ': 1, 'Z.AI': 2 } });
    expect(policy.billingBackoffHoursByProvider).toEqual({ openai: 1, zai: 2 });
    expect(disableWindowMs(policy, { reason: 'billing', failureCount: 1, provider: 'openai' })).toBe(HOUR);
    expect(disableWindowMs(policy, { reason: 'billing', failureCount: 2, provider: 'z-ai' })).toBe(4 * HOUR);
    expect(disableWindowMs(policy, { reason: 'billing', failureCount: 1, provider: 'anthropic' })).toBe(10 * MIN);
  });

  it('reads the failure window in ms', () => {
    expect(failureWindowMs(DEFAULT_COOLDOWN_POLICY)).toBe(24 * HOUR);
    expect(failureWindowMs(resolveCooldownPolicy({ failureWindowHours: 0.5 }))).toBe(30 * MIN);
  });
});

describe('invalid auth.cooldowns sections', () => {
  it.each([
    [{ bogus: 1 }, 'auth.cooldowns: Unrecognized key: "bogus"'],
    [{ preset: 'modern' }, 'auth.cooldowns.preset'],
    [{ cooldownStepsMs: [60_000, 30_000] }, 'steps must not decrease'],
    [{ cooldownStepsMs: [] }, 'auth.cooldowns.cooldownStepsMs'],
    [{ billingBackoffHours: 0 }, 'auth.cooldowns.billingBackoffHours'],
    [{ overloadedProfileRotations: 1.5 }, 'auth.cooldowns.overloadedProfileRotations'],
    [{ billingBackoffHoursByProvider: { OpenAI: 1, openai: 2 } }, 'are the same provider (openai)'],
  ])('rejects %j naming the knob', (input, fragment) => {
    expect(() => resolveCooldownPolicy(input)).toThrow(fragment);
  });

  it('throws a branded CooldownPolicyError with issues', () => {
    try {
      resolveCooldownPolicy({ probeThrottleMs: -1 });
      expect.unreachable();
    } catch (error) {
      expect(CooldownPolicyError.isInstance(error)).toBe(true);
      expect(CooldownPolicyError.isInstance(new Error('x'))).toBe(false);
      expect(CooldownPolicyError.isInstance(null)).toBe(false);
      if (!CooldownPolicyError.isInstance(error)) throw error;
      expect(error.code).toBe('invalid_cooldown_policy');
      expect(error.issues).toEqual([{ path: 'probeThrottleMs', message: expect.any(String) }]);
      expect(error.cause).toBeDefined();
    }
  });

  it('describes its input as JSON Schema (for `understudy config schema`)', () => {
    const schema = z.toJSONSchema(cooldownPolicySchema, { io: 'input' }) as { properties: Record<string, unknown>; additionalProperties: boolean };
    expect(Object.keys(schema.properties)).toContain('billingBackoffHoursByProvider');
    expect(schema.additionalProperties).toBe(false);
  });
});
