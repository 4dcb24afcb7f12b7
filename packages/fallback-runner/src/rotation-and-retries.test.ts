/**
 * Profile order, rotation, transient retries and usage marks (the model-failover doc "Rotation order", "Cooldowns",
 * "Model fallback"; docs/policy.md#what-each-reason-does, docs/policy.md#retries-probes-and-rotation).
 */
import { Secret } from '@understudy/contracts';
import { describe, expect, it } from 'vitest';
import { brief, world } from './test-support/harness.js';

const NOW = 1_000_000;

describe('rotation order and rotation budget per failure reason', () => {
  it('tries OAuth with a live token, expired OAuth, token, then API keys oldest first (auth rotates through all)', async () => {
    const w = world({ profiles: ['anthropic:a'] });
    w.store
      .addProfile('openai:key-new', { type: 'api_key', provider: 'openai', key: new Secret('k1') })
      .addProfile('openai:key-old', { type: 'api_key', provider: 'openai', key: new Secret('k2') })
      .addProfile('openai:token', { type: 'token', provider: 'openai', token: new Secret('t') })
      .addProfile('openai:oauth-old', { type: 'oauth', provider: 'openai', access: new Secret('a'), refresh: new Secret('r'), expires: 5 })
      .addProfile('openai:oauth', { type: 'oauth', provider: 'openai', access: new Secret('a'), expires: NOW * 10 })
      .setUsageStats('openai:key-new', { lastUsed: 900 })
      .setUsageStats('openai:key-old', { lastUsed: 100 });
    const result = await w.run({ openai: [{ status: 401 }, { status: 401 }, { status: 401 }, { status: 401 }] });
    expect(result.calls.map((call) => call.profile)).toEqual(['openai:oauth', 'openai:oauth-old', 'openai:token', 'openai:key-old', 'openai:key-new']);
    expect(result.profile).toBe('openai:key-new');
  });

  it.each([
    ['rate_limit rotates once (rateLimitedProfileRotations = 1)', 429, 2],
    ['billing rotates through every profile', 402, 3],
    ['auth rotates through every profile', 401, 3],
    ['model_not_found does not rotate', 404, 1],
    ['format does not rotate', 400, 1],
  ])('%s', async (_rule, status, openaiCalls) => {
    const w = world({ profiles: ['openai:a', 'openai:b', 'openai:c', 'anthropic:a'] });
    const body = status === 404 ? '{"error":{"code":"model_not_found","message":"The model gpt-x does not exist"}}' : undefined;
    const failure = { status, ...(body === undefined ? {} : { body }) };
    const result = await w.run({ openai: [failure, failure, failure] });
    expect(result.calls.filter((call) => call.ref === 'openai/gpt-x')).toHaveLength(openaiCalls);
    expect(result.candidate.provider).toBe('anthropic');
  });

  it('overloaded: same-profile retries with jittered backoff, one failure mark, one rotation, then fallback', async () => {
    const w = world({ profiles: ['openai:a', 'openai:b', 'openai:c', 'anthropic:a'] });
    const result = await w.run({ openai: Array.from({ length: 12 }, () => ({ status: 529 })) });
    expect(brief(result.attempts)).toEqual([
      ...Array.from({ length: 4 }, () => 'call openai/gpt-x@openai:a overloaded 529'),
      ...Array.from({ length: 4 }, () => 'call openai/gpt-x@openai:b overloaded 529'),
      'call anthropic/claude-x@anthropic:a',
    ]);
    expect(w.clock.sleeps).toHaveLength(6);
    w.clock.sleeps.forEach((ms, index) => expect(ms).toBeLessThan(250 * 2 ** (index % 3)));
    expect(w.store.usageStats('openai:a')).toMatchObject({ errorCount: 1, failureCounts: { overloaded: 1 }, cooldownReason: 'overloaded' });
    expect(w.store.usageStats('openai:a').cooldownModel).toBeUndefined();
    expect(w.store.usageStats('openai:c')).toEqual({});
  });

  it('a rate limit cooldown is model-scoped and ends after 30 s; a billing failure disables the profile for 10 min', async () => {
    const w = world({ profiles: ['openai:a', 'openai:b', 'anthropic:a'] });
    await w.run({ 'openai/gpt-x@openai:a': [{ status: 429 }], 'openai/gpt-x@openai:b': [{ status: 402 }] });
    expect(w.store.usageStats('openai:a')).toMatchObject({ cooldownUntil: NOW + 30_000, cooldownModel: 'gpt-x', cooldownReason: 'rate_limit' });
    expect(w.store.usageStats('openai:b')).toMatchObject({ disabledUntil: NOW + 600_000, disabledReason: 'billing' });
  });

  it('unavailable profiles are not rotated into: only the available ones are called', async () => {
    const w = world({ profiles: ['openai:a', 'openai:b', 'anthropic:a'] });
    w.store.setUsageStats('openai:a', { disabledUntil: NOW + 60_000, disabledReason: 'billing' });
    const result = await w.run({ openai: [{ status: 401 }] });
    expect(result.calls.map((call) => call.profile)).toEqual(['openai:b', 'anthropic:a']);
  });

  it('keyless providers (no profiles at all) are called with no profile', async () => {
    const w = world({ profiles: [], config: { agents: { defaults: { model: 'ollama/qwen3' } } } });
    const result = await w.run({});
    expect(result.profile).toBeNull();
    expect(result.calls).toEqual([{ ref: 'ollama/qwen3', profile: null, atMs: NOW }]);
  });

  it('a provider with a configured profile but no credential is not keyless: it is passed over', async () => {
    const w = world({
      profiles: ['anthropic:a'],
      config: {
        auth: { profiles: { 'openai:work': { provider: 'openai', mode: 'api_key' } } },
        agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['anthropic/claude-x'] } } },
      },
    });
    expect(brief((await w.run({})).attempts)).toEqual(['skip openai/gpt-x@- auth', 'call anthropic/claude-x@anthropic:a']);
  });

  it('a provider whose profiles are all ineligible is passed over with one skip entry', async () => {
    const w = world({ profiles: ['anthropic:a'] });
    w.store.addProfile('openai:blank', { type: 'api_key', provider: 'openai', key: new Secret('  ') });
    const result = await w.run({});
    expect(brief(result.attempts)).toEqual(['skip openai/gpt-x@- auth', 'call anthropic/claude-x@anthropic:a']);
    expect(result.attempts[0]?.detail).toBe('no_eligible_profile');
  });
});

describe('transient same-profile retries (docs/policy.md#retries-probes-and-rotation)', () => {
  it('retries that end in success record no failure and mark the profile used', async () => {
    const w = world();
    const result = await w.run({ openai: [{ status: 503 }, { code: 'ECONNRESET', message: 'ECONNRESET' }, { status: 500 }] });
    expect(brief(result.attempts)).toEqual([
      'call openai/gpt-x@openai:a overloaded 503',
      'call openai/gpt-x@openai:a timeout',
      'call openai/gpt-x@openai:a server_error 500',
      'call openai/gpt-x@openai:a',
    ]);
    expect(w.store.usageStats('openai:a')).toEqual({ lastUsed: w.clock.nowMs() });
  });

  it('when the budget (retry.provider.maxRetries) is spent ONE failure is recorded, with the last reason', async () => {
    const w = world({ config: { agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['anthropic/claude-x'] } } }, retry: { provider: { maxRetries: 1 } } } });
    const result = await w.run({ openai: [{ status: 500 }, { status: 502 }] });
    expect(result.calls.filter((call) => call.ref === 'openai/gpt-x')).toHaveLength(2);
    expect(w.store.usageStats('openai:a')).toMatchObject({ errorCount: 1, failureCounts: { server_error: 1 } });
  });

  it('never retries rate limits, auth, billing or model_not_found on the same profile', async () => {
    for (const status of [429, 401, 402]) {
      const w = world({ profiles: ['openai:a', 'anthropic:a'] });
      const result = await w.run({ openai: [{ status }] });
      expect(result.calls.map((call) => call.ref)).toEqual(['openai/gpt-x', 'anthropic/claude-x']);
      expect(w.clock.sleeps).toEqual([]);
    }
  });

  it('waits out a Retry-After shorter than the SDK cap, inside the 90 s window of the candidate', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    const busy = { status: 503, headers: { 'retry-after': '45' } };
    const result = await w.run({ openai: [busy, busy, busy, busy] });
    expect(w.clock.sleeps).toEqual([45_000, 45_000]);
    expect(result.calls.filter((call) => call.ref === 'openai/gpt-x').map((call) => call.atMs)).toEqual([NOW, NOW + 45_000, NOW + 90_000]);
    expect(w.store.usageStats('openai:a').cooldownUntil).toBe(NOW + 90_000 + 45_000);
  });

  it('does not sleep on a Retry-After beyond the SDK cap: fails over at once; the Retry-After becomes the cooldown', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    const result = await w.run({ openai: [{ status: 503, headers: { 'retry-after': '600' } }] });
    expect(w.clock.sleeps).toEqual([]);
    expect(result.candidate.provider).toBe('anthropic');
    expect(w.store.usageStats('openai:a').cooldownUntil).toBe(NOW + 600_000);
  });

  it('does not sleep when the Retry-After is beyond the SDK cap (capped once, here, in ms)', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    await w.run({ openai: [{ status: 503, headers: { 'retry-after': '61' } }] });
    expect(w.clock.sleeps).toEqual([]);
  });

  it('waits a long Retry-After when the cap is removed (maxRetryAfterMs: null) and it fits the window', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    const result = await w.run({ openai: [{ status: 503, headers: { 'retry-after': '70' } }] }, {}, { maxRetryAfterMs: null });
    expect(w.clock.sleeps).toEqual([70_000]);
    expect(result.candidate.provider).toBe('openai');
  });

  it('backoff is deterministic for a seeded random source', async () => {
    const sleeps = async (): Promise<number[]> => {
      const w = world({ profiles: ['openai:a'] });
      await w.run({ openai: [{ status: 500 }, { status: 500 }, { status: 500 }] });
      return w.clock.sleeps;
    };
    expect(await sleeps()).toEqual(await sleeps());
  });
});

describe('attempt functions that throw', () => {
  it('a thrown error is classified from its code, message and status like a returned failure', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    let calls = 0;
    const attempt = async () => {
      calls += 1;
      if (calls === 1) throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      if (calls === 2) throw Object.assign(new Error('Unauthorized'), { status: 401 });
      return { ok: true as const, value: 'answer' };
    };
    const result = await w.run({}, {}, { attempt });
    expect(brief(result.attempts)).toEqual(['call openai/gpt-x@openai:a timeout', 'call openai/gpt-x@openai:a auth 401', 'call anthropic/claude-x@anthropic:a']);
    expect(result.attempts[0]?.code).toBe('ECONNRESET');
  });

  it('keeps what the attempt threw as the cause of a terminal FailoverError', async () => {
    const w = world({ profiles: ['openai:a'] });
    const thrown = Object.assign(new Error('stream broke'), { status: 500, outputStarted: true });
    const error = await w.fail({}, {}, { attempt: async () => Promise.reject(thrown) });
    expect((error as Error).cause).toBe(thrown);
  });
});

describe('fast request path: no needless store reads', () => {
  it('reads the session once and each provider state once per candidate', async () => {
    const w = world({ profiles: ['openai:a', 'openai:b', 'anthropic:a'] });
    await w.run({ openai: [{ status: 429 }, { status: 429 }] });
    expect(w.store.calls.loadProviderAuthState).toBe(2);
    expect(w.store.calls.getSession).toBe(2);
  });

  it('a primary that answers costs one session read, one provider read, one credential, one mark and one session write', async () => {
    const w = world();
    await w.run({});
    expect(w.store.calls).toEqual({
      loadProviderAuthState: 1,
      resolveCredential: 1,
      updateUsageStats: 1,
      tryAcquireProbe: 0,
      tryAcquireRefreshLock: 0,
      getSession: 1,
      writeSession: 1,
    });
  });
});
