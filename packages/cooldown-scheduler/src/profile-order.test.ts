import type { AuthProfileView, ProfileUsageStats } from '@understudy/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkProfileEligibility, resolveProfileOrder } from './index.js';
import { apiKey, oauth, state, token, view } from './test-support/profiles.js';

const NOW = 1_000_000;
const ids = (order: ReturnType<typeof resolveProfileOrder>): string[] => order.profiles.map((entry) => entry.profileId);

describe('eligibility (the model-failover doc "Rotation order")', () => {
  it.each<[string, AuthProfileView | undefined, { configMode?: 'api_key' | 'oauth' | 'token' }, string | true]>([
    ['a missing credential is not eligible', undefined, {}, 'missing_credential'],
    ['the provider must match', apiKey('anthropic:a'), {}, 'provider_mismatch'],
    ['a configured mode must match the credential type', apiKey('openai:a'), { configMode: 'oauth' }, 'mode_mismatch'],
    ['a matching configured mode is fine', apiKey('openai:a'), { configMode: 'api_key' }, true],
    ['an API key must not be blank', apiKey('openai:a', { hasSecret: false }), {}, 'blank_key'],
    ['a token must not be blank', token('openai:t', { hasSecret: false }), {}, 'blank_token'],
    ['a token must not have expired', token('openai:t', { expiresAt: NOW }), {}, 'expired_token'],
    ['an unexpired token is eligible', token('openai:t', { expiresAt: NOW + 1 }), {}, true],
    ['a token without expiry is eligible', token('openai:t'), {}, true],
    ['OAuth needs an access or a refresh token', oauth('openai:o', { hasSecret: false, hasRefresh: false }), {}, 'no_oauth_tokens'],
    ['OAuth with only a refresh token stays eligible', oauth('openai:o', { hasSecret: false, hasRefresh: true }), {}, true],
    ['expired OAuth stays eligible so it can be refreshed', oauth('openai:o', { expiresAt: 1 }), {}, true],
  ])('%s', (_sentence, profile, extra, expected) => {
    const verdict = checkProfileEligibility(profile, { provider: 'OpenAI', nowMs: NOW, ...extra });
    expect(verdict).toEqual(expected === true ? { eligible: true } : { eligible: false, why: expected });
  });
});

describe('base list precedence: stored order > auth.order > auth.profiles > stored profiles', () => {
  const profiles = [apiKey('openai:a'), apiKey('openai:b'), apiKey('openai:c')];
  it('uses the stored order override first, keeping its order and its subset', () => {
    const order = resolveProfileOrder({
      state: state('openai', profiles, {}, ['openai:c', 'OpenAI:a']),
      configOrder: ['openai:b'],
      nowMs: NOW,
    });
    expect(order.source).toBe('stored_order');
    expect(ids(order)).toEqual(['openai:c', 'openai:a']);
  });
  it('then auth.order[provider]', () => {
    const order = resolveProfileOrder({ state: state('openai', profiles), configOrder: ['openai:b', 'openai:a', 'openai:b'], nowMs: NOW });
    expect(order.source).toBe('config_order');
    expect(ids(order)).toEqual(['openai:b', 'openai:a']);
  });
  it('then the auth.profiles of the provider (plus the inline key), round robin', () => {
    const order = resolveProfileOrder({
      state: state('openai', [...profiles, apiKey('openai:inline')], { 'openai:c': { lastUsed: 1 }, 'openai:inline': { lastUsed: 0 } }),
      configProfiles: {
        'openai:c': { provider: 'openai', mode: 'api_key' },
        'openai:b': { provider: 'OpenAI' },
        'anthropic:x': { provider: 'anthropic', mode: 'api_key' },
      },
      nowMs: NOW,
    });
    expect(order.source).toBe('config_profiles');
    expect(ids(order)).toEqual(['openai:b', 'openai:inline', 'openai:c']);
  });
  it('then the stored profiles', () => {
    const order = resolveProfileOrder({ state: state('openai', profiles), configOrder: [], nowMs: NOW });
    expect(order.source).toBe('stored_profiles');
    expect(ids(order)).toEqual(['openai:a', 'openai:b', 'openai:c']);
  });
  it('reports listed profiles that are not eligible', () => {
    const order = resolveProfileOrder({
      state: state('openai', [apiKey('openai:a', { hasSecret: false }), apiKey('openai:b')]),
      configOrder: ['openai:missing', 'openai:a', 'openai:b'],
      configProfiles: { 'openai:b': { provider: 'openai', mode: 'oauth' } },
      nowMs: NOW,
    });
    expect(ids(order)).toEqual([]);
    expect(order.ineligible).toEqual([
      { profileId: 'openai:missing', why: 'missing_credential' },
      { profileId: 'openai:a', why: 'blank_key' },
      { profileId: 'openai:b', why: 'mode_mismatch' },
    ]);
  });
});

describe('round robin without an explicit order', () => {
  it('orders OAuth with a usable token, expired OAuth, token, then API key; oldest lastUsed first within a tier', () => {
    const order = resolveProfileOrder({
      state: state(
        'openai',
        [
          apiKey('openai:key-old'),
          apiKey('openai:key-new'),
          token('openai:tok'),
          oauth('openai:expired', { expiresAt: NOW - 1 }),
          oauth('openai:refresh-only', { hasSecret: false }),
          oauth('openai:fresh-new', { expiresAt: NOW + 60_000 }),
          oauth('openai:fresh-old', { expiresAt: NOW + 60_000 }),
        ],
        {
          'openai:key-old': { lastUsed: 10 },
          'openai:key-new': { lastUsed: 20 },
          'openai:fresh-new': { lastUsed: 500 },
          'openai:fresh-old': { lastUsed: 100 },
          'openai:expired': { lastUsed: 900 },
        },
      ),
      nowMs: NOW,
    });
    expect(ids(order)).toEqual([
      'openai:fresh-old',
      'openai:fresh-new',
      'openai:refresh-only',
      'openai:expired',
      'openai:tok',
      'openai:key-old',
      'openai:key-new',
    ]);
  });

  it('moves cooling and disabled profiles to the end, soonest expiry first', () => {
    const order = resolveProfileOrder({
      state: state('openai', [oauth('openai:o'), apiKey('openai:a'), apiKey('openai:b'), apiKey('openai:c')], {
        'openai:o': { disabledUntil: NOW + 600_000, disabledReason: 'billing' },
        'openai:a': { cooldownUntil: NOW + 30_000, cooldownReason: 'rate_limit' },
      }),
      nowMs: NOW,
    });
    expect(ids(order)).toEqual(['openai:b', 'openai:c', 'openai:a', 'openai:o']);
    expect(order.profiles[2]).toMatchObject({ available: false, unavailableUntilMs: NOW + 30_000, unavailableReason: 'rate_limit', unavailableLane: 'cooldown' });
    expect(order.profiles[3]).toMatchObject({ unavailableLane: 'disable', unavailableReason: 'billing' });
    expect(order.profiles[0]).toMatchObject({ available: true, pinned: false });
    expect(order.profiles[0]?.unavailableUntilMs).toBeUndefined();
  });

  it('keeps a profile whose model-scoped cooldown is for another model among the available ones', () => {
    const stats: Record<string, ProfileUsageStats> = { 'openai:a': { cooldownUntil: NOW + 1, cooldownModel: 'gpt-a' } };
    const profiles = [apiKey('openai:a'), apiKey('openai:b')];
    expect(ids(resolveProfileOrder({ state: state('openai', profiles, stats), model: 'gpt-b', nowMs: NOW }))).toEqual(['openai:a', 'openai:b']);
    expect(ids(resolveProfileOrder({ state: state('openai', profiles, stats), model: 'gpt-a', nowMs: NOW }))).toEqual(['openai:b', 'openai:a']);
  });

  it('keeps the explicit order for available profiles, cooling ones still last', () => {
    const order = resolveProfileOrder({
      state: state('openai', [apiKey('openai:a'), oauth('openai:o'), apiKey('openai:b')], { 'openai:b': { cooldownUntil: NOW + 5 } }),
      configOrder: ['openai:b', 'openai:a', 'openai:o'],
      nowMs: NOW,
    });
    expect(ids(order)).toEqual(['openai:a', 'openai:o', 'openai:b']);
  });
});

describe('pinned profile (the model-failover doc "Session stickiness")', () => {
  const profiles = [oauth('openai:o'), apiKey('openai:a'), apiKey('openai:b')];
  it('is tried first while eligible and available', () => {
    const order = resolveProfileOrder({ state: state('openai', profiles), pinned: { profileId: 'OpenAI:b', source: 'user' }, nowMs: NOW });
    expect(ids(order)).toEqual(['openai:b', 'openai:o', 'openai:a']);
    expect(order.pin).toBe('first');
    expect(order.profiles[0]?.pinned).toBe(true);
  });
  it('while it cools down, the next eligible profile goes first and the pin waits its turn', () => {
    const order = resolveProfileOrder({
      state: state('openai', profiles, { 'openai:b': { cooldownUntil: NOW + 1 } }),
      pinned: { profileId: 'openai:b', source: 'user' },
      nowMs: NOW,
    });
    expect(ids(order)).toEqual(['openai:o', 'openai:a', 'openai:b']);
    expect(order.pin).toBe('unavailable');
    expect(order.profiles.some((entry) => entry.pinned)).toBe(false);
  });
  it('an ineligible or unknown pin is ignored', () => {
    const order = resolveProfileOrder({ state: state('openai', profiles), pinned: { profileId: 'openai:gone', source: 'auto' }, nowMs: NOW });
    expect(order.pin).toBe('ineligible');
    expect(ids(order)).toEqual(['openai:o', 'openai:a', 'openai:b']);
  });
});

const profileArbitrary = fc
  .record({
    name: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'inline'),
    provider: fc.constantFrom('openai', 'openai', 'openai', 'anthropic'),
    type: fc.constantFrom('api_key' as const, 'oauth' as const, 'token' as const),
    hasSecret: fc.boolean(),
    hasRefresh: fc.boolean(),
    expiresAt: fc.option(fc.integer({ min: NOW - 1_000, max: NOW + 1_000 }), { nil: undefined }),
  })
  .map((spec) =>
    view(`${spec.provider}:${spec.name}`, { type: spec.type, hasSecret: spec.hasSecret, hasRefresh: spec.hasRefresh, expiresAt: spec.expiresAt }),
  );
const statsArbitrary = fc.record(
  {
    lastUsed: fc.integer({ min: 0, max: NOW }),
    cooldownUntil: fc.integer({ min: NOW - 100, max: NOW + 100 }),
    cooldownModel: fc.constantFrom('m1', 'm2'),
    disabledUntil: fc.integer({ min: NOW - 100, max: NOW + 100 }),
  },
  { requiredKeys: [] },
);
const idArbitrary = fc.constantFrom('openai:a', 'openai:b', 'openai:c', 'openai:d', 'openai:e', 'openai:f', 'openai:inline', 'anthropic:a');

describe('properties', () => {
  it('the order is a permutation of the eligible profiles of the base list; available ones come first', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(profileArbitrary, { selector: (profile) => profile.id, maxLength: 8 }),
        fc.dictionary(idArbitrary, statsArbitrary),
        fc.option(fc.array(idArbitrary, { maxLength: 6 }), { nil: undefined }),
        fc.option(idArbitrary, { nil: undefined }),
        fc.option(fc.constantFrom('m1', 'm2'), { nil: undefined }),
        (profiles, usageStats, configOrder, pinned, model) => {
          const order = resolveProfileOrder({
            state: state('openai', profiles, usageStats),
            configOrder,
            pinned: pinned === undefined ? undefined : { profileId: pinned, source: 'user' },
            model,
            nowMs: NOW,
          });
          const base = configOrder !== undefined && configOrder.length > 0 ? [...new Set(configOrder)] : profiles.map((profile) => profile.id);
          const byId = new Map(profiles.map((profile) => [profile.id, profile]));
          const eligible = base.filter((id) => checkProfileEligibility(byId.get(id), { provider: 'openai', nowMs: NOW }).eligible);
          expect([...ids(order)].sort()).toEqual([...eligible].sort());
          expect(new Set(ids(order)).size).toBe(order.profiles.length);
          const firstUnavailable = order.profiles.findIndex((entry) => !entry.available);
          if (firstUnavailable >= 0) expect(order.profiles.slice(firstUnavailable).every((entry) => !entry.available)).toBe(true);
          if (order.pin === 'first') expect(order.profiles[0]?.profileId).toBe(pinned);
          expect(order.profiles.length + order.ineligible.length).toBe(base.length);
        },
      ),
    );
  });
});
