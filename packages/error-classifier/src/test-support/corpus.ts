/**
 * The checks every fresh corpus file shares (packages/error-classifier/fixtures/SCORES.md, "Method"): rows sourced
 * and labelled with a reason, ids derived from source and body, a seeded held-back split, and no payload that an
 * earlier fixture file already holds.
 */
import { createHash } from 'node:crypto';
import { isFailoverReason } from '@understudy/contracts';
import { expect } from 'vitest';
import { loadJsonLines } from './fixtures.js';
import type { CorpusRow } from './fixtures.js';

/** Lower-cased text with runs of white space made one space, to compare payloads by text. */
function normaliseText(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** The seeded order key of a split: sha1(`seed` + value), hex. */
export function seededKey(seed: string, value: string): string {
  return createHash('sha1').update(`${seed}${value}`).digest('hex');
}

/** True when one text repeats the other: equal, `text` inside `other`, or `other` making up half of `text` or more. */
function repeatsText(text: string, other: string): boolean {
  return other.includes(text) || (text.includes(other) && other.length * 2 >= text.length);
}

/** The corpus files in the order they were added (each one's held-back file right after it). */
export const CORPUS_FILES = [
  'provider-errors.jsonl',
  'extra-cases.jsonl',
  'provider-errors-2.jsonl',
  'provider-errors-3.jsonl',
  'provider-errors-4.jsonl',
  'provider-errors-4-heldout.jsonl',
  'provider-errors-5.jsonl',
  'provider-errors-5-heldout.jsonl',
  'provider-errors-6.jsonl',
  'provider-errors-6-heldout.jsonl',
  'provider-errors-7.jsonl',
  'provider-errors-7-heldout.jsonl',
  'provider-errors-8.jsonl',
  'provider-errors-8-heldout.jsonl',
  'provider-errors-9.jsonl',
  'provider-errors-9-heldout.jsonl',
  'provider-errors-10.jsonl',
  'provider-errors-10-heldout.jsonl',
  'provider-errors-11.jsonl',
  'provider-errors-11-heldout.jsonl',
  'provider-errors-12.jsonl',
  'provider-errors-12-heldout.jsonl',
  'provider-errors-13.jsonl',
  'provider-errors-13-heldout.jsonl',
  'provider-errors-14.jsonl',
  'provider-errors-14-heldout.jsonl',
  'provider-errors-15.jsonl',
  'provider-errors-15-heldout.jsonl',
  'provider-errors-16.jsonl',
  'provider-errors-16-heldout.jsonl',
  'provider-errors-17.jsonl',
  'provider-errors-17-heldout.jsonl',
  'provider-errors-18.jsonl',
  'provider-errors-18-heldout.jsonl',
  'provider-errors-19.jsonl',
  'provider-errors-19-heldout.jsonl',
  'provider-errors-20.jsonl',
  'provider-errors-20-heldout.jsonl',
  'provider-errors-21.jsonl',
  'provider-errors-21-heldout.jsonl',
  'provider-errors-22.jsonl',
  'provider-errors-22-heldout.jsonl',
  'provider-errors-23.jsonl',
  'provider-errors-23-heldout.jsonl',
  'provider-errors-24.jsonl',
  'provider-errors-24-heldout.jsonl',
  'provider-errors-25.jsonl',
  'provider-errors-25-heldout.jsonl',
  'provider-errors-26.jsonl',
  'provider-errors-26-heldout.jsonl',
  'provider-errors-27.jsonl',
  'provider-errors-27-heldout.jsonl',
  'provider-errors-28.jsonl',
  'provider-errors-28-heldout.jsonl',
  'provider-errors-29.jsonl',
  'provider-errors-29-heldout.jsonl',
  'provider-errors-30.jsonl',
  'provider-errors-30-heldout.jsonl',
  'provider-errors-31.jsonl',
  'provider-errors-31-heldout.jsonl',
  'provider-errors-32.jsonl',
  'provider-errors-32-heldout.jsonl',
  'provider-errors-33.jsonl',
  'provider-errors-33-heldout.jsonl',
  'provider-errors-34.jsonl',
  'provider-errors-34-heldout.jsonl',
  'provider-errors-35.jsonl',
  'provider-errors-35-heldout.jsonl',
  'provider-errors-36.jsonl',
  'provider-errors-36-heldout.jsonl',
  'provider-errors-37.jsonl',
  'provider-errors-37-heldout.jsonl',
  'provider-errors-38.jsonl',
  'provider-errors-38-heldout.jsonl',
  'provider-errors-39.jsonl',
  'provider-errors-39-heldout.jsonl',
] as const;

/**
 * The files the provider split of the eighth pass is drawn over (sets 1–9, fixtures/SCORES.md). Later sets hold back
 * families of their own, chosen within the set by a seed of their own, so adding a set never moves that split.
 */
export const PROVIDER_SPLIT_FILES: readonly string[] = CORPUS_FILES.slice(0, CORPUS_FILES.indexOf('provider-errors-10.jsonl'));

/** The corpus files added before `file` (the files a new set must not repeat). */
export function corpusFilesBefore(file: (typeof CORPUS_FILES)[number]): string[] {
  return CORPUS_FILES.slice(0, CORPUS_FILES.indexOf(file));
}

/** The normalised texts of fixture files: corpus rows (`body` / `message`) and reference vectors (`input`). */
export function fixtureTexts(files: readonly string[]): string[] {
  return files.flatMap((name) =>
    loadJsonLines<{ body?: unknown; message?: unknown; input?: { body?: unknown; message?: unknown } }>(name).flatMap((row) =>
      [row.body, row.message, row.input?.body, row.input?.message]
        .filter((text): text is string => typeof text === 'string' && text.trim() !== '')
        .map(normaliseText),
    ),
  );
}

/**
 * Expects at least `minRows` rows, ids unique and equal to `<idPrefix>-` + sha1(source + "\n" + body)[0:10], each
 * with a source matching `sourcePattern`, a written reason (`why`) and known failover reasons.
 */
export function expectSourcedRows(rows: readonly CorpusRow[], options: { readonly minRows: number; readonly idPrefix: string; readonly sourcePattern: RegExp }): void {
  expect(rows.length).toBeGreaterThanOrEqual(options.minRows);
  expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
  for (const row of rows) {
    expect(row.source, row.id).toMatch(options.sourcePattern);
    expect(row.why.length, row.id).toBeGreaterThan(10);
    expect(isFailoverReason(row.expect), row.id).toBe(true);
    for (const reason of row.accept ?? []) expect(isFailoverReason(reason), row.id).toBe(true);
    const digest = createHash('sha1').update(`${row.source}\n${row.body ?? ''}`).digest('hex');
    expect(row.id).toBe(`${options.idPrefix}-${digest.slice(0, 10)}`);
  }
}

/**
 * Expects the held-back rows to be exactly the first fifth (rounded down) of all rows ordered by `splitKey(id)`,
 * marked `split: 'heldout'`, and every other row marked `split: 'dev'`.
 */
export function expectFifthHeldBack(dev: readonly CorpusRow[], held: readonly CorpusRow[], splitKey: (id: string) => string): void {
  const rows = [...dev, ...held];
  const ordered = [...rows].sort((a, b) => (splitKey(a.id) < splitKey(b.id) ? -1 : 1));
  const heldIds = new Set(ordered.slice(0, Math.floor(rows.length / 5)).map((row) => row.id));
  expect(new Set(held.map((row) => row.id))).toEqual(heldIds);
  for (const row of held) expect(row.split, row.id).toBe('heldout');
  for (const row of dev) expect(row.split, row.id).toBe('dev');
}

/**
 * The rows whose payload repeats an earlier fixture text ({@link repeatsText}) and, with `withinSet`, another
 * row of the same set, as readable lines (`<id> repeats …`); empty when every payload is new.
 */
export function repeatedRows(rows: readonly CorpusRow[], earlier: readonly string[], options: { readonly withinSet: boolean }): string[] {
  const texts = rows.map((row) => normaliseText(row.body ?? row.message ?? ''));
  const repeated: string[] = [];
  texts.forEach((text, index) => {
    if (earlier.some((other) => repeatsText(text, other))) repeated.push(`${rows[index]?.id} repeats an earlier fixture`);
    if (!options.withinSet) return;
    texts.forEach((other, otherIndex) => {
      if (otherIndex !== index && repeatsText(text, other)) repeated.push(`${rows[index]?.id} repeats ${rows[otherIndex]?.id}`);
    });
  });
  return repeated;
}

/**
 * Expects every identifier a provider printed half-masked or whole to be an obvious fake: a masked key shows `sk-test-`
 * around its stars (not the real key's first and last characters), organisation, project and user ids read `test…` or
 * `xxx…`, a Cloudflare cookie `test-cookie-value` (sets 8 and later; the id-split sets before them keep their rows).
 */
export function expectOnlyFakeIdentifiers(rows: readonly CorpusRow[]): void {
  for (const row of rows) {
    const body = row.body ?? '';
    expect(body, row.id).not.toMatch(/sk-(?!test-)[A-Za-z0-9_-]{0,60}\*{2}/);
    expect(body, row.id).not.toMatch(/\b(?:org-|proj_|user_)(?![xX]{12,}|(?:test){3})[A-Za-z0-9]{12,}/);
    expect(body, row.id).not.toMatch(/__cf_bm=(?!test-)/);
  }
}

/** Expects no row's body to hold a key-like string (OpenAI `sk-…`, Google `AIza…`, Hugging Face `hf_…`). */
export function expectNoKeyLikeSecret(rows: readonly CorpusRow[]): void {
  for (const row of rows) expect(row.body ?? '', row.id).not.toMatch(/sk-[A-Za-z0-9]{8,}|AIza[0-9A-Za-z_-]{20,}|hf_[A-Za-z0-9]{20,}/);
}
