/**
 * `fixtures/provider-errors-6.jsonl` and `fixtures/provider-errors-6-heldout.jsonl`: a sixth set of public payloads
 * (issue threads, two documentation pages), collected after the fifth set's held-back fifth was opened, none of them
 * in an earlier fixture by text. A fifth of the rows, chosen by a seeded hash of the row id, is sealed in the
 * held-back file, so no one picks which rows are held back; its before/after scores are recorded in
 * `fixtures/SCORES.md` (sixth pass). Every row, held back or not, is a test (its `expect`, or a reason its `accept`
 * list allows), except the few listed in {@link KNOWN_DEV_MISSES} with the reason no family covers them yet; the
 * held-back rows became tests only after their score was taken.
 */
import { describe, expect, it } from 'vitest';
import { classifyFailure } from './index.js';
import { FIXTURE_NOW_MS, loadJsonLines } from './test-support/fixtures.js';
import type { CorpusRow } from './test-support/fixtures.js';
import { corpusFilesBefore, expectFifthHeldBack, expectNoKeyLikeSecret, expectSourcedRows, fixtureTexts, repeatedRows, seededKey } from './test-support/corpus.js';

const dev = loadJsonLines<CorpusRow>('provider-errors-6.jsonl');
const held = loadJsonLines<CorpusRow>('provider-errors-6-heldout.jsonl');
const rows = [...dev, ...held];

/** The seeded order of the split: ascending sha1("heldout-2026-12-03b:" + id). */
const splitKey = (id: string): string => seededKey('heldout-2026-12-03b:', id);

/** The normalised texts of every earlier fixture file. */
const earlierTexts = fixtureTexts([...corpusFilesBefore('provider-errors-6.jsonl'), 'reference-vectors.jsonl']);

describe('provider-errors-6 (fresh public payloads, a sealed fifth)', () => {
  it('has at least 120 sourced rows with known reasons, ids unique and derived from source and body', () => {
    expectSourcedRows(rows, { minRows: 120, idPrefix: 'c6', sourcePattern: /^https:\/\// });
  });

  it('holds back exactly the fifth of the rows that comes first in the seeded order', () => {
    expectFifthHeldBack(dev, held, splitKey);
  });

  it('shares no payload with an earlier fixture file nor repeats another row of its own', () => {
    expect(repeatedRows(rows, earlierTexts, { withinSet: true })).toEqual([]);
  });

  it('carries no key-like secret', () => {
    expectNoKeyLikeSecret(rows);
  });
});

/**
 * Dev rows the rules still miss, each with why no family (rather than a pattern for the one row) covers it; each is
 * pinned to what the classifier answers today, so a change that fixes or moves one is seen (SCORES.md, sixth pass).
 * NIM's "DEGRADED function cannot be invoked" under a 400 left this list in the tenth pass, when a second row of it
 * (set 10) made it a family: a hosted function in a degraded state is capacity whatever status the host puts on it.
 */
const KNOWN_DEV_MISSES: ReadonlyMap<string, { readonly got: string; readonly why: string }> = new Map([
  ['c6-cb5c3c0d80', { got: 'unclassified', why: 'an agent CLI result object ({"type":"result","subtype":"success","result":""}) pasted with a line break inside a string: not JSON, and its empty `result` is no completion shape' }],
  ['c6-2d51090757', { got: 'unclassified', why: 'the relay text is pasted with typos ("auota", "enouah"); the billing phrase for it is spelled correctly' }],
]);

describe('provider-errors-6 rows', () => {
  it.each(rows.map((row) => [`${row.id} [${row.split}] (${row.provider}) → ${row.expect}`, row] as const))('%s', (_name, row) => {
    const result = classifyFailure(row, { nowMs: FIXTURE_NOW_MS });
    const miss = KNOWN_DEV_MISSES.get(row.id);
    if (miss !== undefined) {
      expect(result.reason, miss.why).toBe(miss.got);
      return;
    }
    expect([row.expect, ...(row.accept ?? [])], `${row.why} (got ${result.reason})`).toContain(result.reason);
    if (typeof row.status === 'number') expect(result.status).toBe(row.status);
  });
});
