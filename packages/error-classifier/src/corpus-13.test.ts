/**
 * `fixtures/provider-errors-13.jsonl` and `fixtures/provider-errors-13-heldout.jsonl`: a thirteenth set of public payloads
 * — answers that are not answers (empty, refused, cut streams), errors as local runtimes and agent tools print them, and
 * SDK exceptions in many programming languages — collected by three people who never ran the classifier on them, until
 * the search tool's budget ran out (106 rows; fixtures/SCORES.md, thirteenth pass). Held back by provider family within
 * the set.
 */
import { describeFamilySplitSet } from './test-support/family-split-set.js';
import type { PinnedMiss } from './test-support/family-split-set.js';

/** The seed of the thirteenth set's own family split. */
const SET_13_SPLIT_SEED = 'set13-heldout-2026-12-07:';

const PINNED: ReadonlyMap<string, PinnedMiss> = new Map();

describeFamilySplitSet({
  file: 'provider-errors-13.jsonl',
  title: 'answers that are not answers, runtimes and agent tools, SDKs in many languages',
  idPrefix: 'c13',
  minRows: 100,
  minFamilies: 30,
  pinned: PINNED,
  heldBack: { seed: SET_13_SPLIT_SEED },
  rowTests: false,
});
