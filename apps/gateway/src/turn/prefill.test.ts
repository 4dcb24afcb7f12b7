/**
 * The continuation request (docs/policy.md#continuing-a-broken-stream): the streamed text as a trailing assistant
 * message without trailing whitespace, the client's own prefill extended, and the continuation's copy of the
 * whitespace the client already has dropped.
 */
import type { ChatStream, ChatStreamDelta } from '@understudy/providers';
import { describe, expect, it } from 'vitest';
import { prefillRequest, skipLeading } from './prefill.js';

function streamOf(deltas: ChatStreamDelta[]): ChatStream {
  return {
    model: 'm',
    status: 200,
    responseHeaders: {},
    native: false,
    cancel: () => undefined,
    async *[Symbol.asyncIterator]() {
      yield* deltas;
    },
  };
}

async function texts(stream: ChatStream): Promise<string[]> {
  const out: string[] = [];
  for await (const delta of stream) if (delta.kind === 'text') out.push(delta.text);
  return out;
}

describe('prefillRequest', () => {
  it('appends the streamed text as an assistant message, drops the native body, keeps the options', () => {
    const chat = { messages: [{ role: 'user' as const, content: 'Hi' }], temperature: 0.2, native: { api: 'openai-completions' as const, body: {} } };
    const { chat: next, trimmed } = prefillRequest(chat, 'Hello there');
    expect(next.messages).toEqual([{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello there' }]);
    expect(next).toMatchObject({ temperature: 0.2, stream: true, native: undefined });
    expect(trimmed).toBe('');
  });

  it('leaves trailing whitespace out of the prefill and reports it', () => {
    expect(prefillRequest({ messages: [] }, 'Hello \n')).toMatchObject({ chat: { messages: [{ role: 'assistant', content: 'Hello' }] }, trimmed: ' \n' });
  });

  it("continues the client's own trailing assistant message instead of adding a second one", () => {
    const { chat } = prefillRequest({ messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Sure: ' }] }, 'one, two');
    expect(chat.messages).toEqual([{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Sure: one, two' }]);
  });

  it("gives the continuation what is left of the client's max_tokens after the streamed text, at least 1", () => {
    const messages = [{ role: 'user' as const, content: 'Count' }];
    // 'one two three ' is 14 characters: 4 tokens by the estimate.
    expect(prefillRequest({ messages, maxTokens: 100 }, 'one two three ').chat.maxTokens).toBe(96);
    expect(prefillRequest({ messages, maxTokens: 3 }, 'one two three ').chat.maxTokens).toBe(1);
    expect(prefillRequest({ messages }, 'one two three ').chat.maxTokens).toBeUndefined();
  });
});

describe('skipLeading', () => {
  it('drops the whitespace the client already has from the start of the continuation, once', async () => {
    expect(await texts(skipLeading(streamOf([{ kind: 'text', text: ' ' }, { kind: 'text', text: ' world ' }, { kind: 'text', text: ' again' }]), '  '))).toEqual(['world ', ' again']);
  });

  it('keeps a continuation that does not repeat the whitespace, and is the stream itself when nothing was trimmed', async () => {
    expect(await texts(skipLeading(streamOf([{ kind: 'text', text: 'world' }]), ' '))).toEqual(['world']);
    const stream = streamOf([]);
    expect(skipLeading(stream, '')).toBe(stream);
  });
});
