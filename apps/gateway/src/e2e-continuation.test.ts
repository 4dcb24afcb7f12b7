/**
 * End to end, continuing a stream that broke after output (docs/policy.md#continuing-a-broken-stream): the real
 * gateway process in front of the real provider emulator (which continues an assistant prefill as a model
 * does), read by the official `openai` and `@anthropic-ai/sdk` clients. The client's assembled answer must be
 * exactly the canonical text; a refused continuation, an answer with tool calls, and the off switch all end
 * with the explicit error of the original break.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EmulatorRoute, EmulatorStep } from '@understudy/provider-emulator/client';
import type { Fixture } from './test-support/e2e-fixture.js';
import { startFixture } from './test-support/e2e-fixture.js';
import { accessLineCount, stderrWhen } from './test-support/processes.js';

const CANONICAL = 'The quick brown fox jumps over the lazy dog, twice.';
const PREFILL_REJECTED = {
  status: 400,
  body: { type: 'error', error: { type: 'invalid_request_error', message: 'This model does not support assistant message prefill. The conversation must end with a user message.' } },
};

/** The chain: openai/gpt-a, then backup/model-c (OpenAI chat: no prefill), then anthropic/claude-b (prefill). */
function continuationConfig(streams: Record<string, unknown>) {
  return (base: Record<string, unknown>, url: string): Record<string, unknown> => ({
    ...base,
    models: {
      ...(base['models'] as Record<string, unknown>),
      providers: {
        openai: { baseUrl: `${url}/v1`, api: 'openai-completions', models: ['gpt-a'] },
        anthropic: { baseUrl: url, api: 'anthropic-messages', apiKey: '${TEST_ANTHROPIC_KEY}', models: ['claude-b', 'claude-z'] },
        backup: { baseUrl: `${url}/v1`, api: 'openai-completions', apiKey: 'sk-test-backup-key-cccc', models: ['model-c'] },
      },
    },
    agents: { defaults: { model: { primary: 'openai/gpt-a', fallbacks: ['backup/model-c', 'anthropic/claude-b'] } } },
    gateway: { ...(base['gateway'] as Record<string, unknown>), streams },
  });
}

const route = (model: string, steps: EmulatorStep[]): EmulatorRoute => ({ match: { model }, steps });

async function reset(fixture: Fixture, routes: EmulatorRoute[]): Promise<void> {
  await fixture.clearCooldowns();
  await fixture.emulator.setScript({ defaults: { text: CANONICAL }, routes });
  await fixture.emulator.clearRequests();
}

/** Streams through the OpenAI SDK: the assembled text, the error the stream ended with (if any), the model header. */
async function openAIStream(
  client: OpenAI,
  content: string,
): Promise<{ text: string; error: unknown; model: string | null; sawToolCall: boolean; chunkIds: Set<string> }> {
  const { data: stream, response } = await client.chat.completions
    .create({ model: 'default', stream: true, messages: [{ role: 'user', content }] })
    .withResponse();
  let text = '';
  let sawToolCall = false;
  const chunkIds = new Set<string>();
  const error = await (async () => {
    for await (const chunk of stream) {
      chunkIds.add(chunk.id);
      text += chunk.choices[0]?.delta.content ?? '';
      if ((chunk.choices[0]?.delta.tool_calls?.length ?? 0) > 0) sawToolCall = true;
    }
  })().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  return { text, error, model: response.headers.get('x-understudy-model'), sawToolCall, chunkIds };
}

/** `model: outcome` of every upstream request, and the messages each sent. */
async function upstream(fixture: Fixture): Promise<{ calls: string[]; bodies: Record<string, unknown>[] }> {
  const requests = await fixture.emulator.requests();
  return { calls: requests.map((request) => `${request.model ?? '?'}: ${request.outcome}`), bodies: requests.map((request) => request.body as Record<string, unknown>) };
}

function decisionLinesIn(stderr: string): Record<string, unknown>[] {
  return stderr
    .split('\n')
    .filter((line) => line.includes('"decision":"continued_after_output"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * The decision lines written so far, counted once every line logged before now is out: a request's access line
 * is the marker (the log is buffered, and lines are written in order).
 */
async function settledDecisionCount(fixture: Fixture): Promise<number> {
  const accessBefore = accessLineCount(fixture.gateway.stderr());
  expect((await fetch(`${fixture.gateway.url}/v1/models`)).status).toBe(200);
  return decisionLinesIn(await stderrWhen(fixture.gateway, (stderr) => accessLineCount(stderr) > accessBefore)).length;
}

/** The decision lines once there are more than `before` (the log is buffered: lines come out within a flush interval). */
async function newDecisionLines(fixture: Fixture, before: number): Promise<Record<string, unknown>[]> {
  return decisionLinesIn(await stderrWhen(fixture.gateway, (stderr) => decisionLinesIn(stderr).length > before)).slice(before);
}

describe('continuation on (the default)', () => {
  let fixture: Fixture;
  let openai: OpenAI;
  let anthropic: Anthropic;

  beforeAll(async () => {
    fixture = await startFixture({ config: continuationConfig({}) });
    openai = new OpenAI({ baseURL: `${fixture.gateway.url}/v1`, apiKey: 'unused-by-this-gateway', maxRetries: 0 });
    anthropic = new Anthropic({ baseURL: fixture.gateway.url, apiKey: 'unused-by-this-gateway', maxRetries: 0 });
  });

  afterAll(async () => {
    await fixture?.stop();
  });

  it.each([
    { fault: 'a cut connection', step: { cutAfterChunks: 3 }, outcome: 'cut after 3 chunks' },
    { fault: 'a stall', step: { stallAfterChunks: 3, stallMs: 5_000 }, outcome: 'stalled after 3 chunks until the client left' },
    { fault: 'an upstream error event', step: { errorAfterChunks: 3 }, outcome: 'error event after 3 chunks' },
  ])('$fault after output: the Anthropic-format fallback continues, the client reads exactly the canonical text', async ({ step, outcome }) => {
    await reset(fixture, [route('gpt-a', [{ chunkDelayMs: 20, ...step }])]);
    const before = await settledDecisionCount(fixture);
    const { text, error, model, chunkIds } = await openAIStream(openai, 'tell me');
    expect(error).toBeUndefined();
    expect(text).toBe(CANONICAL);
    // Every chunk, the continuation's too, carries the id the upstream's first chunk gave the client.
    expect(chunkIds.size).toBe(1);
    // The answer keeps its identity: the model that started it.
    expect(model).toBe('openai/gpt-a');
    const { calls, bodies } = await upstream(fixture);
    // backup/model-c speaks OpenAI chat completions: no prefill, so it is passed over.
    expect(calls).toEqual([`gpt-a: ${outcome}`, 'claude-b: ok']);
    const messages = bodies[1]?.['messages'] as { role: string; content: unknown }[];
    expect(messages[messages.length - 1]).toMatchObject({ role: 'assistant' });
    expect(JSON.stringify(messages[messages.length - 1]?.content)).toContain('The quick brown');
    expect((await newDecisionLines(fixture, before)).at(-1)).toMatchObject({
      decision: 'continued_after_output',
      provider: 'anthropic',
      model: 'claude-b',
      fallbackStepFromModel: 'openai/gpt-a',
      fallbackStepFinalOutcome: 'succeeded',
    });
  });

  it('a same-format Anthropic stream is continued in the same content block: the SDK assembles the canonical message', async () => {
    await reset(fixture, [route('claude-b', [{ chunkDelayMs: 20, cutAfterChunks: 4 }])]);
    const stream = anthropic.messages.stream({
      model: 'anthropic/claude-b',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'tell me' }],
      understudy: { fallbacks: ['anthropic/claude-z'] },
    } as Anthropic.MessageStreamParams);
    let streamed = '';
    stream.on('text', (delta) => (streamed += delta));
    const message = await stream.finalMessage();
    expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: CANONICAL })]);
    expect(streamed).toBe(CANONICAL);
    expect(message.stop_reason).toBe('end_turn');
    expect((await upstream(fixture)).calls).toEqual(['claude-b: cut after 4 chunks', 'claude-z: ok']);
  });

  it('a fallback that rejects the prefill: the stream ends with the ORIGINAL failure, not the rejection', async () => {
    await reset(fixture, [route('gpt-a', [{ chunkDelayMs: 20, cutAfterChunks: 3 }]), route('claude-b', [PREFILL_REJECTED])]);
    const before = await settledDecisionCount(fixture);
    const { text, error } = await openAIStream(openai, 'tell me');
    expect(text).toBe('The quick brown');
    expect(error).toBeInstanceOf(OpenAI.APIError);
    const message = (error as Error).message;
    expect(message).toContain('openai/gpt-a: the answer broke off after output started');
    expect(message).not.toMatch(/prefill|claude-b|400/);
    expect((await upstream(fixture)).calls).toEqual(['gpt-a: cut after 3 chunks', 'claude-b: status 400']);
    expect((await newDecisionLines(fixture, before)).at(-1)).toMatchObject({ decision: 'continued_after_output', model: 'claude-b', fallbackStepFinalOutcome: 'turn_ended', continuationFailureReason: 'format' });
  });

  it('tool-call deltas already streamed: no continuation, the explicit error', async () => {
    await reset(fixture, [route('gpt-a', [{ text: 'Let me', toolCalls: [{ name: 'lookup', arguments: { q: 'fox' } }], chunkDelayMs: 20, cutAfterChunks: 3 }])]);
    const { text, error, sawToolCall } = await openAIStream(openai, 'look it up');
    expect(text).toBe('Let me');
    expect(sawToolCall).toBe(true);
    expect((error as Error).message).toContain('broke off after output started');
    expect((await upstream(fixture)).calls).toEqual(['gpt-a: cut after 3 chunks']);
  });
});

describe('continuation off (gateway.streams.continueAfterOutput: false)', () => {
  let fixture: Fixture;
  let openai: OpenAI;

  beforeAll(async () => {
    fixture = await startFixture({ config: continuationConfig({ continueAfterOutput: false }) });
    openai = new OpenAI({ baseURL: `${fixture.gateway.url}/v1`, apiKey: 'unused-by-this-gateway', maxRetries: 0 });
  });

  afterAll(async () => {
    await fixture?.stop();
  });

  beforeEach(async () => {
    await reset(fixture, [route('gpt-a', [{ chunkDelayMs: 20, cutAfterChunks: 3 }])]);
  });

  it('a break after output ends the stream with the explicit error, as before; nothing else is called', async () => {
    const before = await settledDecisionCount(fixture);
    const { text, error } = await openAIStream(openai, 'tell me');
    expect(text).toBe('The quick brown');
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as Error).message).toContain('openai/gpt-a: the answer broke off after output started');
    expect((await upstream(fixture)).calls).toEqual(['gpt-a: cut after 3 chunks']);
    // Counted again behind a later request's access line: a decision line of the stream would be out by then.
    expect(await settledDecisionCount(fixture)).toBe(before);
  });
});
