/**
 * OpenAI chat-completions answers: the whole `chat.completion` object, the `chat.completion.chunk` SSE stream
 * (ending with `[DONE]` only when the answer is complete; an upstream failure after output ends it with a chunk
 * carrying an `error` object and no `[DONE]`), and the `{ error: { message, type, param, code } }` error body.
 */
import type { ChatResult, ChatStreamDelta, ChatUsage, FinishReason } from '@understudy/providers';
import type { GatewayError, GatewayErrorKind } from '../gateway-error.js';
import type { AnswerMeta, DeltaWriters, StreamEncoder, StreamIdentity } from './dialect.js';
import { StreamEnding, sseEvent } from './dialect.js';

const ERROR_TYPES: Readonly<Record<GatewayErrorKind, string>> = {
  invalid_request: 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  not_found: 'not_found_error',
  request_too_large: 'invalid_request_error',
  rate_limit: 'rate_limit_error',
  billing: 'insufficient_quota',
  overloaded: 'overloaded_error',
  timeout: 'timeout_error',
  upstream: 'api_error',
  unavailable: 'service_unavailable',
  misconfigured: 'server_error',
  internal: 'server_error',
};

/**
 * `{ error: { message, type, param, code } }` (plus `understudy` details when there are any): `param` names the
 * request field the error is about (`"model"`, `"messages[0].content"`), `null` when it is about none. The one
 * OpenAI error body of the gateway: chat completions and Responses, whole answers and stream error events.
 */
export function renderOpenAIError(error: GatewayError): Record<string, unknown> {
  return {
    error: { message: error.message, type: ERROR_TYPES[error.kind], param: error.param ?? null, code: error.code },
    ...(error.details === undefined ? {} : { understudy: error.details }),
  };
}

/** OpenAI's `finish_reason` for an internal one. */
function openAIFinishReason(reason: FinishReason): string {
  switch (reason) {
    case 'length':
    case 'tool_calls':
    case 'content_filter':
      return reason;
    default:
      return 'stop';
  }
}

function usageOf(usage: ChatUsage): Record<string, unknown> {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.totalTokens,
    ...(usage.cachedInputTokens === undefined ? {} : { prompt_tokens_details: { cached_tokens: usage.cachedInputTokens } }),
    ...(usage.reasoningTokens === undefined ? {} : { completion_tokens_details: { reasoning_tokens: usage.reasoningTokens } }),
  };
}

/** The `chat.completion` object of a whole answer. */
export function renderOpenAIResult(result: ChatResult, meta: AnswerMeta): Record<string, unknown> {
  const toolCalls = result.toolCalls.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.createdSeconds,
    model: meta.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: result.text === '' && toolCalls.length > 0 ? null : result.text,
          refusal: null,
          ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
        },
        logprobs: null,
        finish_reason: openAIFinishReason(result.finishReason),
      },
    ],
    ...(result.usage === undefined ? {} : { usage: usageOf(result.usage) }),
    ...(meta.understudy === undefined ? {} : { understudy: meta.understudy }),
  };
}

/** The SSE encoder of one OpenAI streamed answer. */
export class OpenAIStreamEncoder implements StreamEncoder {
  readonly #meta: AnswerMeta;
  readonly #includeUsage: boolean;
  #id: string;
  #createdSeconds: number;
  #roleSent = false;
  readonly #ending = new StreamEnding();
  #sawToolCall = false;

  constructor(meta: AnswerMeta, options: { readonly usage: boolean }) {
    this.#meta = meta;
    this.#includeUsage = options.usage;
    this.#id = meta.id;
    this.#createdSeconds = meta.createdSeconds;
  }

  /** One `chat.completion.chunk` event with this stream's id, created time and model around `body`. */
  #envelope(body: { readonly choices: readonly unknown[]; readonly usage?: unknown }): string {
    return sseEvent({ id: this.#id, object: 'chat.completion.chunk', created: this.#createdSeconds, model: this.#meta.model, ...body });
  }

  #chunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
    if (!this.#roleSent) {
      delta = { role: 'assistant', ...delta };
      this.#roleSent = true;
    }
    return this.#envelope({ choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });
  }

  readonly #writers: DeltaWriters = {
    text: (text) => this.#chunk({ content: text }),
    toolCall: (delta) => {
      this.#sawToolCall = true;
      const call: Record<string, unknown> = { index: delta.index };
      if (delta.id !== undefined && delta.id !== '') call['id'] = delta.id;
      if (delta.id !== undefined || delta.name !== undefined) call['type'] = 'function';
      call['function'] = { ...(delta.name === undefined ? {} : { name: delta.name }), arguments: delta.argumentsDelta };
      return this.#chunk({ tool_calls: [call] });
    },
    native: () => '',
  };

  delta(delta: ChatStreamDelta): string {
    return this.#ending.route(delta, this.#writers);
  }

  end(): string {
    const { finish: last, usage } = this.#ending;
    const finish = last === undefined ? (this.#sawToolCall ? 'tool_calls' : 'stop') : openAIFinishReason(last.finishReason);
    let out = this.#chunk({}, finish);
    if (this.#includeUsage && usage !== undefined) {
      out += this.#envelope({ choices: [], usage: usageOf(usage) });
    }
    return `${out}data: [DONE]\n\n`;
  }

  error(error: GatewayError): string {
    return sseEvent(renderOpenAIError(error));
  }

  /** Itself: more chunks of choice 0 (the role went out with the first one). */
  resume(): StreamEncoder {
    return this;
  }

  /** Its chunks carry `identity` from now on (the upstream's, in a same-format stream) instead of the meta's. */
  adopt(identity: StreamIdentity): void {
    this.#id = identity.id;
    this.#createdSeconds = identity.createdSeconds;
  }
}

/** `GET /v1/models` in OpenAI's list shape. */
export function renderOpenAIModelList(ids: readonly { readonly id: string; readonly ownedBy: string }[]): Record<string, unknown> {
  return { object: 'list', data: ids.map((entry) => ({ id: entry.id, object: 'model', created: 0, owned_by: entry.ownedBy })) };
}
