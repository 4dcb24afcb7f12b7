/**
 * `fixtures/provider-errors-15.jsonl` and `fixtures/provider-errors-15-heldout.jsonl`: a fifteenth set of public
 * payloads — any provider, gateway, tool or client, for variety — collected by one person who never ran the classifier
 * on them, after the fourteenth set's collectors had taken the first hits (fixtures/SCORES.md, fifteenth pass). The
 * whole set was scored once on the rules after the fourteenth pass before anything was done with it. Held back by
 * provider family within the set.
 */
import { describeFamilySplitSet } from './test-support/family-split-set.js';
import type { PinnedMiss } from './test-support/family-split-set.js';

/** The seed of the fifteenth set's own family split. */
const SET_15_SPLIT_SEED = 'set15-heldout-2026-12-07:';

/** Rows the rules miss, pinned to what the classifier answers, with why no family covers them. */
const PINNED: ReadonlyMap<string, PinnedMiss> = new Map([]);

describeFamilySplitSet({
  file: 'provider-errors-15.jsonl',
  title: 'any provider, gateway, tool or client, for variety',
  idPrefix: 'c15',
  minRows: 90,
  minFamilies: 30,
  pinned: PINNED,
  heldBack: { seed: SET_15_SPLIT_SEED },
  rowTests: false,
});
