/**
 * `fixtures/provider-errors-9.jsonl` and `fixtures/provider-errors-9-heldout.jsonl`: a ninth set, taken from a source
 * the earlier sets did not use — the providers' own error documentation and API reference pages (error-code tables,
 * documented error bodies, knowledge-centre answers; the search tool's `docs` and `pages` corpora), none of them in an
 * earlier fixture by text. The held-back part is chosen by provider family as in the eighth set: every row whose family
 * (`providerFamily`, src/test-support/scores.ts) is one the seeded provider split holds back across all corpus files
 * (`heldBackFamilies`) lives in the held-back file, so no wording of a held-back provider is looked at while rules
 * change (fixtures/SCORES.md, ninth pass). Every row, held back or not, is a test (its `expect`, or a reason its
 * `accept` list allows), except the dev row pinned in {@link KNOWN_DEV_MISSES}; the held-back rows became tests only
 * after their score was taken, before and after the rule changes.
 */
import { describeFamilySplitSet } from './test-support/family-split-set.js';
import type { PinnedMiss } from './test-support/family-split-set.js';

/**
 * Dev rows the rules miss, each pinned to what the classifier answers, with why no family covers it
 * (SCORES.md, ninth pass).
 */
const KNOWN_DEV_MISSES: ReadonlyMap<string, PinnedMiss> = new Map([
  ['c9-e7ca429f57', { got: 'format', why: 'Featherless "This Model is Cold / Not Ready for Inference" sent as a 400: capacity words under a client status other than 408/409/429 step aside (a wrapper label, set 3), and one cold-model row is too little to make "cold" a capacity fact that overrules the 400' }],
]);

describeFamilySplitSet({
  file: 'provider-errors-9.jsonl',
  title: 'provider documentation',
  idPrefix: 'c9',
  minRows: 80,
  minFamilies: 15,
  pinned: KNOWN_DEV_MISSES,
});
