import { describe, expect, it } from 'vitest';
import type { ChatRequest, ChatStreamDelta } from '../chat-types.js';
import { openAiCompletions } from './openai-completions.js';
import type { SseEvent } from './wire-format.js';
import { wireErrorKind } from '../test-support/wire-error-kind.js';

const options = { defaultMaxTokens: 4096, includeStreamUsage: true };

function decodeStream(events: readonly SseEvent[]): { deltas: ChatStreamDelta[]; done: boolean; finished: boolean; model: string | undefined } {
  const decoder = openAiCompletions.createStreamDecoder();
  const deltas = events.flatMap((event) => decoder.push(event));
  return { deltas, done: decoder.done, finished: decoder.finished, model: decoder.model };
}

describe('openai-completions endpoint', () => {
  it.each([
    ['https://api.openai.com/v1', 'https://api.openai.com/v1/chat/completions'],
    ['https://api.openai.com/v1/', 'https://api.openai.com/v1/chat/completions'],
    ['https://openrouter.ai/api/v1', 'https://openrouter.ai/api/v1/chat/completions'],
    ['http://127.0.0.1:11434', 'http://127.0.0.1:11434/v1/chat/completions'],
  ])('%s → %s', (baseUrl, url) => {
    expect(openAiCompletions.endpoint(baseUrl, { model: 'm', messages: [] }, false)).toBe(url);
  });
});

describe('openai-completions request translation', () => {
  const request: ChatRequest = {
    model: 'gpt-4o-mini',
    messages: [
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { kind: 'text', text: 'What is in these?' },
          { kind: 'image', source: { kind: 'url', url: 'https://example.com/cat.png' } },
          { kind: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
        ],
      },
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'lookup', arguments: '{"q":"cat"}' }] },
      { role: 'tool', toolCallId: 'call_1', content: '{"answer":"a cat"}' },
    ],
    tools: [{ name: 'lookup', description: 'Looks things up', parameters: { type: 'object', properties: { q: { type: 'string' } } } }],
    toolChoice: { name: 'lookup' },
    temperature: 0.2,
    topP: 0.9,
    maxTokens: 100,
    stop: ['END'],
  };

  it('maps messages, images, tool calls, tool results, tools and parameters', () => {
    expect(openAiCompletions.encodeRequest(request, false, options)).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"cat"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"answer":"a cat"}' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'lookup', description: 'Looks things up', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'lookup' } },
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 100,
      stop: ['END'],
    });
  });

  it('asks for streaming with a final usage chunk', () => {
    const body = openAiCompletions.encodeRequest({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, true, options);
    expect(body).toMatchObject({ stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] });
    expect(openAiCompletions.encodeRequest({ model: 'm', messages: [] }, true, { ...options, includeStreamUsage: false })).not.toHaveProperty(
      'stream_options',
    );
  });
});

describe('openai-completions response translation', () => {
  it('reads a chat.completion with usage', () => {
    const body = {
      id: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
      object: 'chat.completion',
      created: 1741569952,
      model: 'gpt-4o-2024-08-06',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'Hello! How can I help?', refusal: null }, logprobs: null, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: 19, completion_tokens: 10, total_tokens: 29, prompt_tokens_details: { cached_tokens: 0 } },
      system_fingerprint: 'fp_fc9f1d7035',
    };
    expect(openAiCompletions.decodeResponse(body, 'gpt-4o')).toEqual({
      id: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
      model: 'gpt-4o-2024-08-06',
      text: 'Hello! How can I help?',
      toolCalls: [],
      finishReason: 'stop',
      rawFinishReason: 'stop',
      usage: { inputTokens: 19, outputTokens: 10, totalTokens: 29 },
    });
  });

  it('reads tool calls', () => {
    const body = {
      id: 'chatcmpl-abc',
      object: 'chat.completion',
      model: 'gpt-4.1',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_Dn2R', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 82, completion_tokens: 17, total_tokens: 99 },
    };
    const result = openAiCompletions.decodeResponse(body, 'gpt-4.1');
    expect(result.toolCalls).toEqual([{ id: 'call_Dn2R', name: 'get_weather', arguments: '{"location":"Paris"}' }]);
    expect(result.finishReason).toBe('tool_calls');
    expect(result.text).toBe('');
  });

  it('treats a refusal as a content filter stop', () => {
    const body = { model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: "I can't help with that." }, finish_reason: 'stop' }] };
    expect(openAiCompletions.decodeResponse(body, 'gpt-4o')).toMatchObject({ text: "I can't help with that.", finishReason: 'content_filter' });
  });

  it.each([
    ['an Azure prelude with no choices (empty)', { id: '', object: '', model: '', prompt_annotations: [], choices: [], usage: null }, 'empty'],
    ['an error object in a 200 body', { error: { message: 'Provider returned error', code: 502 } }, 'provider_error'],
    ['a body without choices', { id: 'x' }, 'malformed'],
    ['a non-object', 'hello', 'malformed'],
  ])('rejects %s', (_label, body, kind) => {
    expect(wireErrorKind(() => openAiCompletions.decodeResponse(body, 'm'))).toBe(kind);
  });

  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['tool_calls', 'tool_calls'],
    ['function_call', 'tool_calls'],
    ['content_filter', 'content_filter'],
    ['error', 'error'],
    ['network_error', 'other'],
  ])('normalises finish_reason %s to %s', (raw, normalised) => {
    const body = { model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'x' }, finish_reason: raw }] };
    expect(openAiCompletions.decodeResponse(body, 'm')).toMatchObject({ finishReason: normalised, rawFinishReason: raw });
  });
});

describe('openai-completions stream translation', () => {
  const chunk = (delta: unknown, finish: string | null = null): SseEvent => ({
    data: JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini-2024-07-18', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] }),
  });

  it('turns the chunk sequence into text, finish and usage deltas', () => {
    const { deltas, done, finished, model } = decodeStream([
      chunk({ role: 'assistant', content: '', refusal: null }),
      chunk({ content: 'Hel' }),
      chunk({ content: 'lo' }),
      chunk({}, 'stop'),
      { data: JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'gpt-4o-mini-2024-07-18', choices: [], usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } }) },
      { data: '[DONE]' },
    ]);
    expect(deltas).toEqual([
      { kind: 'text', text: 'Hel' },
      { kind: 'text', text: 'lo' },
      { kind: 'finish', finishReason: 'stop', rawFinishReason: 'stop' },
      { kind: 'usage', usage: { inputTokens: 9, outputTokens: 2, totalTokens: 11 } },
    ]);
    expect({ done, finished, model }).toEqual({ done: true, finished: true, model: 'gpt-4o-mini-2024-07-18' });
  });

  it('assembles tool-call pieces by index', () => {
    const { deltas } = decodeStream([
      chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_A', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"loc' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'ation":"Oslo"}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(deltas).toEqual([
      { kind: 'tool_call', index: 0, id: 'call_A', name: 'get_weather', argumentsDelta: '' },
      { kind: 'tool_call', index: 0, argumentsDelta: '{"loc' },
      { kind: 'tool_call', index: 0, argumentsDelta: 'ation":"Oslo"}' },
      { kind: 'finish', finishReason: 'tool_calls', rawFinishReason: 'tool_calls' },
    ]);
  });

  it.each([
    ['an error chunk', { data: '{"error":{"message":"Internal server error","type":"server_error"}}' }, 'provider_error'],
    ['an error event', { event: 'error', data: '{"message":"overloaded"}' }, 'provider_error'],
    ['a truncated chunk', { data: '{"id":"chatcmpl-1","choices":[{"delta":{"content":"tru' }, 'malformed'],
    ['a chunk whose choices is not a list', { data: '{"choices":{"0":{}}}' }, 'malformed'],
  ])('fails on %s', (_label, event, kind) => {
    const decoder = openAiCompletions.createStreamDecoder();
    expect(wireErrorKind(() => decoder.push(event))).toBe(kind);
  });
});
