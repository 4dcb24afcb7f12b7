/**
 * `fixtures/provider-errors-5.jsonl` and `fixtures/provider-errors-5-heldout.jsonl`: a fifth set of public
 * payloads (issue threads), collected after the fourth set's held-back fifth was opened, aimed at providers and
 * shapes the earlier sets have few of, none of them in an earlier fixture by text. A fifth of the rows, chosen by a seeded hash of the row id, is sealed in the held-back file, so no one
 * picks which rows are held back; its before/after scores are recorded in `fixtures/SCORES.md`. Every row, held back
 * or not, is a test (its `expect`, or a reason its `accept` list allows); the held-back rows became tests only after
 * their score was taken.
 */
import { describe, expect, it } from 'vitest';
import { classifyFailure } from './index.js';
import { FIXTURE_NOW_MS, loadJsonLines } from './test-support/fixtures.js';
import type { CorpusRow } from './test-support/fixtures.js';
import { corpusFilesBefore, expectFifthHeldBack, expectNoKeyLikeSecret, expectSourcedRows, fixtureTexts, repeatedRows, seededKey } from './test-support/corpus.js';

const dev = loadJsonLines<CorpusRow>('provider-errors-5.jsonl');
const held = loadJsonLines<CorpusRow>('provider-errors-5-heldout.jsonl');
const rows = [...dev, ...held];

/** The seeded order of the split: ascending sha1("heldout-2026-12-03:" + id). */
const splitKey = (id: string): string => seededKey('heldout-2026-12-03:', id);

/** The normalised texts of every earlier fixture file. */
const earlierTexts = fixtureTexts(corpusFilesBefore('provider-errors-5.jsonl'));

describe('provider-errors-5 (fresh public payloads from under-represented providers and shapes, a sealed fifth)', () => {
  it('has at least 120 sourced rows with known reasons, ids unique and derived from source and body', () => {
    expectSourcedRows(rows, { minRows: 120, idPrefix: 'c5', sourcePattern: /^https:\/\/github\.com\// });
  });

  it('holds back exactly the fifth of the rows that comes first in the seeded order', () => {
    expectFifthHeldBack(dev, held, splitKey);
  });

  it('shares no payload with an earlier fixture set (equal, or one text inside the other)', () => {
    expect(repeatedRows(rows, earlierTexts, { withinSet: false })).toEqual([]);
  });

  it('carries no key-like secret', () => {
    expectNoKeyLikeSecret(rows);
  });

  it.each(rows.map((row) => [`${row.id} [${row.split}] (${row.provider}) → ${row.expect}`, row] as const))('%s', (_name, row) => {
    const result = classifyFailure(row, { nowMs: FIXTURE_NOW_MS });
    expect([row.expect, ...(row.accept ?? [])], `${row.why} (got ${result.reason})`).toContain(result.reason);
    if (typeof row.status === 'number') expect(result.status).toBe(row.status);
  });
});
