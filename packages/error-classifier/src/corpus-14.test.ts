/**
 * `fixtures/provider-errors-14.jsonl` and `fixtures/provider-errors-14-heldout.jsonl`: a fourteenth set of public
 * payloads, collected by four people who never ran the classifier on them, each in a slice of their own — gateways,
 * proxies, SSE and HTML wrappers; CJK and regional providers; mainstream providers as agent tools print them; smaller
 * clouds and clients in languages other than Python and JavaScript (fixtures/SCORES.md, fourteenth pass). Held back
 * by provider family within the set.
 */
import { describeFamilySplitSet } from './test-support/family-split-set.js';
import type { PinnedMiss } from './test-support/family-split-set.js';

/** The seed of the fourteenth set's own family split. */
const SET_14_SPLIT_SEED = 'set14-heldout-2026-12-07:';

/** Rows the rules miss, pinned to what the classifier answers, with why no family covers them. */
const PINNED: ReadonlyMap<string, PinnedMiss> = new Map([]);

describeFamilySplitSet({
  file: 'provider-errors-14.jsonl',
  title: 'gateways and wrappers, CJK and regional providers, agent tools, clients in many languages',
  idPrefix: 'c14',
  minRows: 400,
  minFamilies: 30,
  pinned: PINNED,
  heldBack: { seed: SET_14_SPLIT_SEED },
  rowTests: false,
});
