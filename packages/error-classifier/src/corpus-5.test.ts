/**
 * `fixtures/provider-errors-5.jsonl` and `fixtures/provider-errors-5-heldout.jsonl`: a fifth set of public
 * payloads (issue threads), collected after the fourth set's held-back fifth was opened, aimed at providers and
 * shapes the earlier sets have few of, none of them in an earlier fixture by text. A fifth of the rows, chosen by a seeded hash of the row id, is sealed in the held-back file, so no one
 * picks which rows are held back; its before/after scores are recorded in `fixtures/SCORES.md`. Every row, held back
 * or not, is a test (its `expect`, or a reason its `accept` list allows); the held-back rows became tests only after
 * their score was taken.
 */
import { createHash } from 'node:crypto';
import { isFailoverReason } from '@understudy/contracts';
import { describe, expect, it } from 'vitest';
import { classifyFailure } from './index.js';
import { FIXTURE_NOW_MS, loadJsonLines } from './test-support/fixtures.js';
import type { CorpusRow } from './test-support/fixtures.js';

const dev = loadJsonLines<CorpusRow>('provider-errors-5.jsonl');
const held = loadJsonLines<CorpusRow>('provider-errors-5-heldout.jsonl');
const rows = [...dev, ...held];

/** The seeded order of the split: ascending sha1("heldout-2026-12-03:" + id). */
const splitKey = (id: string): string => createHash('sha1').update(`heldout-2026-12-03:${id}`).digest('hex');

/** Lower-cased text with runs of white space made one space, to compare payloads by text. */
const normalise = (text: string): string => text.replace(/\s+/g, ' ').trim().toLowerCase();

const earlierTexts = [
  'provider-errors.jsonl',
  'extra-cases.jsonl',
  'provider-errors-2.jsonl',
  'provider-errors-3.jsonl',
  'provider-errors-4.jsonl',
  'provider-errors-4-heldout.jsonl',
].flatMap((name) =>
  loadJsonLines<{ body?: string; message?: string }>(name).flatMap((row) =>
    [row.body, row.message].filter((text): text is string => typeof text === 'string').map(normalise),
  ),
);

describe('provider-errors-5 (fresh public payloads from under-represented providers and shapes, a sealed fifth)', () => {
  it('has at least 120 sourced rows with known reasons, ids unique and derived from source and body', () => {
    expect(rows.length).toBeGreaterThanOrEqual(120);
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    for (const row of rows) {
      expect(row.source, row.id).toMatch(/^https:\/\/github\.com\//);
      expect(row.why.length, row.id).toBeGreaterThan(10);
      expect(isFailoverReason(row.expect), row.id).toBe(true);
      for (const reason of row.accept ?? []) expect(isFailoverReason(reason), row.id).toBe(true);
      const digest = createHash('sha1').update(`${row.source}\n${row.body ?? ''}`).digest('hex');
      expect(row.id).toBe(`c5-${digest.slice(0, 10)}`);
    }
  });

  it('holds back exactly the fifth of the rows that comes first in the seeded order', () => {
    const ordered = [...rows].sort((a, b) => (splitKey(a.id) < splitKey(b.id) ? -1 : 1));
    const heldIds = new Set(ordered.slice(0, Math.floor(rows.length / 5)).map((row) => row.id));
    expect(new Set(held.map((row) => row.id))).toEqual(heldIds);
    for (const row of held) expect(row.split, row.id).toBe('heldout');
    for (const row of dev) expect(row.split, row.id).toBe('dev');
  });

  it('shares no payload with an earlier fixture set (equal, or one text inside the other)', () => {
    for (const row of rows) {
      const text = normalise(row.body ?? row.message ?? '');
      for (const earlier of earlierTexts) {
        const inside = earlier.includes(text) || (text.includes(earlier) && earlier.length * 2 >= text.length);
        expect(inside, `${row.id} repeats an earlier fixture`).toBe(false);
      }
    }
  });

  it('carries no key-like secret', () => {
    for (const row of rows) expect(row.body ?? '', row.id).not.toMatch(/sk-[A-Za-z0-9]{8,}|AIza[0-9A-Za-z_-]{20,}|hf_[A-Za-z0-9]{20,}/);
  });

  it.each(rows.map((row) => [`${row.id} [${row.split}] (${row.provider}) → ${row.expect}`, row] as const))('%s', (_name, row) => {
    const result = classifyFailure(row, { nowMs: FIXTURE_NOW_MS });
    expect([row.expect, ...(row.accept ?? [])], `${row.why} (got ${result.reason})`).toContain(result.reason);
    if (typeof row.status === 'number') expect(result.status).toBe(row.status);
  });
});
