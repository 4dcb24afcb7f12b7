/**
 * `fixtures/provider-errors-3.jsonl`: public payloads quoted in issue threads and provider docs, each with its
 * source. Every row is a test (its `expect`, or a reason its `accept` list allows). The held-back fifth
 * (`split: "heldout"`) is fixed by a hash of the row id, so no one chooses which rows are held back; it is
 * scored like the rest here, and its before/after scores are recorded in `fixtures/SCORES.md`.
 */
import { createHash } from 'node:crypto';
import { isFailoverReason } from '@understudy/contracts';
import { describe, expect, it } from 'vitest';
import { classifyFailure } from './index.js';
import { FIXTURE_NOW_MS, loadJsonLines } from './test-support/fixtures.js';
import type { CorpusRow } from './test-support/fixtures.js';

const rows = loadJsonLines<CorpusRow>('provider-errors-3.jsonl');

/** The split rule: held back when the first 8 hex digits of sha1("split:" + id) are divisible by 5. */
function splitOf(id: string): 'dev' | 'heldout' {
  const digest = createHash('sha1').update(`split:${id}`).digest('hex');
  return Number.parseInt(digest.slice(0, 8), 16) % 5 === 0 ? 'heldout' : 'dev';
}

describe('provider-errors-3.jsonl (public payloads)', () => {
  it('has at least 300 sourced rows across at least 30 providers, ids unique', () => {
    expect(rows.length).toBeGreaterThanOrEqual(300);
    expect(new Set(rows.map((row) => row.provider)).size).toBeGreaterThanOrEqual(30);
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    for (const row of rows) {
      expect(row.source, row.id).toMatch(/^https:\/\//);
      expect(isFailoverReason(row.expect), row.id).toBe(true);
      for (const reason of row.accept ?? []) expect(isFailoverReason(reason), row.id).toBe(true);
    }
  });

  it('splits off the held-back fifth by the hash of the row id', () => {
    for (const row of rows) expect(row.split, row.id).toBe(splitOf(row.id));
    const held = rows.filter((row) => row.split === 'heldout').length;
    expect(held).toBeGreaterThan(rows.length * 0.1);
    expect(held).toBeLessThan(rows.length * 0.3);
  });

  it('covers the hard shapes: wrappers, SSE errors in a 200, HTML, empty answers, CJK, misleading words', () => {
    const shapes = rows.flatMap((row) => row.shape.split(','));
    for (const shape of ['proxy_wrapper', 'sse_error_in_200', 'html', 'cjk', 'misleading_words', 'nested_json_string']) {
      expect(shapes, shape).toContain(shape);
    }
    expect(shapes.some((shape) => shape.startsWith('empty_200'))).toBe(true);
  });

  it.each(rows.map((row) => [`${row.id} [${row.split}] (${row.provider}) → ${row.expect}`, row] as const))(
    '%s',
    (_name, row) => {
      const result = classifyFailure(row, { nowMs: FIXTURE_NOW_MS });
      const allowed = [row.expect, ...(row.accept ?? [])];
      expect(allowed, `${row.why} (got ${result.reason})`).toContain(result.reason);
      if (typeof row.status === 'number') expect(result.status).toBe(row.status);
    },
  );
});
