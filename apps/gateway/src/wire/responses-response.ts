/**
 * OpenAI Responses API answers (docs/wire-mapping.md#responses): the whole `response` object, the typed event
 * stream (`response.created`, output items and their deltas, `response.completed`; a failure after output ends it
 * with an `error` event), and errors in OpenAI's `{ error: { message, type, code } }` shape. Nothing is stored:
 * every response says `store: false`.
 */
import type { ChatResult, ChatStreamDelta, ChatToolCall, ChatUsage, FinishReason } from '@understudy/providers';
import type { GatewayError } from '../gateway-error.js';
import type { AnswerMeta, DeltaWriters, StreamEncoder } from './dialect.js';
import { StreamEnding, sseEvent } from './dialect.js';
import { renderOpenAIError } from './openai-response.js';

/** Responses usage: input/output/total with the cached and reasoning details. */
function responsesUsage(usage: ChatUsage | undefined): Record<string, unknown> {
  return {
    input_tokens: usage?.inputTokens ?? 0,
    input_tokens_details: { cached_tokens: usage?.cachedInputTokens ?? 0 },
    output_tokens: usage?.outputTokens ?? 0,
    output_tokens_details: { reasoning_tokens: usage?.reasoningTokens ?? 0 },
    total_tokens: usage?.totalTokens ?? 0,
  };
}

/** `incomplete_details` for a finish reason (`null` for a complete answer). */
function incompleteDetails(reason: FinishReason): Record<string, string> | null {
  if (reason === 'length') return { reason: 'max_output_tokens' };
  if (reason === 'content_filter') return { reason: 'content_filter' };
  return null;
}

function messageItem(id: string, text: string, status: string): Record<string, unknown> {
  return { type: 'message', id, status, role: 'assistant', content: [{ type: 'output_text', text, annotations: [], logprobs: [] }] };
}

function functionItem(id: string, call: ChatToolCall, status: string): Record<string, unknown> {
  return { type: 'function_call', id, call_id: call.id, name: call.name, arguments: call.arguments, status };
}

/** The response object around `output`. */
function responseObject(
  meta: AnswerMeta,
  status: string,
  output: readonly Record<string, unknown>[],
  finish: { readonly reason: FinishReason; readonly usage: ChatUsage | undefined } | undefined,
): Record<string, unknown> {
  return {
    id: meta.id,
    object: 'response',
    created_at: meta.createdSeconds,
    status,
    error: null,
    incomplete_details: finish === undefined ? null : incompleteDetails(finish.reason),
    instructions: null,
    max_output_tokens: null,
    model: meta.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: null,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: null,
    truncation: 'disabled',
    usage: finish === undefined ? null : responsesUsage(finish.usage),
    metadata: {},
  };
}

function statusOf(reason: FinishReason): string {
  return incompleteDetails(reason) === null ? 'completed' : 'incomplete';
}

/** The `response` object of a whole answer. */
export function renderResponsesResult(result: ChatResult, meta: AnswerMeta): Record<string, unknown> {
  const suffix = meta.id.replace(/^resp_/, '');
  const output: Record<string, unknown>[] = [];
  if (result.text !== '' || result.toolCalls.length === 0) output.push(messageItem(`msg_${suffix}`, result.text, 'completed'));
  result.toolCalls.forEach((call, index) => output.push(functionItem(`fc_${suffix}_${index}`, call, 'completed')));
  return {
    ...responseObject(meta, statusOf(result.finishReason), output, { reason: result.finishReason, usage: result.usage }),
    ...(meta.understudy === undefined ? {} : { understudy: meta.understudy }),
  };
}

type OpenItem =
  | { readonly kind: 'text'; readonly id: string; readonly outputIndex: number; text: string }
  | { readonly kind: 'tool'; readonly id: string; readonly outputIndex: number; readonly toolIndex: number; call: { id: string; name: string; arguments: string } };

/**
 * The fields of a Responses stream's `error` event (`{ type: 'error', code, message, param }`, beside its
 * `sequence_number`) for a gateway error: the OpenAI error's code, message and param. Used by the gateway's own
 * Responses stream and by a relayed same-format one, so a client's SDK sees the same error event from both.
 */
export function responsesErrorFields(error: GatewayError): { readonly code: unknown; readonly message: unknown; readonly param: unknown } {
  const body = renderOpenAIError(error)['error'] as Record<string, unknown>;
  return { code: body['code'] ?? null, message: body['message'], param: body['param'] ?? null };
}

/** The SSE encoder of one Responses streamed answer. */
export class ResponsesStreamEncoder implements StreamEncoder {
  readonly #meta: AnswerMeta;
  readonly #suffix: string;
  #sequence = 0;
  #started = false;
  #open: OpenItem | undefined;
  readonly #done: Record<string, unknown>[] = [];
  readonly #ending = new StreamEnding();

  constructor(meta: AnswerMeta) {
    this.#meta = meta;
    this.#suffix = meta.id.replace(/^resp_/, '');
  }

  #event(type: string, fields: Record<string, unknown>): string {
    const data = { type, sequence_number: this.#sequence, ...fields };
    this.#sequence += 1;
    return sseEvent(data, type);
  }

  #start(): string {
    if (this.#started) return '';
    this.#started = true;
    const response = responseObject(this.#meta, 'in_progress', [], undefined);
    return this.#event('response.created', { response }) + this.#event('response.in_progress', { response });
  }

  #close(): string {
    const item = this.#open;
    if (item === undefined) return '';
    this.#open = undefined;
    if (item.kind === 'text') {
      const done = messageItem(item.id, item.text, 'completed');
      this.#done.push(done);
      const part = { type: 'output_text', text: item.text, annotations: [], logprobs: [] };
      return (
        this.#event('response.output_text.done', { item_id: item.id, output_index: item.outputIndex, content_index: 0, text: item.text, logprobs: [] }) +
        this.#event('response.content_part.done', { item_id: item.id, output_index: item.outputIndex, content_index: 0, part }) +
        this.#event('response.output_item.done', { output_index: item.outputIndex, item: done })
      );
    }
    const done = functionItem(item.id, item.call, 'completed');
    this.#done.push(done);
    return (
      this.#event('response.function_call_arguments.done', { item_id: item.id, output_index: item.outputIndex, arguments: item.call.arguments }) +
      this.#event('response.output_item.done', { output_index: item.outputIndex, item: done })
    );
  }

  #openText(): string {
    let out = this.#close();
    const item: OpenItem = { kind: 'text', id: `msg_${this.#suffix}_${this.#done.length}`, outputIndex: this.#done.length, text: '' };
    this.#open = item;
    out += this.#event('response.output_item.added', { output_index: item.outputIndex, item: { ...messageItem(item.id, '', 'in_progress'), content: [] } });
    out += this.#event('response.content_part.added', {
      item_id: item.id,
      output_index: item.outputIndex,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
    });
    return out;
  }

  readonly #writers: DeltaWriters = {
    text: (text) => {
      let out = this.#start();
      if (this.#open?.kind !== 'text') out += this.#openText();
      const item = this.#open as Extract<OpenItem, { kind: 'text' }>;
      item.text += text;
      return out + this.#event('response.output_text.delta', { item_id: item.id, output_index: item.outputIndex, content_index: 0, delta: text, logprobs: [] });
    },
    toolCall: (delta) => {
      let out = this.#start();
      const current = this.#open;
      if (current?.kind !== 'tool' || current.toolIndex !== delta.index) {
        out += this.#close();
        const item: OpenItem = {
          kind: 'tool',
          id: `fc_${this.#suffix}_${this.#done.length}`,
          outputIndex: this.#done.length,
          toolIndex: delta.index,
          call: { id: delta.id ?? `call_${this.#suffix}_${delta.index}`, name: delta.name ?? '', arguments: '' },
        };
        this.#open = item;
        out += this.#event('response.output_item.added', { output_index: item.outputIndex, item: functionItem(item.id, item.call, 'in_progress') });
      }
      const item = this.#open as Extract<OpenItem, { kind: 'tool' }>;
      if (delta.argumentsDelta === '') return out;
      item.call.arguments += delta.argumentsDelta;
      return out + this.#event('response.function_call_arguments.delta', { item_id: item.id, output_index: item.outputIndex, delta: delta.argumentsDelta });
    },
    native: () => '',
  };

  delta(delta: ChatStreamDelta): string {
    return this.#ending.route(delta, this.#writers);
  }

  end(): string {
    let out = this.#start();
    if (this.#done.length === 0 && this.#open === undefined) out += this.#openText();
    out += this.#close();
    const reason = this.#ending.finish?.finishReason ?? 'stop';
    const status = statusOf(reason);
    const response = responseObject(this.#meta, status, this.#done, { reason, usage: this.#ending.usage });
    return out + this.#event(status === 'completed' ? 'response.completed' : 'response.incomplete', { response });
  }

  error(error: GatewayError): string {
    return this.#event('error', responsesErrorFields(error));
  }

  /** Itself: the open output item goes on. */
  resume(): StreamEncoder {
    return this;
  }
}
