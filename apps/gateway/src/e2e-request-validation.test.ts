/**
 * End to end against the built gateway process, through the official `openai` and `@anthropic-ai/sdk` clients:
 * request fields the real APIs refuse are refused the same way (issue 20) — an empty or blank `model`, an empty
 * Responses `input`, a top-level field the Anthropic Messages API does not take — and OpenAI error bodies name
 * the field they are about in `param` (docs/wire-mapping.md#errors). None of these reaches an upstream, and no
 * error quotes the request's content or key.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Fixture } from './test-support/e2e-fixture.js';
import { startFixture } from './test-support/e2e-fixture.js';

let fixture: Fixture;
let openai: OpenAI;
let anthropic: Anthropic;

/** What a message carries, to show that no error quotes it. */
const MARKER = 'content-marker-7f3a';
/** The key the clients send: no error may echo it. */
const CLIENT_KEY = 'sk-test-client-key-never-echoed-5b21';

beforeAll(async () => {
  fixture = await startFixture();
  openai = new OpenAI({ baseURL: `${fixture.gateway.url}/v1`, apiKey: CLIENT_KEY, maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: fixture.gateway.url, apiKey: CLIENT_KEY, maxRetries: 0 });
});

afterAll(async () => {
  await fixture?.stop();
});

beforeEach(async () => {
  await fixture.emulator.clearRequests();
});

const user = [{ role: 'user' as const, content: `hello ${MARKER}` }];

/** The error a client call rejects with. */
async function rejection(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

/** An OpenAI SDK error: status, the body's `type`, `param`, `code` and message. */
async function openAIFailure(call: () => Promise<unknown>): Promise<{ status: number; type: unknown; param: unknown; code: unknown; message: string; body: string }> {
  const error = await rejection(call);
  expect(error).toBeInstanceOf(OpenAI.APIError);
  const apiError = error as InstanceType<typeof OpenAI.APIError>;
  return { status: apiError.status ?? 0, type: apiError.type, param: apiError.param, code: apiError.code, message: apiError.message, body: JSON.stringify(apiError.error) };
}

/** An Anthropic SDK error: status, the body's `error.type` and `error.message`. */
async function anthropicFailure(call: () => Promise<unknown>): Promise<{ status: number; type: unknown; message: unknown; body: string }> {
  const error = await rejection(call);
  expect(error).toBeInstanceOf(Anthropic.APIError);
  const apiError = error as InstanceType<typeof Anthropic.APIError>;
  const body = apiError.error as { type?: unknown; error?: { type?: unknown; message?: unknown } } | undefined;
  expect(body?.type).toBe('error');
  return { status: apiError.status ?? 0, type: body?.error?.type, message: body?.error?.message, body: JSON.stringify(body) };
}

/** The raw answer of a POST with a JSON body. */
async function post(path: string, body: unknown): Promise<{ status: number; json: unknown; text: string }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${CLIENT_KEY}` };
  if (path.startsWith('/v1/messages')) headers['anthropic-version'] = '2023-06-01';
  const response = await fetch(`${fixture.gateway.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, json: JSON.parse(text) as unknown, text };
}

function expectNothingEchoed(text: string): void {
  expect(text).not.toContain(MARKER);
  expect(text).not.toContain(CLIENT_KEY);
}


describe('param names the field an OpenAI-format error is about', () => {
  const cases = [
    { path: '/v1/chat/completions', body: { model: 'default', messages: [] }, param: 'messages', code: 'missing_messages' },
    { path: '/v1/chat/completions', body: { model: 'default' }, param: 'messages', code: 'missing_messages' },
    { path: '/v1/chat/completions', body: { model: 'default', messages: [{ role: 'robot', content: MARKER }] }, param: 'messages[0].role', code: 'invalid_request' },
    { path: '/v1/chat/completions', body: { model: 'default', messages: user, temperature: 'hot' }, param: 'temperature', code: 'invalid_request' },
    { path: '/v1/chat/completions', body: { model: 7, messages: user }, param: 'model', code: 'invalid_model' },
    { path: '/v1/chat/completions', body: { model: 'default', messages: user, understudy: { fallbacks: 'x' } }, param: 'understudy.fallbacks', code: 'invalid_request' },
    { path: '/v1/responses', body: { model: 'default' }, param: 'input', code: 'missing_input' },
    { path: '/v1/responses', body: { model: 'default', input: [{ role: 'robot', content: MARKER }] }, param: 'input[0].role', code: 'invalid_request' },
    { path: '/v1/responses', body: { model: 'default', input: 'hi', previous_response_id: 'resp_1' }, param: 'previous_response_id', code: 'unsupported_stored_state' },
    { path: '/v1/responses', body: { model: 'default', input: 'hi', max_output_tokens: 0 }, param: 'max_output_tokens', code: 'invalid_request' },
  ] as const;

  it.each(cases)('$path: param $param', async ({ path, body, param, code }) => {
    const { status, json, text } = await post(path, body);
    expect(status).toBe(400);
    expect(json).toEqual({ error: { message: expect.stringMatching(new RegExp(`^${param.replace(/[[\].]/g, '\\$&')}: `)), type: 'invalid_request_error', param, code } });
    expectNothingEchoed(text);
  });

  it('the SDKs read it: chat completions and Responses', async () => {
    const chat = await openAIFailure(() => openai.chat.completions.create({ model: 'default', messages: [] }));
    expect(chat).toMatchObject({ status: 400, type: 'invalid_request_error', param: 'messages', code: 'missing_messages' });
    const responses = await openAIFailure(() => openai.responses.create({ model: 'default', input: 'hi', temperature: 5 }));
    expect(responses).toMatchObject({ status: 400, type: 'invalid_request_error', param: 'temperature' });
    expect(responses.message).toContain('temperature: must be at most 2');
  });

  it('an error about no one field keeps param null', async () => {
    const response = await fetch(`${fixture.gateway.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"messages": [${MARKER}` });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { param: null, code: 'invalid_json' } });
    const unknown = await openAIFailure(() => openai.chat.completions.create({ model: 'nobody/none', messages: user }));
    expect(unknown).toMatchObject({ status: 404, param: null, code: 'model_not_found' });
  });
});

describe('an empty or blank model', () => {
  it.each([
    ['empty', '', 'model: must not be empty; name "default", an agent id, a configured alias or "provider/model"'],
    ['blank', ' \t ', 'model: must not be only whitespace; name "default"'],
  ])('%s: chat completions answers 400 invalid_request_error, param "model"', async (_name, model, message) => {
    const failure = await openAIFailure(() => openai.chat.completions.create({ model, messages: user }));
    expect(failure).toMatchObject({ status: 400, type: 'invalid_request_error', param: 'model', code: 'invalid_model' });
    expect(failure.message).toContain(message);
    expectNothingEchoed(failure.body);
    expect(await fixture.emulator.requests()).toEqual([]);
  });

  it('empty: the exact OpenAI-shaped body', async () => {
    const { status, json } = await post('/v1/chat/completions', { model: '', messages: user });
    expect(status).toBe(400);
    expect(json).toEqual({
      error: {
        message: 'model: must not be empty; name "default", an agent id, a configured alias or "provider/model" (GET /v1/models lists them), or leave the field out for "default"',
        type: 'invalid_request_error',
        param: 'model',
        code: 'invalid_model',
      },
    });
  });

  it.each(['', '   '])('%j: the Responses API answers 400 with param "model", streamed or not', async (model) => {
    for (const stream of [false, true]) {
      const failure = await openAIFailure(() => openai.responses.create({ model, input: `hi ${MARKER}`, stream }));
      expect(failure).toMatchObject({ status: 400, type: 'invalid_request_error', param: 'model', code: 'invalid_model' });
      expect(failure.message).toMatch(/^400 model: must not be/);
      expectNothingEchoed(failure.body);
    }
    expect(await fixture.emulator.requests()).toEqual([]);
  });

  it.each(['', '  '])('%j: Anthropic messages answers 400 invalid_request_error naming model', async (model) => {
    const failure = await anthropicFailure(() => anthropic.messages.create({ model, max_tokens: 16, messages: user }));
    expect(failure).toMatchObject({ status: 400, type: 'invalid_request_error' });
    expect(failure.message).toMatch(/^model: must not be (empty|only whitespace); name "default"/);
    expectNothingEchoed(failure.body);
    expect(await fixture.emulator.requests()).toEqual([]);
  });

  it.each([' default ', ' claude ', 'anthropic/claude-b\n', '\tcoder'])('%j is not trimmed: a 404 model_not_found that says so, in every dialect', async (model) => {
    const fix = `model ${JSON.stringify(model)} is not available: the name is not trimmed; send ${JSON.stringify(model.trim())} without the surrounding whitespace. Valid models: "default"`;
    const chat = await openAIFailure(() => openai.chat.completions.create({ model, messages: user }));
    expect(chat).toMatchObject({ status: 404, type: 'not_found_error', param: null, code: 'model_not_found' });
    expect(chat.message).toContain(fix);
    const responses = await openAIFailure(() => openai.responses.create({ model, input: 'hi' }));
    expect(responses).toMatchObject({ status: 404, type: 'not_found_error', code: 'model_not_found' });
    const messages = await anthropicFailure(() => anthropic.messages.create({ model, max_tokens: 16, messages: user }));
    expect(messages).toMatchObject({ status: 404, type: 'not_found_error' });
    expect(messages.message).toContain(fix);
    expectNothingEchoed(chat.body + responses.body + messages.body);
    expect(await fixture.emulator.requests()).toEqual([]);
  });

  it.each(['openai/gpt-a\u0000', 'openai/gpt\r\nx-injected: 1', 'anthropic/claude-b\u0007', 'openai/gpt-a\u0085'])(
    '%j: a control character inside the name is a 400 invalid_model naming model, in every dialect, before any upstream',
    async (model) => {
      const chat = await openAIFailure(() => openai.chat.completions.create({ model, messages: user }));
      expect(chat).toMatchObject({ status: 400, type: 'invalid_request_error', param: 'model', code: 'invalid_model' });
      expect(chat.message).toContain('model: must not contain control characters');
      const responses = await openAIFailure(() => openai.responses.create({ model, input: 'hi', stream: true }));
      expect(responses).toMatchObject({ status: 400, param: 'model', code: 'invalid_model' });
      const messages = await anthropicFailure(() => anthropic.messages.create({ model, max_tokens: 16, messages: user }));
      expect(messages).toMatchObject({ status: 400, type: 'invalid_request_error' });
      expectNothingEchoed(chat.body + responses.body + messages.body);
      expect(await fixture.emulator.requests()).toEqual([]);
    },
  );

  it('a model name longer than 256 characters is a 400 invalid_model before any upstream call (its header would be unreadable)', async () => {
    for (const model of [`openai/${'a'.repeat(17_000)}`, `openai/${'模'.repeat(300)}`]) {
      const chat = await openAIFailure(() => openai.chat.completions.create({ model, messages: user }));
      expect(chat).toMatchObject({ status: 400, type: 'invalid_request_error', param: 'model', code: 'invalid_model' });
      expect(chat.message).toContain('model: at most 256 characters');
      const messages = await anthropicFailure(() => anthropic.messages.create({ model, max_tokens: 16, messages: user }));
      expect(messages).toMatchObject({ status: 400, type: 'invalid_request_error' });
      expect(chat.body.length + messages.body.length).toBeLessThan(4_000);
    }
    const fits = await openai.chat.completions.create({ model: `openai/${'b'.repeat(249)}`, messages: user }).withResponse();
    expect(fits.response.headers.get('x-understudy-model')).toBe(`openai/${'b'.repeat(249)}`);
    expect((await fixture.emulator.requests()).map((request) => request.model)).toEqual(['b'.repeat(249)]);
  });

  it('a model name outside ASCII is answered, its x-understudy-model header percent-encoded (never a 500 after the upstream answered)', async () => {
    for (const stream of [false, true]) {
      const response = await fetch(`${fixture.gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${CLIENT_KEY}` },
        body: JSON.stringify({ model: 'openai/模型-100%', messages: user, stream }),
      });
      await response.text();
      expect(response.status).toBe(200);
      expect(response.headers.get('x-understudy-model')).toBe('openai/%E6%A8%A1%E5%9E%8B-100%25');
      expect(decodeURIComponent(response.headers.get('x-understudy-model') ?? '')).toBe('openai/模型-100%');
    }
    expect((await fixture.emulator.requests()).map((request) => request.model)).toEqual(['模型-100%', '模型-100%']);
  });

  it('"default" and an absent model still run the configured chain', async () => {
    const named = await openai.chat.completions.create({ model: 'default', messages: user });
    expect(named.model).toBe('openai/gpt-a');
    const absent = await post('/v1/chat/completions', { messages: user });
    expect(absent.status).toBe(200);
    expect(absent.json).toMatchObject({ model: 'openai/gpt-a' });
  });
});

describe('an empty Responses input', () => {
  it('answers 400 invalid_request_error with param "input", streamed or not, with no upstream call', async () => {
    for (const stream of [false, true]) {
      const failure = await openAIFailure(() => openai.responses.create({ model: 'default', input: '', instructions: `be brief ${MARKER}`, stream }));
      expect(failure).toMatchObject({ status: 400, type: 'invalid_request_error', param: 'input', code: 'missing_input' });
      expect(failure.message).toContain('input: empty string; expected a string with at least 1 character');
      expectNothingEchoed(failure.body);
    }
    expect(await fixture.emulator.requests()).toEqual([]);
  });

  it('an input of whitespace is text and is answered, as OpenAI does', async () => {
    const answer = await openai.responses.create({ model: 'default', input: ' ' });
    expect(answer.status).toBe('completed');
  });
});

describe('a top-level field the Anthropic Messages API does not take', () => {
  /** A Messages request with `extra` on top, as a client that sends OpenAI's fields would. */
  function withExtra(extra: Record<string, unknown>): Anthropic.MessageCreateParamsNonStreaming {
    return { model: 'anthropic/claude-b', max_tokens: 16, messages: user, ...extra } as unknown as Anthropic.MessageCreateParamsNonStreaming;
  }

  const REMOVE = 'the Anthropic Messages API has no such field; remove it';
  it.each([
    { field: 'n', value: 2, fix: 'Anthropic answers with one message per request; send the request again for another' },
    { field: 'frequency_penalty', value: 0.5, fix: REMOVE },
    { field: 'presence_penalty', value: 0.5, fix: REMOVE },
    { field: 'response_format', value: { type: 'json_schema', json_schema: { name: 'x', schema: { description: MARKER } } }, fix: 'use output_config.format ({ "type": "json_schema", "schema": … })' },
    { field: 'logprobs', value: true, fix: REMOVE },
    { field: 'stop', value: ['END'], fix: 'use stop_sequences' },
  ])('$field: 400 invalid_request_error "$field: Extra inputs are not permitted", no upstream call', async ({ field, value, fix }) => {
    const failure = await anthropicFailure(() => anthropic.messages.create(withExtra({ [field]: value })));
    expect(failure).toMatchObject({ status: 400, type: 'invalid_request_error' });
    expect(failure.message).toBe(`${field}: Extra inputs are not permitted (${fix})`);
    expectNothingEchoed(failure.body);
    expect(await fixture.emulator.requests()).toEqual([]);
  });

  it('streamed and count_tokens requests are refused alike', async () => {
    const stream = await anthropicFailure(() => anthropic.messages.create({ ...withExtra({ seed: 1 }), stream: true }));
    expect(stream).toMatchObject({ status: 400, type: 'invalid_request_error', message: 'seed: Extra inputs are not permitted (the Anthropic Messages API has no such field; remove it)' });
    const count = await post('/v1/messages/count_tokens', { model: 'anthropic/claude-b', messages: user, logit_bias: {} });
    expect(count.status).toBe(400);
    expect(count.json).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'logit_bias: Extra inputs are not permitted (the Anthropic Messages API has no such field; remove it)' } });
    expect(await fixture.emulator.requests()).toEqual([]);
  });

  it('a field name that is not a plain name is shown quoted and cut, never whole', async () => {
    const key = `${MARKER}-${'x'.repeat(200)}`;
    const { status, text } = await post('/v1/messages', { model: 'anthropic/claude-b', max_tokens: 16, messages: user, [key]: 1 });
    expect(status).toBe(400);
    expect(text).not.toContain('x'.repeat(41));
    expect(JSON.parse(text)).toMatchObject({ error: { message: expect.stringMatching(/^\["content-marker-7f3a-x+…"\]: Extra inputs are not permitted/) } });
  });

  it('the fields the Messages API does take are accepted and reach a same-format upstream as sent', async () => {
    const answer = await anthropic.messages.create({
      model: 'anthropic/claude-b',
      max_tokens: 2048,
      messages: user,
      system: 'be brief',
      metadata: { user_id: 'user-1' },
      stop_sequences: ['END'],
      temperature: 1,
      top_k: 5,
      tools: [{ name: 'lookup', input_schema: { type: 'object' } }],
      tool_choice: { type: 'auto' },
      thinking: { type: 'enabled', budget_tokens: 1024 },
      service_tier: 'auto',
    });
    expect(answer.type).toBe('message');
    const [request] = (await fixture.emulator.requests()).filter((entry) => entry.api === 'anthropic-messages');
    expect(request?.body).toMatchObject({
      metadata: { user_id: 'user-1' },
      stop_sequences: ['END'],
      top_k: 5,
      tool_choice: { type: 'auto' },
      thinking: { type: 'enabled', budget_tokens: 1024 },
      service_tier: 'auto',
    });
  });
});
