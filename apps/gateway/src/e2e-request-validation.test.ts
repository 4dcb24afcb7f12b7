/**
 * End to end against the built gateway process, through the official `openai` and `@anthropic-ai/sdk` clients:
 * request validation answers as the real APIs do (issue 20): OpenAI error bodies name the field they are about
 * in `param` (docs/wire-mapping.md#errors). None of these reaches an upstream, and no error quotes the request's
 * content or key.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Fixture } from './test-support/e2e-fixture.js';
import { startFixture } from './test-support/e2e-fixture.js';

let fixture: Fixture;
let openai: OpenAI;

/** What a message carries, to show that no error quotes it. */
const MARKER = 'content-marker-7f3a';
/** The key the clients send: no error may echo it. */
const CLIENT_KEY = 'sk-client-key-never-echoed-5b21';

beforeAll(async () => {
  fixture = await startFixture();
  openai = new OpenAI({ baseURL: `${fixture.gateway.url}/v1`, apiKey: CLIENT_KEY, maxRetries: 0 });
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
