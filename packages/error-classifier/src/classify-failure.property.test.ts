/**
 * Properties of the classifier over arbitrary input (fast-check): it never throws, always returns a known
 * reason with a policy-consistent cooldown scope, never alters a given status, and returns a non-negative
 * integer Retry-After or null.
 */
import { FAILOVER_REASONS } from '@understudy/contracts';
import type { ProviderFailure } from '@understudy/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyFailure, explainFailure } from './classify-failure.js';
import { REASON_POLICY } from './policy.js';
import { loadFixtureRows } from './test-support/fixtures.js';

const reasons = new Set<string>(FAILOVER_REASONS);
const corpusTexts = loadFixtureRows('provider-errors.jsonl').map((row) => row.body ?? row.message ?? '');

/** Strings that look like provider errors: fixture fragments glued to random text and JSON escapes. */
const errorishText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(...corpusTexts),
  fc.tuple(fc.constantFrom(...corpusTexts), fc.string(), fc.constantFrom(...corpusTexts)).map((parts) => parts.join('')),
  fc.json(),
  fc.array(fc.constantFrom('\\', '"', '<', '>', '\\n', '\\u00', '{', '}', 'rate limit', 'html', '429', 'model', ' ', 'try again in 1')).map((parts) => parts.join('')),
);

const failureArbitrary: fc.Arbitrary<ProviderFailure> = fc.record(
  {
    provider: fc.oneof(fc.constantFrom('openai', 'openrouter', 'anthropic', 'google', 'zai', 'qwen'), fc.string()),
    model: fc.string(),
    status: fc.oneof(fc.constant(null), fc.integer({ min: -1000, max: 1000 }), fc.double()),
    headers: fc.dictionary(fc.constantFrom('retry-after', 'Retry-After', 'retry-after-ms', 'x-other'), fc.string()),
    body: errorishText,
    message: errorishText,
    code: fc.oneof(fc.string(), fc.constantFrom('ECONNRESET', 'UND_ERR_SOCKET', 'RESOURCE_EXHAUSTED', 'CERT_HAS_EXPIRED', '1113')),
    errorType: fc.string(),
    details: fc.array(errorishText, { maxLength: 5 }),
    phase: fc.constantFrom('connect', 'headers', 'body', 'stream'),
    outputStarted: fc.boolean(),
    abortCause: fc.constantFrom('user', 'timeout'),
    timeoutKind: fc.constantFrom('connect', 'headers', 'first_token', 'stall', 'body', 'turn'),
  },
  { requiredKeys: [] },
);

function assertWellFormed(result: ReturnType<typeof classifyFailure>): void {
  expect(reasons.has(result.reason)).toBe(true);
  const policy = REASON_POLICY[result.reason];
  expect(result.cooldownScope).toBe(policy.lane === 'none' ? null : policy.scope);
  expect(typeof result.detail).toBe('string');
  expect(result.detail.length).toBeGreaterThan(0);
  if (result.retryAfterMs !== null) {
    expect(Number.isInteger(result.retryAfterMs)).toBe(true);
    expect(result.retryAfterMs).toBeGreaterThanOrEqual(0);
  }
}

describe('classifyFailure properties', () => {
  it('never throws and always returns a well-formed classification', () => {
    fc.assert(
      fc.property(failureArbitrary, fc.option(fc.integer({ min: 0, max: 4_102_444_800_000 }), { nil: undefined }), (failure, nowMs) => {
        assertWellFormed(classifyFailure(failure, { nowMs }));
      }),
      { numRuns: 400 },
    );
  });

  it('never throws on values that are not failures at all', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        assertWellFormed(classifyFailure(value as ProviderFailure));
      }),
      { numRuns: 300 },
    );
  });

  it('never alters a status it was given', () => {
    fc.assert(
      fc.property(failureArbitrary, fc.integer({ min: 0, max: 999 }), (failure, status) => {
        expect(classifyFailure({ ...failure, status }).status).toBe(status);
      }),
      { numRuns: 300 },
    );
  });

  it('is deterministic for the same failure and time', () => {
    fc.assert(
      fc.property(failureArbitrary, (failure) => {
        expect(explainFailure(failure, { nowMs: 0 })).toEqual(explainFailure(failure, { nowMs: 0 }));
      }),
      { numRuns: 200 },
    );
  });

  it('handles huge bodies (a bounded window of them) without throwing', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 0, maxLength: 64 }), fc.integer({ min: 70_000, max: 300_000 }), (seed, length) => {
        const body = (seed === '' ? 'x' : seed).repeat(Math.ceil(length / Math.max(seed.length, 1))).slice(0, length);
        assertWellFormed(classifyFailure({ status: null, body, message: body, details: [body, body] }));
      }),
      { numRuns: 20 },
    );
  });

  it('reads an error object at the tail of a huge body (the window keeps the tail)', () => {
    const body = `${'x'.repeat(2_000_000)}{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`;
    expect(classifyFailure({ status: 200, body }).reason).toBe('overloaded');
  });
});
