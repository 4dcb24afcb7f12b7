import { describe, expect, it } from 'vitest';
import type { ChatRequest, ChatStreamDelta } from '../chat-types.js';
import { wireErrorKind } from '../test-support/wire-error-kind.js';
import { anthropicMessages } from './anthropic-messages.js';
import type { SseEvent } from './wire-format.js';

const options = { defaultMaxTokens: 4096, includeStreamUsage: true };
const event = (type: string, body: Record<string, unknown> = {}): SseEvent => ({ event: type, data: JSON.stringify({ type, ...body }) });

describe('anthropic-messages endpoint', () => {
  it.each([
    ['https://api.anthropic.com', 'https://api.anthropic.com/v1/messages'],
    ['https://api.anthropic.com/', 'https://api.anthropic.com/v1/messages'],
    ['https://api.anthropic.com/v1', 'https://api.anthropic.com/v1/messages'],
    ['http://127.0.0.1:9000/anthropic', 'http://127.0.0.1:9000/anthropic/v1/messages'],
  ])('%s → %s', (baseUrl, url) => {
    expect(anthropicMessages.endpoint(baseUrl, { model: 'm', messages: [] }, false)).toBe(url);
  });
});

describe('anthropic-messages request translation', () => {
  it('lifts system text, merges tool results into one user turn, maps images, tools and limits', () => {
    const request: ChatRequest = {
      model: 'claude-sonnet-4-5',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'system', content: [{ kind: 'text', text: 'Answer in English.' }] },
        {
          role: 'user',
          content: [
            { kind: 'text', text: 'Compare these' },
            { kind: 'image', source: { kind: 'url', url: 'data:image/jpeg;base64,/9j/4AAQ' } },
            { kind: 'image', source: { kind: 'url', url: 'https://example.com/b.png' } },
          ],
        },
        {
          role: 'assistant',
          content: 'Checking both.',
          toolCalls: [
            { id: 'toolu_1', name: 'inspect', arguments: '{"which":"a"}' },
            { id: 'toolu_2', name: 'inspect', arguments: '' },
          ],
        },
        { role: 'tool', toolCallId: 'toolu_1', content: 'a is red' },
        { role: 'tool', toolCallId: 'toolu_2', content: 'b is blue' },
        { role: 'user', content: 'So?' },
      ],
      tools: [{ name: 'inspect', parameters: { type: 'object', properties: { which: { type: 'string' } } } }],
      toolChoice: 'required',
      temperature: 0.5,
      stop: ['\n\nHuman:'],
    };
    expect(anthropicMessages.encodeRequest(request, true, options)).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      system: 'You are terse.\n\nAnswer in English.',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare these' },
            { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/b.png' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking both.' },
            { type: 'tool_use', id: 'toolu_1', name: 'inspect', input: { which: 'a' } },
            { type: 'tool_use', id: 'toolu_2', name: 'inspect', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'a is red' },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: 'b is blue' },
            { type: 'text', text: 'So?' },
          ],
        },
      ],
      tools: [{ name: 'inspect', input_schema: { type: 'object', properties: { which: { type: 'string' } } } }],
      tool_choice: { type: 'any' },
      temperature: 0.5,
      stop_sequences: ['\n\nHuman:'],
      stream: true,
    });
  });

  it('refuses tool-call arguments that are not a JSON object', () => {
    const request: ChatRequest = {
      model: 'm',
      messages: [{ role: 'assistant', content: null, toolCalls: [{ id: 't', name: 'f', arguments: '{oops' }] }],
    };
    expect(wireErrorKind(() => anthropicMessages.encodeRequest(request, false, options))).toBe('invalid_request');
  });

  it('uses the request max tokens when given', () => {
    expect(anthropicMessages.encodeRequest({ model: 'm', messages: [], maxTokens: 50 }, false, options)).toMatchObject({ max_tokens: 50 });
  });
});

describe('anthropic-messages response translation', () => {
  it('reads a message with text and a tool_use block', () => {
    const body = {
      id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content: [
        { type: 'text', text: 'Let me check the weather.' },
        { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', input: { location: 'San Francisco, CA' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 472, cache_creation_input_tokens: 0, cache_read_input_tokens: 100, output_tokens: 91 },
    };
    expect(anthropicMessages.decodeResponse(body, 'claude-sonnet-4-5')).toEqual({
      id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      model: 'claude-sonnet-4-5-20250929',
      text: 'Let me check the weather.',
      toolCalls: [{ id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', arguments: '{"location":"San Francisco, CA"}' }],
      finishReason: 'tool_calls',
      rawFinishReason: 'tool_use',
      usage: { inputTokens: 572, outputTokens: 91, totalTokens: 663, cachedInputTokens: 100 },
    });
  });

  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['tool_use', 'tool_calls'],
    ['refusal', 'content_filter'],
    ['pause_turn', 'other'],
  ])('normalises stop_reason %s to %s', (raw, normalised) => {
    const body = { type: 'message', model: 'm', content: [{ type: 'text', text: 'x' }], stop_reason: raw };
    expect(anthropicMessages.decodeResponse(body, 'm')).toMatchObject({ finishReason: normalised });
  });

  it('rejects an error payload and a body without content', () => {
    const overloaded = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
    expect(wireErrorKind(() => anthropicMessages.decodeResponse(overloaded, 'm'))).toBe('provider_error');
    expect(wireErrorKind(() => anthropicMessages.decodeResponse({ type: 'message' }, 'm'))).toBe('malformed');
  });
});

describe('anthropic-messages stream translation', () => {
  function decode(events: readonly SseEvent[]): { deltas: ChatStreamDelta[]; done: boolean; model: string | undefined } {
    const decoder = anthropicMessages.createStreamDecoder();
    return { deltas: events.flatMap((item) => decoder.push(item)), done: decoder.done, model: decoder.model };
  }

  it('follows the message_start … message_stop sequence, skipping thinking and pings', () => {
    const { deltas, done, model } = decode([
      event('message_start', {
        message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-opus-4-1', content: [], stop_reason: null, usage: { input_tokens: 25, output_tokens: 1 } },
      }),
      event('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } }),
      event('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'Let me think' } }),
      event('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: 'EqQB' } }),
      event('content_block_stop', { index: 0 }),
      event('ping'),
      event('content_block_start', { index: 1, content_block: { type: 'text', text: '' } }),
      event('content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'Hi' } }),
      event('content_block_delta', { index: 1, delta: { type: 'text_delta', text: ' there' } }),
      event('content_block_stop', { index: 1 }),
      event('content_block_start', { index: 2, content_block: { type: 'tool_use', id: 'toolu_9', name: 'search', input: {} } }),
      event('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '' } }),
      event('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '{"q": "x"}' } }),
      event('content_block_stop', { index: 2 }),
      event('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 15 } }),
      event('message_stop'),
    ]);
    expect(deltas).toEqual([
      { kind: 'text', text: 'Hi' },
      { kind: 'text', text: ' there' },
      { kind: 'tool_call', index: 0, id: 'toolu_9', name: 'search', argumentsDelta: '' },
      { kind: 'tool_call', index: 0, argumentsDelta: '' },
      { kind: 'tool_call', index: 0, argumentsDelta: '{"q": "x"}' },
      { kind: 'finish', finishReason: 'tool_calls', rawFinishReason: 'tool_use' },
      { kind: 'usage', usage: { inputTokens: 25, outputTokens: 15, totalTokens: 40 } },
    ]);
    expect({ done, model }).toEqual({ done: true, model: 'claude-opus-4-1' });
  });

  it.each([
    ['an error event', event('error', { error: { type: 'overloaded_error', message: 'Overloaded' } }), 'provider_error'],
    ['a truncated delta', { event: 'content_block_delta', data: '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"tru' }, 'malformed'],
    ['a delta without an index', event('content_block_delta', { delta: { type: 'text_delta', text: 'x' } }), 'malformed'],
  ])('fails on %s', (_label, item, kind) => {
    const decoder = anthropicMessages.createStreamDecoder();
    expect(wireErrorKind(() => decoder.push(item))).toBe(kind);
  });
});
