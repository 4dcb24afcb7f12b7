/**
 * `anthropic-messages`: the Anthropic Messages API. Endpoint `<baseUrl>/v1/messages`; streaming is SSE with
 * named events `message_start`, `content_block_start`, `content_block_delta`, `content_block_stop`,
 * `message_delta`, `message_stop` (plus `ping` and `error`).
 */
import type { ChatContent, ChatMessage, ChatRequest, ChatStreamDelta, ChatToolCall, ChatToolChoice, FinishReason } from '../chat-types.js';
import { ANTHROPIC_VERSION } from '../auth-headers.js';
import { answerObject, asCount, asRecord, asString, contentParts, contentText, errorPayload, nativeBodyWithModel, parseDataUrl, parseJson, parseToolArguments, trimSlashes, usageOf } from './content.js';
import type { ChatUsage } from '../chat-types.js';
import { clampTemperature, closedObjectSchema, fromAnthropicToolId, reasons, thinkingBudget, toAnthropicToolId } from './shaping.js';
import type { EncodeOptions, SseEvent, StreamDecoder, WireFormat } from './wire-format.js';
import { WireError } from './wire-format.js';

/** What a request for any JSON object adds to the system prompt (Anthropic has no JSON mode). */
const JSON_ONLY_INSTRUCTION = 'Answer with one JSON object and nothing else.';

const STOP_REASONS: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

/** Anthropic's `stop_reason` normalised. */
export function anthropicFinishReason(raw: string): FinishReason {
  return STOP_REASONS[raw] ?? 'other';
}

type Block = Record<string, unknown>;

function encodeBlocks(content: ChatContent): Block[] {
  return contentParts(content).map((part): Block => {
    if (part.kind === 'text') return { type: 'text', text: part.text };
    const source = part.source;
    if (source.kind === 'base64') {
      return { type: 'image', source: { type: 'base64', media_type: source.mediaType, data: source.data } };
    }
    const inline = parseDataUrl(source.url);
    return inline === undefined
      ? { type: 'image', source: { type: 'url', url: source.url } }
      : { type: 'image', source: { type: 'base64', media_type: inline.mediaType, data: inline.data } };
  });
}

function encodeMessage(message: Exclude<ChatMessage, { role: 'system' }>): { role: 'user' | 'assistant'; content: Block[] } {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: encodeBlocks(message.content) };
    case 'assistant':
      return {
        role: 'assistant',
        content: [
          ...encodeBlocks(message.content ?? ''),
          ...(message.toolCalls ?? []).map((call) => ({
            type: 'tool_use',
            id: toAnthropicToolId(call.id),
            name: call.name,
            input: parseToolArguments(call.arguments, call.name),
          })),
        ],
      };
    case 'tool': {
      const blocks = encodeBlocks(message.content);
      return {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: toAnthropicToolId(message.toolCallId),
            content: blocks.every((block) => block['type'] === 'text') ? contentText(message.content) : blocks,
            ...(message.isError === true ? { is_error: true } : {}),
          },
        ],
      };
    }
  }
}

/** Messages in Anthropic's shape: system text lifted out, same-role neighbours merged, empty turns dropped. */
function encodeMessages(messages: readonly ChatMessage[]): { system: string; messages: { role: string; content: Block[] }[] } {
  const system = messages
    .filter((message) => message.role === 'system')
    .map((message) => contentText(message.content))
    .filter((text) => text !== '')
    .join('\n\n');
  const merged: { role: 'user' | 'assistant'; content: Block[] }[] = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    const encoded = encodeMessage(message);
    if (encoded.content.length === 0) continue;
    const last = merged.at(-1);
    if (last !== undefined && last.role === encoded.role) last.content.push(...encoded.content);
    else merged.push(encoded);
  }
  return { system, messages: merged };
}

function encodeToolChoice(choice: ChatToolChoice | undefined, parallel: boolean | undefined): Record<string, unknown> | undefined {
  const single = parallel === false ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined) return parallel === false ? { type: 'auto', ...single } : undefined;
  if (choice === 'auto') return { type: 'auto', ...single };
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'any', ...single };
  return { type: 'tool', name: choice.name, ...single };
}

/** Claude models with extended thinking, for when the model metadata does not say. */
const THINKING_MODEL = /claude-(3-7|(opus|sonnet|haiku)-4|4)/;
/** The smallest thinking budget Anthropic accepts. */
const MIN_THINKING_BUDGET = 1024;

/**
 * `thinking` for the request: only for a model that thinks, never with a forced tool choice (Anthropic refuses
 * both together), and with a budget of at least 1024 tokens below `max_tokens` (else left out).
 */
function encodeThinking(request: ChatRequest, maxTokens: number): Record<string, unknown> | undefined {
  const reasoning = request.reasoning;
  if (reasoning === undefined || !reasons(request, THINKING_MODEL)) return undefined;
  if (request.toolChoice === 'required' || typeof request.toolChoice === 'object') return undefined;
  const wanted = thinkingBudget(reasoning);
  if (wanted === undefined) return undefined;
  const budget = Math.min(Math.max(MIN_THINKING_BUDGET, wanted), maxTokens - 1);
  return budget < MIN_THINKING_BUDGET ? undefined : { type: 'enabled', budget_tokens: budget };
}

function inputTokensOf(usage: Record<string, unknown>): number {
  return (
    asCount(usage['input_tokens']) + asCount(usage['cache_creation_input_tokens']) + asCount(usage['cache_read_input_tokens'])
  );
}

/** Usage with the cache and thinking figures when the provider gives them. */
function anthropicUsage(usage: Record<string, unknown>, inputTokens: number, outputTokens: number): ChatUsage {
  const cached = asCount(usage['cache_read_input_tokens']);
  const written = asCount(usage['cache_creation_input_tokens']);
  const thinking = asCount(asRecord(usage['output_tokens_details'])?.['thinking_tokens']);
  return {
    ...usageOf(inputTokens, outputTokens),
    ...(cached > 0 ? { cachedInputTokens: cached } : {}),
    ...(written > 0 ? { cacheWriteInputTokens: written } : {}),
    ...(thinking > 0 ? { reasoningTokens: thinking } : {}),
  };
}

/** Anthropic marks an error payload with `type: "error"` too, besides the `error` field. */
function anthropicError(record: Record<string, unknown>, raw: string): WireError | undefined {
  return errorPayload(record, raw, record['type'] === 'error');
}

type BlockState = { readonly kind: 'text' } | { readonly kind: 'tool'; readonly ordinal: number } | { readonly kind: 'other' };

class AnthropicStreamDecoder implements StreamDecoder {
  model: string | undefined;
  done = false;
  finished = false;
  readonly #blocks = new Map<number, BlockState>();
  #toolCount = 0;
  #inputTokens = 0;
  #outputTokens = 0;
  /** The usage record of `message_start` (cache figures), merged under later ones. */
  #usage: Record<string, unknown> | undefined;

  /** `message_delta` (stop reason and usage) came; `message_stop` is still owed. */
  get tailPending(): boolean {
    return this.finished && !this.done;
  }

  push(event: SseEvent): readonly ChatStreamDelta[] {
    if (event.event === 'ping') return [];
    if (event.event === 'error') throw new WireError('provider_error', 'the stream sent an error event', { raw: event.data });
    const chunk = asRecord(parseJson(event.data, 'stream event'));
    if (chunk === undefined) throw new WireError('malformed', 'malformed stream event: not a JSON object', { raw: event.data });
    const type = asString(chunk['type']) ?? event.event;
    if (type === 'error') throw new WireError('provider_error', 'the stream sent an error event', { raw: event.data });
    switch (type) {
      case 'message_start': {
        const message = asRecord(chunk['message']) ?? {};
        this.model = asString(message['model']) || this.model;
        const usage = asRecord(message['usage']);
        if (usage !== undefined) {
          this.#inputTokens = inputTokensOf(usage);
          this.#outputTokens = asCount(usage['output_tokens']);
          this.#usage = usage;
        }
        return [];
      }
      case 'content_block_start':
        return this.#blockStart(chunk, event.data);
      case 'content_block_delta':
        return this.#blockDelta(chunk, event.data);
      case 'message_delta': {
        const deltas: ChatStreamDelta[] = [];
        const delta = asRecord(chunk['delta']) ?? {};
        const stopReason = asString(delta['stop_reason']);
        if (stopReason !== undefined && !this.finished) {
          this.finished = true;
          const stopSequence = asString(delta['stop_sequence']);
          deltas.push({
            kind: 'finish',
            finishReason: anthropicFinishReason(stopReason),
            rawFinishReason: stopReason,
            ...(stopSequence === undefined ? {} : { stopSequence }),
          });
        }
        const usage = asRecord(chunk['usage']);
        if (usage !== undefined) {
          if (usage['input_tokens'] !== undefined) this.#inputTokens = inputTokensOf(usage);
          this.#outputTokens = asCount(usage['output_tokens']);
          const merged = { ...this.#usage, ...usage };
          deltas.push({ kind: 'usage', usage: anthropicUsage(merged, this.#inputTokens, this.#outputTokens) });
        }
        return deltas;
      }
      case 'message_stop':
        this.done = true;
        return [];
      default:
        // content_block_stop, ping, and event types added later by the provider carry nothing for us.
        return [];
    }
  }

  #blockStart(chunk: Record<string, unknown>, raw: string): readonly ChatStreamDelta[] {
    const index = chunk['index'];
    const block = asRecord(chunk['content_block']);
    if (typeof index !== 'number' || block === undefined) {
      throw new WireError('malformed', 'malformed content_block_start event', { raw });
    }
    const blockType = asString(block['type']);
    if (blockType === 'text') {
      this.#blocks.set(index, { kind: 'text' });
      const text = asString(block['text']) ?? '';
      return text === '' ? [] : [{ kind: 'text', text }];
    }
    if (blockType === 'tool_use') {
      const ordinal = this.#toolCount;
      this.#toolCount += 1;
      this.#blocks.set(index, { kind: 'tool', ordinal });
      return [
        {
          kind: 'tool_call',
          index: ordinal,
          id: fromAnthropicToolId(asString(block['id']) ?? ''),
          name: asString(block['name']) ?? '',
          argumentsDelta: '',
        },
      ];
    }
    this.#blocks.set(index, { kind: 'other' });
    return [];
  }

  #blockDelta(chunk: Record<string, unknown>, raw: string): readonly ChatStreamDelta[] {
    const index = chunk['index'];
    const delta = asRecord(chunk['delta']);
    if (typeof index !== 'number' || delta === undefined) throw new WireError('malformed', 'malformed content_block_delta event', { raw });
    const state = this.#blocks.get(index);
    switch (delta['type']) {
      case 'text_delta': {
        const text = asString(delta['text']) ?? '';
        return text === '' ? [] : [{ kind: 'text', text }];
      }
      case 'input_json_delta': {
        if (state?.kind !== 'tool') throw new WireError('malformed', 'input_json_delta for a block that is not a tool call', { raw });
        return [{ kind: 'tool_call', index: state.ordinal, argumentsDelta: asString(delta['partial_json']) ?? '' }];
      }
      default:
        // thinking_delta, signature_delta, citations_delta: not part of the answer text.
        return [];
    }
  }
}

/** The `anthropic-messages` wire format. */
export const anthropicMessages: WireFormat = {
  api: 'anthropic-messages',
  staticHeaders: { 'anthropic-version': ANTHROPIC_VERSION },

  endpoint(baseUrl) {
    const base = trimSlashes(baseUrl);
    return base.endsWith('/v1') ? `${base}/messages` : `${base}/v1/messages`;
  },

  encodeRequest(request: ChatRequest, stream: boolean, options: EncodeOptions) {
    const { system, messages } = encodeMessages(request.messages);
    const tools = request.tools ?? [];
    const maxTokens = request.maxTokens ?? options.defaultMaxTokens;
    const thinking = encodeThinking(request, maxTokens);
    const format = request.responseFormat;
    // Anthropic has no JSON mode: JSON without a schema is asked for in the system prompt.
    const systemText = format?.kind === 'json_object' ? [system, JSON_ONLY_INSTRUCTION].filter((text) => text !== '').join('\n\n') : system;
    // With thinking on, Anthropic takes no temperature or top_k and only a top_p of at least 0.95; some models
    // refuse temperature and top_p together, so top_p goes when a temperature is set.
    const temperature = thinking === undefined ? clampTemperature(request, 1) : undefined;
    const topP =
      thinking === undefined ? (temperature === undefined ? request.topP : undefined) : request.topP !== undefined && request.topP >= 0.95 ? request.topP : undefined;
    const toolChoice = tools.length === 0 ? undefined : encodeToolChoice(request.toolChoice, request.parallelToolCalls);
    return {
      model: request.model,
      max_tokens: maxTokens,
      ...(systemText === '' ? {} : { system: systemText }),
      messages,
      ...(tools.length === 0
        ? {}
        : {
            tools: tools.map((tool) => ({
              name: tool.name,
              ...(tool.description === undefined ? {} : { description: tool.description }),
              input_schema: tool.parameters,
              ...(tool.strict === true ? { strict: true } : {}),
            })),
          }),
      ...(toolChoice === undefined ? {} : { tool_choice: toolChoice }),
      ...(temperature === undefined ? {} : { temperature }),
      ...(topP === undefined ? {} : { top_p: topP }),
      ...(thinking !== undefined || request.topK === undefined ? {} : { top_k: request.topK }),
      ...(request.stop === undefined || request.stop.length === 0 ? {} : { stop_sequences: request.stop }),
      ...(thinking === undefined ? {} : { thinking }),
      ...(request.user === undefined ? {} : { metadata: { user_id: request.user } }),
      ...(format?.kind === 'json_schema' ? { output_config: { format: { type: 'json_schema', schema: closedObjectSchema(format.schema) } } } : {}),
      ...(stream ? { stream: true } : {}),
    };
  },

  nativeBody(body, model, stream) {
    return nativeBodyWithModel(body, model, stream);
  },

  decodeResponse(json, requestedModel) {
    const body = answerObject(json, json, anthropicError);
    const content = body['content'];
    if (!Array.isArray(content)) throw new WireError('malformed', 'malformed response: no content list');
    const texts: string[] = [];
    const toolCalls: ChatToolCall[] = [];
    for (const item of content) {
      const block = asRecord(item);
      if (block?.['type'] === 'text') texts.push(asString(block['text']) ?? '');
      if (block?.['type'] === 'tool_use') {
        toolCalls.push({
          id: fromAnthropicToolId(asString(block['id']) ?? ''),
          name: asString(block['name']) ?? '',
          arguments: JSON.stringify(block['input'] ?? {}),
        });
      }
    }
    const rawFinish = asString(body['stop_reason']);
    const usageRecord = asRecord(body['usage']);
    const usage: ChatUsage | undefined =
      usageRecord === undefined ? undefined : anthropicUsage(usageRecord, inputTokensOf(usageRecord), asCount(usageRecord['output_tokens']));
    const stopSequence = asString(body['stop_sequence']);
    return {
      ...(asString(body['id']) === undefined ? {} : { id: asString(body['id']) }),
      model: asString(body['model']) || requestedModel,
      text: texts.join(''),
      toolCalls,
      finishReason: rawFinish === undefined ? 'stop' : anthropicFinishReason(rawFinish),
      ...(rawFinish === undefined ? {} : { rawFinishReason: rawFinish }),
      ...(usage === undefined ? {} : { usage }),
      ...(stopSequence === undefined ? {} : { stopSequence }),
    };
  },

  createStreamDecoder: () => new AnthropicStreamDecoder(),
};
