/**
 * Continuing a streamed answer in the client's format (docs/policy.md#continuing-a-broken-stream): the encoder
 * that goes on after a break (`StreamEncoder.resume`) sends only content deltas in the message the client is
 * reading — no second `message_start` or role, the same content block (even when the upstream's own events
 * numbered it after a thinking block) — and then the format's clean end.
 */
import type { ChatStreamDelta } from '@understudy/providers';
import { describe, expect, it } from 'vitest';
import { anthropicDialect, openAIDialect, responsesDialect } from './dialects.js';
import { openAIChunkIdentity } from './native-answer.js';

const meta = { id: 'gw_1', model: 'up/model', createdSeconds: 100 };

function sse(text: string): { event: string | undefined; data: string }[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
      return { event, data: lines.find((line) => line.startsWith('data: '))?.slice(6) ?? '' };
    });
}

/** The deltas a same-format upstream stream hands out for one event: the decoded ones, then the native one. */
function upstream(event: string | undefined, data: unknown, decoded: ChatStreamDelta[] = []): ChatStreamDelta[] {
  const text = JSON.stringify(data);
  return [...decoded, event === undefined ? { kind: 'native', data: text } : { kind: 'native', event, data: text }];
}

describe('resuming a same-format Anthropic stream', () => {
  it('goes on in the text block the upstream opened after a thinking block, then ends cleanly', () => {
    const encoder = anthropicDialect.createStreamEncoder(meta, { usage: false, native: true });
    const sent = [
      ...upstream('message_start', { type: 'message_start', message: { id: 'msg_up', model: 'claude-up', role: 'assistant', content: [] } }),
      ...upstream('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } }),
      ...upstream('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } }),
      ...upstream('content_block_stop', { type: 'content_block_stop', index: 0 }),
      ...upstream('content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }),
      ...upstream('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hello' } }, [{ kind: 'text', text: 'Hello' }]),
    ]
      .map((delta) => encoder.delta(delta))
      .join('');
    expect(sse(sent).map((entry) => entry.event)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'content_block_start', 'content_block_delta']);
    const resumed = encoder.resume?.();
    expect(resumed).toBeDefined();
    if (resumed === undefined) return;
    const rest = resumed.delta({ kind: 'text', text: ' world' }) + resumed.delta({ kind: 'finish', finishReason: 'stop' }) + resumed.end();
    const events = sse(rest).map((entry) => ({ event: entry.event, data: JSON.parse(entry.data) as Record<string, unknown> }));
    expect(events.map((entry) => entry.event)).toEqual(['content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    expect(events[0]?.data).toEqual({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: ' world' } });
    expect(events[1]?.data).toEqual({ type: 'content_block_stop', index: 1 });
    expect(events[2]?.data).toMatchObject({ delta: { stop_reason: 'end_turn' } });
  });

  it('closes a block the break left open that is not text, and opens the next one', () => {
    const encoder = anthropicDialect.createStreamEncoder(meta, { usage: false, native: true });
    for (const delta of [
      ...upstream('message_start', { type: 'message_start', message: { id: 'msg_up' } }),
      ...upstream('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      ...upstream('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'A' } }, [{ kind: 'text', text: 'A' }]),
      ...upstream('content_block_stop', { type: 'content_block_stop', index: 0 }),
      ...upstream('content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'thinking', thinking: '' } }),
    ]) {
      encoder.delta(delta);
    }
    const rest = encoder.resume?.()?.delta({ kind: 'text', text: 'B' }) ?? '';
    expect(sse(rest).map((entry) => [entry.event, (JSON.parse(entry.data) as { index: number }).index])).toEqual([
      ['content_block_stop', 1],
      ['content_block_start', 2],
      ['content_block_delta', 2],
    ]);
  });
});

describe('resuming an OpenAI stream', () => {
  it('same-format: goes on with content chunks of choice 0 without a second role, then finish and [DONE]', () => {
    const encoder = openAIDialect.createStreamEncoder(meta, { usage: false, native: true });
    encoder.delta({ kind: 'text', text: 'Hello' });
    encoder.delta({ kind: 'native', data: JSON.stringify({ id: 'up', object: 'chat.completion.chunk', created: 1700000000, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hello' }, finish_reason: null }] }) });
    const resumed = encoder.resume?.();
    if (resumed === undefined) throw new Error('expected a resumable encoder');
    const rest = sse(resumed.delta({ kind: 'text', text: ' world' }) + resumed.delta({ kind: 'finish', finishReason: 'stop' }) + resumed.end());
    expect(rest.map((entry) => entry.data)).toHaveLength(3);
    // The continuation's chunks carry the id and creation time the client already saw, not the gateway's own.
    expect(JSON.parse(rest[0]?.data ?? '')).toMatchObject({ id: 'up', created: 1700000000, model: 'up/model', choices: [{ index: 0, delta: { content: ' world' }, finish_reason: null }] });
    expect(JSON.parse(rest[1]?.data ?? '')).toMatchObject({ id: 'up', created: 1700000000 });
    expect(JSON.parse(rest[0]?.data ?? '').choices[0].delta.role).toBeUndefined();
    expect(JSON.parse(rest[1]?.data ?? '')).toMatchObject({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
    expect(rest[2]?.data).toBe('[DONE]');
  });

  it('reads the identity of a chunk written with its id first, and nothing from any other text', () => {
    expect(openAIChunkIdentity('{"id":"chatcmpl-9","object":"chat.completion.chunk","created":1712,"model":"m","choices":[]}')).toEqual({ id: 'chatcmpl-9', createdSeconds: 1712 });
    expect(openAIChunkIdentity('{"object":"chat.completion.chunk","id":"x","created":1}')).toBeUndefined();
    expect(openAIChunkIdentity('{"id":"x","choices":[]}')).toBeUndefined();
    expect(openAIChunkIdentity('[DONE]')).toBeUndefined();
  });

  it('translated: the encoder itself goes on', () => {
    const encoder = openAIDialect.createStreamEncoder(meta, { usage: false });
    expect(encoder.resume?.()).toBe(encoder);
  });
});

describe('what cannot be resumed', () => {
  it('a same-format Responses stream (its item ids are the upstream’s) is not resumable; a translated one is', () => {
    expect(responsesDialect.createStreamEncoder({ ...meta, id: 'resp_1' }, { usage: false, native: true }).resume?.()).toBeUndefined();
    const translated = responsesDialect.createStreamEncoder({ ...meta, id: 'resp_1' }, { usage: false });
    expect(translated.resume?.()).toBe(translated);
  });

  it('a same-format stream whose upstream already sent its end event', () => {
    const encoder = anthropicDialect.createStreamEncoder(meta, { usage: false, native: true });
    encoder.delta({ kind: 'native', event: 'message_stop', data: '{"type":"message_stop"}' });
    expect(encoder.resume?.()).toBeUndefined();
  });
});
