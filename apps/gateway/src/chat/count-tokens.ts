/**
 * `POST /v1/messages/count_tokens` (Anthropic format, docs/wire-mapping.md#count-tokens): the request runs as a
 * turn on the selected model's chain like a chat request; a candidate whose upstream speaks `anthropic-messages`
 * counts with the provider's own endpoint, any other one answers with the gateway's estimate
 * (`estimateInputTokens` of turn/token-estimate.ts). The answer is `{ input_tokens }` with the `x-understudy-*` headers.
 */
import { formatModelRef } from '@understudy/contracts';
import { sendJson } from '../http/respond.js';
import { countFailedAttempts, runCountTokensTurn } from '../turn/run-turn.js';
import { estimateInputTokens } from '../turn/token-estimate.js';
import { turnError } from '../turn/turn-errors.js';
import { anthropicDialect } from '../wire/dialects.js';
import type { ChatEndpoint } from './chat-handler.js';
import { answerHeaders, readChatRequest, turnInput } from './chat-handler.js';

/**
 * Serves one count-tokens request.
 *
 * @throws {GatewayError} 400 for a malformed body, the turn's error when every candidate failed.
 */
export const handleCountTokens: ChatEndpoint = async (request, response, context, signal, timer) => {
  const read = await readChatRequest(anthropicDialect, request, context);
  const agentId = read.selection.agentId;
  let result;
  try {
    const store = await context.stores.get(agentId);
    result = await runCountTokensTurn(context.turn, turnInput(read, request, context.config, store, signal), timer, estimateInputTokens(read.parsed.chat));
  } catch (error) {
    countFailedAttempts(context.turn, {}, error);
    throw turnError(error, context.clock.nowMs(), agentId);
  }
  sendJson(response, 200, { input_tokens: result.value }, answerHeaders(result));
  return { agent: agentId, session: read.headers.sessionKey, status: 200, model: formatModelRef(result.candidate), profile: result.profile, attempts: result.attempts.length };
};
