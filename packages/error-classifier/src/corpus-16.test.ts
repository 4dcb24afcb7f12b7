/**
 * `fixtures/provider-errors-16.jsonl` and `fixtures/provider-errors-16-heldout.jsonl`: a sixteenth set of public
 * payloads — what users of the popular coding and chat tools paste, and texts in other languages and from relays —
 * collected by two people who never ran the classifier on them, after the fourteenth and fifteenth sets' collectors had
 * taken the first hits (fixtures/SCORES.md, sixteenth pass). The whole set was scored once on the rules after the
 * fifteenth pass before anything was done with it. Held back by provider family within the set.
 */
import { describeFamilySplitSet } from './test-support/family-split-set.js';
import type { PinnedMiss } from './test-support/family-split-set.js';

/** The seed of the sixteenth set's own family split. */
const SET_16_SPLIT_SEED = 'set16-heldout-2026-12-07:';

/** Rows the rules miss, pinned to what the classifier answers, with why no family covers them. */
const PINNED: ReadonlyMap<string, PinnedMiss> = new Map([]);

describeFamilySplitSet({
  file: 'provider-errors-16.jsonl',
  title: 'popular coding and chat tools, other languages and relays',
  idPrefix: 'c16',
  minRows: 140,
  minFamilies: 30,
  pinned: PINNED,
  heldBack: { seed: SET_16_SPLIT_SEED },
  rowTests: false,
});
