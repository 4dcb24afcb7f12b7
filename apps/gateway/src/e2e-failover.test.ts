/**
 * End to end: the real gateway process in front of the real provider emulator, driven by the official
 * `openai` client. Failover on 429 / 529 / 402 / 401, cooling profiles left alone, strict explicit models,
 * streaming failover before the first token, errors after it, hostile input, 200 parallel requests, and no
 * secret in any response or log line (docs/contracts.md#gateway, the model-failover doc "Runtime flow").
 */
import type { FailoverReason } from '@understudy/contracts';
import { fallbackNoticeText } from '@understudy/fallback-runner';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EmulatorRoute, EmulatorStep } from '@understudy/provider-emulator/client';
import type { Fixture } from './test-support/e2e-fixture.js';
import { KEYS, startFixture, tail } from './test-support/e2e-fixture.js';

let fixture: Fixture;
let client: OpenAI;
const seenBodies: string[] = [];

beforeAll(async () => {
  fixture = await startFixture();
  client = new OpenAI({ baseURL: `${fixture.gateway.url}/v1`, apiKey: 'unused-by-this-gateway', maxRetries: 0 });
});

afterAll(async () => {
  await fixture?.stop();
});

beforeEach(async () => {
  await fixture.clearCooldowns();
  await fixture.emulator.setScript({ routes: [] });
});

const openaiRoute = (steps: EmulatorStep[], extra: Omit<NonNullable<EmulatorRoute['match']>, 'api' | 'model'> = {}): EmulatorRoute => ({ match: { api: 'openai-completions', model: 'gpt-a', ...extra }, steps });
const ask = (content: string, extra: Record<string, unknown> = {}) =>
  client.chat.completions.create({ model: 'default', messages: [{ role: 'user', content }], ...extra } as OpenAI.ChatCompletionCreateParamsNonStreaming).withResponse();

async function upstreamCalls(): Promise<string[]> {
  return (await fixture.emulator.requests()).map((request) => `${request.model ?? '?'} ${request.keyFingerprint ?? 'none'}`);
}

describe('failover before any output', () => {
  // Seed: rate limits, overloads, billing and auth failures are failover-worthy; rotation first, then the next model.
  const cases = [
    {
      name: '429 rate limit: one rotation, then the next model',
      step: { status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit reached for gpt-a', type: 'requests', code: 'rate_limit_exceeded' } } },
      reason: 'rate_limit' as FailoverReason,
    },
    {
      name: '529 overloaded: same-profile retry, one rotation, then the next model',
      step: { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
      reason: 'overloaded' as FailoverReason,
    },
    {
      name: '402 billing: every profile of the provider, then the next model',
      step: { status: 402, body: { error: { message: 'Insufficient credits: add more credits to continue', type: 'insufficient_quota', code: 'insufficient_quota' } } },
      reason: 'billing' as FailoverReason,
    },
    {
      name: '401 auth: every profile of the provider, then the next model (the key in the body is never echoed)',
      step: {
        status: 401,
        body: { error: { message: `Incorrect API key provided: ${KEYS.openaiA}. You can find your API key at https://example.invalid`, type: 'invalid_request_error', code: 'invalid_api_key' } },
      },
      reason: 'auth' as FailoverReason,
    },
  ];

  it.each(cases)('$name', async ({ step, reason }) => {
    await fixture.emulator.setScript({ routes: [openaiRoute([step])] });
    const { data, response } = await ask(`hello ${reason}`);
    seenBodies.push(JSON.stringify(data));
    expect(data.choices[0]?.message.content).toBe(`hello ${reason}`);
    expect(data.model).toBe('anthropic/claude-b');
    expect(response.headers.get('x-understudy-model')).toBe('anthropic/claude-b');
    expect(response.headers.get('x-understudy-profile')).toBe('anthropic:inline');
    expect(response.headers.get('x-understudy-fallback')).toBe(reason);
    expect((data as unknown as { understudy?: { notice?: string } }).understudy?.notice).toBe(
      fallbackNoticeText({ active: 'anthropic/claude-b', selected: 'openai/gpt-a', reason }),
    );
    const calls = await upstreamCalls();
    expect(calls[0]).toBe(`gpt-a ${tail(KEYS.openaiA)}`);
    expect(calls).toContain(`gpt-a ${tail(KEYS.openaiB)}`);
    expect(calls[calls.length - 1]).toBe(`claude-b ${tail(KEYS.anthropic)}`);
  });

  it('a cooling profile receives no call on the next request', async () => {
    await fixture.emulator.setScript({
      routes: [
        openaiRoute([{ status: 429, headers: { 'retry-after': '600' }, body: { error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } } }], { key: KEYS.openaiA }),
      ],
    });
    const first = await ask('first');
    expect(first.response.headers.get('x-understudy-profile')).toBe('openai:b');
    expect(await upstreamCalls()).toEqual([`gpt-a ${tail(KEYS.openaiA)}`, `gpt-a ${tail(KEYS.openaiB)}`]);
    await fixture.emulator.clearRequests();
    const second = await ask('second');
    expect(second.data.choices[0]?.message.content).toBe('second');
    expect(second.response.headers.get('x-understudy-profile')).toBe('openai:b');
    expect(second.response.headers.get('x-understudy-fallback')).toBeNull();
    expect(await upstreamCalls()).toEqual([`gpt-a ${tail(KEYS.openaiB)}`]);
  });

  it('an explicit provider/model is strict: its failure is the answer, with the status and a retry-after', async () => {
    await fixture.emulator.setScript({
      routes: [openaiRoute([{ status: 429, headers: { 'retry-after': '30' }, body: { error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } } }])],
    });
    const error = await client.chat.completions
      .create({ model: 'openai/gpt-a', messages: [{ role: 'user', content: 'strict' }] })
      .then(() => undefined, (thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const apiError = error as InstanceType<typeof OpenAI.RateLimitError>;
    expect(apiError.status).toBe(429);
    expect(apiError.message).toContain('temporarily rate-limited');
    expect(Number(apiError.headers?.get('retry-after'))).toBeGreaterThan(0);
    expect((await upstreamCalls()).every((call) => call.startsWith('gpt-a'))).toBe(true);
  });

  it('the body extension understudy.fallbacks replaces the configured chain', async () => {
    await fixture.emulator.setScript({ routes: [openaiRoute([{ status: 503, body: 'Service Unavailable' }])] });
    const { data, response } = await ask('override', { understudy: { fallbacks: ['backup/model-c'] } });
    expect(data.model).toBe('backup/model-c');
    expect(response.headers.get('x-understudy-fallback')).toBe('overloaded');
    expect((await upstreamCalls()).some((call) => call.startsWith('claude-b'))).toBe(false);
  });

  it('when every candidate fails, the final failure status is kept and no provider body is echoed', async () => {
    const body = `{"error":{"message":"internal failure with secret detail ${KEYS.backup}","type":"server_error"}}`;
    await fixture.emulator.setScript({ routes: [{ steps: [{ status: 500, body }] }] });
    const response = await fetch(`${fixture.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'default', messages: [{ role: 'user', content: 'all down' }] }),
    });
    const text = await response.text();
    seenBodies.push(text);
    expect(response.status).toBe(500);
    const json = JSON.parse(text) as { error: { message: string; type: string; code: string } };
    expect(json.error.message).toMatch(/^All models failed \(3\)/);
    expect(json.error.code).toBe('all_models_failed');
    expect(text).not.toContain('secret detail');
    expect(response.headers.get('retry-after')).toBeNull();
  });
});

describe('streaming', () => {
  it('fails over before the first token invisibly (TTFT timeout), with the notice as an SSE comment first', async () => {
    await fixture.emulator.setScript({ routes: [openaiRoute([{ ok: true, firstTokenDelayMs: 5000 }])] });
    const response = await fetch(`${fixture.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'default', stream: true, messages: [{ role: 'user', content: 'slow start' }] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-understudy-model')).toBe('anthropic/claude-b');
    expect(response.headers.get('x-understudy-fallback')).toBe('timeout');
    const text = await response.text();
    const notice = fallbackNoticeText({ active: 'anthropic/claude-b', selected: 'openai/gpt-a', reason: 'timeout' });
    expect(text.startsWith(`: understudy-notice ${notice}\n\n`)).toBe(true);
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const content = text
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => (JSON.parse(line.slice(6)) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? '')
      .join('');
    expect(content).toBe('slow start');
  });

  it('streams through the openai client, usage included when asked', async () => {
    const stream = await client.chat.completions.create({
      model: 'default',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'stream this please' }],
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage ??= chunk.usage;
      expect(chunk.model).toBe('openai/gpt-a');
    }
    expect(text).toBe('stream this please');
    expect(usage?.completion_tokens).toBeGreaterThan(0);
  });

  it('a cut after output started surfaces as an error, never as a clean end', async () => {
    await fixture.emulator.setScript({ routes: [openaiRoute([{ ok: true, chunks: ['Hel', 'lo ', 'wor', 'ld'], chunkDelayMs: 30, cutAfterChunks: 2 }])] });
    // A strict selection: no later candidate could continue the answer (docs/policy.md#continuing-a-broken-stream).
    const stream = await client.chat.completions.create({ model: 'openai/gpt-a', stream: true, messages: [{ role: 'user', content: 'cut' }] });
    let text = '';
    const error = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().then(() => undefined, (thrown: unknown) => thrown);
    expect(text).toBe('Hello ');
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as Error).message).toContain('broke off after output started');
    // No fallback after output: only the primary was called.
    expect((await upstreamCalls()).every((call) => call.startsWith('gpt-a'))).toBe(true);
  });

  it('a malformed upstream chunk never reaches the client: it is skipped and the answer ends cleanly with [DONE]', async () => {
    await fixture.emulator.setScript({ routes: [openaiRoute([{ ok: true, chunks: ['one ', 'two ', 'three'], chunkDelayMs: 30, malformedAfterChunks: 1 }])] });
    const response = await fetch(`${fixture.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'default', stream: true, messages: [{ role: 'user', content: 'x' }] }),
    });
    const events = (await response.text()).split('\n\n').filter((event) => event.startsWith('data: '));
    const chunks = events.filter((event) => event !== 'data: [DONE]');
    for (const event of chunks) expect(() => JSON.parse(event.slice(6)) as unknown).not.toThrow();
    const text = chunks.map((event) => (JSON.parse(event.slice(6)) as { choices?: { delta?: { content?: string } }[] }).choices?.[0]?.delta?.content ?? '').join('');
    expect(text).toBe('one two three');
    expect(chunks.some((event) => event.includes('"error"'))).toBe(false);
    expect(events[events.length - 1]).toBe('data: [DONE]');
  });

  it('a stream that ends with a finish reason but no [DONE] is finalised cleanly', async () => {
    await fixture.emulator.setScript({ routes: [openaiRoute([{ ok: true, chunks: ['all ', 'there'], omitDone: true }])] });
    const stream = await client.chat.completions.create({ model: 'default', stream: true, messages: [{ role: 'user', content: 'x' }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('all there');
  });
});

describe('hostile input and load', () => {
  const post = (body: string, contentType = 'application/json', signal?: AbortSignal) =>
    fetch(`${fixture.gateway.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': contentType }, body, ...(signal === undefined ? {} : { signal }) });

  it.each([
    { name: 'non-JSON', body: '{"model": "default", "messages": [', status: 400, code: 'invalid_json' },
    { name: 'missing messages', body: '{"model":"default"}', status: 400, code: 'missing_messages' },
    { name: 'empty messages', body: '{"model":"default","messages":[]}', status: 400, code: 'missing_messages' },
    { name: 'a JSON array', body: '[1,2]', status: 400, code: 'invalid_body' },
    { name: 'an unknown model', body: '{"model":"nope","messages":[{"role":"user","content":"x"}]}', status: 404, code: 'model_not_found' },
    { name: 'an oversized body', body: JSON.stringify({ model: 'default', messages: [{ role: 'user', content: 'x'.repeat(70_000) }] }), status: 413, code: 'request_too_large' },
  ])('$name gets $status in the OpenAI error shape and the gateway stays up', async ({ body, status, code }) => {
    const response = await post(body);
    expect(response.status).toBe(status);
    const json = (await response.json()) as { error: { code: string; message: string; type: string } };
    expect(json.error.code).toBe(code);
    expect(json.error.message.length).toBeGreaterThan(10);
    expect((await fetch(`${fixture.gateway.url}/healthz`)).status).toBe(200);
  });

  it('answers an oversized chunked body with a 413 the client can read, and closes the connection', async () => {
    // No content-length: the size is only known as the chunks arrive, so the gateway refuses mid-body.
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      // Paced, so the client is still sending well after the gateway has refused the body.
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (sent >= 1_048_576) {
          controller.close();
          return;
        }
        sent += 16_384;
        controller.enqueue(new Uint8Array(16_384).fill(0x78));
      },
    });
    const response = await fetch(`${fixture.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
    const json = (await response.json()) as { error: { code: string } };
    expect(json.error.code).toBe('request_too_large');
    expect((await fetch(`${fixture.gateway.url}/healthz`)).status).toBe(200);
  });

  it('survives clients that leave while waiting and while streaming', async () => {
    await fixture.emulator.setScript({
      routes: [
        { match: { model: 'gpt-a', stream: false }, steps: [{ ok: true, delayMs: 1500 }] },
        { match: { model: 'gpt-a', stream: true }, steps: [{ ok: true, chunks: ['a', 'b', 'c', 'd', 'e'], chunkDelayMs: 150 }] },
      ],
    });
    const waiting = await post(JSON.stringify({ model: 'default', messages: [{ role: 'user', content: 'x' }] }), 'application/json', AbortSignal.timeout(200)).then(
      () => 'answered',
      (error: unknown) => (error as Error).name,
    );
    expect(waiting).toBe('TimeoutError');
    const controller = new AbortController();
    const streaming = await post(JSON.stringify({ model: 'default', stream: true, messages: [{ role: 'user', content: 'x' }] }), 'application/json', controller.signal);
    const reader = streaming.body?.getReader();
    await reader?.read();
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await fetch(`${fixture.gateway.url}/healthz`)).status).toBe(200);
    await fixture.emulator.setScript({ routes: [] });
    expect((await ask('still fine')).data.choices[0]?.message.content).toBe('still fine');
  });

  it('a client that leaves takes its upstream request with it, streamed or not (the request abort reaches the provider call)', async () => {
    await fixture.emulator.setScript({
      routes: [
        { match: { model: 'gpt-a', stream: false }, steps: [{ ok: true, delayMs: 120_000 }] },
        { match: { model: 'gpt-a', stream: true }, steps: [{ ok: true, chunks: ['a', 'b', 'c'], chunkDelayMs: 20, stallAfterChunks: 1, stallMs: 120_000 }] },
      ],
    });
    await fixture.emulator.clearRequests();
    const outcomes = async (): Promise<string[]> => (await fixture.emulator.requests()).map((request) => `${String(request.stream)}: ${request.outcome}`);
    const until = async (done: (seen: string[]) => boolean): Promise<string[]> => {
      for (let tries = 0; tries < 500 && !done(await outcomes()); tries += 1) await new Promise((resolve) => setTimeout(resolve, 20));
      return outcomes();
    };
    const whole = new AbortController();
    const waiting = post(JSON.stringify({ model: 'default', messages: [{ role: 'user', content: 'x' }] }), 'application/json', whole.signal).catch((error: unknown) => (error as Error).name);
    await until((seen) => seen.includes('false: pending'));
    whole.abort();
    expect(await waiting).toBe('AbortError');
    expect(await until((seen) => !seen.includes('false: pending'))).toEqual(['false: client left']);

    const streamed = new AbortController();
    const streaming = await post(JSON.stringify({ model: 'default', stream: true, messages: [{ role: 'user', content: 'x' }] }), 'application/json', streamed.signal);
    await streaming.body?.getReader().read();
    streamed.abort();
    // The upstream stream stalls for two minutes after its first chunk: it ends this soon only because the gateway let go.
    expect((await until((seen) => !seen.includes('true: pending'))).at(-1)).toMatch(/^true: (.* until the )?client left$/);
    await fixture.emulator.setScript({ routes: [] });
  });

  it('answers 200 parallel requests, each with its own answer', async () => {
    const prompts = Array.from({ length: 200 }, (_, index) => `parallel ${index}`);
    const answers = await Promise.all(
      prompts.map((content) => client.chat.completions.create({ model: 'backup/model-c', messages: [{ role: 'user', content }] })),
    );
    expect(answers.map((answer) => answer.choices[0]?.message.content)).toEqual(prompts);
  });
});

describe('secrets', () => {
  it('no fixture key appears in any response body or in the gateway output', () => {
    const output = `${fixture.gateway.stdout()}\n${fixture.gateway.stderr()}\n${seenBodies.join('\n')}`;
    expect(output.length).toBeGreaterThan(1000);
    for (const key of Object.values(KEYS)) expect(output).not.toContain(key);
    expect(output).not.toContain('sk-test-');
  });
});
