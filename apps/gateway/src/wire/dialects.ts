/** The client wire formats as {@link WireDialect}s. */
import type { WireDialect } from './dialect.js';
import { parseAnthropicRequest } from './anthropic-request.js';
import { AnthropicStreamEncoder, renderAnthropicError, renderAnthropicResult } from './anthropic-response.js';
import { NativeStreamEncoder, nativeResult, openAIChunkIdentity } from './native-answer.js';
import { parseOpenAIRequest } from './openai-request.js';
import { OpenAIStreamEncoder, renderOpenAIError, renderOpenAIResult } from './openai-response.js';
import { sseEvent } from './dialect.js';
import { parseResponsesRequest } from './responses-request.js';
import { ResponsesStreamEncoder, renderResponsesResult, responsesErrorFields } from './responses-response.js';

/** OpenAI chat completions (`POST /v1/chat/completions`). */
export const openAIDialect: WireDialect = Object.freeze<WireDialect>({
  id: 'openai',
  api: 'openai-completions',
  forwardedHeaders: ['openai-beta'],
  parseRequest: parseOpenAIRequest,
  renderResult: (result, meta) => nativeResult(result, meta, 'openai-completions') ?? renderOpenAIResult(result, meta),
  createStreamEncoder: (meta, options) =>
    options.native === true
      ? new NativeStreamEncoder(meta, {
          isEnd: (_event, data) => data === '[DONE]',
          end: 'data: [DONE]\n\n',
          // The gateway always asks for the usage chunk; a client that did not gets none.
          ...(options.usage ? {} : { drop: (data: string) => data.includes('"choices":[]') }),
          namesModel: () => true,
          error: (error) => sseEvent(renderOpenAIError(error)),
          identity: openAIChunkIdentity,
        }, new OpenAIStreamEncoder(meta, options))
      : new OpenAIStreamEncoder(meta, options),
  renderError: renderOpenAIError,
});

/** Anthropic messages (`POST /v1/messages`). */
export const anthropicDialect: WireDialect = Object.freeze<WireDialect>({
  id: 'anthropic',
  api: 'anthropic-messages',
  forwardedHeaders: ['anthropic-beta', 'anthropic-version'],
  parseRequest: parseAnthropicRequest,
  renderResult: (result, meta) => nativeResult(result, meta, 'anthropic-messages') ?? renderAnthropicResult(result, meta),
  createStreamEncoder: (meta, options) =>
    options.native === true
      ? new NativeStreamEncoder(meta, {
          isEnd: (event) => event === 'message_stop',
          end: sseEvent({ type: 'message_stop' }, 'message_stop'),
          namesModel: (event) => event === 'message_start',
          error: (error) => sseEvent(renderAnthropicError(error), 'error'),
        }, new AnthropicStreamEncoder(meta))
      : new AnthropicStreamEncoder(meta),
  renderError: renderAnthropicError,
});

/**
 * OpenAI Responses API (`POST /v1/responses`); errors in OpenAI's shape. A same-format stream has no shadow:
 * its items carry the upstream's ids, which a continuation could not go on with.
 */
export const responsesDialect: WireDialect = Object.freeze<WireDialect>({
  id: 'responses',
  api: 'openai-responses',
  forwardedHeaders: ['openai-beta'],
  parseRequest: parseResponsesRequest,
  renderResult: (result, meta) => nativeResult(result, meta, 'openai-responses') ?? renderResponsesResult(result, meta),
  createStreamEncoder: (meta, options) =>
    options.native === true
      ? new NativeStreamEncoder(meta, {
          isEnd: (event) => event === 'response.completed' || event === 'response.incomplete' || event === 'response.failed',
          end: '',
          namesModel: (event) => event === 'response.created' || event === 'response.in_progress' || event === 'response.completed' || event === 'response.incomplete',
          // The OpenAI error's own `type` (e.g. rate_limit_error) must not replace the event's: an SDK reads
          // only `type: 'error'` as the stream's failure.
          error: (error) => sseEvent({ type: 'error', ...responsesErrorFields(error) }, 'error'),
        })
      : new ResponsesStreamEncoder(meta),
  renderError: renderOpenAIError,
});
