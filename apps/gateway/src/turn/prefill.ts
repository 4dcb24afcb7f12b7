/**
 * The request of a continuation (docs/policy.md#continuing-a-broken-stream): the turn's request with the text
 * the client already got as a trailing assistant message, which the model continues. Sent in the internal
 * shape (never the client's own body): each candidate's wire format encodes the prefill its own way.
 */
import type { ChatMessage, ChatRequest, ChatStream, ChatStreamDelta } from '@understudy/providers';
import { estimateTextTokens } from './token-estimate.js';

/** A continuation's request and the trailing whitespace left out of its prefill. */
export interface PrefillRequest {
  readonly chat: Omit<ChatRequest, 'model'>;
  /**
   * Whitespace at the end of the streamed text that the prefill leaves out (Anthropic refuses a final assistant
   * message ending in whitespace); the client already has it, so the continuation's own leading copy of it is
   * dropped ({@link skipLeading}).
   */
  readonly trimmed: string;
}

/**
 * The continuation request of `chat` after `text` reached the client. When the client's request itself ended
 * with an assistant message (its own prefill, text only), `text` continues that message. A `maxTokens` the
 * client set is the whole answer's budget: the continuation gets what is left of it after the streamed text's
 * estimated tokens (one per 4 characters), at least 1.
 *
 * @example prefillRequest({ messages: [{ role: 'user', content: 'Hi' }] }, 'Hello ').trimmed // ' '
 */
export function prefillRequest(chat: Omit<ChatRequest, 'model'>, text: string): PrefillRequest {
  const last = chat.messages[chat.messages.length - 1];
  const own = last?.role === 'assistant' && typeof last.content === 'string' && (last.toolCalls?.length ?? 0) === 0 ? last.content : undefined;
  const whole = (own ?? '') + text;
  const kept = whole.trimEnd();
  const messages: ChatMessage[] = [...(own === undefined ? chat.messages : chat.messages.slice(0, -1)), { role: 'assistant', content: kept }];
  const maxTokens = chat.maxTokens === undefined ? undefined : Math.max(1, chat.maxTokens - estimateTextTokens(text));
  return { chat: { ...chat, messages, stream: true, native: undefined, maxTokens }, trimmed: whole.slice(kept.length) };
}

/**
 * `stream` without the part of `whitespace` its text starts with (the client already has that whitespace). The
 * stream as it is when `whitespace` is empty.
 */
export function skipLeading(stream: ChatStream, whitespace: string): ChatStream {
  if (whitespace === '') return stream;
  let pending = whitespace;
  async function* deltas(): AsyncGenerator<ChatStreamDelta> {
    for await (const delta of stream) {
      if (pending === '' || delta.kind !== 'text') {
        if (delta.kind === 'tool_call') pending = '';
        yield delta;
        continue;
      }
      let skipped = 0;
      while (skipped < delta.text.length && skipped < pending.length && delta.text[skipped] === pending[skipped]) skipped += 1;
      const rest = delta.text.slice(skipped);
      pending = skipped === delta.text.length ? pending.slice(skipped) : '';
      if (rest !== '') yield { kind: 'text', text: rest };
    }
  }
  return {
    get model() {
      return stream.model;
    },
    status: stream.status,
    responseHeaders: stream.responseHeaders,
    native: stream.native,
    cancel: () => stream.cancel(),
    [Symbol.asyncIterator]: () => deltas(),
  };
}
