/**
 * `fixtures/provider-errors-29.jsonl` and `fixtures/provider-errors-29-heldout.jsonl`: a twenty-ninth set of public
 * payloads, collected by four people who never ran the classifier on them, each sent to an angle earlier collectors had
 * not taken — voice and realtime agents, evaluation harnesses, roleplay front-ends and their reverse proxies, batch and
 * data pipelines. The whole set was scored once on the rules of the commit before it (199/224); held back by provider
 * family within the set (a fifth), the held-back part was measured before the dev-driven changes without reading its
 * misses (38/45) and after them (39/45), then opened (fixtures/SCORES.md, twenty-ninth pass). Every row is a test
 * since, except the pinned misses.
 */
import { describeFamilySplitSet } from './test-support/family-split-set.js';
import type { PinnedMiss } from './test-support/family-split-set.js';

/** The seed of the twenty-ninth set's own family split. */
const SET_29_SPLIT_SEED = 'set29-heldout-2026-12-07:';

/** The rows the rules miss, pinned to what the classifier answers, with why no family covers them. */
const PINNED: ReadonlyMap<string, PinnedMiss> = new Map([
  ['c29-c3813577ca', { got: 'unclassified', why: 'a WebSocket close 1007 (invalid frame payload data) names a broken frame, not a cause; the maintainer blamed Gemini Live instability, which the close code does not say' }],
  ['c29-e328b27fb9', { got: 'unclassified', why: "a WebSocket close 1008 whose reason a client cut inside the model's path, before Vertex's \"was not found\": the words that name the cause are not in the text" }],
  ['c29-59fc03fdc2', { got: 'model_not_found', why: 'a Realtime handshake answered 404 with an empty body: the status alone reads as a missing model; that the call id to attach to was gone is known only from the thread' }],
  ['c29-d7cdc93e94', { got: 'unclassified', why: "Langfuse's \"Selected model is not supported for evaluations\": that the key had expired is known only from the thread" }],
  ['c29-c951abd68c', { got: 'unclassified', why: 'a reason phrase "Unprocessable Entity" with no status given is a bare stated 422, which names no cause (docs/policy.md); the collector read it as a refused request' }],
  ['c29-7e3fd9a74c', { got: 'timeout', why: "OpenRouter's bare \"Provider returned error\" under a 400 reads as transient, as the first corpus labels the same wrapper (pe-144)" }],
  ['c29-2b9194a201', { got: 'unclassified', why: 'Character.AI\'s reply "aborted", with "this happens often when the output was filtered": a frequent cause offered, not stated, which no family reads as a refusal (docs/policy.md: possible causes do not decide)' }],
  ['c29-9fb97031c2', { got: 'context_overflow', why: 'Volcengine\'s embedding call says "This model\'s maximum context length is 10, but 64 is requested" for a batch of 64 inputs: the words name the context; that they mean a batch size is known only from the thread' }],
  ['c29-08904a9a3c', { got: 'timeout', why: "LiteLLM's realtime proxy logging a backend connection closed with 4000 invalid_request_error.invalid_intent: the connection words decide before a family code inside a close reason" }],
  ['c29-56dbe729a6', { got: 'unclassified', why: "DuckDuckGo AI chat's \"[DONE][LIMIT_CONVERSATION]\" marker: a private marker after the stream's end; which limit it means is known only from the app" }],
]);

describeFamilySplitSet({
  file: 'provider-errors-29.jsonl',
  title: 'voice agents, evaluation harnesses, roleplay front-ends, batch and data pipelines',
  idPrefix: 'c29',
  minRows: 220,
  minFamilies: 30,
  pinned: PINNED,
  heldBack: { seed: SET_29_SPLIT_SEED },
});
