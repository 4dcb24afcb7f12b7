/**
 * `fixtures/provider-errors-7.jsonl` and `fixtures/provider-errors-7-heldout.jsonl`: a seventh set of public payloads
 * (issue and pull-request threads), collected after the sixth set's held-back fifth was opened, none of them in an
 * earlier fixture by text. The held-back part is chosen by source, not by row: the sources (thread URLs) are ordered
 * by a seeded hash and taken, first to last, until they hold a fifth of the rows or more, so near-duplicate wordings
 * from one thread never fall on both sides of the split (fixtures/SCORES.md, seventh pass). Every row, held back or
 * not, is a test (its `expect`, or a reason its `accept` list allows); the held-back rows became tests only after
 * their score was taken.
 */
import { describe, expect, it } from 'vitest';
import { classifyFailure } from './index.js';
import { FIXTURE_NOW_MS, loadJsonLines } from './test-support/fixtures.js';
import type { CorpusRow } from './test-support/fixtures.js';
import { corpusFilesBefore, expectNoKeyLikeSecret, expectSourcedRows, fixtureTexts, repeatedRows, seededKey } from './test-support/corpus.js';

const dev = loadJsonLines<CorpusRow>('provider-errors-7.jsonl');
const held = loadJsonLines<CorpusRow>('provider-errors-7-heldout.jsonl');
const rows = [...dev, ...held];

/** The seeded order of the split: ascending sha1("heldout-2026-12-03c:" + source). */
const splitKey = (source: string): string => seededKey('heldout-2026-12-03c:', source);

/** The normalised texts of every earlier fixture file. */
const earlierTexts = (): string[] => fixtureTexts([...corpusFilesBefore('provider-errors-7.jsonl'), 'reference-vectors.jsonl']);

describe('provider-errors-7 (fresh public payloads, a fifth held back by source)', () => {
  it('has at least 100 sourced rows with known reasons, ids unique and derived from source and body', () => {
    expectSourcedRows(rows, { minRows: 100, idPrefix: 'c7', sourcePattern: /^https:\/\// });
  });

  it('holds back the rows of the sources that come first in the seeded order, until they are a fifth or more', () => {
    const sources = [...new Set(rows.map((row) => row.source))].sort((a, b) => (splitKey(a) < splitKey(b) ? -1 : 1));
    const heldSources = new Set<string>();
    let heldRows = 0;
    for (const source of sources) {
      if (heldRows * 5 >= rows.length) break;
      heldSources.add(source);
      heldRows += rows.filter((row) => row.source === source).length;
    }
    expect(new Set(held.map((row) => row.source))).toEqual(heldSources);
    expect(held.length).toBe(heldRows);
    for (const row of held) expect(row.split, row.id).toBe('heldout');
    for (const row of dev) {
      expect(row.split, row.id).toBe('dev');
      expect(heldSources.has(row.source), row.id).toBe(false);
    }
  });

  it('shares no payload with an earlier fixture file nor repeats another row of its own', () => {
    expect(repeatedRows(rows, earlierTexts(), { withinSet: true })).toEqual([]);
  });

  it('carries no key-like secret', () => {
    expectNoKeyLikeSecret(rows);
  });
});

describe('provider-errors-7 rows', () => {
  it.each(rows.map((row) => [`${row.id} [${row.split}] (${row.provider}) → ${row.expect}`, row] as const))('%s', (_name, row) => {
    const result = classifyFailure(row, { nowMs: FIXTURE_NOW_MS });
    expect([row.expect, ...(row.accept ?? [])], `${row.why} (got ${result.reason})`).toContain(result.reason);
    if (typeof row.status === 'number') expect(result.status).toBe(row.status);
  });
});
