import { describe, expect, it } from 'vitest';
import { GatewayError } from '../gateway-error.js';
import { parseAnthropicRequest } from './anthropic-request.js';
import { AnthropicStreamEncoder, renderAnthropicError, renderAnthropicResult } from './anthropic-response.js';

const meta = { id: 'msg_1', model: 'openai/gpt-x', createdSeconds: 100 };

function events(text: string): { event: string; data: Record<string, unknown> }[] {
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('event: '))
    .map((block) => {
      const [eventLine = '', dataLine = ''] = block.split('\n');
      return { event: eventLine.slice(7), data: JSON.parse(dataLine.slice(6)) as Record<string, unknown> };
    });
}

describe('parseAnthropicRequest', () => {
  it('puts the system prompt first and splits tool results out of a user turn', () => {
    const parsed = parseAnthropicRequest({
      model: 'claude',
      max_tokens: 256,
      system: [{ type: 'text', text: 'be kind' }],
      stop_sequences: ['STOP'],
      tools: [{ name: 'lookup', input_schema: { type: 'object' } }],
      tool_choice: { type: 'any' },
      messages: [
        { role: 'user', content: 'find x' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: '…' }, { type: 'text', text: 'ok' }, { type: 'tool_use', id: 't1', name: 'lookup', input: { q: 'x' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x is 1' }, { type: 'text', text: 'and y?' }] },
      ],
    });
    expect(parsed.model).toBe('claude');
    expect(parsed.lastUserText).toBeUndefined();
    expect(parsed.chat).toMatchObject({ maxTokens: 256, stop: ['STOP'], toolChoice: 'required' });
    expect(parsed.chat.messages).toEqual([
      { role: 'system', content: 'be kind' },
      { role: 'user', content: 'find x' },
      { role: 'assistant', content: 'ok', toolCalls: [{ id: 't1', name: 'lookup', arguments: '{"q":"x"}' }] },
      { role: 'tool', toolCallId: 't1', content: 'x is 1' },
      { role: 'user', content: 'and y?' },
    ]);
  });

  it('reads a command from a plain last user turn', () => {
    expect(parseAnthropicRequest({ messages: [{ role: 'user', content: [{ type: 'text', text: '/status' }] }] }).lastUserText).toBe('/status');
  });

  it.each([
    { body: {}, message: 'messages: required' },
    { body: { messages: [{ role: 'system', content: 'x' }] }, message: 'messages[0].role' },
    { body: { messages: [{ role: 'user', content: [{ type: 5 }] }] }, message: 'messages[0].content[0].type' },
  ])('rejects $message with a 400', ({ body, message }) => {
    expect(() => parseAnthropicRequest(body)).toThrow(message);
  });

  const user = [{ role: 'user', content: 'x' }];
  it.each([
    ['n', 2, 'n: Extra inputs are not permitted (Anthropic answers with one message per request'],
    ['frequency_penalty', 0.5, 'frequency_penalty: Extra inputs are not permitted (the Anthropic Messages API has no such field; remove it)'],
    ['presence_penalty', 0.5, 'presence_penalty: Extra inputs are not permitted'],
    ['response_format', { type: 'json_object' }, 'response_format: Extra inputs are not permitted (use output_config.format'],
    ['logprobs', true, 'logprobs: Extra inputs are not permitted'],
    ['constructor', 1, 'constructor: Extra inputs are not permitted (the Anthropic Messages API has no such field'],
    ['x'.repeat(500), 1, `["${'x'.repeat(40)}…"]: Extra inputs are not permitted`],
  ])('refuses the top-level field %s as Anthropic does, naming it', (key, value, message) => {
    let error: unknown;
    try {
      parseAnthropicRequest({ model: 'claude', max_tokens: 5, messages: user, [key]: value });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toMatchObject({ status: 400, kind: 'invalid_request' });
    expect((error as GatewayError).message.startsWith(message)).toBe(true);
    expect(renderAnthropicError(error as GatewayError)).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: (error as GatewayError).message } });
  });

  it('takes every top-level field of the Messages API reference, and the understudy extension', () => {
    const parsed = parseAnthropicRequest({
      model: 'claude',
      max_tokens: 5,
      messages: user,
      system: 'be kind',
      metadata: { user_id: 'u1' },
      stop_sequences: ['END'],
      stream: false,
      temperature: 0.5,
      top_p: 0.9,
      top_k: 5,
      tools: [{ name: 'f', input_schema: { type: 'object' } }],
      tool_choice: { type: 'auto' },
      thinking: { type: 'enabled', budget_tokens: 1024 },
      service_tier: 'auto',
      output_config: { effort: 'high' },
      cache_control: { type: 'ephemeral' },
      container: 'container_1',
      inference_geo: 'us',
      speed: 'standard',
      diagnostics: {},
      context_management: { edits: [] },
      compaction: {},
      mcp_servers: [],
      fallbacks: [],
      fallback_credit_token: 'token',
      understudy: { fallbacks: [] },
    });
    expect(parsed.chat).toMatchObject({ maxTokens: 5, topK: 5, user: 'u1', stop: ['END'] });
  });
});

describe('Anthropic answers', () => {
  it('renders a whole message with the answering model and usage', () => {
    expect(
      renderAnthropicResult(
        { model: 'gpt-x', text: 'hi', toolCalls: [{ id: 't1', name: 'f', arguments: '{"a":1}' }], finishReason: 'tool_calls', usage: { inputTokens: 5, outputTokens: 2, totalTokens: 7 } },
        meta,
      ),
    ).toEqual({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'openai/gpt-x',
      content: [{ type: 'text', text: 'hi' }, { type: 'tool_use', id: 't1', name: 'f', input: { a: 1 } }],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 5, output_tokens: 2 },
    });
  });

  it('streams message_start, one block per kind, message_delta and message_stop', () => {
    const encoder = new AnthropicStreamEncoder(meta);
    const text =
      encoder.delta({ kind: 'text', text: 'Hi' }) +
      encoder.delta({ kind: 'tool_call', index: 0, id: 't1', name: 'f', argumentsDelta: '{"a":' }) +
      encoder.delta({ kind: 'tool_call', index: 0, argumentsDelta: '1}' }) +
      encoder.delta({ kind: 'finish', finishReason: 'tool_calls' }) +
      encoder.delta({ kind: 'usage', usage: { inputTokens: 4, outputTokens: 3, totalTokens: 7 } }) +
      encoder.end();
    expect(events(text).map((event) => event.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const delta = events(text).find((event) => event.event === 'message_delta');
    expect(delta?.data).toEqual({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { input_tokens: 4, output_tokens: 3 } });
  });

  it('ends a broken stream with event: error', () => {
    const encoder = new AnthropicStreamEncoder(meta);
    const text = encoder.delta({ kind: 'text', text: 'par' }) + encoder.error(new GatewayError(529, 'overloaded', 'gone', { code: 'overloaded' }));
    const last = events(text).at(-1);
    expect(last).toEqual({ event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'gone' } } });
    expect(events(text).some((event) => event.event === 'message_stop')).toBe(false);
  });

  it('renders errors as {type: "error", error: {type, message}}', () => {
    expect(renderAnthropicError(new GatewayError(402, 'billing', 'no credits'))).toEqual({ type: 'error', error: { type: 'billing_error', message: 'no credits' } });
    expect(renderAnthropicError(new GatewayError(413, 'request_too_large', 'big'))).toEqual({ type: 'error', error: { type: 'request_too_large', message: 'big' } });
    // A configuration problem is not a transient overload: clients must not retry it as one.
    expect(renderAnthropicError(new GatewayError(503, 'misconfigured', 'no model'))).toEqual({ type: 'error', error: { type: 'api_error', message: 'no model' } });
  });
});

describe('blocks without a counterpart (docs/wire-mapping.md)', () => {
  it('leaves documents, thinking and server tools out of the internal shape instead of refusing the request', () => {
    const parsed = parseAnthropicRequest({
      max_tokens: 10,
      messages: [
        { role: 'user', content: [{ type: 'document', source: { type: 'text', data: 'x' } }, { type: 'text', text: 'sum up' }] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm', signature: 's' }, { type: 'text', text: 'ok' }] },
        { role: 'user', content: 'more' },
      ],
      tools: [{ type: 'web_search_20250305', name: 'web_search' }, { name: 'f', input_schema: { type: 'object' } }],
    });
    expect(parsed.chat.messages).toEqual([
      { role: 'user', content: 'sum up' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'more' },
    ]);
    expect(parsed.chat.tools?.map((tool) => tool.name)).toEqual(['f']);
  });

  it('keeps is_error on a tool result as a flag', () => {
    const parsed = parseAnthropicRequest({
      max_tokens: 10,
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'boom', is_error: true }] },
      ],
    });
    expect(parsed.chat.messages[1]).toEqual({ role: 'tool', toolCallId: 't1', content: 'boom', isError: true });
  });
});
