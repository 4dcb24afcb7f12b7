/**
 * Conduct when several requests meet the same failing profile at once (docs/policy.md#retries-probes-and-rotation):
 * at the start of an outage only one request retries a profile in place; when a cooldown runs out, only one
 * request calls the profile that was cooling (it is the provider's probe). Every run here shares one store and
 * one clock, and the primary's calls are held until all of them are in flight.
 */
import type { AttemptFunction, Candidate, ProviderFailure, ResolvedProfile } from '@understudy/contracts';
import { profileProbeKey } from '@understudy/cooldown-scheduler';
import { describe, expect, it } from 'vitest';
import { runWithModelFallback } from './index.js';
import type { FallbackRunResult } from './index.js';
import { brief, world } from './test-support/harness.js';
import type { World } from './test-support/harness.js';
import { seededRandom } from './testing/index.js';

const UNAVAILABLE: ProviderFailure = { status: 503, message: 'Service Unavailable' };

/**
 * An attempt function whose primary (`openai`) calls wait until `release()`, then answer `primary` (a failure, or
 * `'ok'`); every other provider answers at once.
 */
function heldPrimary(primary: ProviderFailure | 'ok'): { attempt: AttemptFunction<string>; calls: () => number; waiting: () => number; release: () => void } {
  let calls = 0;
  let waiting = 0;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let released = false;
  const attempt: AttemptFunction<string> = async (candidate: Candidate, profile: ResolvedProfile | null) => {
    const ref = `${candidate.provider}/${candidate.model}@${profile?.view.id ?? '-'}`;
    if (candidate.provider !== 'openai') return { ok: true, value: ref };
    calls += 1;
    if (!released) {
      waiting += 1;
      await gate;
    }
    return primary === 'ok' ? { ok: true, value: ref } : { ok: false, failure: primary };
  };
  return {
    attempt,
    calls: () => calls,
    waiting: () => waiting,
    release: () => {
      released = true;
      open();
    },
  };
}

/** Starts `count` runs together on the world's store and clock; resolves when the primary's calls are all held. */
async function concurrentRuns(w: World, count: number, primary: ProviderFailure | 'ok'): Promise<{ results: FallbackRunResult<string>[]; primaryCalls: number }> {
  const held = heldPrimary(primary);
  const random = seededRandom(11);
  const runs = Array.from({ length: count }, (_, index) =>
    runWithModelFallback({ request: { agentId: 'main', sessionKey: `s${index}` }, config: w.config, store: w.store, attempt: held.attempt, clock: w.clock, random }),
  );
  const expected = count;
  for (let turn = 0; turn < 1000 && held.waiting() < expected; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  held.release();
  const results = await Promise.all(runs);
  return { results, primaryCalls: held.calls() };
}

describe('concurrent requests at the start of an outage', () => {
  it('cost one primary call each: one request may retry in place, the others give up on the profile at once and mark it', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    const { results, primaryCalls } = await concurrentRuns(w, 20, UNAVAILABLE);
    expect(primaryCalls).toBe(20);
    expect(results.every((result) => result.value === 'anthropic/claude-x@anthropic:a')).toBe(true);
    // The retrier found the profile cooled by the others after its backoff and did not retry into it.
    expect(results.flatMap((result) => brief(result.attempts)).filter((line) => line.startsWith('call openai'))).toHaveLength(20);
    expect(w.store.usageStats('openai:a').cooldownUntil).toBeGreaterThan(w.clock.nowMs());
  });

  it('a lone failure is still retried in place (the slot is free), and the retry answers', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    const result = await w.run({ openai: [UNAVAILABLE] });
    expect(brief(result.attempts)).toEqual(['call openai/gpt-x@openai:a overloaded 503', 'call openai/gpt-x@openai:a']);
    // The retrier freed its slot when it was answered: the next lone blip, a moment later, is retried too.
    const next = await w.run({ openai: [UNAVAILABLE] });
    expect(brief(next.attempts)).toEqual(['call openai/gpt-x@openai:a overloaded 503', 'call openai/gpt-x@openai:a']);
  });

  it('a short Retry-After the provider named is waited out by every request it was given to', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    const limited: ProviderFailure = { status: 429, headers: { 'retry-after': '1' }, message: 'Too Many Requests' };
    let calls = 0;
    const attempt: AttemptFunction<string> = async (candidate) => {
      if (candidate.provider !== 'openai') return { ok: true, value: 'fallback' };
      calls += 1;
      await Promise.resolve();
      return calls <= 3 ? { ok: false, failure: limited } : { ok: true, value: 'primary' };
    };
    const results = await Promise.all(
      [0, 1, 2].map((index) =>
        runWithModelFallback({ request: { agentId: 'main', sessionKey: `r${index}` }, config: w.config, store: w.store, attempt, clock: w.clock, random: seededRandom(3) }),
      ),
    );
    expect(results.map((result) => result.value)).toEqual(['primary', 'primary', 'primary']);
    expect(calls).toBe(6);
  });
});

describe('concurrent requests when a computed cooldown has just run out', () => {
  async function cooledThenExpired(w: World): Promise<void> {
    const nowMs = w.clock.nowMs();
    await w.store.updateUsageStats('openai:a', () => ({ errorCount: 1, failureCounts: { overloaded: 1 }, cooldownUntil: nowMs - 1_000, cooldownReason: 'overloaded', lastFailureAt: nowMs - 31_000 }));
  }

  it('send one call to the profile that was cooling (it takes the profile\'s probe slot); the others answer from the fallback, passed over as probe_throttled', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    await cooledThenExpired(w);
    const { results, primaryCalls } = await concurrentRuns(w, 4, UNAVAILABLE);
    expect(primaryCalls).toBe(1);
    const lines = results.map((result) => brief(result.attempts).join(' | '));
    expect(lines.filter((line) => line.startsWith('call openai/gpt-x@openai:a overloaded 503 | call anthropic'))).toHaveLength(1);
    expect(lines.filter((line) => line === 'skip openai/gpt-x@openai:a overloaded | call anthropic/claude-x@anthropic:a')).toHaveLength(3);
    expect(results.flatMap((result) => result.attempts).filter((attempt) => attempt.kind === 'skip').map((attempt) => attempt.detail)).toEqual(['probe_throttled', 'probe_throttled', 'probe_throttled']);
  });

  it('a request that read the profile before that call answered and then found the slot taken reads it again, and calls it', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    await cooledThenExpired(w);
    const nowMs = w.clock.nowMs();
    const before = await w.store.loadProviderAuthState('openai');
    // Another request took the probe slot and its call answered (the success ended the cooldown's record).
    expect(await w.store.tryAcquireProbe(profileProbeKey('openai:a'), nowMs, 30_000)).toBe(true);
    await w.store.updateUsageStats('openai:a', () => ({ lastUsed: nowMs }));
    let stale = true;
    const store = new Proxy(w.store, {
      get(target, property) {
        if (property === 'loadProviderAuthState' && stale) {
          stale = false;
          return () => Promise.resolve(before);
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const result = await w.run({}, {}, { store });
    expect(brief(result.attempts)).toEqual(['call openai/gpt-x@openai:a']);
  });

  it('a probe of one profile does not hold back another profile of the provider whose window ran out', async () => {
    const w = world({ profiles: ['openai:a', 'openai:b', 'anthropic:a'] });
    await cooledThenExpired(w);
    const nowMs = w.clock.nowMs();
    await w.store.updateUsageStats('openai:b', () => ({ errorCount: 1, cooldownUntil: nowMs - 1_000, cooldownReason: 'overloaded', lastFailureAt: nowMs - 31_000 }));
    // openai:a was probed a moment ago (the provider's slot is taken) and failed again.
    expect(await w.store.tryAcquireProbe('openai', nowMs, 30_000)).toBe(true);
    expect(await w.store.tryAcquireProbe(profileProbeKey('openai:a'), nowMs, 30_000)).toBe(true);
    const result = await w.run({ 'openai/gpt-x@openai:a': [UNAVAILABLE] });
    // openai:a is passed over (its slot is taken); openai:b's own slot is free: it is called and answers.
    expect(brief(result.attempts)).toEqual(['call openai/gpt-x@openai:b']);
    expect(result.profile).toBe('openai:b');
  });

  it('a model-scoped cooldown of another model does not make the profile returning for this one', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    const nowMs = w.clock.nowMs();
    await w.store.updateUsageStats('openai:a', () => ({ errorCount: 1, cooldownUntil: nowMs - 1_000, cooldownModel: 'gpt-other', cooldownReason: 'rate_limit' }));
    const { primaryCalls } = await concurrentRuns(w, 3, 'ok');
    expect(primaryCalls).toBe(3);
  });
});

describe('when nothing else could answer (one candidate, one profile)', () => {
  const strict = { agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: [] } } } };

  it('concurrent requests at the start of an outage keep their retry budget: a blip is retried, not answered with an error', async () => {
    const w = world({ profiles: ['openai:a'], config: strict });
    const { results, primaryCalls } = await concurrentRunsUntil(w, 5);
    expect(results.every((result) => result.value === 'openai/gpt-x@openai:a')).toBe(true);
    expect(primaryCalls).toBe(10);
  });

  it('a profile whose window ran out is called by each of them, as ordinary calls with their retries', async () => {
    const w = world({ profiles: ['openai:a'], config: strict });
    await w.store.updateUsageStats('openai:a', () => ({ errorCount: 1, cooldownUntil: w.clock.nowMs() - 1_000, cooldownReason: 'overloaded', lastFailureAt: w.clock.nowMs() - 31_000 }));
    const { results, primaryCalls } = await concurrentRuns(w, 4, 'ok');
    expect(primaryCalls).toBe(4);
    expect(results.map((result) => brief(result.attempts).join(' | '))).toEqual(Array.from({ length: 4 }, () => 'call openai/gpt-x@openai:a'));
  });

  it('the first call after its window keeps its retries in place: a blip is answered, not an error', async () => {
    const w = world({ profiles: ['openai:a'], config: strict });
    await w.store.updateUsageStats('openai:a', () => ({ errorCount: 1, cooldownUntil: w.clock.nowMs() - 1_000, cooldownReason: 'overloaded', lastFailureAt: w.clock.nowMs() - 31_000 }));
    const result = await w.run({ openai: [UNAVAILABLE] });
    expect(brief(result.attempts)).toEqual(['call openai/gpt-x@openai:a overloaded 503', 'call openai/gpt-x@openai:a']);
  });
});

/** `count` concurrent runs on one profile: the first `count` calls (one per run, held until all are in flight) fail with 503, later calls answer. */
async function concurrentRunsUntil(w: World, count: number): Promise<{ results: FallbackRunResult<string>[]; primaryCalls: number }> {
  let calls = 0;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const attempt: AttemptFunction<string> = async (candidate, profile) => {
    calls += 1;
    if (calls > count) return { ok: true, value: `${candidate.provider}/${candidate.model}@${profile?.view.id ?? '-'}` };
    if (calls === count) open();
    await gate;
    return { ok: false, failure: UNAVAILABLE };
  };
  const runs = Array.from({ length: count }, (_, index) =>
    runWithModelFallback({ request: { agentId: 'main', sessionKey: `u${index}` }, config: w.config, store: w.store, attempt, clock: w.clock, random: seededRandom(5) }),
  );
  return { results: await Promise.all(runs), primaryCalls: calls };
}

describe('a model that does not exist costs its caller only (docs/policy.md#windows "Model scope")', () => {
  const MISSING: ProviderFailure = { status: 404, body: '{"error":{"message":"The model `bogus` does not exist","type":"invalid_request_error","code":"model_not_found"}}' };

  it('a real model of the same profile keeps its retries in place, its own reason and its first step of the ladder', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    const bogus = await w.fail({ 'openai/bogus': [MISSING] }, { model: 'openai/bogus', source: 'user' });
    expect(bogus).toBeDefined();
    expect(w.store.usageStats('openai:a')).toMatchObject({ cooldownModel: 'bogus', cooldownReason: 'model_not_found' });
    // A blip of the real model is still retried in place, though a fallback could answer (the 404 was no failure of
    // the credential, so the profile did not just fail).
    const blip = await w.run({ 'openai/gpt-x': [UNAVAILABLE] });
    expect(brief(blip.attempts)).toEqual(['call openai/gpt-x@openai:a overloaded 503', 'call openai/gpt-x@openai:a']);
    // A real rate limit of it is reported as a rate limit, and steps the ladder from its first step.
    const limited: ProviderFailure = { status: 429, body: '{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}' };
    await w.fail({ 'openai/bogus': [MISSING] }, { model: 'openai/bogus', source: 'user' });
    expect(w.store.usageStats('openai:a').failureCounts).toEqual({ model_not_found: 1 });
    const error = await w.fail({ 'openai/gpt-x': [limited, limited, limited, limited] }, { model: 'openai/gpt-x', source: 'user' });
    expect(error).toMatchObject({ reason: 'rate_limit' });
    expect(w.store.usageStats('openai:a')).toMatchObject({ cooldownModel: 'gpt-x', cooldownReason: 'rate_limit', errorCount: 1 });
    // While it cools, its turns are told it is rate limited — never that it does not exist.
    const skipped = await w.fail({}, { model: 'openai/gpt-x', source: 'user' });
    expect(skipped).toMatchObject({ reason: 'rate_limit' });
  });
});
