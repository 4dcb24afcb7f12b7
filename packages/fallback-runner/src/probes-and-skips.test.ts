/**
 * Candidates whose profiles are all unavailable, the auth failure skip cache, TLS failures, and the decision
 * events (the model-failover doc "Cooldown skip vs probe behavior", "Auth failure skip cache", "Observability and failure
 * summaries"; docs/policy.md#retries-probes-and-rotation).
 */
import { describe, expect, it, vi } from 'vitest';
import {
  AuthFailureSkipCache,
  FALLBACK_DECISION_MESSAGE,
  MAX_SKIP_TTL_MS,
  MIN_SKIP_TTL_MS,
  clampSkipTtlMs,
} from './index.js';
import { brief, world } from './test-support/harness.js';

const NOW = 1_000_000;
const cooling = (untilMs: number, reason: 'rate_limit' | 'overloaded' | 'auth' | 'billing' = 'rate_limit', named = true) =>
  reason === 'billing'
    ? { disabledUntil: untilMs, disabledReason: reason, failureCounts: { billing: 1 } }
    : { cooldownUntil: untilMs, cooldownReason: reason, errorCount: 1, failureCounts: { [reason]: 1 }, ...(named ? { cooldownNamed: true } : {}) };

describe('every profile unavailable: skip, throttled probe or sibling try', () => {
  it.each([
    ['the primary far from the expiry of a provider-named window is skipped', cooling(NOW + 600_000), ['skip openai/gpt-x@- rate_limit', 'call anthropic/claude-x@anthropic:a']],
    ['the primary in a cooldown understudy computed is probed whatever the distance to expiry', cooling(NOW + 300_000, 'overloaded', false), ['probe openai/gpt-x@openai:a']],
    ['the primary within 2 min of expiry is probed', cooling(NOW + 100_000), ['probe openai/gpt-x@openai:a']],
    ['auth cooldowns are never probed', cooling(NOW + 10_000, 'auth'), ['skip openai/gpt-x@- auth', 'call anthropic/claude-x@anthropic:a']],
    ['a billing-disabled primary with fallbacks is skipped far from expiry', cooling(NOW + 3_600_000, 'billing'), ['skip openai/gpt-x@- billing', 'call anthropic/claude-x@anthropic:a']],
  ])('%s', async (_rule, stats, expected) => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    w.store.setUsageStats('openai:a', stats);
    expect(brief((await w.run({})).attempts)).toEqual(expected);
  });

  it('at most one probe per provider per 30 s (the throttle lives in the store)', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    w.store.setUsageStats('openai:a', cooling(NOW + 100_000));
    expect(brief((await w.run({ openai: [{ status: 429 }] })).attempts)[0]).toBe('probe openai/gpt-x@openai:a rate_limit 429');
    expect(w.store.usageStats('openai:a')).toMatchObject({ cooldownUntil: NOW + 100_000, lastProbeAt: NOW });
    w.clock.advance(29_999);
    const throttled = await w.run({});
    expect(throttled.attempts[0]).toMatchObject({ kind: 'skip', detail: 'probe_throttled' });
    w.clock.advance(1);
    expect((await w.run({})).attempts[0]).toMatchObject({ kind: 'probe', ok: true });
    expect(w.store.usageStats('openai:a').cooldownUntil).toBeUndefined();
  });

  it('a recovered primary in a computed cooldown is back within one throttle window; a probe that fails does not extend the window', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    w.store.setUsageStats('openai:a', cooling(NOW + 300_000, 'overloaded', false));
    expect(brief((await w.run({ openai: [{ status: 503 }] })).attempts)).toEqual(['probe openai/gpt-x@openai:a overloaded 503', 'call anthropic/claude-x@anthropic:a']);
    expect(w.store.usageStats('openai:a').cooldownUntil).toBe(NOW + 300_000);
    w.clock.advance(10_000);
    expect(brief((await w.run({})).attempts)[0]).toBe('skip openai/gpt-x@- overloaded');
    w.clock.advance(20_000);
    expect(brief((await w.run({})).attempts)).toEqual(['probe openai/gpt-x@openai:a']);
    expect(w.store.usageStats('openai:a').cooldownUntil).toBeUndefined();
  });

  it('probes the profile whose window understudy computed, not the one the provider named', async () => {
    const w = world({ profiles: ['openai:a', 'openai:b', 'anthropic:a'] });
    w.store.setUsageStats('openai:a', cooling(NOW + 200_000));
    w.store.setUsageStats('openai:b', cooling(NOW + 250_000, 'rate_limit', false));
    expect(brief((await w.run({})).attempts)).toEqual(['probe openai/gpt-x@openai:b']);
    expect(w.store.usageStats('openai:a').cooldownUntil).toBe(NOW + 200_000);
  });

  it('a billing-disabled only candidate may be probed at any time on the throttle', async () => {
    const w = world({ profiles: ['openai:a'] });
    w.store.setUsageStats('openai:a', cooling(NOW + 18_000_000, 'billing'));
    const result = await w.run({}, { fallbacksOverride: [] });
    expect(brief(result.attempts)).toEqual(['probe openai/gpt-x@openai:a']);
    expect(w.store.usageStats('openai:a').disabledUntil).toBeUndefined();
  });

  it('a same-provider sibling is tried despite a transient profile-wide cooldown, as a probe', async () => {
    const w = world({
      profiles: ['openai:a', 'anthropic:a'],
      config: { agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['openai/gpt-y', 'anthropic/claude-x'] } } } },
    });
    w.store.setUsageStats('openai:a', cooling(NOW + 600_000, 'overloaded'));
    expect(brief((await w.run({})).attempts)).toEqual(['skip openai/gpt-x@- overloaded', 'probe openai/gpt-y@openai:a']);
  });

  it('a model-scoped cooldown leaves the sibling model an ordinary call', async () => {
    const w = world({
      profiles: ['openai:a', 'anthropic:a'],
      config: { agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['openai/gpt-y', 'anthropic/claude-x'] } } } },
    });
    w.store.setUsageStats('openai:a', { ...cooling(NOW + 600_000), cooldownModel: 'gpt-x' });
    expect(brief((await w.run({})).attempts)).toEqual(['skip openai/gpt-x@- rate_limit', 'call openai/gpt-y@openai:a']);
  });

  it('a failed transient probe uses up the provider for the run: its sibling is skipped', async () => {
    const w = world({
      profiles: ['openai:a', 'anthropic:a'],
      config: { agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['openai/gpt-y', 'anthropic/claude-x'] } } } },
    });
    w.store.setUsageStats('openai:a', cooling(NOW + 60_000, 'overloaded'));
    const result = await w.run({ openai: [{ status: 529 }] });
    expect(brief(result.attempts)).toEqual(['probe openai/gpt-x@openai:a overloaded 529', 'skip openai/gpt-y@- overloaded', 'call anthropic/claude-x@anthropic:a']);
    expect(result.attempts[1]?.detail).toBe('transient_probe_used');
  });
});

describe('TLS certificate failures', () => {
  it('advance fallback and pass over the later candidates of that provider in the run', async () => {
    const w = world({
      profiles: ['openai:a', 'openai:b', 'anthropic:a'],
      config: { agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['openai/gpt-y', 'anthropic/claude-x'] } } } },
    });
    const result = await w.run({ openai: [{ message: 'unable to verify the first certificate', code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }] });
    expect(brief(result.attempts)).toEqual([
      'call openai/gpt-x@openai:a tls_certificate',
      'skip openai/gpt-y@- tls_certificate',
      'call anthropic/claude-x@anthropic:a',
    ]);
    expect(w.store.usageStats('openai:a')).toEqual({});
  });
});

describe('auth failure skip cache', () => {
  it.each<[number, number | undefined]>([
    [0, undefined],
    [-5, undefined],
    [60_000, 60_000],
    [10, MIN_SKIP_TTL_MS],
    [99_999_999, MAX_SKIP_TTL_MS],
  ])('clampSkipTtlMs(%j) = %s (0 disables; clamped to 1 s – 10 min)', (ttlMs, expected) => {
    expect(clampSkipTtlMs(ttlMs)).toBe(expected);
    expect(new AuthFailureSkipCache({ ttlMs }).ttlMs).toBe(expected);
  });

  it('remembers only auth-class failures, per session, provider, model and profile, until the TTL ends', () => {
    const cache = new AuthFailureSkipCache({ ttlMs: 60_000 });
    const key = { sessionKey: 's', provider: 'anthropic', model: 'claude-x', profile: 'anthropic:a' };
    cache.remember(key, 'rate_limit', 0);
    expect(cache.get(key, 1)).toBeUndefined();
    cache.remember(key, 'auth', 0);
    expect(cache.get(key, 59_999)).toBe('auth');
    expect(cache.get({ ...key, profile: 'anthropic:b' }, 1)).toBeUndefined();
    expect(cache.get({ ...key, sessionKey: 'other' }, 1)).toBeUndefined();
    expect(cache.get(key, 60_000)).toBeUndefined();
    expect(new AuthFailureSkipCache({ ttlMs: 0 }).enabled).toBe(false);
  });

  it('is bounded: the oldest markers go first', () => {
    const cache = new AuthFailureSkipCache({ ttlMs: 60_000, maxEntries: 2 });
    for (const profile of ['p:a', 'p:b', 'p:c']) cache.remember({ sessionKey: 's', provider: 'p', model: 'm', profile }, 'auth', 0);
    expect(cache.get({ sessionKey: 's', provider: 'p', model: 'm', profile: 'p:a' }, 1)).toBeUndefined();
    expect(cache.get({ sessionKey: 's', provider: 'p', model: 'm', profile: 'p:c' }, 1)).toBe('auth');
  });

  it('passes over a non-primary candidate after its auth failure; the primary is never skipped', async () => {
    const w = world({
      profiles: ['openai:a', 'anthropic:a', 'google:a'],
      config: { agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['anthropic/claude-x', 'google/gemini-x'] } } } },
    });
    const skipCache = new AuthFailureSkipCache({ ttlMs: 120_000 });
    await w.run({ openai: [{ status: 401 }], anthropic: [{ status: 401 }] }, {}, { skipCache });
    w.clock.advance(61_000);
    const later = await w.run({ openai: [{ status: 401 }] }, {}, { skipCache });
    expect(brief(later.attempts)).toEqual(['call openai/gpt-x@openai:a auth 401', 'skip anthropic/claude-x@anthropic:a auth', 'call google/gemini-x@google:a']);
    expect(later.attempts[1]?.detail).toBe('auth_failure_cached');
  });
});

describe('model_fallback_decision events', () => {
  it('carry the flat fallbackStep fields for a failed, a skipped and the answering candidate, and go to the logger', async () => {
    const w = world({
      profiles: ['openai:a', 'anthropic:a', 'google:a'],
      config: { agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['anthropic/claude-x', 'google/gemini-x'] } } } },
    });
    w.store.setUsageStats('anthropic:a', cooling(NOW + 600_000, 'auth'));
    const info = vi.fn();
    const logger = { debug: vi.fn(), info, warn: vi.fn(), error: vi.fn() };
    await w.run({ openai: [{ status: 404, body: '{"error":{"code":"model_not_found","message":"no such model"}}' }] }, {}, { logger });
    expect(w.events.map((event) => event.decision)).toEqual(['candidate_failed', 'skip_candidate', 'candidate_succeeded']);
    expect(w.events[0]).toMatchObject({
      event: 'model_fallback_decision',
      provider: 'openai',
      model: 'gpt-x',
      profile: 'openai:a',
      reason: 'model_not_found',
      status: 404,
      fallbackStepFromModel: 'openai/gpt-x',
      fallbackStepToModel: 'anthropic/claude-x',
      fallbackStepFromFailureReason: 'model_not_found',
      fallbackStepFromFailureDetail: 'openai.model_not_found',
      fallbackStepFinalOutcome: 'next_candidate',
    });
    expect(w.events[1]).toMatchObject({ fallbackStepFromModel: 'anthropic/claude-x', fallbackStepToModel: 'google/gemini-x', fallbackStepFromFailureReason: 'auth', fallbackStepFromFailureDetail: 'persistent_auth' });
    expect(w.events[2]).toMatchObject({
      fallbackStepFromModel: 'openai/gpt-x',
      fallbackStepFromFailureReason: 'model_not_found',
      fallbackStepToModel: 'google/gemini-x',
      fallbackStepFinalOutcome: 'succeeded',
    });
    expect(info).toHaveBeenCalledTimes(3);
    expect(info.mock.calls[0]?.[1]).toBe(FALLBACK_DECISION_MESSAGE);
  });

  it('a probe is announced as probe_cooldown_candidate', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    w.store.setUsageStats('openai:a', cooling(NOW + 60_000));
    await w.run({});
    expect(w.events[0]).toMatchObject({ decision: 'probe_cooldown_candidate', profile: 'openai:a', reason: 'rate_limit', fallbackStepFinalOutcome: 'probing' });
  });

  it('a throwing listener does not break the run', async () => {
    const w = world();
    const result = await w.run({}, {}, { onDecision: () => { throw new Error('listener bug'); } });
    expect(result.candidate.provider).toBe('openai');
  });
});
