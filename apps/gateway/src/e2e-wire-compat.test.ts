/**
 * Wire fidelity with real client libraries (docs/wire-mapping.md): one in-process gateway in front of one
 * provider emulator for the whole file. Same-format requests reach the upstream as the client sent them (model id
 * and the gateway's own fields aside) and come back as the upstream answered; cross-format requests are
 * translated by the mapping table; a fallback in another format never turns a valid request into a 400.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { InProcessGateway } from './test-support/in-process-gateway.js';
import { startInProcessGateway } from './test-support/in-process-gateway.js';
import type { EmulatorProcess, RecordedRequest } from './test-support/processes.js';
import { startEmulator } from './test-support/processes.js';

let emulator: EmulatorProcess;
let gateway: InProcessGateway;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  emulator = await startEmulator();
  gateway = await startInProcessGateway({
    logLevel: 'warn',
    config: {
      models: {
        providers: {
          oai: { baseUrl: `${emulator.url}/v1`, api: 'openai-completions', apiKey: 'sk-oai-key-1111', models: ['gpt-4o', 'o3-mini'] },
          ant: { baseUrl: emulator.url, api: 'anthropic-messages', apiKey: 'sk-ant-key-2222', models: ['claude-sonnet-4-5'] },
          gem: { baseUrl: emulator.url, api: 'google-generative-ai', apiKey: 'gem-key-3333', models: ['gemini-2.5-flash'] },
        },
      },
      agents: { defaults: { model: { primary: 'oai/gpt-4o', fallbacks: ['ant/claude-sonnet-4-5'] } } },
      retry: { provider: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 2 } },
    },
  });
  openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: gateway.url, apiKey: 'unused', maxRetries: 0 });
});

afterAll(async () => {
  await gateway?.stop();
  await emulator?.stop();
});

beforeEach(async () => {
  await emulator.setScript({ routes: [] });
  for (const profile of ((await gateway.admin('GET', '/admin/profiles')).json as { profiles: { id: string }[] }).profiles) {
    await gateway.admin('POST', `/admin/profiles/${encodeURIComponent(profile.id)}/clear-cooldown`);
  }
});

async function received(api: string): Promise<RecordedRequest[]> {
  return (await emulator.requests()).filter((request) => request.api === api);
}

async function onlyBody(api: string): Promise<Record<string, unknown>> {
  const requests = await received(api);
  expect(requests).toHaveLength(1);
  return requests[0]?.body as Record<string, unknown>;
}

describe('same format: lossless', () => {
  it('openai → openai-completions: the body arrives as sent (unknown fields, structured output, max_completion_tokens)', async () => {
    const sent = {
      model: 'oai/gpt-4o',
      messages: [{ role: 'user' as const, content: [{ type: 'image_url' as const, image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' as const } }] }],
      max_completion_tokens: 50,
      seed: 7,
      user: 'u-1',
      logprobs: true,
      top_logprobs: 2,
      parallel_tool_calls: false,
      response_format: { type: 'json_schema' as const, json_schema: { name: 'city', schema: { type: 'object', properties: { city: { type: 'string' } } }, strict: true } },
      tools: [{ type: 'function' as const, function: { name: 'f', parameters: { type: 'object' }, strict: true } }],
      understudy: { fallbacks: [] },
      some_future_field: { kept: true },
    };
    const answer = await openai.chat.completions.create(sent as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(answer.model).toBe('oai/gpt-4o');
    const body = await onlyBody('openai-completions');
    const { understudy: _dropped, ...rest } = sent;
    expect(body).toEqual({ ...rest, model: 'gpt-4o' });
  });

  it('anthropic → anthropic-messages: body and anthropic-beta header arrive as sent (cache hints, thinking, top_k)', async () => {
    const sent = {
      model: 'ant/claude-sonnet-4-5',
      max_tokens: 2048,
      system: [{ type: 'text' as const, text: 'be brief', cache_control: { type: 'ephemeral' as const } }],
      messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi', cache_control: { type: 'ephemeral' as const } }] }],
      thinking: { type: 'enabled' as const, budget_tokens: 1024 },
      top_k: 5,
      metadata: { user_id: 'u-2' },
      some_future_field: 1,
    };
    const answer = await anthropic.messages.create(sent as unknown as Anthropic.MessageCreateParamsNonStreaming, {
      headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14', 'x-understudy-session': 'wire-1' },
    });
    expect(answer.model).toBe('ant/claude-sonnet-4-5');
    const [request] = await received('anthropic-messages');
    expect(request?.body).toEqual({ ...sent, model: 'claude-sonnet-4-5' });
    expect(request?.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
    expect(request?.headers['x-understudy-session']).toBeUndefined();
  });

  it('streams relay the upstream events: openai text and usage only when asked', async () => {
    await emulator.setScript({ routes: [{ match: { api: 'openai-completions' }, steps: [{ ok: true, chunks: ['Hel', 'lo'] }] }] });
    const stream = await openai.chat.completions.create({ model: 'oai/gpt-4o', messages: [{ role: 'user', content: 'x' }], stream: true });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Hello');
    expect(chunks.every((chunk) => chunk.model === 'oai/gpt-4o')).toBe(true);
    expect(chunks.some((chunk) => chunk.usage !== undefined && chunk.usage !== null)).toBe(false);
    const body = await onlyBody('openai-completions');
    expect(body['stream_options']).toEqual({ include_usage: true });
  });

  it('streams relay the upstream events: anthropic', async () => {
    await emulator.setScript({ routes: [{ match: { api: 'anthropic-messages' }, steps: [{ ok: true, chunks: ['Bon', 'jour'] }] }] });
    const stream = anthropic.messages.stream({ model: 'ant/claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'x' }] });
    const message = await stream.finalMessage();
    expect(message.content).toEqual([{ type: 'text', text: 'Bonjour', citations: null }].map(({ citations: _c, ...block }) => expect.objectContaining(block)));
    expect(message.model).toBe('ant/claude-sonnet-4-5');
  });
});
