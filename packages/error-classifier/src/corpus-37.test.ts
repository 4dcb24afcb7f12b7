/**
 * `fixtures/provider-errors-37.jsonl` and `fixtures/provider-errors-37-heldout.jsonl`: a thirty-seventh set of public
 * payloads, collected by six people who never ran the classifier on them, each sent to an angle earlier collectors had
 * not taken — recruiting tools, marketing and e-commerce content tools, slide and design generators, test generation,
 * client libraries outside Python and JavaScript, academic tools. The whole set was scored once on the rules of the
 * commit before it (87/107), and once more after a vocabulary pass written without it (87/107); held back by provider
 * family within the set (its seeded split held back eight families, 22 rows), the held-back part was measured without
 * reading its misses before the set's dev-driven changes (15/22) and after them (15/22), then opened (fixtures/SCORES.md,
 * thirty-seventh pass). Every row is a test since, except the pinned misses.
 */
import { describeFamilySplitSet } from './test-support/family-split-set.js';
import type { PinnedMiss } from './test-support/family-split-set.js';

/** The seed of the thirty-seventh set's own family split. */
const SET_37_SPLIT_SEED = 'set37-heldout-2026-12-07:';

/** The rows the rules miss, pinned to what the classifier answers, with why no family covers them. */
const PINNED: ReadonlyMap<string, PinnedMiss> = new Map([
  ['c37-3d166c8938', { got: 'format', why: 'OpenAI\'s "Your organization must be verified to use the model `o3`": earlier sets label the verification gate `format` (most accept `auth`); this collector read it as the model (`model_not_found`, accepting `auth`). The label stays as most sets give it' }],
  ['c37-20918ec21b', { got: 'unclassified', why: 'Bullhorn\'s "There was an issue with your request. Please try again later.": its help page groups it with time-outs, but the words name no cause' }],
  ['c37-0ffadfb975', { got: 'auth', why: 'llm.rb printed "Authentication error (LLM::Error::Unauthorized)" for OpenAI\'s 400: the gem mislabelled the status (its maintainer says so); a wrong key under a 400 is still read as a wrong key' }],
  ['c37-8f6edee29b', { got: 'unclassified', why: 'JetBrains Grazie\'s "LLMChatAssistantMessageTool require a response LLMChatToolMessage": a tool call without its result, in one vendor\'s class names' }],
  ['c37-33cf4372f8', { got: 'unclassified', why: 'gpt_academic\'s TypeError on a relay chunk with `"status": "come back later"`: the relay\'s own status word, which a usage limit can say as well as an outage' }],
  ['c37-fb4f66e8f5', { got: 'unclassified', why: 'Reactive Resume\'s "Could not reach the AI provider" hid a request the provider refused as malformed: the words say a network failure, the cause is known only from the thread' }],
  ['c37-a5d0440bb3', { got: 'unclassified', why: "banana-slides' AttributeError on a relay's non-standard image answer: a client's own exception, which names no cause" }],
  ['c37-b3d563f330', { got: 'unclassified', why: 'LLPhant\'s PHP TypeError after parsing a 401 body as a completion: the key error itself is not in the text' }],
  ['c37-8e71943d33', { got: 'unclassified', why: 'RubyLLM\'s "Invalid request - please check your input" hid Anthropic\'s "credit balance is too low" (found only in a debug log)' }],
  ['c37-c648ce737b', { got: 'unclassified', why: "ReqLLM's `{:ok, %StreamResponse{stream: []}}`: an empty successful stream in place of Anthropic's 400; the text holds neither the 400 nor its words" }],
]);

describeFamilySplitSet({
  file: 'provider-errors-37.jsonl',
  title: 'recruiting, marketing, slides and design, test generation, non-Python client libraries, academic tools',
  idPrefix: 'c37',
  minRows: 105,
  minFamilies: 25,
  pinned: PINNED,
  heldBack: { seed: SET_37_SPLIT_SEED },
});
