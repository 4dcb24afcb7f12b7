/**
 * The emulator in-process: script matching and step consumption, the three wire formats (whole and streamed),
 * each fault, the OAuth endpoint, recording and the control API — all over real loopback HTTP.
 */
import { describe, expect, it } from 'vitest';
import { useInProcessEmulator } from './test-support/in-process.js';

const emulator = useInProcessEmulator();

const OPENAI = '/v1/chat/completions';
const ANTHROPIC = '/v1/messages';
const gemini = (model: string, stream = false): string =>
  stream ? `/v1beta/models/${model}:streamGenerateContent?alt=sse` : `/v1beta/models/${model}:generateContent`;

function chat(model: string, text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model, messages: [{ role: 'user', content: text }], ...extra };
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${emulator.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

async function json(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await post(path, body, headers);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The SSE data lines of a stream, parsed where they are JSON. */
function dataLines(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => {
      const data = line.slice('data: '.length);
      try {
        return JSON.parse(data) as unknown;
      } catch {
        return data;
      }
    });
}

function eventNames(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('event: '))
    .map((line) => line.slice('event: '.length));
}

describe('script matching', () => {
  it('answers with the first matching route and consumes its steps in order, the last one repeating', async () => {
    emulator.setScript({
      routes: [
        { name: 'key a', match: { key: 'sk-a' }, steps: [{ status: 429 }, { status: 503 }, { text: 'a ok' }] },
        { name: 'gpt', match: { api: 'openai-completions', model: 'gpt-x' }, steps: [{ text: 'gpt ok' }] },
      ],
    });
    const statuses: number[] = [];
    for (let index = 0; index < 4; index += 1) statuses.push((await post(OPENAI, chat('gpt-x', 'hi'), { authorization: 'Bearer sk-a' })).status);
    expect(statuses).toEqual([429, 503, 200, 200]);
    expect((await json(OPENAI, chat('gpt-x', 'hi'), { authorization: 'Bearer sk-b' })).body).toMatchObject({
      choices: [{ message: { content: 'gpt ok' } }],
    });
    expect(emulator.stats().routes).toEqual([
      { name: 'key a', calls: 4 },
      { name: 'gpt', calls: 1 },
    ]);
  });

  it('matches on api, model, key in any header form, path prefix and stream flag', async () => {
    emulator.setScript({
      routes: [
        { match: { api: 'anthropic-messages', key: 'sk-ant' }, steps: [{ text: 'anthropic key' }] },
        { match: { api: 'google-generative-ai', key: 'AIza-1' }, steps: [{ text: 'gemini key' }] },
        { match: { pathPrefix: '/groq/' }, steps: [{ text: 'groq' }] },
        { match: { stream: true }, steps: [{ text: 'streamed' }] },
      ],
    });
    expect((await json(ANTHROPIC, chat('c', 'x'), { 'x-api-key': 'sk-ant' })).body['content']).toEqual([{ type: 'text', text: 'anthropic key' }]);
    const viaHeader = await json(gemini('g'), { contents: [] }, { 'x-goog-api-key': 'AIza-1' });
    const viaQuery = await json(`${gemini('g')}?key=AIza-1`, { contents: [] });
    for (const answer of [viaHeader, viaQuery]) {
      expect(answer.body).toMatchObject({ candidates: [{ content: { parts: [{ text: 'gemini key' }] } }] });
    }
    expect((await json('/groq/v1/chat/completions', chat('llama', 'x'))).body).toMatchObject({ choices: [{ message: { content: 'groq' } }] });
    const streamed = await (await post(OPENAI, chat('m', 'x', { stream: true }))).text();
    expect(streamed).toContain('"content":"streamed"');
  });

  it('answers unmatched requests by echoing the last user message, or with defaults.text', async () => {
    const echo = await json(ANTHROPIC, { model: 'c', messages: [{ role: 'user', content: 'first' }, { role: 'assistant', content: 'x' }, { role: 'user', content: [{ type: 'text', text: 'echo me' }] }] });
    expect(echo.body['content']).toEqual([{ type: 'text', text: 'echo me' }]);
    emulator.setScript({ defaults: { text: 'fixed' } });
    expect((await json(OPENAI, chat('m', 'ignored'))).body).toMatchObject({ choices: [{ message: { content: 'fixed' } }] });
  });

  it('continues an assistant prefill that the answer starts with: only the rest is sent', async () => {
    emulator.setScript({ defaults: { text: 'one two three' } });
    const prefilled = { model: 'c', max_tokens: 50, messages: [{ role: 'user', content: 'count' }, { role: 'assistant', content: 'one two' }] };
    expect((await json(ANTHROPIC, prefilled)).body['content']).toEqual([{ type: 'text', text: ' three' }]);
    const other = { ...prefilled, messages: [{ role: 'user', content: 'count' }, { role: 'assistant', content: 'zero' }] };
    expect((await json(ANTHROPIC, other)).body['content']).toEqual([{ type: 'text', text: 'one two three' }]);
  });

  it('restarts the steps when the script is replaced', async () => {
    const script = { routes: [{ steps: [{ status: 500 }, { ok: true }] }] };
    emulator.setScript(script);
    expect((await post(OPENAI, chat('m', 'x'))).status).toBe(500);
    emulator.setScript(script);
    expect((await post(OPENAI, chat('m', 'x'))).status).toBe(500);
  });
});

describe('wire formats', () => {
  it('openai: chat.completion with usage; stream with role chunk, usage chunk on request, then [DONE]', async () => {
    const whole = await json(OPENAI, chat('gpt-4o', 'one two'));
    expect(whole.body).toMatchObject({
      object: 'chat.completion',
      model: 'gpt-4o',
      choices: [{ index: 0, message: { role: 'assistant', content: 'one two' }, finish_reason: 'stop' }],
      usage: { completion_tokens: 2 },
    });
    const text = await (await post(OPENAI, chat('gpt-4o', 'one two', { stream: true, stream_options: { include_usage: true } }))).text();
    const data = dataLines(text);
    expect(data.at(-1)).toBe('[DONE]');
    expect(data[0]).toMatchObject({ object: 'chat.completion.chunk', choices: [{ delta: { role: 'assistant' } }] });
    expect(data.slice(1, 3).map((chunk) => (chunk as { choices: { delta: { content: string } }[] }).choices[0]?.delta.content)).toEqual(['one', ' two']);
    expect(data[3]).toMatchObject({ choices: [{ delta: {}, finish_reason: 'stop' }] });
    expect(data[4]).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number), completion_tokens: 2 } });
    const withoutUsage = dataLines(await (await post(OPENAI, chat('gpt-4o', 'x', { stream: true }))).text());
    expect(withoutUsage.some((chunk) => typeof chunk === 'object' && chunk !== null && 'usage' in chunk)).toBe(false);
  });

  it('anthropic: message body; stream events in the documented order', async () => {
    const whole = await json(ANTHROPIC, chat('claude-x', 'hey there'));
    expect(whole.body).toMatchObject({ type: 'message', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'hey there' }], stop_reason: 'end_turn', usage: { output_tokens: 3 } });
    const text = await (await post(ANTHROPIC, chat('claude-x', 'hey there', { stream: true }))).text();
    expect(eventNames(text)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(dataLines(text)[6]).toMatchObject({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } });
  });

  it('anthropic: tool calls stream as tool_use blocks with input_json_delta', async () => {
    emulator.setScript({ routes: [{ steps: [{ text: 'Looking.', toolCalls: [{ id: 'toolu_1', name: 'lookup', arguments: { q: 'x' } }] }] }] });
    const text = await (await post(ANTHROPIC, chat('c', 'x', { stream: true }))).text();
    const data = dataLines(text) as Record<string, unknown>[];
    expect(data.find((event) => event['type'] === 'content_block_start' && (event['content_block'] as { type: string }).type === 'tool_use')).toMatchObject({
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_1', name: 'lookup' },
    });
    expect(data.find((event) => (event['delta'] as { type?: string } | undefined)?.type === 'input_json_delta')).toMatchObject({ delta: { partial_json: '{"q":"x"}' } });
    expect(data.find((event) => event['type'] === 'message_delta')).toMatchObject({ delta: { stop_reason: 'tool_use' } });
  });

  it('gemini: generateContent body; alt=sse chunks ending with finishReason; a JSON array without alt=sse', async () => {
    const body = { contents: [{ role: 'user', parts: [{ text: 'red green' }] }] };
    expect((await json(gemini('gemini-2.5-flash'), body)).body).toMatchObject({
      candidates: [{ content: { parts: [{ text: 'red green' }], role: 'model' }, finishReason: 'STOP' }],
      usageMetadata: { candidatesTokenCount: 3 },
      modelVersion: 'gemini-2.5-flash',
    });
    const data = dataLines(await (await post(gemini('gemini-2.5-flash', true), body)).text());
    expect(data).toHaveLength(3);
    expect(data[2]).toMatchObject({ candidates: [{ finishReason: 'STOP' }], usageMetadata: { totalTokenCount: expect.any(Number) } });
    const array = await (await post('/v1beta/models/gemini-2.5-flash:streamGenerateContent', body)).json();
    expect(Array.isArray(array)).toBe(true);
  });

  it('lists models and answers unknown paths with 404', async () => {
    emulator.setScript({ models: ['listed'], routes: [{ match: { model: 'routed' }, steps: [{}] }] });
    const list = (await (await fetch(`${emulator.url}/v1/models`)).json()) as { data: { id: string }[] };
    expect(list.data.map((model) => model.id)).toEqual(['listed', 'routed']);
    expect((await post('/v1/embeddings', {})).status).toBe(404);
  });
});

describe('faults', () => {
  it('status steps send the status, headers and body as scripted', async () => {
    emulator.setScript({ routes: [{ steps: [{ status: 429, headers: { 'retry-after': '7' }, body: 'slow down' }] }] });
    const response = await post(OPENAI, chat('m', 'x'));
    expect({ status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() }).toEqual({
      status: 429,
      retryAfter: '7',
      body: 'slow down',
    });
  });

  it('reset: the connection is reset before any response', async () => {
    emulator.setScript({ routes: [{ steps: [{ reset: true }] }] });
    const error = await post(OPENAI, chat('m', 'x')).catch((caught: unknown) => caught);
    expect((error as { cause?: { code?: string } }).cause?.code).toBe('ECONNRESET');
    expect(emulator.requests()[0]?.outcome).toBe('reset');
  });

  it('cutAfterChunks: the stream stops after N content chunks without a clean end', async () => {
    emulator.setScript({ routes: [{ steps: [{ cutAfterChunks: 1 }] }] });
    const response = await post(OPENAI, chat('m', 'a b c', { stream: true }));
    await expect(response.text()).rejects.toThrow();
    expect(emulator.requests()[0]?.outcome).toBe('cut after 1 chunks');
  });

  it('endAfterChunks, malformedAfterChunks, errorAfterChunks and omitDone shape the stream', async () => {
    emulator.setScript({
      routes: [
        { match: { model: 'end' }, steps: [{ endAfterChunks: 1 }] },
        { match: { model: 'bad' }, steps: [{ malformedAfterChunks: 1 }] },
        { match: { model: 'err' }, steps: [{ errorAfterChunks: 1 }] },
        { match: { model: 'nodone' }, steps: [{ omitDone: true }] },
      ],
    });
    const ended = dataLines(await (await post(OPENAI, chat('end', 'a b c', { stream: true }))).text());
    expect(ended).toHaveLength(2);
    const bad = await (await post(OPENAI, chat('bad', 'a b', { stream: true }))).text();
    expect(dataLines(bad).filter((line) => typeof line === 'string')).toEqual([expect.stringContaining('"content":"tru'), '[DONE]']);
    const errored = await (await post(ANTHROPIC, chat('err', 'a b', { stream: true }))).text();
    expect(eventNames(errored).at(-1)).toBe('error');
    expect(dataLines(errored).at(-1)).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
    const noDone = dataLines(await (await post(OPENAI, chat('nodone', 'a', { stream: true }))).text());
    expect(noDone.at(-1)).toMatchObject({ choices: [{ finish_reason: 'stop' }] });
  });

  it('stallAfterChunks with stallMs pauses, then finishes the answer', async () => {
    emulator.setScript({ routes: [{ steps: [{ stallAfterChunks: 1, stallMs: 30, firstTokenDelayMs: 10, chunkDelayMs: 5 }] }] });
    const text = await (await post(OPENAI, chat('m', 'a b', { stream: true }))).text();
    expect(dataLines(text).at(-1)).toBe('[DONE]');
  });

  it('a stall without stallMs lasts until the client leaves', async () => {
    emulator.setScript({ routes: [{ steps: [{ stallAfterChunks: 1 }] }] });
    const response = await post(OPENAI, chat('m', 'a b', { stream: true }));
    const reader = response.body?.getReader();
    await reader?.read();
    await reader?.cancel();
    let outcome = '';
    for (let tries = 0; tries < 250 && !outcome.includes('client left'); tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      outcome = emulator.requests()[0]?.outcome ?? '';
    }
    expect(outcome).toBe('stalled after 1 chunks until the client left');
  });

  it('non-streaming faults happen half-way through the body', async () => {
    emulator.setScript({ routes: [{ match: { model: 'truncated' }, steps: [{ malformedAfterChunks: 0 }] }, { match: { model: 'cut' }, steps: [{ cutAfterChunks: 0 }] }] });
    const truncated = await (await post(OPENAI, chat('truncated', 'x'))).text();
    expect(() => JSON.parse(truncated) as unknown).toThrow();
    await expect((await post(OPENAI, chat('cut', 'x'))).text()).rejects.toThrow();
  });
});

describe('OAuth token endpoint', () => {
  async function refresh(form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${emulator.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('issues numbered tokens by default and counts every refresh', async () => {
    expect(await refresh({ grant_type: 'refresh_token', refresh_token: 'rt-secret-0001' })).toEqual({
      status: 200,
      body: { access_token: 'emu-access-1', token_type: 'Bearer', expires_in: 3600, refresh_token: 'emu-refresh-1' },
    });
    expect((await refresh({ grant_type: 'refresh_token', refresh_token: 'emu-refresh-1' })).body['access_token']).toBe('emu-access-2');
    expect(emulator.stats().oauthRefreshes).toBe(2);
    expect(emulator.requests()[0]?.body).toEqual({ grant_type: 'refresh_token', refresh_token: '…0001' });
  });

  it('plays scripted steps and rejects other grants', async () => {
    emulator.setScript({ oauth: { steps: [{ accessToken: 'at-x', expiresInSeconds: 60 }, { status: 400, body: { error: 'invalid_grant' } }] } });
    expect((await refresh({ grant_type: 'refresh_token', refresh_token: 'r' })).body).toMatchObject({ access_token: 'at-x', expires_in: 60 });
    expect(await refresh({ grant_type: 'refresh_token', refresh_token: 'r' })).toEqual({ status: 400, body: { error: 'invalid_grant' } });
    expect((await refresh({ grant_type: 'client_credentials' })).status).toBe(400);
  });
});

describe('recording and control API', () => {
  it('records each request with a key fingerprint and no secret headers', async () => {
    await post(`${gemini('gemini-x')}?key=AIzaSECRET99`, { contents: [] }, { 'x-custom': 'kept' });
    await post(OPENAI, chat('gpt-y', 'hello'), { authorization: 'Bearer sk-very-secret-abcd' });
    const records = emulator.requests();
    expect(records.map((record) => ({ api: record.api, model: record.model, path: record.path, key: record.keyFingerprint }))).toEqual([
      { api: 'google-generative-ai', model: 'gemini-x', path: '/v1beta/models/gemini-x:generateContent', key: '…ET99' },
      { api: 'openai-completions', model: 'gpt-y', path: '/v1/chat/completions', key: '…abcd' },
    ]);
    expect(records[0]?.headers['x-custom']).toBe('kept');
    expect(JSON.stringify(records)).not.toMatch(/SECRET99|sk-very-secret/);
    expect(records[1]).toMatchObject({ method: 'POST', stream: false, body: chat('gpt-y', 'hello'), route: null, step: null, outcome: 'ok' });
    expect(records[1]?.timestamp).toBeGreaterThan(0);
  });

  it('serves the records, replaces the script and clears over HTTP', async () => {
    const scripted = await fetch(`${emulator.url}/__script`, { method: 'POST', body: '{ routes: [{ steps: [{ status: 418 }] }] } // JSON5' });
    expect(scripted.status).toBe(200);
    expect((await post(OPENAI, chat('m', 'x'))).status).toBe(418);
    const records = (await (await fetch(`${emulator.url}/__requests`)).json()) as { outcome: string; route: number; step: number }[];
    expect(records).toEqual([expect.objectContaining({ outcome: 'status 418', route: 0, step: 0 })]);
    const rejected = await fetch(`${emulator.url}/__script`, { method: 'POST', body: '{ routes: [{ steps: [{ sttaus: 1 }] }] }' });
    expect(rejected.status).toBe(400);
    expect(((await rejected.json()) as { error: string }).error).toMatch(/routes\.0\.steps\.0.*sttaus/);
    expect((await fetch(`${emulator.url}/__requests`, { method: 'DELETE' })).status).toBe(200);
    expect(emulator.requests()).toEqual([]);
    expect(((await (await fetch(`${emulator.url}/__stats`)).json()) as { requests: number }).requests).toBe(0);
  });
});
