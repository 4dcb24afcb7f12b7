import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../chat-types.js';
import { wireErrorKind } from '../test-support/wire-error-kind.js';
import { googleGenerativeAi } from './google-generative-ai.js';

const options = { defaultMaxTokens: 4096, includeStreamUsage: true };

describe('google-generative-ai endpoint', () => {
  it.each([
    ['https://generativelanguage.googleapis.com/v1beta', false, 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent'],
    ['https://generativelanguage.googleapis.com', false, 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent'],
    ['https://generativelanguage.googleapis.com/v1beta/', true, 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse'],
  ] as const)('%s (stream %s)', (baseUrl, stream, url) => {
    expect(googleGenerativeAi.endpoint(baseUrl, { model: 'gemini-2.5-flash', messages: [] }, stream)).toBe(url);
    expect(googleGenerativeAi.endpoint(baseUrl, { model: 'models/gemini-2.5-flash', messages: [] }, stream)).toBe(url);
  });
});

describe('google-generative-ai request translation', () => {
  it('maps system instructions, images, function calls and responses, tools and generation config', () => {
    const request: ChatRequest = {
      model: 'gemini-2.5-flash',
      messages: [
        { role: 'system', content: 'Be exact.' },
        {
          role: 'user',
          content: [
            { kind: 'text', text: 'Describe' },
            { kind: 'image', source: { kind: 'base64', mediaType: 'image/webp', data: 'UklGR' } },
            { kind: 'image', source: { kind: 'url', url: 'https://example.com/photo.PNG?size=2' } },
          ],
        },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'zoom', arguments: '{"factor":2}' }] },
        { role: 'tool', toolCallId: 'c1', content: '{"ok":true}' },
        { role: 'tool', toolCallId: 'c1', name: 'zoom', content: 'plain text result' },
      ],
      tools: [
        {
          name: 'zoom',
          description: 'Zooms in',
          parameters: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', additionalProperties: false, properties: { factor: { type: 'number' } } },
        },
      ],
      toolChoice: 'auto',
      temperature: 0,
      maxTokens: 256,
      stop: ['###'],
    };
    expect(googleGenerativeAi.encodeRequest(request, false, options)).toEqual({
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'Describe' },
            { inlineData: { mimeType: 'image/webp', data: 'UklGR' } },
            { fileData: { mimeType: 'image/png', fileUri: 'https://example.com/photo.PNG?size=2' } },
          ],
        },
        { role: 'model', parts: [{ functionCall: { name: 'zoom', args: { factor: 2 } } }] },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'zoom', response: { ok: true } } },
            { functionResponse: { name: 'zoom', response: { content: 'plain text result' } } },
          ],
        },
      ],
      systemInstruction: { parts: [{ text: 'Be exact.' }] },
      tools: [{ functionDeclarations: [{ name: 'zoom', description: 'Zooms in', parameters: { type: 'object', properties: { factor: { type: 'number' } } } }] }],
      toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
      generationConfig: { temperature: 0, maxOutputTokens: 256, stopSequences: ['###'] },
    });
  });

  it('refuses a tool result whose tool name cannot be found', () => {
    const request: ChatRequest = { model: 'g', messages: [{ role: 'tool', toolCallId: 'nope', content: 'x' }] };
    expect(wireErrorKind(() => googleGenerativeAi.encodeRequest(request, false, options))).toBe('invalid_request');
  });
});

describe('google-generative-ai response translation', () => {
  it('reads text, function calls and usage metadata', () => {
    const body = {
      candidates: [
        {
          content: {
            parts: [{ text: 'thinking…', thought: true }, { text: 'Calling it.' }, { functionCall: { name: 'find_theaters', args: { location: 'Mountain View, CA' } } }],
            role: 'model',
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 30, candidatesTokenCount: 12, thoughtsTokenCount: 8, totalTokenCount: 50 },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'mAitaLmkHPPlz7IPvtfUqQ4',
    };
    const result = googleGenerativeAi.decodeResponse(body, 'gemini-2.5-flash');
    expect(result).toMatchObject({
      id: 'mAitaLmkHPPlz7IPvtfUqQ4',
      model: 'gemini-2.5-flash',
      text: 'Calling it.',
      finishReason: 'tool_calls',
      rawFinishReason: 'STOP',
      usage: { inputTokens: 30, outputTokens: 20, totalTokens: 50 },
    });
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]).toMatchObject({ name: 'find_theaters', arguments: '{"location":"Mountain View, CA"}' });
    expect(result.toolCalls[0]?.id).toMatch(/^call_[0-9a-f]{24}$/);
  });

  it.each([
    ['SAFETY', 'content_filter'],
    ['RECITATION', 'content_filter'],
    ['MAX_TOKENS', 'length'],
    ['MALFORMED_FUNCTION_CALL', 'error'],
    ['OTHER', 'other'],
  ])('normalises finishReason %s to %s', (raw, normalised) => {
    const body = { candidates: [{ content: { parts: [{ text: 'x' }], role: 'model' }, finishReason: raw }] };
    expect(googleGenerativeAi.decodeResponse(body, 'g')).toMatchObject({ finishReason: normalised });
  });

  it('rejects a blocked prompt, an error payload and a non-object', () => {
    const blocked = { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 8, totalTokenCount: 8 } };
    expect(wireErrorKind(() => googleGenerativeAi.decodeResponse(blocked, 'g'))).toBe('empty');
    const exhausted = { error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } };
    expect(wireErrorKind(() => googleGenerativeAi.decodeResponse(exhausted, 'g'))).toBe('provider_error');
    expect(wireErrorKind(() => googleGenerativeAi.decodeResponse(7, 'g'))).toBe('malformed');
  });
});

describe('google-generative-ai stream translation', () => {
  it('reads alt=sse chunks; the finish chunk carries usage', () => {
    const decoder = googleGenerativeAi.createStreamDecoder();
    const chunks = [
      { candidates: [{ content: { parts: [{ text: 'The' }], role: 'model' }, index: 0 }], usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 }, modelVersion: 'gemini-2.0-flash' },
      { candidates: [{ content: { parts: [{ text: ' answer' }], role: 'model' }, index: 0 }], modelVersion: 'gemini-2.0-flash' },
      {
        candidates: [{ content: { parts: [{ text: '.' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 3, totalTokenCount: 10 },
        modelVersion: 'gemini-2.0-flash',
      },
    ];
    const deltas = chunks.flatMap((chunk) => decoder.push({ data: JSON.stringify(chunk) }));
    expect(deltas).toEqual([
      { kind: 'text', text: 'The' },
      { kind: 'text', text: ' answer' },
      { kind: 'text', text: '.' },
      { kind: 'finish', finishReason: 'stop', rawFinishReason: 'STOP' },
      { kind: 'usage', usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 } },
    ]);
    expect({ finished: decoder.finished, done: decoder.done, model: decoder.model }).toEqual({ finished: true, done: false, model: 'gemini-2.0-flash' });
  });

  it('fails on an error chunk and on a truncated chunk', () => {
    const decoder = googleGenerativeAi.createStreamDecoder();
    expect(wireErrorKind(() => decoder.push({ data: '{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}' }))).toBe('provider_error');
    expect(wireErrorKind(() => decoder.push({ data: '{"candidates":[{"content":' }))).toBe('malformed');
  });
});
