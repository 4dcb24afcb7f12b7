/**
 * Each client against the emulator over loopback: whole answers, streams, tool calls, auth headers and the
 * request shape the provider receives.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatRequest, ProviderApi } from './chat-types.js';
import { PROVIDER_APIS } from './chat-types.js';
import { collectChatStream } from './chat-stream.js';
import type { ProviderClient } from './client-options.js';
import { apiKey, emulatorClient } from './test-support/clients.js';
import { useEmulator } from './test-support/emulator.js';

const emulator = useEmulator({ everyTest: { routes: [] } });
const clients = new Map<ProviderApi, ProviderClient>();

beforeAll(() => {
  for (const api of PROVIDER_APIS) clients.set(api, emulator.client(api));
});

function client(api: ProviderApi): ProviderClient {
  const found = clients.get(api);
  if (found === undefined) throw new Error(`no client for ${api}`);
  return found;
}
const hello: ChatRequest = { model: 'model-a', messages: [{ role: 'system', content: 'Be kind.' }, { role: 'user', content: 'hello from the test' }] };

const EXPECTED_PATH: Readonly<Record<ProviderApi, { whole: string; stream: string }>> = {
  'openai-completions': { whole: '/v1/chat/completions', stream: '/v1/chat/completions' },
  'openai-responses': { whole: '/v1/responses', stream: '/v1/responses' },
  'anthropic-messages': { whole: '/v1/messages', stream: '/v1/messages' },
  'google-generative-ai': { whole: '/v1beta/models/model-a:generateContent', stream: '/v1beta/models/model-a:streamGenerateContent?alt=sse' },
};

describe.each(PROVIDER_APIS)('%s client', (api) => {
  it('completes a request: text, finish reason, usage and the upstream model', async () => {
    const result = await client(api).complete(hello, { credential: apiKey('sk-test-key-1111') });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toMatchObject({ model: 'model-a', text: 'hello from the test', toolCalls: [], finishReason: 'stop' });
    expect(result.value.usage?.outputTokens).toBeGreaterThan(0);
    expect(result.value.usage?.totalTokens).toBe((result.value.usage?.inputTokens ?? 0) + (result.value.usage?.outputTokens ?? 0));
    expect(result.value.responseHeaders?.['content-type']).toContain('application/json');
    const [record] = await emulator.requests();
    expect(record).toMatchObject({ method: 'POST', path: EXPECTED_PATH[api].whole, model: 'model-a', stream: false, keyFingerprint: '…1111' });
  });

  it('streams a request: resolves at the first token, then yields the rest, finish and usage', async () => {
    await emulator.setScript({ routes: [{ steps: [{ text: 'one two three four' }] }] });
    const result = await client(api).stream(hello, { credential: apiKey('sk-test-key-2222') });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const deltas = [];
    for await (const delta of result.value) deltas.push(delta);
    expect(deltas.filter((delta) => delta.kind === 'text').map((delta) => delta.text)).toEqual(['one', ' two', ' three', ' four']);
    expect(deltas.find((delta) => delta.kind === 'finish')).toMatchObject({ finishReason: 'stop' });
    expect(deltas.at(-1)?.kind).toBe('usage');
    expect(result.value.model).toBe('model-a');
    const [record] = await emulator.requests();
    expect(record).toMatchObject({ path: EXPECTED_PATH[api].stream, stream: true, keyFingerprint: '…2222', outcome: 'ok' });
  });

  it('carries tool calls both ways (whole and streamed)', async () => {
    await emulator.setScript({
      routes: [{ steps: [{ toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: { city: 'Oslo' } }] }] }],
    });
    const request: ChatRequest = {
      model: 'model-a',
      messages: [{ role: 'user', content: 'weather?' }],
      tools: [{ name: 'get_weather', description: 'Weather by city', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
    };
    const whole = await client(api).complete(request, { credential: apiKey('sk-tools') });
    expect(whole.ok && whole.value.finishReason).toBe('tool_calls');
    expect(whole.ok && whole.value.toolCalls.map((call) => ({ name: call.name, arguments: JSON.parse(call.arguments) as unknown }))).toEqual([
      { name: 'get_weather', arguments: { city: 'Oslo' } },
    ]);
    const streamed = await client(api).stream(request, { credential: apiKey('sk-tools') });
    expect(streamed.ok).toBe(true);
    if (!streamed.ok) return;
    const collected = await collectChatStream(streamed.value);
    expect(collected.finishReason).toBe('tool_calls');
    expect(collected.toolCalls).toHaveLength(1);
    expect(collected.toolCalls[0]?.name).toBe('get_weather');
    expect(JSON.parse(collected.toolCalls[0]?.arguments ?? 'null')).toEqual({ city: 'Oslo' });
  });

  it('sends no auth header for a keyless provider', async () => {
    const result = await client(api).complete(hello, { credential: null });
    expect(result.ok).toBe(true);
    const [record] = await emulator.requests();
    expect(record?.keyFingerprint).toBeNull();
  });
});

describe('request shape on the wire', () => {
  it('anthropic: x-api-key, anthropic-version and the configured headers reach the provider', async () => {
    const anthropic = emulatorClient('anthropic-messages', emulator.url, { headers: { 'X-Title': 'understudy tests' } });
    const result = await anthropic.complete(hello, { credential: apiKey('sk-ant-key-3333') });
    await anthropic.close();
    expect(result.ok).toBe(true);
    const [record] = await emulator.requests();
    expect(record?.headers).toMatchObject({ 'anthropic-version': '2023-06-01', 'x-title': 'understudy tests', 'content-type': 'application/json' });
    expect(record?.headers).not.toHaveProperty('x-api-key');
    expect(record?.keyFingerprint).toBe('…3333');
    expect(record?.body).toMatchObject({ model: 'model-a', max_tokens: 4096, system: 'Be kind.', messages: [{ role: 'user', content: [{ type: 'text', text: 'hello from the test' }] }] });
  });

  it('openai: streams ask for the usage chunk', async () => {
    const result = await client('openai-completions').stream(hello, { credential: apiKey('sk-x') });
    if (result.ok) await collectChatStream(result.value);
    const [record] = await emulator.requests();
    expect(record?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it.each(PROVIDER_APIS)('%s: reuses keep-alive connections for sequential calls, streams included', async (api) => {
    const fresh = emulatorClient(api, emulator.url);
    for (let index = 0; index < 2; index += 1) {
      const whole = await fresh.complete(hello, { credential: apiKey('sk-x') });
      expect(whole.ok).toBe(true);
      const streamed = await fresh.stream(hello, { credential: apiKey('sk-x') });
      expect(streamed.ok && (await collectChatStream(streamed.value)).text).toBe('hello from the test');
    }
    await fresh.close();
    const records = await emulator.requests();
    expect(records).toHaveLength(4);
    // Round two goes over the sockets round one opened (a stream may need a second socket while the first
    // is being handed back to the pool), so no new connection is opened.
    const firstRound = new Set(records.slice(0, 2).map((record) => record.connection));
    expect(records.slice(2).every((record) => firstRound.has(record.connection))).toBe(true);
  });
});
