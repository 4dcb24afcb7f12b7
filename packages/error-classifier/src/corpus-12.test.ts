/**
 * `fixtures/provider-errors-12.jsonl` and `fixtures/provider-errors-12-heldout.jsonl`: a twelfth set of public payloads,
 * aimed at the shapes the issue names as hard — errors wrapped by a proxy, an SDK or a client; SSE error events inside a
 * 200, empty answers and HTML pages; CJK texts — collected by three people who never ran the classifier on them, no
 * provider id with more than eight rows (fixtures/SCORES.md, twelfth pass). Held back by provider family within the set.
 */
import { describeFamilySplitSet } from './test-support/family-split-set.js';
import type { PinnedMiss } from './test-support/family-split-set.js';

/** The seed of the twelfth set's own family split. */
const SET_12_SPLIT_SEED = 'set12-heldout-2026-12-07:';

const PINNED: ReadonlyMap<string, PinnedMiss> = new Map();

describeFamilySplitSet({
  file: 'provider-errors-12.jsonl',
  title: 'fresh public payloads in the hard shapes, three collectors',
  idPrefix: 'c12',
  minRows: 240,
  minFamilies: 30,
  pinned: PINNED,
  heldBack: { seed: SET_12_SPLIT_SEED },
  rowTests: false,
});
