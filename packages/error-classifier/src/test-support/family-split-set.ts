/**
 * The tests of a corpus set held back by provider family (sets 8 and 9; fixtures/SCORES.md, eighth and ninth
 * passes): its rows sourced and labelled, the held-back file holding exactly the rows of the families the seeded
 * provider split holds back across all corpus files, no payload repeated from an earlier file, no key-like secret,
 * and then every row a test — its `expect`, or a reason its `accept` list allows — except the pinned misses.
 */
import { describe, expect, it } from 'vitest';
import { classifyFailure } from '../index.js';
import { PROVIDER_SPLIT_FILES, corpusFilesBefore, expectNoKeyLikeSecret, expectOnlyFakeIdentifiers, expectSourcedRows, fixtureTexts, repeatedRows } from './corpus.js';
import type { CORPUS_FILES } from './corpus.js';
import { FIXTURE_NOW_MS, loadJsonLines } from './fixtures.js';
import type { CorpusRow } from './fixtures.js';
import { heldBackFamilies, providerFamily } from './scores.js';

/** A row the rules miss, pinned to what the classifier answers, with why no family covers it. */
export interface PinnedMiss {
  readonly got: string;
  readonly why: string;
}

/** One set held back by provider family. */
export interface FamilySplitSet {
  /** The dev file (a {@link CORPUS_FILES} entry); its held-back file is the same name with `-heldout`. */
  readonly file: (typeof CORPUS_FILES)[number];
  /** What the set is, for the describe titles. */
  readonly title: string;
  readonly idPrefix: string;
  readonly minRows: number;
  /** At least this many provider families. @default no check */
  readonly minFamilies?: number;
  /** Rows pinned as misses, by id. */
  readonly pinned: ReadonlyMap<string, PinnedMiss>;
  /**
   * Which families are held back: `'provider-split'`, those of the seeded provider split over sets 1–9
   * ({@link PROVIDER_SPLIT_FILES}); or `{ seed }`, the families of this set alone, ordered by sha1(seed + family) and
   * taken until they hold a fifth of the set's rows or more. @default 'provider-split'
   */
  readonly heldBack?: 'provider-split' | { readonly seed: string };
  /**
   * False while the held-back part has not been measured yet: the set's checks run, its rows are not tests.
   * @default true
   */
  readonly rowTests?: boolean;
}

/** The provider families a set holds back (see {@link FamilySplitSet.heldBack}). */
export function setHeldBackFamilies(set: Pick<FamilySplitSet, 'heldBack'>, rows: readonly CorpusRow[]): ReadonlySet<string> {
  const heldBack = set.heldBack ?? 'provider-split';
  if (heldBack === 'provider-split') return heldBackFamilies(PROVIDER_SPLIT_FILES.flatMap((file) => loadJsonLines<CorpusRow>(file)));
  return heldBackFamilies(rows, heldBack.seed);
}

/** Registers the set's checks and its row tests. */
export function describeFamilySplitSet(set: FamilySplitSet): void {
  const name = set.file.replace(/\.jsonl$/, '');
  const dev = loadJsonLines<CorpusRow>(set.file);
  const held = loadJsonLines<CorpusRow>(`${name}-heldout.jsonl`);
  const rows = [...dev, ...held];

  describe(`${name} (${set.title}, held back by provider family)`, () => {
    it(`has at least ${set.minRows} sourced rows with known reasons, ids unique and derived from source and body`, () => {
      expectSourcedRows(rows, { minRows: set.minRows, idPrefix: set.idPrefix, sourcePattern: /^https?:\/\// });
    });

    if (set.minFamilies !== undefined) {
      const minFamilies = set.minFamilies;
      it(`spans at least ${minFamilies} provider families`, () => {
        expect(new Set(rows.map((row) => providerFamily(row.provider))).size).toBeGreaterThanOrEqual(minFamilies);
      });
    }

    it('holds back exactly the rows of the families its seeded split holds back', () => {
      const families = setHeldBackFamilies(set, rows);
      for (const row of held) {
        expect(families.has(providerFamily(row.provider)), row.id).toBe(true);
        expect(row.split, row.id).toBe('heldout');
      }
      for (const row of dev) {
        expect(families.has(providerFamily(row.provider)), row.id).toBe(false);
        expect(row.split, row.id).toBe('dev');
      }
    });

    it('shares no payload with an earlier fixture file nor repeats another row of its own', () => {
      const earlier = fixtureTexts([...corpusFilesBefore(set.file), 'reference-vectors.jsonl']);
      expect(repeatedRows(rows, earlier, { withinSet: true })).toEqual([]);
    });

    it('carries no key-like secret, and only obvious fakes where a provider printed a masked key or an account id', () => {
      expectNoKeyLikeSecret(rows);
      expectOnlyFakeIdentifiers(rows);
    });
  });

  if (set.rowTests === false) return;
  describe(`${name} rows`, () => {
    it.each(rows.map((row) => [`${row.id} [${row.split}] (${row.provider}) → ${row.expect}`, row] as const))('%s', (_name, row) => {
      const result = classifyFailure(row, { nowMs: FIXTURE_NOW_MS });
      const miss = set.pinned.get(row.id);
      if (miss !== undefined) {
        expect(result.reason, miss.why).toBe(miss.got);
        return;
      }
      expect([row.expect, ...(row.accept ?? [])], `${row.why} (got ${result.reason})`).toContain(result.reason);
      if (typeof row.status === 'number') expect(result.status).toBe(row.status);
    });
  });
}
