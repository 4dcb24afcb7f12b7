/**
 * The repair behind a format retry (docs/policy.md#what-each-reason-does, the model-failover doc "Cooldowns": tool
 * call ID validation failures are sanitised and retried once when the provider opts in with
 * `models.providers.<id>.allowFormatRetry`): every tool call id of the conversation is rewritten to what strict
 * providers accept — 1-64 of `A-Z a-z 0-9 _ -`, unique — and each tool result follows its call's new id.
 */
import type { ChatMessage, ChatRequest } from './chat-types.js';

const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The request with sanitised tool call ids. Ids that are already safe and unique are kept; others become
 * `call_<n>` (numbered in conversation order); a tool result answering an id no call made gets an id of its
 * own. A repaired request drops `native` (the client's body as sent), so the repaired messages are encoded.
 * The request is returned unchanged when no id needed a change.
 *
 * @example sanitizeToolCallIds(request).messages // tool call "toolu:01/abc" → "call_1", its result too
 */
export function sanitizeToolCallIds(request: ChatRequest): ChatRequest {
  const used = new Set<string>();
  const renamed = new Map<string, string>();
  let counter = 0;
  let changed = false;
  const fresh = (): string => {
    let id: string;
    do {
      counter += 1;
      id = `call_${counter}`;
    } while (used.has(id));
    used.add(id);
    return id;
  };
  // Safe ids are reserved first, so a generated one never collides with a kept one.
  for (const message of request.messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls ?? []) if (SAFE_ID.test(call.id)) used.add(call.id);
  }
  const kept = new Set<string>();
  const messages: ChatMessage[] = request.messages.map((message) => {
    if (message.role === 'assistant' && message.toolCalls !== undefined) {
      return {
        ...message,
        toolCalls: message.toolCalls.map((call) => {
          if (SAFE_ID.test(call.id) && !kept.has(call.id)) {
            kept.add(call.id);
            renamed.set(call.id, call.id);
            return call;
          }
          changed = true;
          const id = fresh();
          renamed.set(call.id, id);
          return { ...call, id };
        }),
      };
    }
    if (message.role === 'tool') {
      const id = renamed.get(message.toolCallId);
      if (id === message.toolCallId) return message;
      changed = true;
      return { ...message, toolCallId: id ?? fresh() };
    }
    return message;
  });
  // The client's own body (the same-format fast path) still holds the refused ids: send the repaired shape.
  return changed ? { ...request, messages, native: undefined } : request;
}
