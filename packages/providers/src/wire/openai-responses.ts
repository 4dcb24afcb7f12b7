/**
 * `openai-responses`: the OpenAI Responses API (`<baseUrl>/responses`, docs/wire-mapping.md#responses). Requests
 * are sent with `store: false` (understudy keeps the conversation, the provider keeps nothing); streaming is SSE
 * with typed events (`response.output_text.delta`, `response.output_item.added`,
 * `response.function_call_arguments.delta`, `response.completed` …).
 */
import type { ChatContent, ChatContentPart, ChatMessage, ChatRequest, ChatStreamDelta, ChatToolCall, ChatUsage, FinishReason } from '../chat-types.js';
import { answerObject, asRecord, asString, contentParts, contentText, nativeBodyWithModel, openAIUsage, parseJson, trimSlashes } from './content.js';
import { clampTemperature, reasoningEffort, reasons } from './shaping.js';
import type { SseEvent, StreamDecoder, WireFormat } from './wire-format.js';
import { WireError } from './wire-format.js';

/** OpenAI reasoning models, for when the model metadata does not say. */
const REASONING_MODEL = /^(o\d|gpt-5)/;

function inputParts(content: ChatContent): Record<string, unknown>[] {
  return contentParts(content).map((part: ChatContentPart) =>
    part.kind === 'text'
      ? { type: 'input_text', text: part.text }
      : {
          type: 'input_image',
          image_url: part.source.kind === 'url' ? part.source.url : `data:${part.source.mediaType};base64,${part.source.data}`,
          detail: part.detail ?? 'auto',
        },
  );
}

/** The conversation as Responses input items (tool-result images follow as one user message). */
function inputItems(messages: readonly ChatMessage[]): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        continue;
      case 'user':
        items.push({ role: 'user', content: inputParts(message.content) });
        break;
      case 'assistant': {
        const text = contentText(message.content);
        if (text !== '') items.push({ role: 'assistant', content: text });
        for (const call of message.toolCalls ?? []) items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments });
        break;
      }
      case 'tool': {
        items.push({ type: 'function_call_output', call_id: message.toolCallId, output: `${message.isError === true ? 'Error: ' : ''}${contentText(message.content)}` });
        const images = typeof message.content === 'string' ? [] : message.content.filter((part) => part.kind === 'image');
        if (images.length > 0) items.push({ role: 'user', content: inputParts(images) });
        break;
      }
    }
  }
  return items;
}

const INCOMPLETE_REASONS: Readonly<Record<string, FinishReason>> = { max_output_tokens: 'length', content_filter: 'content_filter' };

function finishOf(response: Record<string, unknown>, toolCalls: number): { reason: FinishReason; raw: string } {
  const status = asString(response['status']) ?? 'completed';
  if (status === 'incomplete') {
    const raw = asString(asRecord(response['incomplete_details'])?.['reason']) ?? 'incomplete';
    return { reason: INCOMPLETE_REASONS[raw] ?? 'other', raw };
  }
  if (status === 'failed') return { reason: 'error', raw: 'failed' };
  return { reason: toolCalls > 0 ? 'tool_calls' : 'stop', raw: status };
}

function decodeUsage(value: unknown): ChatUsage | undefined {
  return openAIUsage(value, { input: 'input', output: 'output' });
}

class ResponsesStreamDecoder implements StreamDecoder {
  model: string | undefined;
  done = false;
  finished = false;
  readonly tailPending = false;
  /** Output item id → tool-call ordinal. */
  readonly #tools = new Map<string, number>();

  push(event: SseEvent): readonly ChatStreamDelta[] {
    const chunk = asRecord(parseJson(event.data, 'stream event'));
    if (chunk === undefined) throw new WireError('malformed', 'malformed stream event: not a JSON object', { raw: event.data });
    const type = asString(chunk['type']) ?? event.event;
    switch (type) {
      case 'error':
      case 'response.failed':
        throw new WireError('provider_error', 'the stream sent an error event', { raw: event.data });
      case 'response.created':
      case 'response.in_progress':
        this.model = asString(asRecord(chunk['response'])?.['model']) || this.model;
        return [];
      case 'response.output_text.delta':
      case 'response.refusal.delta': {
        const text = asString(chunk['delta']) ?? '';
        return text === '' ? [] : [{ kind: 'text', text }];
      }
      case 'response.output_item.added': {
        const item = asRecord(chunk['item']);
        if (item?.['type'] !== 'function_call') return [];
        const ordinal = this.#tools.size;
        this.#tools.set(asString(item['id']) ?? String(ordinal), ordinal);
        return [{ kind: 'tool_call', index: ordinal, id: asString(item['call_id']) ?? '', name: asString(item['name']) ?? '', argumentsDelta: asString(item['arguments']) ?? '' }];
      }
      case 'response.function_call_arguments.delta': {
        const ordinal = this.#tools.get(asString(chunk['item_id']) ?? '');
        if (ordinal === undefined) throw new WireError('malformed', 'function_call_arguments.delta for an unknown item', { raw: event.data });
        return [{ kind: 'tool_call', index: ordinal, argumentsDelta: asString(chunk['delta']) ?? '' }];
      }
      case 'response.completed':
      case 'response.incomplete': {
        const response = asRecord(chunk['response']) ?? {};
        this.model = asString(response['model']) || this.model;
        this.done = true;
        this.finished = true;
        const finish = finishOf(response, this.#tools.size);
        const usage = decodeUsage(response['usage']);
        return [{ kind: 'finish', finishReason: finish.reason, rawFinishReason: finish.raw }, ...(usage === undefined ? [] : [{ kind: 'usage' as const, usage }])];
      }
      default:
        return [];
    }
  }
}

/** The `openai-responses` wire format. */
export const openAiResponses: WireFormat = {
  api: 'openai-responses',
  staticHeaders: {},

  endpoint(baseUrl) {
    const base = trimSlashes(baseUrl);
    const hasPath = new URL(base).pathname.replace(/\/+$/, '') !== '';
    return `${base}${hasPath ? '' : '/v1'}/responses`;
  },

  encodeRequest(request: ChatRequest, stream: boolean) {
    const instructions = request.messages
      .filter((message) => message.role === 'system')
      .map((message) => contentText(message.content))
      .filter((text) => text !== '')
      .join('\n\n');
    const tools = request.tools ?? [];
    const reasoning = reasons(request, REASONING_MODEL);
    const effort = reasoning && request.reasoning !== undefined ? reasoningEffort(request.reasoning) : undefined;
    const temperature = reasoning ? undefined : clampTemperature(request, 2);
    const format = request.responseFormat;
    const choice = request.toolChoice;
    return {
      model: request.model,
      input: inputItems(request.messages),
      ...(instructions === '' ? {} : { instructions }),
      ...(tools.length === 0
        ? {}
        : {
            tools: tools.map((tool) => ({
              type: 'function',
              name: tool.name,
              ...(tool.description === undefined ? {} : { description: tool.description }),
              parameters: tool.parameters,
              strict: tool.strict ?? false,
            })),
          }),
      ...(choice === undefined || tools.length === 0 ? {} : { tool_choice: typeof choice === 'string' ? choice : { type: 'function', name: choice.name } }),
      ...(tools.length === 0 || request.parallelToolCalls === undefined ? {} : { parallel_tool_calls: request.parallelToolCalls }),
      ...(temperature === undefined ? {} : { temperature }),
      ...(reasoning || request.topP === undefined ? {} : { top_p: request.topP }),
      ...(request.maxTokens === undefined ? {} : { max_output_tokens: request.maxTokens }),
      ...(format === undefined
        ? {}
        : {
            text: {
              format:
                format.kind === 'json_object'
                  ? { type: 'json_object' }
                  : { type: 'json_schema', name: format.name, schema: format.schema, ...(format.strict === undefined ? {} : { strict: format.strict }) },
            },
          }),
      ...(effort === undefined ? {} : { reasoning: { effort } }),
      ...(request.user === undefined ? {} : { user: request.user }),
      store: false,
      ...(stream ? { stream: true } : {}),
    };
  },

  nativeBody(body, model, stream) {
    return nativeBodyWithModel(body, model, stream);
  },

  decodeResponse(json, requestedModel) {
    const body = answerObject(json);
    const output = body['output'];
    if (!Array.isArray(output)) throw new WireError('malformed', 'malformed response: no output list');
    let text = '';
    const toolCalls: ChatToolCall[] = [];
    for (const entry of output) {
      const item = asRecord(entry);
      if (item?.['type'] === 'message' && Array.isArray(item['content'])) {
        for (const part of item['content']) {
          const record = asRecord(part);
          text += asString(record?.['text']) ?? asString(record?.['refusal']) ?? '';
        }
      }
      if (item?.['type'] === 'function_call') {
        toolCalls.push({ id: asString(item['call_id']) ?? '', name: asString(item['name']) ?? '', arguments: asString(item['arguments']) ?? '' });
      }
    }
    const finish = finishOf(body, toolCalls.length);
    const usage = decodeUsage(body['usage']);
    return {
      ...(asString(body['id']) === undefined ? {} : { id: asString(body['id']) }),
      model: asString(body['model']) || requestedModel,
      text,
      toolCalls,
      finishReason: finish.reason,
      rawFinishReason: finish.raw,
      ...(usage === undefined ? {} : { usage }),
    };
  },

  createStreamDecoder: () => new ResponsesStreamDecoder(),
};
