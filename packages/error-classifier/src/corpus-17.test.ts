/**
 * `fixtures/provider-errors-17.jsonl` and `fixtures/provider-errors-17-heldout.jsonl`: a seventeenth, small set of public
 * payloads collected with the last of the search budget by one person who never ran the classifier on them (most from
 * run logs and recorded test snapshots in public repositories, the one corpus earlier collectors had not searched). It
 * was scored once on the rules after the sixteenth pass, unseen (10/11), then opened (fixtures/SCORES.md, seventeenth
 * pass). Every row is a test.
 */
import { describeFamilySplitSet } from './test-support/family-split-set.js';
import type { PinnedMiss } from './test-support/family-split-set.js';

/** The seed of the seventeenth set's own family split. */
const SET_17_SPLIT_SEED = 'set17-heldout-2026-12-07:';

/** No row is pinned. */
const PINNED: ReadonlyMap<string, PinnedMiss> = new Map();

describeFamilySplitSet({
  file: 'provider-errors-17.jsonl',
  title: 'the last of the search budget: run logs and recorded snapshots',
  idPrefix: 'c17',
  minRows: 11,
  pinned: PINNED,
  heldBack: { seed: SET_17_SPLIT_SEED },
});
