import { describe, expect, it } from 'vitest';
import { isProfileAvailable, probeThrottleKey, profileUnavailability, profileUnavailableUntil, retryInPlaceKey, windowRanOut } from './index.js';

describe('availability of a profile for a model (the model-failover doc "Model-scoped cooldowns")', () => {
  it.each([
    ['never-used profiles are available', undefined, { nowMs: 0 }, undefined],
    ['an ended window does not block', { cooldownUntil: 10 }, { nowMs: 10 }, undefined],
    [
      'a profile-wide cooldown blocks every model',
      { cooldownUntil: 50, cooldownReason: 'overloaded' },
      { nowMs: 0, model: 'x' },
      { untilMs: 50, lane: 'cooldown', reason: 'overloaded' },
    ],
    [
      'a model-scoped cooldown blocks its own model',
      { cooldownUntil: 50, cooldownModel: 'gpt-x', cooldownReason: 'rate_limit' },
      { nowMs: 0, model: ' gpt-x' },
      { untilMs: 50, lane: 'cooldown', reason: 'rate_limit', model: 'gpt-x' },
    ],
    ['a sibling model on the same provider can still be tried', { cooldownUntil: 50, cooldownModel: 'gpt-x' }, { nowMs: 0, model: 'gpt-y' }, undefined],
    ['without a model, a model-scoped cooldown does not block', { cooldownUntil: 50, cooldownModel: 'gpt-x' }, { nowMs: 0 }, undefined],
    [
      'billing/disabled windows still block the whole profile across models',
      { disabledUntil: 500, disabledReason: 'billing' },
      { nowMs: 0, model: 'any' },
      { untilMs: 500, lane: 'disable', reason: 'billing' },
    ],
    [
      'the window that ends last wins',
      { disabledUntil: 500, disabledReason: 'billing', cooldownUntil: 900 },
      { nowMs: 0 },
      { untilMs: 900, lane: 'cooldown', reason: 'unknown' },
    ],
    ['a disable without a reason reads as unknown', { disabledUntil: 500 }, { nowMs: 0 }, { untilMs: 500, lane: 'disable', reason: 'unknown' }],
  ] as const)('%s', (_sentence, stats, query, expected) => {
    expect(profileUnavailability(stats, query)).toEqual(expected);
    expect(isProfileAvailable(stats, query)).toBe(expected === undefined);
    expect(profileUnavailableUntil(stats, query)).toBe(expected?.untilMs);
  });
});

describe('windowRanOut: a profile coming back from a window (docs/policy.md#retries-probes-and-rotation "Probes")', () => {
  it.each([
    ['no stats: never cooled', undefined, { nowMs: 40_000 }, false],
    ['no window recorded', { lastUsed: 1 }, { nowMs: 40_000 }, false],
    ['still cooling is not returning (it is unavailable)', { cooldownUntil: 50_000 }, { nowMs: 40_000 }, false],
    ['ended at this very moment', { cooldownUntil: 40_000 }, { nowMs: 40_000 }, true],
    ['ended long ago, nothing recorded since', { cooldownUntil: 1_000 }, { nowMs: 4_000_000 }, true],
    ['a disable window that ran out', { disabledUntil: 30_000, disabledReason: 'billing' }, { nowMs: 40_000 }, true],
    ['a disable still running behind an ended cooldown', { cooldownUntil: 30_000, disabledUntil: 50_000 }, { nowMs: 40_000 }, false],
    ['a model-scoped cooldown of this model', { cooldownUntil: 30_000, cooldownModel: 'gpt-x' }, { nowMs: 40_000, model: 'gpt-x' }, true],
    ['a model-scoped cooldown of another model', { cooldownUntil: 30_000, cooldownModel: 'gpt-x' }, { nowMs: 40_000, model: 'gpt-y' }, false],
  ] as const)('%s', (_name, stats, query, expected) => {
    expect(windowRanOut(stats, query)).toBe(expected);
  });

  it('the provider probe slot and a profile retry-in-place slot are distinct store keys', () => {
    expect(probeThrottleKey('openai')).toBe('openai');
    expect(retryInPlaceKey('openai', 'openai:work')).toBe('retry-in-place/openai:work');
    expect(retryInPlaceKey('ollama', null)).toBe('retry-in-place/ollama');
    expect(retryInPlaceKey('openai', 'openai:work')).not.toBe(probeThrottleKey('openai'));
  });
});
