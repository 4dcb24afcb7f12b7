/**
 * How a run ends when no candidate answers: terminal failures, the caller's abort, the turn deadline, and
 * exhaustion errors (the model-failover doc "Which errors advance fallback", "Report failure if exhausted", "Observability and
 * failure summaries"; docs/policy.md#what-each-reason-does).
 */
import type { AbortSignalLike, Clock } from '@understudy/contracts';
import { describe, expect, it } from 'vitest';
import { FailoverError, FallbackOptionsError, FallbackSummaryError, LiveSessionModelSwitchError } from './index.js';
import { brief, world } from './test-support/harness.js';

const NOW = 1_000_000;

describe('terminal failures end the turn without fallback', () => {
  it.each([
    ['context overflow', { status: 400, body: '{"error":{"message":"This model\'s maximum context length is 8192 tokens"}}' }, 'context_overflow'],
    ['a refusal', { status: 400, errorType: 'refusal', message: 'The model refused to answer (stop_reason: refusal)' }, 'refusal'],
    ['a user abort', { abortCause: 'user' as const, message: 'aborted' }, 'abort'],
  ])('%s: one attempt, FailoverError kind terminal, no failure marked', async (_label, failure, reason) => {
    const w = world();
    const error = await w.fail({ openai: [failure] });
    expect(FailoverError.isInstance(error)).toBe(true);
    const failover = error as FailoverError;
    expect(failover).toMatchObject({ kind: 'terminal', reason, endedTurn: true, code: 'failover_error' });
    expect(failover.attempts).toHaveLength(1);
    expect(w.store.usageStats('openai:a')).toEqual({});
    expect(w.events.at(-1)).toMatchObject({ decision: 'candidate_failed', fallbackStepFinalOutcome: 'turn_ended' });
  });

  it('a failure after output reached the caller is terminal and marked as its reason', async () => {
    const w = world();
    const error = (await w.fail({ openai: [{ status: 503, outputStarted: true }] })) as FailoverError;
    expect(error).toMatchObject({ kind: 'terminal', reason: 'overloaded', status: 503, outputStarted: true });
    expect(error.message).toContain('after output reached the caller');
    expect(error.attempts).toHaveLength(1);
    expect(w.store.usageStats('openai:a')).toMatchObject({ errorCount: 1, cooldownReason: 'overloaded' });
  });
});

describe("the caller's AbortSignal stops the run at once", () => {
  it('an abort during an attempt: no retry, no other profile, no fallback, no mark', async () => {
    const w = world();
    const controller = new AbortController();
    const error = (await w.fail({ openai: [{ status: 503, abortController: controller }] }, {}, { signal: controller.signal })) as FailoverError;
    expect(error).toMatchObject({ reason: 'abort', kind: 'terminal' });
    expect(brief(error.attempts)).toEqual(['call openai/gpt-x@openai:a abort 503']);
    expect(w.store.usageStats('openai:a')).toEqual({});
    expect(w.clock.sleeps).toEqual([]);
  });

  it('an already aborted signal sends no request at all', async () => {
    const w = world();
    const controller = new AbortController();
    controller.abort();
    const error = (await w.fail({}, {}, { signal: controller.signal })) as FailoverError;
    expect(error.reason).toBe('abort');
    expect(error.attempts).toEqual([]);
  });

  it('an abort during the backoff sleep stops the sleep and the run', async () => {
    const w = world();
    const controller = new AbortController();
    const clock: Clock = {
      nowMs: () => w.clock.nowMs(),
      sleep: async (_ms: number, signal?: AbortSignalLike) => {
        controller.abort(new Error('user left'));
        throw signal?.reason;
      },
    };
    const error = (await w.fail({ openai: [{ status: 500 }] }, {}, { signal: controller.signal, clock })) as FailoverError;
    expect(error.reason).toBe('abort');
    expect(error.attempts).toHaveLength(1);
    expect(w.store.calls.loadProviderAuthState).toBe(1);
  });
});

describe('the turn deadline bounds retries and fallbacks', () => {
  it('stops with a timeout FailoverError of kind deadline once it passed', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    const error = (await w.fail({ openai: [{ status: 500, latencyMs: 6_000 }, { status: 500, latencyMs: 6_000 }] }, {}, { turnTimeoutMs: 10_000 })) as FailoverError;
    expect(error).toMatchObject({ kind: 'deadline', reason: 'timeout', endedTurn: true });
    expect(error.attempts.map((attempt) => attempt.provider)).toEqual(['openai', 'openai']);
    expect(error.message).toMatch(/^The turn deadline passed after 2 attempts/);
  });

  it('takes the deadline as an instant too (turnDeadlineAtMs, set by a caller whose turn began earlier)', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    const startMs = w.clock.nowMs();
    const error = (await w.fail({ openai: [{ status: 500, latencyMs: 6_000 }, { status: 500, latencyMs: 6_000 }] }, {}, { turnDeadlineAtMs: startMs + 10_000 })) as FailoverError;
    expect(error).toMatchObject({ kind: 'deadline', reason: 'timeout', endedTurn: true });
    expect(error.attempts.map((attempt) => attempt.provider)).toEqual(['openai', 'openai']);
  });

  it('a backoff that would overrun the deadline is not slept: the run moves on', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    const result = await w.run({ openai: [{ status: 503, headers: { 'retry-after': '30' } }] }, {}, { turnTimeoutMs: 20_000 });
    expect(w.clock.sleeps).toEqual([]);
    expect(result.candidate.provider).toBe('anthropic');
  });

  it('rejects an unusable deadline or cap, naming the option', async () => {
    const w = world();
    await expect(w.run({}, {}, { turnTimeoutMs: 0 })).rejects.toSatisfy((error) => FallbackOptionsError.isInstance(error) && error.field === 'turnTimeoutMs');
    await expect(w.run({}, {}, { turnTimeoutMs: 1_000, turnDeadlineAtMs: 2_000_000 })).rejects.toSatisfy(
      (error) => FallbackOptionsError.isInstance(error) && error.field === 'turnDeadlineAtMs',
    );
    await expect(w.run({}, {}, { maxRetryAfterMs: -1 })).rejects.toSatisfy((error) => FallbackOptionsError.isInstance(error) && error.field === 'maxRetryAfterMs');
  });
});

describe('exhaustion', () => {
  it('a single failed candidate rethrows its failure as a FailoverError with the HTTP status kept', async () => {
    const w = world({ profiles: ['openai:a'] });
    const error = (await w.fail({ openai: [{ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }] }, { fallbacksOverride: [] })) as FailoverError;
    expect(error).toMatchObject({ name: 'FailoverError', kind: 'exhausted', reason: 'server_error', status: 500, endedTurn: false });
    expect(error.message).toBe('openai/gpt-x: provider server error (HTTP 500)');
    expect(error.attempts).toHaveLength(4);
    expect(error.soonestCooldownExpiry).toBe(w.clock.nowMs() + 30_000);
  });

  it('several candidates give a FallbackSummaryError listing each model, telling billing and auth from rate limits', async () => {
    const w = world({
      profiles: ['openai:a', 'anthropic:a', 'google:a'],
      config: { agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['anthropic/claude-x', 'google/gemini-x'] } } } },
    });
    const error = (await w.fail({ openai: [{ status: 429 }], anthropic: [{ status: 402 }], google: [{ status: 401 }] })) as FallbackSummaryError;
    expect(FallbackSummaryError.isInstance(error)).toBe(true);
    expect(error.code).toBe('all_models_failed');
    expect(error.message).toBe(
      'All models failed (3): openai/gpt-x: rate limited (HTTP 429) | anthropic/claude-x: billing problem: out of credits or over the spending limit (check the provider account) (HTTP 402) | google/gemini-x: authentication failed (check the credential of this auth profile) (HTTP 401)',
    );
    expect(error.allRateLimited).toBe(false);
    expect(FailoverError.isInstance(error.cause)).toBe(true);
    expect((error.cause as FailoverError).model).toBe('gemini-x');
  });

  it('says "all models are temporarily rate-limited" with the soonest model-aware expiry only when true', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    w.store.setUsageStats('anthropic:a', { cooldownUntil: NOW + 5_000, cooldownModel: 'other-model', cooldownReason: 'rate_limit', errorCount: 1 });
    const error = (await w.fail({ openai: [{ status: 429, headers: { 'retry-after': '45' } }], anthropic: [{ status: 429 }] })) as FallbackSummaryError;
    expect(error.allRateLimited).toBe(true);
    expect(error.soonestCooldownExpiry).toBe(NOW + 5_000);
    expect(error.message).toContain('All models are temporarily rate-limited; retry after 1970-01-01T00:16:45.000Z (in 5 s).');
  });

  it('the soonest expiry ignores a model-scoped cooldown of a model that was not attempted', async () => {
    const w = world({
      profiles: ['openai:a', 'openai:b', 'anthropic:a'],
      config: { auth: { cooldowns: { rateLimitedProfileRotations: 0 } }, agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['anthropic/claude-x'] } } } },
    });
    w.store.setUsageStats('openai:b', { cooldownUntil: NOW + 1_000, cooldownModel: 'unrelated', cooldownReason: 'rate_limit' });
    const error = (await w.fail({ openai: [{ status: 429 }], anthropic: [{ status: 429 }] })) as FallbackSummaryError;
    expect(error.soonestCooldownExpiry).toBe(NOW + 30_000);
  });

  it('a skipped single candidate reports the skip reason and when the provider is usable again', async () => {
    const w = world({ profiles: ['openai:a'] });
    w.store.setUsageStats('openai:a', { cooldownUntil: NOW + 600_000, cooldownReason: 'rate_limit', cooldownNamed: true, failureCounts: { rate_limit: 3 } });
    const error = (await w.fail({}, { fallbacksOverride: [] })) as FailoverError;
    expect(error).toMatchObject({ kind: 'exhausted', reason: 'rate_limit', status: null, soonestCooldownExpiry: NOW + 600_000 });
    expect(error.message).toContain('The model is temporarily rate-limited; retry after');
  });

  it('a strict 429 whose provider asked for 8 s says retry in 8 s (the moment it asked for), not the 30 s cooldown', async () => {
    const w = world({ profiles: ['openai:a'] });
    const error = (await w.fail({ openai: [{ status: 429, headers: { 'retry-after': '8' } }] }, { fallbacksOverride: [] })) as FailoverError;
    expect(error.exhaustion).toMatchObject({ kind: 'rate_limited', reasons: ['rate_limit'], finalReason: 'rate_limit', finalStatus: 429 });
    const failedAt = error.attempts[0]?.atMs ?? Number.NaN;
    expect(error.exhaustion.recovery.retryAt).toBe(failedAt + 8_000);
    expect(error.soonestCooldownExpiry).toBe(failedAt + 30_000);
    expect(error.message).toContain('The model is temporarily rate-limited; retry after');
    expect(error.message).toContain('(in 8 s).');
  });

  it('a candidate skipped for a timeout cooldown is cooling down after timeouts, not rate-limited', async () => {
    const w = world({ profiles: ['openai:a'] });
    w.store.setUsageStats('openai:a', { cooldownUntil: NOW + 60_000, cooldownReason: 'timeout', errorCount: 2, failureCounts: { timeout: 2 } });
    expect(await w.store.tryAcquireProbe('openai', NOW, 30_000)).toBe(true);
    const error = (await w.fail({}, { fallbacksOverride: [] })) as FailoverError;
    expect(error).toMatchObject({ kind: 'exhausted', reason: 'timeout', status: null });
    expect(error.exhaustion).toMatchObject({ kind: 'cooling_down', reasons: ['timeout'], recovery: { profile: NOW + 60_000, retryAt: NOW + 60_000 } });
    expect(error.message).toContain('The model is cooling down after timeouts; retry after 1970-01-01T00:17:40.000Z (in 1 min).');
    expect(error.message).not.toContain('rate-limited');
  });

  it('a live switch outside the chain hands the turn back (LiveSessionModelSwitchError)', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    w.store.setSession('s1', { pendingLiveSwitch: { provider: 'mistral', model: 'large', requestedAt: 5 } });
    const error = (await w.fail({ openai: [{ status: 401 }] })) as LiveSessionModelSwitchError;
    expect(LiveSessionModelSwitchError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'live_session_model_switch', target: { provider: 'mistral', model: 'large' } });
    expect(w.store.session('s1')?.pendingLiveSwitch).toBeUndefined();
  });
});
