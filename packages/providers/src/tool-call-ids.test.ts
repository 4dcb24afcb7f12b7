import { describe, expect, it } from 'vitest';
import type { ChatRequest } from './chat-types.js';
import { sanitizeToolCallIds } from './tool-call-ids.js';

const call = (id: string) => ({ id, name: 'lookup', arguments: '{}' });

describe('sanitizeToolCallIds (the format retry of allowFormatRetry)', () => {
  it('rewrites ids strict providers refuse, keeps safe ones, and moves each tool result with its call', () => {
    const request: ChatRequest = {
      model: 'm',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: null, toolCalls: [call('toolu:01/abc'), call('call_ok-1'), call('x'.repeat(80))] },
        { role: 'tool', toolCallId: 'toolu:01/abc', content: 'a' },
        { role: 'tool', toolCallId: 'call_ok-1', content: 'b' },
        { role: 'tool', toolCallId: 'x'.repeat(80), content: 'c' },
        { role: 'assistant', content: null, toolCalls: [call('call_ok-1')] },
        { role: 'tool', toolCallId: 'call_ok-1', content: 'd' },
      ],
    };
    const repaired = sanitizeToolCallIds(request);
    const ids = repaired.messages.flatMap((message) =>
      message.role === 'assistant' ? (message.toolCalls ?? []).map((entry) => entry.id) : message.role === 'tool' ? [`result:${message.toolCallId}`] : [],
    );
    expect(ids).toEqual(['call_1', 'call_ok-1', 'call_2', 'result:call_1', 'result:call_ok-1', 'result:call_2', 'call_3', 'result:call_3']);
    for (const id of ids) expect(id.replace('result:', '')).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(request.messages[1]).toMatchObject({ toolCalls: [{ id: 'toolu:01/abc' }, { id: 'call_ok-1' }, { id: 'x'.repeat(80) }] });
    expect(sanitizeToolCallIds({ ...request, native: { api: 'openai-completions', body: { messages: [] } } }).native).toBeUndefined();
  });

  it('returns the same request when every id is already fine', () => {
    const request: ChatRequest = {
      model: 'm',
      messages: [
        { role: 'assistant', content: null, toolCalls: [call('call_a')] },
        { role: 'tool', toolCallId: 'call_a', content: 'ok' },
      ],
    };
    expect(sanitizeToolCallIds(request)).toBe(request);
  });
});
