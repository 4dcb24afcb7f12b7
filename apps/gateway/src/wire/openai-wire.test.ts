import { describe, expect, it } from 'vitest';
import { GatewayError } from '../gateway-error.js';
import { parseOpenAIRequest } from './openai-request.js';
import { OpenAIStreamEncoder, renderOpenAIError, renderOpenAIResult } from './openai-response.js';

const meta = { id: 'chatcmpl-1', model: 'anthropic/claude-x', createdSeconds: 100 };

function parseEvents(text: string): unknown[] {
  return text
    .split('\n\n')
    .filter((event) => event.startsWith('data: '))
    .map((event) => (event === 'data: [DONE]' ? '[DONE]' : (JSON.parse(event.slice(6)) as unknown)));
}

describe('parseOpenAIRequest', () => {
  it('translates messages, tools and sampling fields into the internal shape', () => {
    const parsed = parseOpenAIRequest({
      model: 'default',
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 100,
      temperature: 0.2,
      stop: 'END',
      tools: [{ type: 'function', function: { name: 'lookup', description: 'find', parameters: { type: 'object' } } }],
      tool_choice: { type: 'function', function: { name: 'lookup' } },
      understudy: { fallbacks: ['anthropic/claude-x'] },
      messages: [
        { role: 'developer', content: 'be brief' },
        { role: 'user', content: [{ type: 'text', text: 'look at ' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAA' } }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":1}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'found' },
        { role: 'user', content: 'thanks' },
      ],
    });
    expect(parsed.model).toBe('default');
    expect(parsed.stream).toBe(true);
    expect(parsed.streamUsage).toBe(true);
    expect(parsed.fallbacksOverride).toEqual(['anthropic/claude-x']);
    expect(parsed.lastUserText).toBe('thanks');
    expect(parsed.hasImages).toBe(true);
    expect(parsed.chat).toMatchObject({ maxTokens: 100, temperature: 0.2, stop: ['END'], toolChoice: { name: 'lookup' } });
    expect(parsed.chat.tools).toEqual([{ name: 'lookup', description: 'find', parameters: { type: 'object' } }]);
    expect(parsed.chat.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: [{ kind: 'text', text: 'look at ' }, { kind: 'image', source: { kind: 'url', url: 'data:image/png;base64,AAA' } }] },
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'lookup', arguments: '{"q":1}' }] },
      { role: 'tool', toolCallId: 'call_1', content: 'found' },
      { role: 'user', content: 'thanks' },
    ]);
  });

  const user = [{ role: 'user', content: 'x' }];
  it.each([
    { body: 'text', message: 'must be a JSON object', param: undefined },
    { body: {}, message: 'messages: required', param: 'messages' },
    { body: { messages: [] }, message: 'messages: required', param: 'messages' },
    { body: { messages: [{ role: 'robot', content: 'x' }] }, message: 'messages[0].role', param: 'messages[0].role' },
    { body: { messages: [{ role: 'user', content: [{ type: null }] }] }, message: 'messages[0].content[0].type', param: 'messages[0].content[0].type' },
    { body: { messages: user, temperature: 'hot' }, message: 'temperature: expected a number', param: 'temperature' },
    { body: { messages: user, n: 2 }, message: 'n: only one choice', param: 'n' },
    { body: { messages: user, understudy: { fallbacks: 'x' } }, message: 'understudy.fallbacks', param: 'understudy.fallbacks' },
    { body: { messages: user, understudy: { fallback: [] } }, message: 'understudy.fallback: unknown field', param: 'understudy.fallback' },
    { body: { messages: user, understudy: { 'a b': [] } }, message: 'understudy["a b"]: unknown field', param: 'understudy["a b"]' },
    { body: { messages: user, model: 7 }, message: 'model: expected a string', param: 'model' },
    { body: { messages: user, model: '' }, message: 'model: must not be empty; name "default"', param: 'model' },
    { body: { messages: user, model: ' \t ' }, message: 'model: must not be only whitespace', param: 'model' },
  ])('rejects a bad request with a 400 naming the field ($message) and param $param', ({ body, message, param }) => {
    let error: unknown;
    try {
      parseOpenAIRequest(body);
    } catch (thrown) {
      error = thrown;
    }
    expect(GatewayError.isInstance(error)).toBe(true);
    expect((error as GatewayError).status).toBe(400);
    expect((error as GatewayError).message).toContain(message);
    expect((error as GatewayError).param).toBe(param);
    expect((renderOpenAIError(error as GatewayError)['error'] as { param: unknown }).param).toBe(param ?? null);
  });

  it('keeps the model field as sent: surrounding whitespace is not trimmed away', () => {
    expect(parseOpenAIRequest({ messages: user, model: ' default ' }).model).toBe(' default ');
    expect(parseOpenAIRequest({ messages: user }).model).toBeUndefined();
  });

  it('reads no command when the last message is not the user’s', () => {
    expect(parseOpenAIRequest({ messages: [{ role: 'user', content: '/status' }, { role: 'assistant', content: 'ok' }] }).lastUserText).toBeUndefined();
  });
});

describe('OpenAI answers', () => {
  it('renders a whole answer with the answering model, usage and the notice field', () => {
    const body = renderOpenAIResult(
      { model: 'claude-x', text: 'hi', toolCalls: [], finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 } },
      { ...meta, understudy: { notice: 'moved' } },
    );
    expect(body).toMatchObject({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'anthropic/claude-x',
      choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
      understudy: { notice: 'moved' },
    });
  });

  it('renders tool calls with null content and the tool_calls finish reason', () => {
    const body = renderOpenAIResult({ model: 'm', text: '', toolCalls: [{ id: 'c1', name: 'f', arguments: '{}' }], finishReason: 'tool_calls' }, meta);
    expect(body['choices']).toEqual([
      {
        index: 0,
        message: { role: 'assistant', content: null, refusal: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        logprobs: null,
        finish_reason: 'tool_calls',
      },
    ]);
  });

  it('streams chunks: role first, content, finish, usage when asked, then [DONE]', () => {
    const encoder = new OpenAIStreamEncoder(meta, { usage: true });
    const text =
      encoder.delta({ kind: 'text', text: 'Hel' }) +
      encoder.delta({ kind: 'text', text: 'lo' }) +
      encoder.delta({ kind: 'finish', finishReason: 'length' }) +
      encoder.delta({ kind: 'usage', usage: { inputTokens: 2, outputTokens: 2, totalTokens: 4 } }) +
      encoder.end();
    const events = parseEvents(text) as Record<string, unknown>[];
    expect(events.map((event) => (event === ('[DONE]' as unknown) ? '[DONE]' : (event['choices'] as { delta: unknown; finish_reason: unknown }[])[0] ?? event['usage']))).toEqual([
      { index: 0, delta: { role: 'assistant', content: 'Hel' }, logprobs: null, finish_reason: null },
      { index: 0, delta: { content: 'lo' }, logprobs: null, finish_reason: null },
      { index: 0, delta: {}, logprobs: null, finish_reason: 'length' },
      { prompt_tokens: 2, completion_tokens: 2, total_tokens: 4 },
      '[DONE]',
    ]);
  });

  it('ends a broken stream with an error object and no [DONE]', () => {
    const encoder = new OpenAIStreamEncoder(meta, { usage: false });
    const text = encoder.delta({ kind: 'text', text: 'partial' }) + encoder.error(new GatewayError(504, 'timeout', 'broke off', { code: 'timeout' }));
    const events = parseEvents(text);
    expect(events[events.length - 1]).toEqual({ error: { message: 'broke off', type: 'timeout_error', param: null, code: 'timeout' } });
    expect(events).not.toContain('[DONE]');
  });

  it('streams tool calls with their index, id and argument pieces', () => {
    const encoder = new OpenAIStreamEncoder(meta, { usage: false });
    const events = parseEvents(
      encoder.delta({ kind: 'tool_call', index: 0, id: 'c1', name: 'f', argumentsDelta: '{"a"' }) +
        encoder.delta({ kind: 'tool_call', index: 0, argumentsDelta: ':1}' }) +
        encoder.end(),
    ) as { choices: { delta: unknown; finish_reason: unknown }[] }[];
    expect(events[0]?.choices[0]?.delta).toEqual({ role: 'assistant', tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a"' } }] });
    expect(events[1]?.choices[0]?.delta).toEqual({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] });
    expect(events[2]?.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it.each([
    { status: 429, kind: 'rate_limit', type: 'rate_limit_error' },
    { status: 401, kind: 'authentication', type: 'authentication_error' },
    { status: 413, kind: 'request_too_large', type: 'invalid_request_error' },
    { status: 500, kind: 'internal', type: 'server_error' },
  ] as const)('renders a $status error as {error: {message, type: $type, code}}', ({ status, kind, type }) => {
    expect(renderOpenAIError(new GatewayError(status, kind, 'words', { code: 'invalid_json' }))).toEqual({ error: { message: 'words', type, param: null, code: 'invalid_json' } });
  });
});
