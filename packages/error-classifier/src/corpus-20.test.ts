/**
 * `fixtures/provider-errors-20.jsonl` and `fixtures/provider-errors-20-heldout.jsonl`: a small twentieth set of public
 * payloads collected by one person who never ran the classifier on them, told that ten collectors had taken the first
 * hits (e-readers, editors, translators, game mods and other languages). It was scored once on the rules after the
 * nineteenth pass, unseen (35/37), then opened (fixtures/SCORES.md, twentieth pass). Every row is a test.
 */
import { describeFamilySplitSet } from './test-support/family-split-set.js';
import type { PinnedMiss } from './test-support/family-split-set.js';

/** The seed of the twentieth set's own family split. */
const SET_20_SPLIT_SEED = 'set20-heldout-2026-12-07:';

/** No row is pinned. */
const PINNED: ReadonlyMap<string, PinnedMiss> = new Map();

describeFamilySplitSet({
  file: 'provider-errors-20.jsonl',
  title: 'one collector after ten: what the others would not have searched',
  idPrefix: 'c20',
  minRows: 37,
  pinned: PINNED,
  heldBack: { seed: SET_20_SPLIT_SEED },
});
