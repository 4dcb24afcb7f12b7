import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../chat-types.js';
import { anthropicMessages } from './anthropic-messages.js';
import { googleGenerativeAi } from './google-generative-ai.js';
import { openAiCompletions } from './openai-completions.js';
import { closedObjectSchema, fromAnthropicToolId, toAnthropicToolId, toOpenAiToolId } from './shaping.js';

const options = { defaultMaxTokens: 4096, includeStreamUsage: true };
const schema = { type: 'object', properties: { city: { type: 'string' }, spot: { type: 'object', properties: { x: { type: 'number' } } } } };

const toolTurn: ChatRequest = {
  model: 'm',
  messages: [
    { role: 'user', content: 'weather?' },
    { role: 'assistant', content: null, toolCalls: [{ id: 'functions.get_weather:0', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
    {
      role: 'tool',
      toolCallId: 'functions.get_weather:0',
      content: [
        { kind: 'text', text: 'sunny' },
        { kind: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAAA' } },
      ],
    },
  ],
  tools: [{ name: 'get_weather', parameters: { type: 'object' }, strict: true }],
};

function body(value: unknown): Record<string, unknown> {
  return value as Record<string, unknown>;
}

describe('tool-call ids', () => {
  it('maps ids outside Anthropic grammar to a stable, reversible one and keeps valid ones', () => {
    const mapped = toAnthropicToolId('functions.get_weather:0');
    expect(mapped).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(toAnthropicToolId('functions.get_weather:0')).toBe(mapped);
    expect(fromAnthropicToolId(mapped)).toBe('functions.get_weather:0');
    expect(toAnthropicToolId('toolu_01abc')).toBe('toolu_01abc');
    expect(fromAnthropicToolId('toolu_01abc')).toBe('toolu_01abc');
  });

  it('shortens ids longer than OpenAI accepts, the same way every time', () => {
    const long = `call_${'x'.repeat(60)}`;
    expect(toOpenAiToolId(long)).toHaveLength(40);
    expect(toOpenAiToolId(long)).toBe(toOpenAiToolId(long));
    expect(toOpenAiToolId('call_1')).toBe('call_1');
  });
});

describe('anthropic-messages target', () => {
  it('clamps temperature to 1, maps tool ids in calls and results, keeps images and strict in tool results', () => {
    const encoded = body(anthropicMessages.encodeRequest({ ...toolTurn, temperature: 1.5, topP: 0.9 }, false, options));
    expect(encoded['temperature']).toBe(1);
    expect(encoded['top_p']).toBeUndefined();
    const messages = encoded['messages'] as { content: Record<string, unknown>[] }[];
    const id = toAnthropicToolId('functions.get_weather:0');
    expect(messages[1]?.content[0]).toMatchObject({ type: 'tool_use', id });
    expect(messages[2]?.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: id });
    expect((messages[2]?.content[0]?.['content'] as unknown[]).length).toBe(2);
    expect((encoded['tools'] as Record<string, unknown>[])[0]).toMatchObject({ strict: true });
  });

  it('respects a lower maxTemperature from the model metadata', () => {
    const encoded = body(anthropicMessages.encodeRequest({ ...toolTurn, temperature: 0.9, target: { maxTemperature: 0.5 } }, false, options));
    expect(encoded['temperature']).toBe(0.5);
  });

  it('writes structured output as output_config.format with closed object schemas', () => {
    const encoded = body(
      anthropicMessages.encodeRequest({ model: 'claude-x', messages: [{ role: 'user', content: 'x' }], responseFormat: { kind: 'json_schema', name: 'c', schema } }, false, options),
    );
    expect(encoded['output_config']).toEqual({ format: { type: 'json_schema', schema: closedObjectSchema(schema) } });
    const closed = closedObjectSchema(schema) as { additionalProperties: boolean; properties: { spot: { additionalProperties: boolean } } };
    expect(closed.additionalProperties).toBe(false);
    expect(closed.properties.spot.additionalProperties).toBe(false);
  });

  it('turns a reasoning effort into a thinking budget below max_tokens, drops temperature with it, maps parallel and user', () => {
    const encoded = body(
      anthropicMessages.encodeRequest(
        {
          model: 'claude-sonnet-4-5',
          messages: [{ role: 'user', content: 'x' }],
          maxTokens: 4000,
          temperature: 0.7,
          topK: 3,
          reasoning: { effort: 'high' },
          tools: [{ name: 'f', parameters: { type: 'object' } }],
          parallelToolCalls: false,
          user: 'u-1',
        },
        false,
        options,
      ),
    );
    expect(encoded['thinking']).toEqual({ type: 'enabled', budget_tokens: 3999 });
    expect(encoded['temperature']).toBeUndefined();
    expect(encoded['top_k']).toBeUndefined();
    expect(encoded['tool_choice']).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(encoded['metadata']).toEqual({ user_id: 'u-1' });
  });

  it('sends no thinking to a model that does not think, nor with a forced tool choice', () => {
    const base = { messages: [{ role: 'user' as const, content: 'x' }], reasoning: { effort: 'low' } };
    expect(body(anthropicMessages.encodeRequest({ ...base, model: 'claude-3-5-haiku-latest' }, false, options))['thinking']).toBeUndefined();
    expect(
      body(anthropicMessages.encodeRequest({ ...base, model: 'claude-sonnet-4-5', tools: [{ name: 'f', parameters: {} }], toolChoice: 'required' }, false, options))[
        'thinking'
      ],
    ).toBeUndefined();
  });
});

describe('openai-completions target', () => {
  it('keeps max_completion_tokens, and uses it for reasoning models without sampling options', () => {
    const kept = body(openAiCompletions.encodeRequest({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], maxTokens: 9, maxTokensField: 'max_completion_tokens' }, false, options));
    expect(kept['max_completion_tokens']).toBe(9);
    expect(kept['max_tokens']).toBeUndefined();
    const reasoning = body(
      openAiCompletions.encodeRequest(
        { model: 'o3-mini', messages: [{ role: 'user', content: 'x' }], maxTokens: 9, temperature: 0.3, topP: 0.5, reasoning: { budgetTokens: 20_000 } },
        false,
        options,
      ),
    );
    expect(reasoning).toMatchObject({ max_completion_tokens: 9, reasoning_effort: 'high' });
    expect(reasoning['temperature']).toBeUndefined();
    expect(reasoning['top_p']).toBeUndefined();
    expect(reasoning['max_tokens']).toBeUndefined();
  });

  it('writes response_format, seed, user, parallel_tool_calls and moves tool-result images after the tool messages', () => {
    const encoded = body(
      openAiCompletions.encodeRequest(
        { ...toolTurn, model: 'gpt-4o', responseFormat: { kind: 'json_schema', name: 'c', schema, strict: true }, seed: 3, user: 'u', parallelToolCalls: false },
        false,
        options,
      ),
    );
    expect(encoded['response_format']).toEqual({ type: 'json_schema', json_schema: { name: 'c', schema, strict: true } });
    expect(encoded).toMatchObject({ seed: 3, user: 'u', parallel_tool_calls: false });
    const messages = encoded['messages'] as Record<string, unknown>[];
    expect(messages.map((message) => message['role'])).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(messages[2]).toMatchObject({ content: 'sunny' });
    expect(JSON.stringify(messages[3])).toContain('data:image/png;base64,AAAA');
  });
});

describe('google-generative-ai target', () => {
  it('writes responseSchema, thinkingConfig, topK, seed and tool-result images beside the function response', () => {
    const encoded = body(
      googleGenerativeAi.encodeRequest(
        { ...toolTurn, model: 'gemini-2.5-flash', responseFormat: { kind: 'json_schema', name: 'c', schema }, reasoning: { effort: 'low' }, topK: 4, seed: 2, temperature: 3 },
        false,
        options,
      ),
    );
    const config = encoded['generationConfig'] as Record<string, unknown>;
    expect(config).toMatchObject({ responseMimeType: 'application/json', thinkingConfig: { thinkingBudget: 2048 }, topK: 4, seed: 2, temperature: 2 });
    expect(config['responseSchema']).toBeDefined();
    const contents = encoded['contents'] as { parts: Record<string, unknown>[] }[];
    expect(contents[2]?.parts.map((part) => Object.keys(part)[0])).toEqual(['functionResponse', 'inlineData']);
  });
});
