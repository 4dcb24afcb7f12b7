/**
 * Anthropic messages answers: the whole `message` object, the event stream (`message_start`, content blocks,
 * `message_delta`, `message_stop`; an upstream failure after output ends it with `event: error`), and the
 * `{ type: "error", error: { type, message } }` error body.
 */
import type { ChatResult, ChatStreamDelta, ChatUsage, FinishReason } from '@understudy/providers';
import type { GatewayError, GatewayErrorKind } from '../gateway-error.js';
import type { AnswerMeta, DeltaWriters, StreamEncoder } from './dialect.js';
import { StreamEnding, sseEvent } from './dialect.js';

const ERROR_TYPES: Readonly<Record<GatewayErrorKind, string>> = {
  invalid_request: 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  not_found: 'not_found_error',
  request_too_large: 'request_too_large',
  rate_limit: 'rate_limit_error',
  billing: 'billing_error',
  overloaded: 'overloaded_error',
  timeout: 'timeout_error',
  upstream: 'api_error',
  unavailable: 'overloaded_error',
  misconfigured: 'api_error',
  internal: 'api_error',
};

/** `{ type: "error", error: { type, message } }` (plus `understudy` details when there are any). */
export function renderAnthropicError(error: GatewayError): Record<string, unknown> {
  return {
    type: 'error',
    error: { type: ERROR_TYPES[error.kind], message: error.message },
    ...(error.details === undefined ? {} : { understudy: { code: error.code, ...error.details } }),
  };
}

/** Anthropic's `stop_reason` for an internal finish reason. */
function anthropicStopReason(reason: FinishReason, raw?: string): string {
  switch (reason) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return raw === 'stop_sequence' ? 'stop_sequence' : 'end_turn';
  }
}

/** Anthropic's usage object: `input_tokens` counts only the uncached part, the cache figures come beside it. */
export function anthropicUsage(usage: ChatUsage | undefined): Record<string, number> {
  if (usage === undefined) return { input_tokens: 0, output_tokens: 0 };
  const cached = usage.cachedInputTokens ?? 0;
  const written = usage.cacheWriteInputTokens ?? 0;
  return {
    input_tokens: Math.max(0, usage.inputTokens - cached - written),
    output_tokens: usage.outputTokens,
    ...(usage.cachedInputTokens === undefined ? {} : { cache_read_input_tokens: cached }),
    ...(usage.cacheWriteInputTokens === undefined ? {} : { cache_creation_input_tokens: written }),
  };
}

function parseArguments(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return {};
  }
}

/** The `message` object of a whole answer. */
export function renderAnthropicResult(result: ChatResult, meta: AnswerMeta): Record<string, unknown> {
  const content: Record<string, unknown>[] = [];
  if (result.text !== '' || result.toolCalls.length === 0) content.push({ type: 'text', text: result.text });
  for (const call of result.toolCalls) content.push({ type: 'tool_use', id: call.id, name: call.name, input: parseArguments(call.arguments) });
  return {
    id: meta.id,
    type: 'message',
    role: 'assistant',
    model: meta.model,
    content,
    stop_reason: result.stopSequence === undefined ? anthropicStopReason(result.finishReason, result.rawFinishReason) : 'stop_sequence',
    stop_sequence: result.stopSequence ?? null,
    usage: anthropicUsage(result.usage),
    ...(meta.understudy === undefined ? {} : { understudy: meta.understudy }),
  };
}

/** The open content block: text, a tool call, or (following a same-format stream) a block of another type. */
type OpenBlock = { readonly kind: 'text' } | { readonly kind: 'tool'; readonly toolIndex: number } | { readonly kind: 'other' };

/** The SSE encoder of one Anthropic streamed answer. */
export class AnthropicStreamEncoder implements StreamEncoder {
  readonly #meta: AnswerMeta;
  #started = false;
  #block: OpenBlock | undefined;
  #blockIndex = -1;
  readonly #ending = new StreamEnding();
  #sawToolCall = false;

  constructor(meta: AnswerMeta) {
    this.#meta = meta;
  }

  #start(): string {
    if (this.#started) return '';
    this.#started = true;
    return sseEvent(
      {
        type: 'message_start',
        message: {
          id: this.#meta.id,
          type: 'message',
          role: 'assistant',
          model: this.#meta.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 0, output_tokens: 0 },
        },
      },
      'message_start',
    );
  }

  #closeBlock(): string {
    if (this.#block === undefined) return '';
    this.#block = undefined;
    return sseEvent({ type: 'content_block_stop', index: this.#blockIndex }, 'content_block_stop');
  }

  #openBlock(block: OpenBlock, contentBlock: Record<string, unknown>): string {
    const out = this.#closeBlock();
    this.#block = block;
    this.#blockIndex += 1;
    return out + sseEvent({ type: 'content_block_start', index: this.#blockIndex, content_block: contentBlock }, 'content_block_start');
  }

  readonly #writers: DeltaWriters = {
    text: (text) => {
      let out = this.#start();
      if (this.#block?.kind !== 'text') out += this.#openBlock({ kind: 'text' }, { type: 'text', text: '' });
      return out + sseEvent({ type: 'content_block_delta', index: this.#blockIndex, delta: { type: 'text_delta', text } }, 'content_block_delta');
    },
    toolCall: (delta) => {
      this.#sawToolCall = true;
      let out = this.#start();
      const current = this.#block;
      if (current?.kind !== 'tool' || current.toolIndex !== delta.index) {
        out += this.#openBlock(
          { kind: 'tool', toolIndex: delta.index },
          { type: 'tool_use', id: delta.id ?? `toolu_${delta.index}`, name: delta.name ?? '', input: {} },
        );
      }
      if (delta.argumentsDelta === '') return out;
      return (
        out +
        sseEvent(
          { type: 'content_block_delta', index: this.#blockIndex, delta: { type: 'input_json_delta', partial_json: delta.argumentsDelta } },
          'content_block_delta',
        )
      );
    },
    native: (delta) => {
      this.#follow(delta.event, delta.data);
      return '';
    },
  };

  delta(delta: ChatStreamDelta): string {
    return this.#ending.route(delta, this.#writers);
  }

  /**
   * As the shadow of a same-format stream (`NativeStreamEncoder`): takes the content block structure of the
   * upstream's own events (a thinking block the decoded deltas do not show still takes an index), so a
   * continuation goes on in the block the client is reading.
   */
  #follow(event: string | undefined, data: string): void {
    if (event === 'message_start') this.#started = true;
    else if (event === 'content_block_stop') this.#block = undefined;
    if (event !== 'content_block_start') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    const fields = typeof parsed === 'object' && parsed !== null ? (parsed as { index?: unknown; content_block?: { type?: unknown } }) : {};
    if (typeof fields.index !== 'number') return;
    const type = fields.content_block?.type;
    this.#blockIndex = fields.index;
    this.#block = type === 'text' ? { kind: 'text' } : { kind: 'other' };
  }

  /** Anthropic's `stop_reason` of the kept finish (`stop_sequence` when one matched), else from what was sent. */
  #stopReason(): string {
    const finish = this.#ending.finish;
    if (finish === undefined) return this.#sawToolCall ? 'tool_use' : 'end_turn';
    return finish.stopSequence === undefined ? anthropicStopReason(finish.finishReason, finish.rawFinishReason) : 'stop_sequence';
  }

  end(): string {
    let out = this.#start();
    if (this.#blockIndex === -1) out += this.#openBlock({ kind: 'text' }, { type: 'text', text: '' });
    out += this.#closeBlock();
    out += sseEvent(
      {
        type: 'message_delta',
        delta: { stop_reason: this.#stopReason(), stop_sequence: this.#ending.finish?.stopSequence ?? null },
        usage: anthropicUsage(this.#ending.usage),
      },
      'message_delta',
    );
    return out + sseEvent({ type: 'message_stop' }, 'message_stop');
  }

  error(error: GatewayError): string {
    return sseEvent(renderAnthropicError(error), 'error');
  }

  /** Itself: more deltas in the open text block (or a new block after the last one). */
  resume(): StreamEncoder {
    return this;
  }
}

/** `GET /v1/models` in Anthropic's list shape. */
export function renderAnthropicModelList(ids: readonly { readonly id: string }[]): Record<string, unknown> {
  return {
    data: ids.map((entry) => ({ type: 'model', id: entry.id, display_name: entry.id, created_at: '1970-01-01T00:00:00Z' })),
    has_more: false,
    first_id: ids[0]?.id ?? null,
    last_id: ids[ids.length - 1]?.id ?? null,
  };
}
