/**
 * `fixtures/provider-errors-11.jsonl` and `fixtures/provider-errors-11-heldout.jsonl`: an eleventh set of public payloads,
 * collected by three people who never ran the classifier on them, each from one slice of failure kinds — money, limits
 * and access; request-shaped errors; transport, server and empty answers — across all providers, no provider id with
 * more than eight rows (fixtures/SCORES.md, eleventh pass). The held-back part is chosen by provider family within the
 * set, as in the tenth.
 */
import { describeFamilySplitSet } from './test-support/family-split-set.js';
import type { PinnedMiss } from './test-support/family-split-set.js';

/** The seed of the eleventh set's own family split. */
const SET_11_SPLIT_SEED = 'set11-heldout-2026-12-07:';

const PINNED: ReadonlyMap<string, PinnedMiss> = new Map();

describeFamilySplitSet({
  file: 'provider-errors-11.jsonl',
  title: 'fresh public payloads by failure kind, three collectors',
  idPrefix: 'c11',
  minRows: 300,
  minFamilies: 30,
  pinned: PINNED,
  heldBack: { seed: SET_11_SPLIT_SEED },
  rowTests: false,
});
