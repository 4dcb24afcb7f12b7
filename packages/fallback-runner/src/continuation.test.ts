/**
 * Continuing a broken stream (docs/policy.md#continuing-a-broken-stream): which candidate may continue, one
 * request only, attempt records marked `continuation`, the `continued_after_output` decision event, and
 * never a continuation for a reason that ends the turn or past the deadline.
 */
import { parseConfig } from '@understudy/config';
import type { Candidate, FailureClassification, ProviderFailure } from '@understudy/contracts';
import { classifyFailure } from '@understudy/error-classifier';
import { describe, expect, it } from 'vitest';
import type { ContinueAfterOutputOptions, FallbackDecisionEvent } from './index.js';
import { continueAfterOutput } from './index.js';
import type { Script } from './test-support/harness.js';
import { brief, scriptedAttempt, world } from './test-support/harness.js';

const CHAIN: readonly Candidate[] = [
  { provider: 'openai', model: 'gpt-x', origin: 'requested' },
  { provider: 'openai', model: 'gpt-y', origin: 'configured_fallback' },
  { provider: 'anthropic', model: 'claude-x', origin: 'configured_fallback' },
];

/** OpenAI chat models take no prefill by default, Anthropic messages models do (docs/configuration.md#model-metadata). */
const CONFIG = {
  agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['openai/gpt-y', 'anthropic/claude-x'] } } },
  models: {
    providers: {
      openai: { baseUrl: 'http://127.0.0.1:1', api: 'openai-completions' as const },
      anthropic: { baseUrl: 'http://127.0.0.1:1', api: 'anthropic-messages' as const },
    },
  },
};

const CUT: ProviderFailure = { provider: 'openai', model: 'gpt-x', message: 'terminated', code: 'UND_ERR_SOCKET', phase: 'stream', outputStarted: true };

function classified(failure: ProviderFailure): FailureClassification {
  return classifyFailure(failure, { nowMs: 0 });
}

async function continueWith(
  script: Script,
  extra: Partial<ContinueAfterOutputOptions<string>> = {},
  setup: (w: ReturnType<typeof world>) => void = () => undefined,
) {
  const w = world({ config: CONFIG });
  setup(w);
  const events: FallbackDecisionEvent[] = [];
  const attempt = scriptedAttempt(script, w.clock);
  const outcome = await continueAfterOutput({
    config: w.config,
    store: w.store,
    clock: w.clock,
    chain: CHAIN,
    brokenIndex: 0,
    failure: classified(CUT),
    attempt,
    onDecision: (event) => events.push(event),
    ...extra,
  });
  return { outcome, events, calls: attempt.calls, store: w.store };
}

describe('continueAfterOutput', () => {
  it('continues on the next prefill-capable candidate, skipping the others, with one decision event', async () => {
    const { outcome, events, calls } = await continueWith({});
    expect(outcome.kind).toBe('continued');
    if (outcome.kind !== 'continued') return;
    expect(outcome.value).toBe('anthropic/claude-x');
    expect(outcome.profile).toBe('anthropic:a');
    expect(brief(outcome.attempts)).toEqual(['skip openai/gpt-y@- format', 'call anthropic/claude-x@anthropic:a']);
    expect(outcome.attempts.every((record) => record.continuation === true)).toBe(true);
    expect(calls.map((call) => call.ref)).toEqual(['anthropic/claude-x']);
    expect(events).toEqual([
      expect.objectContaining({
        decision: 'continued_after_output',
        provider: 'anthropic',
        model: 'claude-x',
        profile: 'anthropic:a',
        reason: 'timeout',
        candidateIndex: 2,
        candidateCount: 3,
        fallbackStepFromModel: 'openai/gpt-x',
        fallbackStepToModel: 'anthropic/claude-x',
        fallbackStepFromFailureReason: 'timeout',
        fallbackStepFinalOutcome: 'succeeded',
      }),
    ]);
  });

  it('sends one request only: a refused continuation (a 400 prefill rejection) is not retried and is reported, not thrown', async () => {
    const rejection = { status: 400, body: '{"type":"error","error":{"type":"invalid_request_error","message":"This model does not support assistant message prefill."}}' };
    const { outcome, events, calls } = await continueWith({ anthropic: [rejection, rejection] });
    expect(outcome.kind).toBe('not_continued');
    expect(calls).toHaveLength(1);
    expect(brief(outcome.attempts)).toEqual(['skip openai/gpt-y@- format', 'call anthropic/claude-x@anthropic:a format 400']);
    expect(events).toEqual([
      expect.objectContaining({ decision: 'continued_after_output', reason: 'timeout', fallbackStepFinalOutcome: 'turn_ended', continuationFailureReason: 'format' }),
    ]);
  });

  it('does not retry a transient failure of the continuation in place, and marks it on its profile', async () => {
    const { outcome, calls, store } = await continueWith({ anthropic: [{ status: 503, body: 'overloaded' }] });
    expect(outcome.kind).toBe('not_continued');
    expect(calls).toHaveLength(1);
    expect((await store.loadProviderAuthState('anthropic')).usageStats['anthropic:a']?.errorCount).toBe(1);
  });

  it('skips a candidate whose profiles are all cooling down (a continuation never probes)', async () => {
    const { outcome, calls, events } = await continueWith({}, {}, (w) => w.store.setUsageStats('anthropic:a', { cooldownUntil: w.clock.nowMs() + 60_000, errorCount: 1 }));
    expect(outcome).toMatchObject({ kind: 'not_continued', why: 'no_candidate' });
    expect(calls).toHaveLength(0);
    expect(events).toHaveLength(0);
    expect(brief(outcome.attempts)).toEqual(['skip openai/gpt-y@- format', 'skip anthropic/claude-x@- unknown']);
  });

  it('only looks at candidates after the one that broke', async () => {
    const { outcome, calls } = await continueWith({}, { brokenIndex: 2 });
    expect(outcome).toEqual({ kind: 'not_continued', why: 'no_candidate', attempts: [] });
    expect(calls).toHaveLength(0);
  });

  it('never continues a break whose reason ends the turn, nor past the deadline, nor after the caller left', async () => {
    const refusal = classified({ provider: 'openai', message: 'content_filter', errorType: 'refusal', phase: 'stream', outputStarted: true });
    const ended = await continueWith({}, { failure: { ...refusal, reason: 'refusal' } });
    expect(ended.outcome).toMatchObject({ kind: 'not_continued', why: 'terminal_reason' });
    // The harness clock starts at 1,000,000 ms: a deadline at that instant has passed.
    const late = await continueWith({}, { turnDeadlineAtMs: 1_000_000 });
    expect(late.outcome.kind).toBe('not_continued');
    expect(late.calls).toHaveLength(0);
    const controller = new AbortController();
    controller.abort();
    const gone = await continueWith({}, { signal: controller.signal });
    expect(gone.outcome.kind).toBe('not_continued');
    expect(gone.calls).toHaveLength(0);
    expect(gone.events).toHaveLength(0);
  });

  it('skips a prefill-capable candidate that cannot serve the request (canServe)', async () => {
    const { outcome, calls } = await continueWith({}, { canServe: () => 'the model takes text only' });
    expect(brief(outcome.attempts)).toEqual(['skip openai/gpt-y@- format', 'skip anthropic/claude-x@- format']);
    expect(outcome.attempts.map((record) => record.detail)).toEqual(['the model takes no assistant prefill (model metadata "prefill")', 'the model takes text only']);
    expect(calls).toHaveLength(0);
  });

  it('follows a prefill set in the model metadata, and answers keyless providers without a profile', async () => {
    const config = parseConfig({ models: { providers: { local: { baseUrl: 'http://127.0.0.1:1', api: 'openai-completions', models: [{ id: 'm', prefill: true }] } } } });
    const { outcome } = await continueWith({}, { config, chain: [CHAIN[0] as Candidate, { provider: 'local', model: 'm', origin: 'configured_fallback' }] });
    expect(outcome).toMatchObject({ kind: 'continued', profile: null });
  });
});
