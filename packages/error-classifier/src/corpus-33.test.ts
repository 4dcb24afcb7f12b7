/**
 * `fixtures/provider-errors-33.jsonl` and `fixtures/provider-errors-33-heldout.jsonl`: a thirty-third set of public
 * payloads, collected by five people who never ran the classifier on them, each sent to an angle earlier collectors had
 * not taken — home automation and voice assistants, data warehouses and notebooks, red-teaming and synthetic-data tools,
 * observability and fine-tuning APIs, desktop launchers and office add-ins. The whole set was scored once on the rules of
 * the commit before it (160/177); held back by provider family within the set (its seeded split held back 89 rows,
 * OpenAI's family among them), the held-back part was measured without reading its misses before the set's dev-driven
 * changes (82/89) and after them (83/89), then opened (fixtures/SCORES.md, thirty-third pass). Every row is a test
 * since, except the pinned misses.
 */
import { describeFamilySplitSet } from './test-support/family-split-set.js';
import type { PinnedMiss } from './test-support/family-split-set.js';

/** The seed of the thirty-third set's own family split. */
const SET_33_SPLIT_SEED = 'set33-heldout-2026-12-07:';

/** The rows the rules miss, pinned to what the classifier answers, with why no family covers them. */
const PINNED: ReadonlyMap<string, PinnedMiss> = new Map([
  ["c33-c350420002", { got: "unclassified", why: "AFFiNE's \"Copilot fails with OpenAI provider: \\\"Not Found\\\" (AI_APICallError)\": an HTTP reason phrase quoted alone, with no status number; a stated-only reason phrase names no status (as a stated-only \"Bad Request\" does not)" }],
  ["c33-ff1da648ba", { got: "unclassified", why: "\"Detected an error in the prompt. Please try again with a different prompt.\": OpenAI's moderation trip in words that name no safety block; refusal is read first of all families, so \"try a different prompt\" alone cannot be one" }],
  ["c33-2c94519b11", { got: "unclassified", why: "a fine-tuning job's \"Error while running moderation eval refusals_v3 \u2026\": the name of a failed safety evaluation, not a provider's refusal of a request" }],
  ["c33-989c0eae81", { got: "unclassified", why: "\"Please request omni-moderation-latest\": a remedy naming the model to use instead, without saying the requested one is gone" }],
]);

describeFamilySplitSet({
  file: 'provider-errors-33.jsonl',
  title: 'home automation, data tools, red-teaming, observability and fine-tuning, launchers and office add-ins',
  idPrefix: 'c33',
  minRows: 175,
  minFamilies: 30,
  pinned: PINNED,
  heldBack: { seed: SET_33_SPLIT_SEED },
});
