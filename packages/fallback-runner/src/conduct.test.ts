/**
 * Silent routes, short Retry-After waits and context-window fallback (docs/policy.md#what-each-reason-does,
 * docs/policy.md#retries-probes-and-rotation).
 */
import { describe, expect, it } from 'vitest';
import { FailoverError } from './index.js';
import { brief, world } from './test-support/harness.js';

const SILENT = { code: 'ETIMEDOUT', message: 'first token timeout', abortCause: 'timeout' as const, timeoutKind: 'first_token' as const, latencyMs: 15_000 };
const OVERFLOW = { status: 400, body: '{"error":{"code":"context_length_exceeded","message":"maximum context length exceeded"}}' };

describe('silent routes: a spent time limit is not retried in place while something else can answer', () => {
  it('rotates once to the next profile, then advances', async () => {
    const w = world();
    const result = await w.run({ openai: [SILENT, SILENT] });
    expect(brief(result.attempts)).toEqual(['call openai/gpt-x@openai:a timeout', 'call openai/gpt-x@openai:b timeout', 'call anthropic/claude-x@anthropic:a']);
    expect(w.clock.sleeps).toEqual([]);
  });

  it('keeps the quick same-profile retry for a fast transport failure', async () => {
    const w = world();
    const result = await w.run({ openai: [{ code: 'ECONNRESET', message: 'socket hang up' }] });
    expect(brief(result.attempts)).toEqual(['call openai/gpt-x@openai:a timeout', 'call openai/gpt-x@openai:a']);
  });

  it('applies the bounded retry budget when nothing else can answer (strict, one profile)', async () => {
    const w = world({ profiles: ['openai:a'] });
    const result = await w.run({ openai: [SILENT] }, { fallbacksOverride: [] });
    expect(brief(result.attempts)).toEqual(['call openai/gpt-x@openai:a timeout', 'call openai/gpt-x@openai:a']);
  });

  it('auth.cooldowns.timeoutProfileRotations: 0 advances at once', async () => {
    const w = world({ config: { auth: { cooldowns: { timeoutProfileRotations: 0 } }, agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['anthropic/claude-x'] } } } } });
    const result = await w.run({ openai: [SILENT] });
    expect(brief(result.attempts)).toEqual(['call openai/gpt-x@openai:a timeout', 'call anthropic/claude-x@anthropic:a']);
  });
});

describe('a short Retry-After (≤ retry.provider.maxRetryAfterWaitMs)', () => {
  it('rotates to another eligible profile first', async () => {
    const w = world();
    const result = await w.run({ 'openai/gpt-x@openai:a': [{ status: 429, headers: { 'retry-after': '2' } }] });
    expect(brief(result.attempts)).toEqual(['call openai/gpt-x@openai:a rate_limit 429', 'call openai/gpt-x@openai:b']);
    expect(w.clock.sleeps).toEqual([]);
  });

  it('is waited out on the only profile, then the same profile answers', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    const result = await w.run({ openai: [{ status: 429, headers: { 'retry-after': '2' } }] });
    expect(brief(result.attempts)).toEqual(['call openai/gpt-x@openai:a rate_limit 429', 'call openai/gpt-x@openai:a']);
    expect(w.clock.sleeps).toEqual([2_000]);
    expect(w.store.usageStats('openai:a').cooldownUntil).toBeUndefined();
  });

  it('counts against the retry budget, then falls back', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'], config: { retry: { provider: { maxRetries: 1 } }, agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['anthropic/claude-x'] } } } } });
    const limited = { status: 429, headers: { 'retry-after': '1' } };
    const result = await w.run({ openai: [limited, limited] });
    expect(brief(result.attempts)).toEqual(['call openai/gpt-x@openai:a rate_limit 429', 'call openai/gpt-x@openai:a rate_limit 429', 'call anthropic/claude-x@anthropic:a']);
    expect(w.clock.sleeps).toEqual([1_000]);
  });

  it('a longer one fails over at once', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    const result = await w.run({ openai: [{ status: 429, headers: { 'retry-after': '6' } }] });
    expect(brief(result.attempts)).toEqual(['call openai/gpt-x@openai:a rate_limit 429', 'call anthropic/claude-x@anthropic:a']);
    expect(w.clock.sleeps).toEqual([]);
  });

  it('is still bounded by the SDK cap when that is shorter (the one place the cap applies)', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    const result = await w.run({ openai: [{ status: 429, headers: { 'retry-after': '2' } }] }, {}, { maxRetryAfterMs: 1_000 });
    expect(brief(result.attempts)).toEqual(['call openai/gpt-x@openai:a rate_limit 429', 'call anthropic/claude-x@anthropic:a']);
    expect(w.clock.sleeps).toEqual([]);
    const exact = world({ profiles: ['openai:a', 'anthropic:a'] });
    await exact.run({ openai: [{ status: 429, headers: { 'retry-after': '2' } }] }, {}, { maxRetryAfterMs: 2_000 });
    expect(exact.clock.sleeps).toEqual([2_000]);
  });
});

describe('context overflow moves only to a larger declared window', () => {
  const models = {
    providers: {
      openai: { baseUrl: 'http://127.0.0.1:9/v1', api: 'openai-completions' as const, models: [{ id: 'gpt-x', contextWindow: 8_000 }, { id: 'gpt-y', contextWindow: 8_000 }] },
      anthropic: { baseUrl: 'http://127.0.0.1:9', api: 'anthropic-messages' as const, models: [{ id: 'claude-x', contextWindow: 200_000 }] },
    },
  };

  it('skips a candidate whose window is not larger (skip reason context_window) and answers from the larger one', async () => {
    const w = world({ config: { models, agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['openai/gpt-y', 'anthropic/claude-x'] } } } } });
    const result = await w.run({ 'openai/gpt-x': [OVERFLOW] });
    expect(brief(result.attempts)).toEqual(['call openai/gpt-x@openai:a context_overflow 400', 'skip openai/gpt-y@- context_overflow', 'call anthropic/claude-x@anthropic:a']);
    expect(result.attempts[1]).toMatchObject({ skipReason: 'context_window', detail: 'context_window' });
  });

  it('tries contextFallbacks that are not in the chain', async () => {
    const w = world({ config: { models, agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['openai/gpt-y'], contextFallbacks: ['anthropic/claude-x'] } } } } });
    const result = await w.run({ 'openai/gpt-x': [OVERFLOW] });
    expect(result.candidate).toMatchObject({ provider: 'anthropic', model: 'claude-x' });
  });

  it('ends the turn when no candidate has a larger window', async () => {
    const w = world({ config: { models, agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['openai/gpt-y'] } } } } });
    const error = await w.fail({ 'openai/gpt-x': [OVERFLOW] });
    expect(FailoverError.isInstance(error) && error.reason === 'context_overflow' && error.kind === 'terminal').toBe(true);
  });
});

describe('a profile whose cooldown just ended (docs/policy.md#retries-probes-and-rotation)', () => {
  const DOWN = { status: 503, body: '{"error":{"message":"Service Unavailable","type":"server_error"}}' };

  it('gets one call and no retry in place while its last failure is under one probe throttle old', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    // Failed 25 s ago; the 20 s cooldown has ended, the 30 s probe throttle has not.
    await w.store.updateUsageStats('openai:a', () => ({ errorCount: 1, failureCounts: { overloaded: 1 }, lastFailureAt: w.clock.nowMs() - 25_000, cooldownUntil: w.clock.nowMs() - 5_000, cooldownReason: 'overloaded' }));
    const result = await w.run({ openai: [DOWN, DOWN, DOWN] });
    expect(brief(result.attempts)).toEqual(['call openai/gpt-x@openai:a overloaded 503', 'call anthropic/claude-x@anthropic:a']);
  });

  it('gets one call and no retry in place while its cooldown ended under one probe throttle ago, however old the failure', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    // Failed 60 s ago into a 60 s window that ended 1 s ago: the provider may well still be down.
    await w.store.updateUsageStats('openai:a', () => ({ errorCount: 2, failureCounts: { overloaded: 2 }, lastFailureAt: w.clock.nowMs() - 61_000, cooldownUntil: w.clock.nowMs() - 1_000, cooldownReason: 'overloaded' }));
    const result = await w.run({ openai: [DOWN, DOWN, DOWN] });
    expect(brief(result.attempts)).toEqual(['call openai/gpt-x@openai:a overloaded 503', 'call anthropic/claude-x@anthropic:a']);
  });

  it('gets the retries in place again once its last failure is a throttle window old', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    await w.store.updateUsageStats('openai:a', () => ({ errorCount: 1, failureCounts: { overloaded: 1 }, lastFailureAt: w.clock.nowMs() - 31_000 }));
    const result = await w.run({ openai: [DOWN] });
    expect(brief(result.attempts)).toEqual(['call openai/gpt-x@openai:a overloaded 503', 'call openai/gpt-x@openai:a']);
  });
});

describe('a failed ordinary call takes the probe slot (docs/policy.md#retries-probes-and-rotation "Probes")', () => {
  const DOWN = { status: 503, body: '{"error":{"message":"Service Unavailable","type":"server_error"}}' };

  it('a primary that goes down gets its retry budget once, then one call per throttle window, and is back within one window of recovering', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    const startMs = w.clock.nowMs();
    const recoversAtMs = startMs + 40_000;
    const primaryCalls: { runAtMs: number; attempts: number }[] = [];
    let backAtMs: number | undefined;
    // One request every 2 s; the primary answers 503 for 40 s, then is healthy (the bench's recovery run).
    for (let runAtMs = startMs; backAtMs === undefined && runAtMs < startMs + 120_000; runAtMs += 2_000) {
      w.clock.advance(Math.max(0, runAtMs - w.clock.nowMs()));
      const down = w.clock.nowMs() < recoversAtMs;
      const result = await w.run({ openai: down ? [DOWN, DOWN, DOWN, DOWN, DOWN] : [] });
      const calls = result.attempts.filter((attempt) => attempt.provider === 'openai' && attempt.kind !== 'skip').length;
      if (calls > 0) primaryCalls.push({ runAtMs: runAtMs - startMs, attempts: calls });
      if (result.candidate.provider === 'openai') backAtMs = w.clock.nowMs();
    }
    // The first run spends the retry budget (1 call + 3 retries); each later run that reaches the primary during
    // the outage is a single call, at least one throttle window after the previous one.
    expect(primaryCalls[0]).toEqual({ runAtMs: 0, attempts: 4 });
    const later = primaryCalls.slice(1).filter((entry) => entry.runAtMs < 40_000);
    expect(later.every((entry) => entry.attempts === 1)).toBe(true);
    for (const [index, entry] of later.entries()) {
      const previous = index === 0 ? 0 : (later[index - 1]?.runAtMs ?? 0);
      expect(entry.runAtMs - previous).toBeGreaterThanOrEqual(30_000);
    }
    expect(backAtMs).toBeDefined();
    expect((backAtMs ?? 0) - recoversAtMs).toBeLessThanOrEqual(30_000);
  });

  it('a cooldown the provider named (Retry-After) does not take the slot: its near-expiry probe is not delayed', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    await w.run({ openai: [{ status: 429, headers: { 'retry-after': '40' } }] });
    w.clock.advance(10_000);
    const result = await w.run({});
    expect(brief(result.attempts)).toEqual(['probe openai/gpt-x@openai:a']);
  });
});

describe('format retries follow the config by default (models.providers.<id>.allowFormatRetry)', () => {
  const BAD_TOOL_ID = { status: 400, body: `{"error":{"message":"Invalid 'messages[2].tool_calls[0].id': string does not match pattern '^[a-zA-Z0-9_-]+$'.","type":"invalid_request_error"}}` };
  const providers = (allowFormatRetry: boolean) => ({
    openai: { baseUrl: 'http://127.0.0.1:9/v1', api: 'openai-completions' as const, allowFormatRetry },
    anthropic: { baseUrl: 'http://127.0.0.1:9', api: 'anthropic-messages' as const },
  });
  const chain = { agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['anthropic/claude-x'] } } } };

  it('retries the repaired request once on the same profile when the provider opted in', async () => {
    const w = world({ config: { ...chain, models: { providers: providers(true) } } });
    const result = await w.run({ openai: [BAD_TOOL_ID] });
    expect(brief(result.attempts)).toEqual(['call openai/gpt-x@openai:a format 400', 'call openai/gpt-x@openai:a']);
  });

  it('advances without the opt-in', async () => {
    const w = world({ config: { ...chain, models: { providers: providers(false) } } });
    const result = await w.run({ openai: [BAD_TOOL_ID] });
    expect(brief(result.attempts)).toEqual(['call openai/gpt-x@openai:a format 400', 'call anthropic/claude-x@anthropic:a']);
  });
});
