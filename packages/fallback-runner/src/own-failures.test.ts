/**
 * Only what a provider answered (or the wire failing) marks an auth profile (issue 20, defect 2): a request
 * that was never sent (`phase: 'request'`) and an exception of ours (a bare engine error) leave every profile
 * healthy, however often they happen (docs/policy.md#what-each-reason-does).
 */
import { describe, expect, it } from 'vitest';
import { FallbackSummaryError, isOwnException } from './index.js';
import { brief, world } from './test-support/harness.js';

const notSent = {
  phase: 'request' as const,
  code: 'REQUEST_NOT_SERIALISABLE',
  errorType: 'invalid_request_error',
  message: 'the request could not be serialised for openai-completions: Maximum call stack size exceeded',
};

describe('a request that was never sent', () => {
  it('marks no profile, is not retried on the same profile, and advances to the next candidate', async () => {
    const w = world();
    const result = await w.run({ openai: [notSent, notSent] });
    expect(result.value).toBe('anthropic/claude-x');
    expect(brief(result.attempts)).toEqual(['call openai/gpt-x@openai:a format', 'call anthropic/claude-x@anthropic:a']);
    expect(w.store.usageStats('openai:a')).toEqual({});
    expect(w.store.usageStats('openai:b')).toEqual({});
  });

  it('three in a row on every candidate leave every profile healthy', async () => {
    const w = world();
    for (let round = 0; round < 3; round += 1) {
      const error = await w.fail({ openai: [notSent, notSent], anthropic: [notSent] });
      expect(FallbackSummaryError.isInstance(error)).toBe(true);
    }
    for (const id of ['openai:a', 'openai:b', 'anthropic:a']) expect(w.store.usageStats(id)).toEqual({});
  });
});

describe('an exception of ours thrown by the attempt', () => {
  it('ends the turn unchanged and marks nothing', async () => {
    const w = world();
    const thrown = new RangeError('Maximum call stack size exceeded');
    for (let round = 0; round < 3; round += 1) {
      expect(await w.fail({}, {}, { attempt: () => Promise.reject(thrown) })).toBe(thrown);
    }
    for (const id of ['openai:a', 'openai:b', 'anthropic:a']) expect(w.store.usageStats(id)).toEqual({});
  });

  it('a thrown transport error is read by its cause\'s code, as the providers read it (issue 13)', async () => {
    const w = world();
    const thrown = new TypeError('fetch failed', { cause: Object.assign(new Error('connect timed out'), { code: 'UND_ERR_CONNECT_TIMEOUT' }) });
    const error = await w.fail({}, {}, { attempt: () => Promise.reject(thrown) });
    expect(FallbackSummaryError.isInstance(error)).toBe(true);
    const reasons = (error as FallbackSummaryError).attempts.map((attempt) => attempt.reason);
    expect(reasons.length).toBeGreaterThan(0);
    expect(new Set(reasons)).toEqual(new Set(['timeout']));
  });

  it('is told from what an SDK throws for a provider answer or a broken connection', () => {
    expect(isOwnException(new RangeError('Maximum call stack size exceeded'))).toBe(true);
    expect(isOwnException(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(true);
    expect(isOwnException(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }))).toBe(false);
    expect(isOwnException(Object.assign(new TypeError('invalid header'), { code: 'UND_ERR_INVALID_ARG' }))).toBe(false);
    expect(isOwnException(Object.assign(new Error('429 Too Many Requests'), { status: 429 }))).toBe(false);
    expect(isOwnException(new Error('socket hang up'))).toBe(false);
    expect(isOwnException('a string')).toBe(false);
  });
});

describe('a same-profile retry re-checks availability first (defect 5)', () => {
  it('drops the retry when another request cooled the profile during the backoff', async () => {
    const w = world();
    const calls: string[] = [];
    const result = await w.run(
      {},
      {},
      {
        attempt: async (candidate, profile) => {
          const id = profile?.view.id ?? '-';
          calls.push(id);
          if (id === 'openai:a') {
            // Another request cools openai:a while this one waits to retry it.
            await w.store.updateUsageStats('openai:a', (stats) => ({ ...stats, cooldownUntil: w.clock.nowMs() + 60_000, cooldownReason: 'overloaded' }));
            return { ok: false, failure: { status: 503, body: 'overloaded' } };
          }
          return { ok: true, value: `${candidate.provider}/${candidate.model}` };
        },
      },
    );
    expect(calls.filter((id) => id === 'openai:a')).toHaveLength(1);
    expect(result.value).toBe('openai/gpt-x');
    expect(calls).toEqual(['openai:a', 'openai:b']);
  });

  it('still retries a profile nobody cooled', async () => {
    const w = world();
    const result = await w.run({ 'openai/gpt-x@openai:a': [{ status: 503 }] });
    expect(result.calls.map((call) => call.profile)).toEqual(['openai:a', 'openai:a']);
  });
});
