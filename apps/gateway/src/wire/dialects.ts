/** The two client wire formats as {@link WireDialect}s. */
import type { WireDialect } from './dialect.js';
import { parseAnthropicRequest } from './anthropic-request.js';
import { AnthropicStreamEncoder, renderAnthropicError, renderAnthropicResult } from './anthropic-response.js';
import { parseOpenAIRequest } from './openai-request.js';
import { OpenAIStreamEncoder, renderOpenAIError, renderOpenAIResult } from './openai-response.js';

/** OpenAI chat completions (`POST /v1/chat/completions`). */
export const openAIDialect: WireDialect = Object.freeze<WireDialect>({
  id: 'openai',
  parseRequest: parseOpenAIRequest,
  renderResult: renderOpenAIResult,
  createStreamEncoder: (meta, options) => new OpenAIStreamEncoder(meta, options),
  renderError: renderOpenAIError,
});

/** Anthropic messages (`POST /v1/messages`). */
export const anthropicDialect: WireDialect = Object.freeze<WireDialect>({
  id: 'anthropic',
  parseRequest: parseAnthropicRequest,
  renderResult: renderAnthropicResult,
  createStreamEncoder: (meta) => new AnthropicStreamEncoder(meta),
  renderError: renderAnthropicError,
});
