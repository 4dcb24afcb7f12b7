/**
 * Every row of the captured provider-error corpus is a test: its `expect` is the truth, except for rows listed
 * in `fixtures/known-disagreements.json`, where the reviewed label is asserted instead. The held-out style set
 * `fixtures/extra-cases.jsonl` is checked the same way, plus `status` and `retryAfterMs` where a row states them.
 * `fixtures/provider-errors-2.jsonl` (a second captured corpus) passes when the reason is its `expect` or one of
 * the reasons its `accept` list allows.
 */
import { FAILOVER_REASONS, isFailoverReason } from '@understudy/contracts';
import { describe, expect, it } from 'vitest';
import { classifyFailure } from './index.js';
import { FIXTURE_NOW_MS, loadFixtureRows, loadKnownDisagreements } from './test-support/fixtures.js';
import type { FixtureRow } from './test-support/fixtures.js';

const corpus = loadFixtureRows('provider-errors.jsonl');
const extra = loadFixtureRows('extra-cases.jsonl');
const second = loadFixtureRows('provider-errors-2.jsonl');
const disagreements = new Map(loadKnownDisagreements().map((row) => [row.id, row]));

const caseName = (row: FixtureRow): string => `${row.id} (${row.provider ?? 'no provider'}) → ${row.expect}`;

describe('provider-errors.jsonl corpus', () => {
  it('has the captured rows, each with a known expected reason', () => {
    expect(corpus.length).toBe(119);
    for (const row of corpus) expect(isFailoverReason(row.expect), row.id).toBe(true);
  });

  it('keeps known disagreements under 3% of rows, each reviewed and pointing at a real row', () => {
    expect(disagreements.size).toBeLessThanOrEqual(Math.floor(corpus.length * 0.03));
    const ids = new Set(corpus.map((row) => row.id));
    for (const disagreement of disagreements.values()) {
      expect(ids.has(disagreement.id), disagreement.id).toBe(true);
      expect(isFailoverReason(disagreement.label), disagreement.id).toBe(true);
      expect(disagreement.reason.length, disagreement.id).toBeGreaterThan(20);
    }
  });

  it.each(corpus.map((row) => [caseName(row), row] as const))('%s', (_name, row) => {
    const expected = disagreements.get(row.id)?.label ?? row.expect;
    const result = classifyFailure(row, { nowMs: FIXTURE_NOW_MS });
    expect(result.reason, row.why).toBe(expected);
    if (typeof row.status === 'number') expect(result.status).toBe(row.status);
  });
});

describe('extra-cases.jsonl (held-out style set)', () => {
  it('has at least 60 rows, distinct from the corpus, covering every reason the classifier returns', () => {
    expect(extra.length).toBeGreaterThanOrEqual(60);
    const corpusTexts = new Set(corpus.map((row) => row.body ?? row.message));
    for (const row of extra) expect(corpusTexts.has(row.body ?? row.message), row.id).toBe(false);
    const covered = new Set(extra.map((row) => row.expect));
    // `unknown` is the runner's label for an unrecognised error it recorded; the classifier says `unclassified`.
    for (const reason of FAILOVER_REASONS.filter((name) => name !== 'unknown')) expect(covered, reason).toContain(reason);
  });

  it.each(extra.map((row) => [caseName(row), row] as const))('%s', (_name, row) => {
    const result = classifyFailure(row, { nowMs: FIXTURE_NOW_MS });
    expect(result.reason, row.why).toBe(row.expect);
    if (typeof row.status === 'number') expect(result.status).toBe(row.status);
    if (row.expectStatus !== undefined) expect(result.status).toBe(row.expectStatus);
    if (row.expectRetryAfterMs !== undefined) expect(result.retryAfterMs).toBe(row.expectRetryAfterMs);
  });
});

describe('provider-errors-2.jsonl (second captured corpus)', () => {
  it('has the captured rows, each with a known expected reason', () => {
    expect(second.length).toBe(126);
    for (const row of second) expect(isFailoverReason(row.expect), row.id).toBe(true);
  });

  it.each(second.map((row) => [caseName(row), row] as const))('%s', (_name, row) => {
    const result = classifyFailure(row, { nowMs: FIXTURE_NOW_MS });
    const allowed = [row.expect, ...(row.accept ?? [])];
    expect(allowed, `${row.why} (got ${result.reason})`).toContain(result.reason);
    if (typeof row.status === 'number') expect(result.status).toBe(row.status);
  });
});
