/**
 * `fixtures/provider-errors-6.jsonl` and `fixtures/provider-errors-6-heldout.jsonl`: a sixth set of public payloads
 * (issue threads, two documentation pages), collected after the fifth set's held-back fifth was opened, none of them
 * in an earlier fixture by text. A fifth of the rows, chosen by a seeded hash of the row id, is sealed in the
 * held-back file, so no one picks which rows are held back; its before/after scores are recorded in
 * `fixtures/SCORES.md` (sixth pass). Every row, held back or not, is a test (its `expect`, or a reason its `accept`
 * list allows), except the few listed in {@link KNOWN_DEV_MISSES} with the reason no family covers them yet; the
 * held-back rows became tests only after their score was taken.
 */
import { createHash } from 'node:crypto';
import { isFailoverReason } from '@understudy/contracts';
import { describe, expect, it } from 'vitest';
import { classifyFailure } from './index.js';
import { FIXTURE_NOW_MS, loadJsonLines } from './test-support/fixtures.js';
import type { CorpusRow } from './test-support/fixtures.js';

const dev = loadJsonLines<CorpusRow>('provider-errors-6.jsonl');
const held = loadJsonLines<CorpusRow>('provider-errors-6-heldout.jsonl');
const rows = [...dev, ...held];

/** The seeded order of the split: ascending sha1("heldout-2026-12-03b:" + id). */
const splitKey = (id: string): string => createHash('sha1').update(`heldout-2026-12-03b:${id}`).digest('hex');

/** Lower-cased text with runs of white space made one space, to compare payloads by text. */
const normalise = (text: string): string => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** The texts of every earlier fixture file: corpus rows (`body` / `message`) and reference vectors (`input`). */
const earlierTexts = [
  'provider-errors.jsonl',
  'extra-cases.jsonl',
  'provider-errors-2.jsonl',
  'provider-errors-3.jsonl',
  'provider-errors-4.jsonl',
  'provider-errors-4-heldout.jsonl',
  'provider-errors-5.jsonl',
  'provider-errors-5-heldout.jsonl',
  'reference-vectors.jsonl',
].flatMap((name) =>
  loadJsonLines<{ body?: unknown; message?: unknown; input?: { body?: unknown; message?: unknown } }>(name).flatMap((row) =>
    [row.body, row.message, row.input?.body, row.input?.message]
      .filter((text): text is string => typeof text === 'string' && text.trim() !== '')
      .map(normalise),
  ),
);

/** True when one text repeats the other: equal, `text` inside `other`, or `other` making up half of `text` or more. */
const repeats = (text: string, other: string): boolean =>
  other.includes(text) || (text.includes(other) && other.length * 2 >= text.length);

describe('provider-errors-6 (fresh public payloads, a sealed fifth)', () => {
  it('has at least 120 sourced rows with known reasons, ids unique and derived from source and body', () => {
    expect(rows.length).toBeGreaterThanOrEqual(120);
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    for (const row of rows) {
      expect(row.source, row.id).toMatch(/^https:\/\//);
      expect(row.why.length, row.id).toBeGreaterThan(10);
      expect(isFailoverReason(row.expect), row.id).toBe(true);
      for (const reason of row.accept ?? []) expect(isFailoverReason(reason), row.id).toBe(true);
      const digest = createHash('sha1').update(`${row.source}\n${row.body ?? ''}`).digest('hex');
      expect(row.id).toBe(`c6-${digest.slice(0, 10)}`);
    }
  });

  it('holds back exactly the fifth of the rows that comes first in the seeded order', () => {
    const ordered = [...rows].sort((a, b) => (splitKey(a.id) < splitKey(b.id) ? -1 : 1));
    const heldIds = new Set(ordered.slice(0, Math.floor(rows.length / 5)).map((row) => row.id));
    expect(new Set(held.map((row) => row.id))).toEqual(heldIds);
    for (const row of held) expect(row.split, row.id).toBe('heldout');
    for (const row of dev) expect(row.split, row.id).toBe('dev');
  });

  it('shares no payload with an earlier fixture file nor repeats another row of its own', () => {
    const texts = rows.map((row) => normalise(row.body ?? row.message ?? ''));
    const repeated: string[] = [];
    texts.forEach((text, index) => {
      if (earlierTexts.some((earlier) => repeats(text, earlier))) repeated.push(`${rows[index]?.id} repeats an earlier fixture`);
      texts.forEach((other, otherIndex) => {
        if (otherIndex !== index && repeats(text, other)) repeated.push(`${rows[index]?.id} repeats ${rows[otherIndex]?.id}`);
      });
    });
    expect(repeated).toEqual([]);
  });

  it('carries no key-like secret', () => {
    for (const row of rows) expect(row.body ?? '', row.id).not.toMatch(/sk-[A-Za-z0-9]{8,}|AIza[0-9A-Za-z_-]{20,}|hf_[A-Za-z0-9]{20,}/);
  });
});

/**
 * Dev rows the rules still miss, each with why no family (rather than a pattern for the one row) covers it; each is
 * pinned to what the classifier answers today, so a change that fixes or moves one is seen (SCORES.md, sixth pass).
 */
const KNOWN_DEV_MISSES: ReadonlyMap<string, { readonly got: string; readonly why: string }> = new Map([
  ['c6-9af27bb741', { got: 'format', why: 'NIM "DEGRADED function cannot be invoked" is sent as a 400; capacity words under a client status step aside (third pass), and no second degraded-deployment shape is known' }],
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
