import type { ProfileUsageStats } from '@understudy/contracts';
import { FAILOVER_REASONS } from '@understudy/contracts';
import { describe, expect, it } from 'vitest';
import { UNAVAILABLE_REASON_PRIORITY, providerUnavailableReason, soonestExpiry } from './index.js';

const far = 9_000_000;

describe('provider unavailable reason (docs/policy.md#retries-probes-and-rotation: an active disable dominates, then failure counts by priority)', () => {
  it.each<[string, (ProfileUsageStats | undefined)[], string | undefined]>([
    ['nothing blocked: no reason', [undefined, {}, { cooldownUntil: 0 }], undefined],
    [
      'an active disable reason dominates any number of failures',
      [{ disabledUntil: far, disabledReason: 'billing' }, { cooldownUntil: far, failureCounts: { rate_limit: 50 } }],
      'billing',
    ],
    [
      'permanent auth outranks billing at equal weight',
      [{ disabledUntil: far, disabledReason: 'billing' }, { disabledUntil: far, disabledReason: 'auth_permanent' }],
      'auth_permanent',
    ],
    [
      'the largest failure count wins among cooling profiles',
      [{ cooldownUntil: far, failureCounts: { rate_limit: 3, overloaded: 1 } }, { cooldownUntil: far, failureCounts: { overloaded: 1 } }],
      'rate_limit',
    ],
    [
      'ties are broken by priority (overloaded before rate_limit)',
      [{ cooldownUntil: far, failureCounts: { rate_limit: 2, overloaded: 2 } }],
      'overloaded',
    ],
    ['auth outranks transient reasons on a tie', [{ cooldownUntil: far, failureCounts: { auth: 1, timeout: 1 } }], 'auth'],
    ['a cooling profile without counts contributes its cooldown reason', [{ cooldownUntil: far, cooldownReason: 'timeout' }], 'timeout'],
    ['without counts or reason it is unknown', [{ cooldownUntil: far }], 'unknown'],
    [
      'a disable lane with a cooldown that outlasts it still reports the disable reason',
      [{ disabledUntil: far, disabledReason: 'billing', cooldownUntil: far * 2, failureCounts: { rate_limit: 9 } }],
      'billing',
    ],
    [
      'zero counts are ignored',
      [{ cooldownUntil: far, failureCounts: { auth: 0 }, cooldownReason: 'overloaded' }],
      'overloaded',
    ],
  ])('%s', (_sentence, profiles, expected) => {
    expect(providerUnavailableReason(profiles, { nowMs: 0 })).toBe(expected);
  });

  it('ignores profiles whose model-scoped cooldown is for another model', () => {
    const profiles: ProfileUsageStats[] = [
      { cooldownUntil: far, cooldownModel: 'a', failureCounts: { rate_limit: 1 } },
      { cooldownUntil: far, failureCounts: { overloaded: 1 } },
    ];
    expect(providerUnavailableReason(profiles, { nowMs: 0, model: 'b' })).toBe('overloaded');
    expect(providerUnavailableReason(profiles, { nowMs: 0, model: 'a' })).toBe('overloaded');
    expect(providerUnavailableReason([profiles[0]], { nowMs: 0, model: 'a' })).toBe('rate_limit');
  });

  it('ranks every failover reason', () => {
    expect([...UNAVAILABLE_REASON_PRIORITY].sort()).toEqual([...FAILOVER_REASONS].sort());
  });
});

describe('soonest expiry (the model-failover doc "Observability": the cooldown summary is model-aware)', () => {
  it.each<[string, (ProfileUsageStats | undefined)[], string | undefined, number | undefined]>([
    ['none blocked', [{}, undefined], 'm', undefined],
    ['the soonest of the blocked profiles', [{ cooldownUntil: 500 }, { disabledUntil: 300 }], 'm', 300],
    ['unrelated model-scoped rate limits are ignored', [{ cooldownUntil: 100, cooldownModel: 'other' }, { cooldownUntil: 700 }], 'm', 700],
    ['a matching model-scoped limit counts', [{ cooldownUntil: 100, cooldownModel: 'm' }, { cooldownUntil: 700 }], 'm', 100],
    [
      'the last matching expiry that still blocks the model is reported for a profile',
      [{ cooldownUntil: 400, cooldownModel: 'm', disabledUntil: 200 }],
      'm',
      400,
    ],
    ['expired windows are ignored', [{ cooldownUntil: 10 }, { cooldownUntil: 900 }], undefined, 900],
  ])('%s', (_sentence, profiles, model, expected) => {
    expect(soonestExpiry(profiles, { nowMs: 50, model })).toBe(expected);
  });
});
