/**
 * `POST /v1/messages/count_tokens` (Anthropic format, docs/wire-mapping.md#count-tokens): the request runs as a
 * turn on the selected model's chain like a chat request; a candidate whose upstream speaks `anthropic-messages`
 * counts with the provider's own endpoint, any other one answers with the gateway's estimate
 * ({@link estimateInputTokens}). The answer is `{ input_tokens }` with the `x-understudy-*` headers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formatModelRef } from '@understudy/contracts';
import type { ChatContent, ChatRequest } from '@understudy/providers';
import { readJsonBody } from '../http/body.js';
import { sendJson } from '../http/respond.js';
import type { UpstreamTimer } from '../turn/run-turn.js';
import { countFailedAttempts, runCountTokensTurn } from '../turn/run-turn.js';
import { turnError } from '../turn/turn-errors.js';
import { anthropicDialect } from '../wire/dialects.js';
import type { ChatHandlerContext, ChatOutcome } from './chat-handler.js';
import { answerHeaders, nativeRequest, requestHeaders } from './chat-handler.js';
import { checkFallbacksOverride, resolveRequestSelection } from './model-selection.js';

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

/**
 * Serves one count-tokens request.
 *
 * @throws {GatewayError} 400 for a malformed body, the turn's error when every candidate failed.
 */
export async function handleCountTokens(
  request: IncomingMessage,
  response: ServerResponse,
  context: ChatHandlerContext,
  signal: AbortSignal,
  timer: UpstreamTimer,
): Promise<ChatOutcome> {
  const { config } = context;
  const body = await readJsonBody(request, context.body);
  const parsed = anthropicDialect.parseRequest(body);
  const headers = requestHeaders(request);
  const selection = resolveRequestSelection(parsed.model, config, headers.agentId);
  const agentId = selection.agentId;
  let result;
  try {
    const store = await context.stores.get(agentId);
    result = await runCountTokensTurn(
      context.turn,
      {
        store,
        selection,
        sessionKey: headers.sessionKey,
        chatType: headers.chatType,
        source: headers.source,
        fallbacksOverride: checkFallbacksOverride(parsed.fallbacksOverride, config),
        isImageRequest: parsed.hasImages,
        chat: { ...parsed.chat, native: nativeRequest(anthropicDialect, body, request) },
        signal,
      },
      timer,
      estimateInputTokens(parsed.chat),
    );
  } catch (error) {
    countFailedAttempts(context.turn, error);
    throw turnError(error, context.clock.nowMs(), agentId);
  }
  sendJson(response, 200, { input_tokens: result.value }, answerHeaders(result));
  return { agent: agentId, session: headers.sessionKey, status: 200, model: formatModelRef(result.candidate), profile: result.profile, attempts: result.attempts.length };
}
