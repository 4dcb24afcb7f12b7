/**
 * The gateway's token estimates, for where no provider counts: a count-tokens answer from a candidate whose
 * upstream has no counting endpoint (docs/wire-mapping.md#count-tokens), and the output budget left to a
 * continuation after part of the answer was streamed (docs/policy.md#continuing-a-broken-stream).
 */
import type { ChatContent, ChatRequest } from '@understudy/providers';

/** Characters per token of the estimate. */
const CHARS_PER_TOKEN = 4;
/** Tokens the estimate counts for one image (about what a 1000×1000 image costs at Anthropic). */
const TOKENS_PER_IMAGE = 1_600;

function contentSize(content: ChatContent | null): { chars: number; images: number } {
  if (content === null) return { chars: 0, images: 0 };
  if (typeof content === 'string') return { chars: content.length, images: 0 };
  let chars = 0;
  let images = 0;
  for (const part of content) {
    if (part.kind === 'text') chars += part.text.length;
    else images += 1;
  }
  return { chars, images };
}

/**
 * Tokens of `text` by the estimate's rule (one per 4 characters, rounded up; 0 for an empty text).
 *
 * @example estimateTextTokens('abcdefghi') // 3
 */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/**
 * The gateway's input-token estimate for a request: one token per 4 characters of text (messages, tool calls
 * and results, tool names, descriptions and schemas) plus 1600 per image, at least 1.
 *
 * @example estimateInputTokens({ model: 'm', messages: [{ role: 'user', content: 'abcdefgh' }] }) // 2
 */
export function estimateInputTokens(request: Omit<ChatRequest, 'model'>): number {
  let chars = 0;
  let images = 0;
  for (const message of request.messages) {
    const size = contentSize(message.content);
    chars += size.chars;
    images += size.images;
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) chars += call.name.length + call.arguments.length;
  }
  for (const tool of request.tools ?? []) chars += tool.name.length + (tool.description?.length ?? 0) + JSON.stringify(tool.parameters).length;
  return Math.max(1, Math.ceil(chars / CHARS_PER_TOKEN) + images * TOKENS_PER_IMAGE);
}
