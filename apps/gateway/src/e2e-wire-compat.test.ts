/**
 * Wire fidelity with real client libraries (docs/wire-mapping.md): the official `openai` and `@anthropic-ai/sdk`
 * clients, the Vercel AI SDK (`ai` with `@ai-sdk/openai` and `@ai-sdk/anthropic`) and LangChain's `ChatOpenAI`,
 * each × {same format, cross format, failover across formats} × {chat, stream, tools round trip, structured
 * output, images, reasoning}. One in-process gateway in front of one provider emulator for the whole file; the
 * emulator refuses what the real APIs refuse (`realLimits`), and each test asserts what the upstream received.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import Anthropic from '@anthropic-ai/sdk';
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import { ChatOpenAI } from '@langchain/openai';
import { generateObject, generateText, streamText } from 'ai';
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { InProcessGateway } from './test-support/in-process-gateway.js';
import { startInProcessGateway } from './test-support/in-process-gateway.js';
import type { EmulatorStep } from '@understudy/provider-emulator/client';
import type { EmulatorProcess, RecordedRequest } from './test-support/processes.js';
import { startEmulator } from './test-support/processes.js';

let emulator: EmulatorProcess;
let gateway: InProcessGateway;
let openai: OpenAI;
let anthropic: Anthropic;

/** OpenAI-compatible servers name tool calls like this; Anthropic refuses such ids. */
const FOREIGN_TOOL_ID = 'functions.get_weather:0';
const CITY = z.object({ city: z.string() });
const CITY_JSON = '{"city":"Paris"}';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

beforeAll(async () => {
  emulator = await startEmulator({ realLimits: true, routes: [] });
  gateway = await startInProcessGateway({
    logLevel: 'warn',
    config: {
      models: {
        providers: {
          oai: {
            baseUrl: `${emulator.url}/v1`,
            api: 'openai-completions',
            apiKey: 'sk-oai-key-1111',
            models: ['gpt-4o', { id: 'o3-mini', reasoning: true }, { id: 'text-only', input: ['text'] }],
          },
          ant: { baseUrl: emulator.url, api: 'anthropic-messages', apiKey: 'sk-ant-key-2222', models: [{ id: 'claude-sonnet-4-5', reasoning: true, maxTemperature: 1 }] },
          gem: { baseUrl: emulator.url, api: 'google-generative-ai', apiKey: 'gem-key-3333', models: ['gemini-2.5-flash'] },
          oresp: { baseUrl: `${emulator.url}/v1`, api: 'openai-responses', apiKey: 'sk-resp-key-4444', models: ['gpt-4.1'] },
        },
      },
      agents: {
        defaults: { model: { primary: 'oai/gpt-4o', fallbacks: ['ant/claude-sonnet-4-5'] } },
        entries: {
          ofirst: { model: { primary: 'oai/gpt-4o', fallbacks: ['ant/claude-sonnet-4-5'] } },
          afirst: { model: { primary: 'ant/claude-sonnet-4-5', fallbacks: ['oai/gpt-4o'] } },
          reasoner: { model: { primary: 'ant/claude-sonnet-4-5', fallbacks: ['oai/o3-mini'] } },
          eyes: { model: { primary: 'oai/text-only', fallbacks: ['ant/claude-sonnet-4-5'] } },
        },
      },
      retry: { provider: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 2 } },
    },
  });
  openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: gateway.url, apiKey: 'unused', maxRetries: 0 });
}, 60_000);

afterAll(async () => {
  await gateway?.stop();
  await emulator?.stop();
});

beforeEach(async () => {
  await emulator.setScript({ realLimits: true, routes: [] });
  for (const agent of ['main', 'ofirst', 'afirst', 'reasoner', 'eyes']) {
    const listed = (await gateway.admin('GET', `/admin/profiles?agent=${agent}`)).json as { profiles?: { id: string }[] };
    for (const profile of listed.profiles ?? []) {
      await gateway.admin('POST', `/admin/profiles/${encodeURIComponent(profile.id)}/clear-cooldown?agent=${agent}`);
    }
  }
});

type Steps = EmulatorStep[];

/** Scripts the upstreams: steps per wire format (absent: the default echo answer). */
async function upstreams(routes: { readonly oai?: Steps; readonly ant?: Steps; readonly gem?: Steps }): Promise<void> {
  const entries = [
    ['openai-completions', routes.oai],
    ['anthropic-messages', routes.ant],
    ['google-generative-ai', routes.gem],
  ] as const;
  await emulator.setScript({
    realLimits: true,
    routes: entries.flatMap(([api, steps]) => (steps === undefined ? [] : [{ match: { api }, steps }])),
  });
}

const RATE_LIMITED = { status: 429, body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } } };
const OVERLOADED = { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } };

async function received(api: string): Promise<RecordedRequest[]> {
  return (await emulator.requests()).filter((request) => request.api === api && !request.outcome.startsWith('refused'));
}

async function lastBody(api: string): Promise<Record<string, unknown>> {
  const requests = await received(api);
  expect(requests.length).toBeGreaterThan(0);
  return requests.at(-1)?.body as Record<string, unknown>;
}

async function refusals(): Promise<string[]> {
  return (await emulator.requests()).filter((request) => request.outcome.startsWith('refused')).map((request) => `${request.api} ${request.outcome}`);
}

/** The three ways a turn reaches an upstream, for a client of the OpenAI chat format. */
const OPENAI_MODES = [
  { mode: 'same format', model: 'oai/gpt-4o', routes: (steps: Steps) => ({ oai: steps }), api: 'openai-completions' },
  { mode: 'cross format', model: 'ant/claude-sonnet-4-5', routes: (steps: Steps) => ({ ant: steps }), api: 'anthropic-messages' },
  { mode: 'failover across formats', model: 'ofirst', routes: (steps: Steps) => ({ oai: [RATE_LIMITED], ant: steps }), api: 'anthropic-messages' },
] as const;

/** The same for a client of the Anthropic format. */
const ANTHROPIC_MODES = [
  { mode: 'same format', model: 'ant/claude-sonnet-4-5', routes: (steps: Steps) => ({ ant: steps }), api: 'anthropic-messages' },
  { mode: 'cross format', model: 'oai/gpt-4o', routes: (steps: Steps) => ({ oai: steps }), api: 'openai-completions' },
  { mode: 'failover across formats', model: 'afirst', routes: (steps: Steps) => ({ ant: [OVERLOADED], oai: steps }), api: 'openai-completions' },
] as const;

/** Responses clients on chat-completions and Anthropic upstreams (the openai-responses upstream has its own tests below). */
const RESPONSES_MODES = [
  { mode: 'cross format (openai-completions)', model: 'oai/gpt-4o', routes: (steps: Steps) => ({ oai: steps }), api: 'openai-completions' },
  { mode: 'cross format (anthropic-messages)', model: 'ant/claude-sonnet-4-5', routes: (steps: Steps) => ({ ant: steps }), api: 'anthropic-messages' },
  { mode: 'failover across formats', model: 'ofirst', routes: (steps: Steps) => ({ oai: [RATE_LIMITED], ant: steps }), api: 'anthropic-messages' },
] as const;

const structuredField: Readonly<Record<string, (body: Record<string, unknown>) => unknown>> = {
  'openai-completions': (body) => (body['response_format'] as { type?: string } | undefined)?.type,
  'anthropic-messages': (body) => (body['output_config'] as { format?: { type?: string } } | undefined)?.format?.type,
};

describe.each(OPENAI_MODES)('openai SDK, $mode', ({ model, routes, api }) => {
  it('chat', async () => {
    await upstreams(routes([{ ok: true, text: 'hello there' }]));
    const answer = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], temperature: 1.5, seed: 1 });
    expect(answer.choices[0]?.message.content).toBe('hello there');
    const body = await lastBody(api);
    expect(body['temperature']).toBe(api === 'anthropic-messages' ? 1 : 1.5);
    expect(await refusals()).toEqual([]);
  });

  it('stream', async () => {
    await upstreams(routes([{ ok: true, chunks: ['hel', 'lo'] }]));
    const stream = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage = false;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage ||= chunk.usage !== undefined && chunk.usage !== null;
    }
    expect(text).toBe('hello');
    expect(usage).toBe(true);
  });

  it('tools round trip (a foreign tool-call id reaches every upstream in its grammar)', async () => {
    await upstreams(routes([{ ok: true, toolCalls: [{ id: 'call_first', name: 'get_weather', arguments: { city: 'Paris' } }] }, { ok: true, text: 'sunny' }]));
    const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    const first = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'weather?' }], tools, parallel_tool_calls: false });
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' ? call.function.name : undefined).toBe('get_weather');
    const second = await openai.chat.completions.create({
      model,
      tools,
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: null, tool_calls: [{ id: FOREIGN_TOOL_ID, type: 'function', function: { name: 'get_weather', arguments: CITY_JSON } }] },
        { role: 'tool', tool_call_id: FOREIGN_TOOL_ID, content: 'sunny' },
      ],
    });
    expect(second.choices[0]?.message.content).toBe('sunny');
    expect(await refusals()).toEqual([]);
    expect(JSON.stringify(await lastBody(api)).includes(FOREIGN_TOOL_ID)).toBe(api === 'openai-completions');
  });

  it('structured output: chat.completions.parse returns the parsed object', async () => {
    await upstreams(routes([{ ok: true, text: CITY_JSON }]));
    const answer = await openai.chat.completions.parse({ model, messages: [{ role: 'user', content: 'city?' }], response_format: zodResponseFormat(CITY, 'city') });
    expect(answer.choices[0]?.message.parsed).toEqual({ city: 'Paris' });
    expect(structuredField[api]?.(await lastBody(api))).toBe('json_schema');
  });

  it('images', async () => {
    await upstreams(routes([{ ok: true, text: 'a dot' }]));
    await openai.chat.completions.create({
      model,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'what?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}`, detail: 'low' } }] }],
    });
    expect(JSON.stringify(await lastBody(api))).toContain(PNG);
  });

  it('reasoning params: max_completion_tokens and reasoning_effort', async () => {
    await upstreams(routes([{ ok: true, text: 'thought' }]));
    await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'think' }], max_completion_tokens: 5000, reasoning_effort: 'low' });
    const body = await lastBody(api);
    if (api === 'openai-completions') expect(body).toMatchObject({ max_completion_tokens: 5000, reasoning_effort: 'low' });
    else expect(body).toMatchObject({ max_tokens: 5000, thinking: { type: 'enabled', budget_tokens: 2048 } });
    expect(body['max_tokens'] === undefined).toBe(api === 'openai-completions');
  });
});

describe('openai SDK, reasoning model after a failover from Anthropic', () => {
  it('sends max_completion_tokens and reasoning_effort, never max_tokens or temperature, to o3-mini', async () => {
    await upstreams({ ant: [OVERLOADED], oai: [{ ok: true, text: 'ok' }] });
    const answer = await anthropic.messages.create({
      model: 'reasoner',
      max_tokens: 3000,
      temperature: 0.4,
      thinking: { type: 'enabled', budget_tokens: 2000 },
      messages: [{ role: 'user', content: 'think' }],
    });
    expect(answer.content[0]).toMatchObject({ type: 'text', text: 'ok' });
    const body = await lastBody('openai-completions');
    expect(body).toMatchObject({ model: 'o3-mini', max_completion_tokens: 3000, reasoning_effort: 'low' });
    expect(body['max_tokens']).toBeUndefined();
    expect(body['temperature']).toBeUndefined();
    expect(await refusals()).toEqual([]);
  });
});

describe.each(ANTHROPIC_MODES)('anthropic SDK, $mode', ({ model, routes, api }) => {
  it('chat', async () => {
    await upstreams(routes([{ ok: true, text: 'hello there' }]));
    const answer = await anthropic.messages.create({ model, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }], top_k: 3, metadata: { user_id: 'u-9' } });
    expect(answer.content[0]).toMatchObject({ type: 'text', text: 'hello there' });
    const body = await lastBody(api);
    if (api === 'openai-completions') expect(body).toMatchObject({ user: 'u-9', max_tokens: 64 });
  });

  it('stream', async () => {
    await upstreams(routes([{ ok: true, chunks: ['Bon', 'jour'] }]));
    const message = await anthropic.messages.stream({ model, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'Bonjour' });
    expect(message.usage.output_tokens).toBeGreaterThan(0);
  });

  it('tools round trip (tool_result with is_error and an image)', async () => {
    await upstreams(routes([{ ok: true, toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, { ok: true, text: 'sorry' }]));
    const tools: Anthropic.Tool[] = [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }];
    const first = await anthropic.messages.create({ model, max_tokens: 64, tools, messages: [{ role: 'user', content: 'weather?' }] });
    const use = first.content.find((block) => block.type === 'tool_use');
    expect(use?.type === 'tool_use' ? use.name : undefined).toBe('get_weather');
    expect(first.stop_reason).toBe('tool_use');
    const id = use?.type === 'tool_use' ? use.id : '';
    const second = await anthropic.messages.create({
      model,
      max_tokens: 64,
      tools,
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: [{ type: 'tool_use', id, name: 'get_weather', input: { city: 'Paris' } }] },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: id,
              is_error: true,
              content: [{ type: 'text', text: 'station down' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }],
            },
          ],
        },
      ],
    });
    expect(second.content[0]).toMatchObject({ type: 'text', text: 'sorry' });
    const body = JSON.stringify(await lastBody(api));
    expect(body).toContain(PNG);
    expect(body).toContain(api === 'openai-completions' ? 'Error: station down' : '"is_error":true');
  });

  it('structured output: messages.parse returns the parsed object', async () => {
    await upstreams(routes([{ ok: true, text: CITY_JSON }]));
    const answer = await anthropic.messages.parse({ model, max_tokens: 64, messages: [{ role: 'user', content: 'city?' }], output_config: { format: zodOutputFormat(CITY) } });
    expect(answer.parsed_output).toEqual({ city: 'Paris' });
    expect(structuredField[api]?.(await lastBody(api))).toBe('json_schema');
  });

  it('images', async () => {
    await upstreams(routes([{ ok: true, text: 'a dot' }]));
    await anthropic.messages.create({
      model,
      max_tokens: 64,
      messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }, { type: 'text', text: 'what?' }] }],
    });
    expect(JSON.stringify(await lastBody(api))).toContain(PNG);
  });

  it('reasoning params: thinking', async () => {
    await upstreams(routes([{ ok: true, text: 'thought' }]));
    await anthropic.messages.create({ model, max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'think' }] });
    const body = await lastBody(api);
    if (api === 'anthropic-messages') expect(body['thinking']).toEqual({ type: 'enabled', budget_tokens: 1024 });
    // gpt-4o does not reason: the thinking budget has no counterpart there and is dropped, never a 400.
    else expect(body['reasoning_effort']).toBeUndefined();
    expect(await refusals()).toEqual([]);
  });
});

describe.each(RESPONSES_MODES)('openai SDK responses.create, $mode', ({ model, routes, api }) => {
  it('chat', async () => {
    await upstreams(routes([{ ok: true, text: 'hello there' }]));
    const answer = await openai.responses.create({ model, input: 'hi', instructions: 'be brief', store: false });
    expect(answer.output_text).toBe('hello there');
    expect((answer as unknown as { store: boolean }).store).toBe(false);
  });

  it('stream', async () => {
    await upstreams(routes([{ ok: true, chunks: ['hel', 'lo'] }]));
    const stream = await openai.responses.create({ model, input: 'hi', stream: true });
    let text = '';
    let completed = false;
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = true;
    }
    expect(text).toBe('hello');
    expect(completed).toBe(true);
  });

  it('tools round trip and structured output', async () => {
    await upstreams(routes([{ ok: true, toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, { ok: true, text: CITY_JSON }]));
    const tools: OpenAI.Responses.FunctionTool[] = [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false }];
    const first = await openai.responses.create({ model, input: 'weather?', tools });
    const call = first.output.find((item) => item.type === 'function_call');
    expect(call?.type === 'function_call' ? call.name : undefined).toBe('get_weather');
    const callId = call?.type === 'function_call' ? call.call_id : '';
    const second = await openai.responses.parse({
      model,
      tools,
      input: [
        { role: 'user', content: 'weather?' },
        { type: 'function_call', call_id: callId, name: 'get_weather', arguments: CITY_JSON },
        { type: 'function_call_output', call_id: callId, output: 'sunny' },
      ],
      text: { format: { type: 'json_schema', name: 'city', schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }, strict: true } },
    });
    expect(second.output_parsed).toEqual({ city: 'Paris' });
    expect(structuredField[api]?.(await lastBody(api))).toBe('json_schema');
  });
});

describe('openai SDK responses.create refuses stored state', () => {
  it('previous_response_id is a 400 saying nothing is stored', async () => {
    await expect(openai.responses.create({ model: 'oai/gpt-4o', input: 'hi', previous_response_id: 'resp_1' })).rejects.toMatchObject({ status: 400 });
  });
});

describe.each([
  { mode: 'same format', model: 'oai/gpt-4o', routes: (steps: Steps) => ({ oai: steps }), api: 'openai-completions' },
  { mode: 'cross format', model: 'ant/claude-sonnet-4-5', routes: (steps: Steps) => ({ ant: steps }), api: 'anthropic-messages' },
  { mode: 'failover across formats', model: 'ofirst', routes: (steps: Steps) => ({ oai: [RATE_LIMITED], ant: steps }), api: 'anthropic-messages' },
] as const)('Vercel AI SDK (@ai-sdk/openai chat and responses), $mode', ({ model, routes, api }) => {
  const provider = () => createOpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused' });

  it('chat (generateText) and stream (streamText) on the chat API', async () => {
    await upstreams(routes([{ ok: true, text: 'hello there' }, { ok: true, chunks: ['hel', 'lo'] }]));
    const { text } = await generateText({ model: provider().chat(model), prompt: 'hi', maxRetries: 0 });
    expect(text).toBe('hello there');
    const streamed = streamText({ model: provider().chat(model), prompt: 'hi', maxRetries: 0 });
    expect(await streamed.text).toBe('hello');
  });

  it('structured output: generateObject on the chat API and on the Responses API (the default provider)', async () => {
    await upstreams(routes([{ ok: true, text: CITY_JSON }]));
    const chat = await generateObject({ model: provider().chat(model), schema: CITY, prompt: 'city?', maxRetries: 0 });
    expect(chat.object).toEqual({ city: 'Paris' });
    const responses = await generateObject({ model: provider()(model), schema: CITY, prompt: 'city?', maxRetries: 0 });
    expect(responses.object).toEqual({ city: 'Paris' });
    expect(structuredField[api]?.(await lastBody(api))).toBe('json_schema');
  });

  it('images and a tools round trip on the Responses API', async () => {
    await upstreams(routes([{ ok: true, text: 'a dot' }]));
    const { text } = await generateText({
      model: provider()(model),
      maxRetries: 0,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'what?' }, { type: 'image', image: `data:image/png;base64,${PNG}` }] },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: FOREIGN_TOOL_ID, toolName: 'look', input: {} }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: FOREIGN_TOOL_ID, toolName: 'look', output: { type: 'text', value: 'round' } }] },
      ],
    });
    expect(text).toBe('a dot');
    const body = JSON.stringify(await lastBody(api));
    expect(body).toContain(PNG);
    expect(await refusals()).toEqual([]);
  });
});

describe.each(ANTHROPIC_MODES)('Vercel AI SDK (@ai-sdk/anthropic), $mode', ({ model, routes, api }) => {
  const provider = () => createAnthropic({ baseURL: `${gateway.url}/v1`, apiKey: 'unused' });

  it('chat, stream and reasoning params', async () => {
    await upstreams(routes([{ ok: true, text: 'hello there' }, { ok: true, chunks: ['hel', 'lo'] }]));
    const { text } = await generateText({
      model: provider()(model),
      prompt: 'hi',
      maxRetries: 0,
      maxOutputTokens: 3000,
      providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } },
    });
    expect(text).toBe('hello there');
    if (api === 'anthropic-messages') expect((await lastBody(api))['thinking']).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(await streamText({ model: provider()(model), prompt: 'hi', maxRetries: 0 }).text).toBe('hello');
  });

  it('structured output: generateObject (the provider forces its `json` tool)', async () => {
    await upstreams(routes([{ ok: true, toolCalls: [{ name: 'json', arguments: { city: 'Paris' } }] }]));
    const result = await generateObject({ model: provider()(model), schema: CITY, prompt: 'city?', maxRetries: 0 });
    expect(result.object).toEqual({ city: 'Paris' });
    const body = await lastBody(api);
    expect(JSON.stringify(body['tool_choice'])).toContain('json');
    expect(await refusals()).toEqual([]);
  });
});

describe.each(OPENAI_MODES)('LangChain ChatOpenAI, $mode', ({ model, routes, api }) => {
  const chat = (extra: Record<string, unknown> = {}) =>
    new ChatOpenAI({ model, apiKey: 'unused', maxRetries: 0, configuration: { baseURL: `${gateway.url}/v1` }, ...extra });

  it('chat, stream and images', async () => {
    await upstreams(routes([{ ok: true, text: 'hello there' }, { ok: true, chunks: ['hel', 'lo'] }, { ok: true, text: 'a dot' }]));
    expect((await chat().invoke('hi')).content).toBe('hello there');
    let text = '';
    for await (const chunk of await chat().stream('hi')) text += typeof chunk.content === 'string' ? chunk.content : '';
    expect(text).toBe('hello');
    await chat().invoke([{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }] }]);
    expect(JSON.stringify(await lastBody(api))).toContain(PNG);
  });

  it('structured output: withStructuredOutput', async () => {
    await upstreams(routes([{ ok: true, text: CITY_JSON }]));
    const result = await chat().withStructuredOutput(CITY, { method: 'jsonSchema' }).invoke('city?');
    expect(result).toEqual({ city: 'Paris' });
    expect(structuredField[api]?.(await lastBody(api))).toBe('json_schema');
  });
});

describe('capabilities and endpoints', () => {
  it('a text-only candidate is skipped for a request with images (no call to it)', async () => {
    await upstreams({ ant: [{ ok: true, text: 'seen' }] });
    const answer = await openai.chat.completions
      .create({ model: 'eyes', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }] }] })
      .withResponse();
    expect(answer.data.choices[0]?.message.content).toBe('seen');
    expect(answer.response.headers.get('x-understudy-model')).toBe('ant/claude-sonnet-4-5');
    expect(await received('openai-completions')).toEqual([]);
  });

  it('count_tokens: forwarded to an Anthropic upstream, estimated for another', async () => {
    await upstreams({ ant: [{ ok: true, text: 'unused' }] });
    const estimate = await anthropic.messages.countTokens({ model: 'oai/gpt-4o', messages: [{ role: 'user', content: 'a'.repeat(40) }] });
    expect(estimate.input_tokens).toBe(10);
    const counted = await fetch(`${gateway.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'ant/claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] }),
    });
    const forwarded = (await emulator.requests()).filter((request) => request.path.endsWith('/count_tokens'));
    expect(forwarded).toHaveLength(1);
    expect(forwarded[0]?.body).toEqual({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] });
    // The emulator has no counting endpoint (404), as some Anthropic-compatible servers: the estimate answers,
    // and the model is not cooled for the messages that follow.
    expect(counted.status).toBe(200);
    expect(await counted.json()).toEqual({ input_tokens: 1 });
    const after = await anthropic.messages.create({ model: 'ant/claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    expect(after.content[0]).toMatchObject({ type: 'text', text: 'unused' });
  });

  it('GET /v1/models/{id} in both shapes, and unknown routes in the error shape of their dialect', async () => {
    expect((await openai.models.retrieve('oai/gpt-4o')).id).toBe('oai/gpt-4o');
    const anthropicModel = await fetch(`${gateway.url}/v1/models/ant/claude-sonnet-4-5`, { headers: { 'anthropic-version': '2023-06-01' } });
    expect(await anthropicModel.json()).toMatchObject({ type: 'model', id: 'ant/claude-sonnet-4-5' });
    const unknownAnthropic = await fetch(`${gateway.url}/v1/messages/batches`, { method: 'POST', body: '{}' });
    expect(unknownAnthropic.status).toBe(404);
    expect(await unknownAnthropic.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    const unknownOpenAI = await fetch(`${gateway.url}/v1/embeddings`, { method: 'POST', body: '{}' });
    expect(await unknownOpenAI.json()).toMatchObject({ error: { type: 'not_found_error' } });
  });

  it('after understudy exhausted its recovery, the answer says x-should-retry: false and keeps the provider status', async () => {
    await upstreams({ oai: [{ status: 400, body: { error: { message: 'bad', type: 'invalid_request_error' } } }] });
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'oai/gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-should-retry')).toBe('false');
  });
});

describe('openai-responses upstream', () => {
  it('same format: the Responses body arrives as sent and the answer comes back as the upstream wrote it, whole and streamed', async () => {
    await emulator.setScript({ realLimits: true, routes: [{ match: { api: 'openai-responses' }, steps: [{ ok: true, text: 'hello there' }, { ok: true, chunks: ['hel', 'lo'] }] }] });
    const sent = { model: 'oresp/gpt-4.1', input: 'hi', instructions: 'be brief', include: ['reasoning.encrypted_content'], store: false, some_future_field: 1 };
    const answer = await openai.responses.create(sent as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming);
    expect(answer.output_text).toBe('hello there');
    expect(answer.model).toBe('oresp/gpt-4.1');
    expect((await received('openai-responses'))[0]?.body).toEqual({ ...sent, model: 'gpt-4.1' });
    const stream = await openai.responses.create({ model: 'oresp/gpt-4.1', input: 'hi', stream: true });
    let text = '';
    for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
    expect(text).toBe('hello');
  });

  it('cross format: a chat-completions client on an openai-responses upstream (tools, structured output, store: false)', async () => {
    await emulator.setScript({
      realLimits: true,
      routes: [{ match: { api: 'openai-responses' }, steps: [{ ok: true, toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, { ok: true, text: CITY_JSON }] }],
    });
    const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    const first = await openai.chat.completions.create({ model: 'oresp/gpt-4.1', messages: [{ role: 'user', content: 'weather?' }], tools, max_completion_tokens: 50 });
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' ? call.function.name : undefined).toBe('get_weather');
    const body = await lastBody('openai-responses');
    expect(body).toMatchObject({ model: 'gpt-4.1', store: false, max_output_tokens: 50, tools: [{ type: 'function', name: 'get_weather' }] });
    const parsed = await openai.chat.completions.parse({ model: 'oresp/gpt-4.1', messages: [{ role: 'user', content: 'city?' }], response_format: zodResponseFormat(CITY, 'city') });
    expect(parsed.choices[0]?.message.parsed).toEqual({ city: 'Paris' });
    expect(((await lastBody('openai-responses'))['text'] as { format: { type: string } }).format.type).toBe('json_schema');
  });
});
