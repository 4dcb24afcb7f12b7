/**
 * `POST /v1/messages/count_tokens` (Anthropic format, docs/wire-mapping.md#count-tokens): the request runs as a
 * turn on the selected model's chain like a chat request; a candidate whose upstream speaks `anthropic-messages`
 * counts with the provider's own endpoint, any other one answers with the gateway's estimate
 * (`estimateInputTokens` of turn/token-estimate.ts). The answer is `{ input_tokens }` with the `x-understudy-*` headers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AbortSignalLike } from '@understudy/contracts';
import { formatModelRef } from '@understudy/contracts';
import { readJsonBody } from '../http/body.js';
import { sendJson } from '../http/respond.js';
import type { UpstreamTimer } from '../turn/run-turn.js';
import { countFailedAttempts, runCountTokensTurn } from '../turn/run-turn.js';
import { estimateInputTokens } from '../turn/token-estimate.js';
import { turnError } from '../turn/turn-errors.js';
import { anthropicDialect } from '../wire/dialects.js';
import type { ChatHandlerContext, ChatOutcome } from './chat-handler.js';
import { answerHeaders, nativeRequest, requestHeaders } from './chat-handler.js';
import { checkFallbacksOverride, resolveRequestSelection } from './model-selection.js';

/**
 * Serves one count-tokens request.
 *
 * @throws {GatewayError} 400 for a malformed body, the turn's error when every candidate failed.
 */
export async function handleCountTokens(
  request: IncomingMessage,
  response: ServerResponse,
  context: ChatHandlerContext,
  signal: AbortSignalLike,
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
    countFailedAttempts(context.turn, {}, error);
    throw turnError(error, context.clock.nowMs(), agentId);
  }
  sendJson(response, 200, { input_tokens: result.value }, answerHeaders(result));
  return { agent: agentId, session: headers.sessionKey, status: 200, model: formatModelRef(result.candidate), profile: result.profile, attempts: result.attempts.length };
}
