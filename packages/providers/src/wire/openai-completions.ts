/**
 * `openai-completions`: OpenAI Chat Completions and the servers that copy it (OpenRouter, Groq, Together,
 * DeepSeek, Mistral, xAI, Ollama `/v1`, vLLM). Endpoint `<baseUrl>/chat/completions`; streaming is SSE with
 * `data: {chunk}` lines and a final `data: [DONE]`.
 */
import type {
  ChatContent,
  ChatMessage,
  ChatRequest,
  ChatStreamDelta,
  ChatToolCall,
  ChatToolChoice,
  FinishReason,
} from '../chat-types.js';
import { asCount, asRecord, asString, contentText, parseJson, trimSlashes, usageOf } from './content.js';
import type { ChatUsage } from '../chat-types.js';
import type { EncodeOptions, SseEvent, StreamDecoder, StreamDecoderOptions, WireFormat } from './wire-format.js';
import { WireError } from './wire-format.js';

const FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  content_filter: 'content_filter',
  error: 'error',
};

/** OpenAI's `finish_reason` normalised. */
export function openAiFinishReason(raw: string): FinishReason {
  return FINISH_REASONS[raw] ?? 'other';
}

function encodeContent(content: ChatContent): string | unknown[] {
  if (typeof content === 'string') return content;
  if (content.every((part) => part.kind === 'text')) return contentText(content);
  return content.map((part) =>
    part.kind === 'text'
      ? { type: 'text', text: part.text }
      : {
          type: 'image_url',
          image_url: {
            url: part.source.kind === 'url' ? part.source.url : `data:${part.source.mediaType};base64,${part.source.data}`,
          },
        },
  );
}

function encodeMessage(message: ChatMessage): Record<string, unknown> {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: contentText(message.content) };
    case 'user':
      return { role: 'user', content: encodeContent(message.content) };
    case 'assistant': {
      const text = contentText(message.content);
      const toolCalls = message.toolCalls ?? [];
      return {
        role: 'assistant',
        content: text === '' && toolCalls.length > 0 ? null : text,
        ...(toolCalls.length === 0
          ? {}
          : {
              tool_calls: toolCalls.map((call) => ({
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: call.arguments },
              })),
            }),
      };
    }
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: `${message.isError === true ? 'Error: ' : ''}${contentText(message.content)}` };
  }
}

function encodeToolChoice(choice: ChatToolChoice): unknown {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

function decodeUsage(value: unknown): ChatUsage | undefined {
  const usage = asRecord(value);
  if (usage === undefined) return undefined;
  return usageOf(asCount(usage['prompt_tokens']), asCount(usage['completion_tokens']), asCount(usage['total_tokens']));
}

function errorPayload(record: Record<string, unknown>, raw: string): WireError | undefined {
  if (record['error'] === undefined || record['error'] === null) return undefined;
  return new WireError('provider_error', 'the provider answered with an error payload', { raw });
}

class OpenAiStreamDecoder implements StreamDecoder {
  model: string | undefined;
  done = false;
  finished = false;
  readonly #usageRequested: boolean;
  /** Usage came in the finish chunk or after it (an earlier one may not be the final figure). */
  #usageAfterFinish = false;

  constructor(options: StreamDecoderOptions) {
    this.#usageRequested = options.includeStreamUsage === true;
  }

  get tailPending(): boolean {
    return this.finished && !this.done && this.#usageRequested && !this.#usageAfterFinish;
  }

  push(event: SseEvent): readonly ChatStreamDelta[] {
    if (event.event === 'error') throw new WireError('provider_error', 'the stream sent an error event', { raw: event.data });
    const data = event.data.trim();
    if (data === '[DONE]') {
      this.done = true;
      return [];
    }
    const chunk = asRecord(parseJson(data, 'stream chunk'));
    if (chunk === undefined) throw new WireError('malformed', 'malformed stream chunk: not a JSON object', { raw: data });
    const error = errorPayload(chunk, data);
    if (error !== undefined) throw error;
    this.model = asString(chunk['model']) || this.model;
    const deltas: ChatStreamDelta[] = [];
    const choices = chunk['choices'];
    if (choices !== undefined && choices !== null && !Array.isArray(choices)) {
      throw new WireError('malformed', 'malformed stream chunk: choices is not a list', { raw: data });
    }
    const choice = asRecord(Array.isArray(choices) ? choices[0] : undefined);
    if (choice !== undefined) {
      const delta = asRecord(choice['delta']) ?? {};
      const text = asString(delta['content']) ?? asString(delta['refusal']);
      if (text !== undefined && text !== '') deltas.push({ kind: 'text', text });
      const toolCalls = delta['tool_calls'];
      if (Array.isArray(toolCalls)) {
        toolCalls.forEach((item: unknown, position) => {
          const call = asRecord(item);
          if (call === undefined) return;
          const fn = asRecord(call['function']) ?? {};
          const index = typeof call['index'] === 'number' ? call['index'] : position;
          const id = asString(call['id']);
          const name = asString(fn['name']);
          const argumentsDelta = asString(fn['arguments']) ?? '';
          if (id === undefined && name === undefined && argumentsDelta === '') return;
          deltas.push({
            kind: 'tool_call',
            index,
            ...(id === undefined ? {} : { id }),
            ...(name === undefined ? {} : { name }),
            argumentsDelta,
          });
        });
      }
      const finish = asString(choice['finish_reason']);
      if (finish !== undefined && finish !== '' && !this.finished) {
        this.finished = true;
        deltas.push({ kind: 'finish', finishReason: openAiFinishReason(finish), rawFinishReason: finish });
      }
    }
    const usage = decodeUsage(chunk['usage']);
    if (usage !== undefined) {
      deltas.push({ kind: 'usage', usage });
      if (this.finished) this.#usageAfterFinish = true;
    }
    return deltas;
  }
}

/** The `openai-completions` wire format. */
export const openAiCompletions: WireFormat = {
  api: 'openai-completions',
  staticHeaders: {},

  endpoint(baseUrl) {
    const base = trimSlashes(baseUrl);
    const hasPath = new URL(base).pathname.replace(/\/+$/, '') !== '';
    return `${base}${hasPath ? '' : '/v1'}/chat/completions`;
  },

  encodeRequest(request: ChatRequest, stream: boolean, options: EncodeOptions) {
    return {
      model: request.model,
      messages: request.messages.map(encodeMessage),
      ...(request.tools === undefined || request.tools.length === 0
        ? {}
        : {
            tools: request.tools.map((tool) => ({
              type: 'function',
              function: {
                name: tool.name,
                ...(tool.description === undefined ? {} : { description: tool.description }),
                parameters: tool.parameters,
              },
            })),
          }),
      ...(request.toolChoice === undefined ? {} : { tool_choice: encodeToolChoice(request.toolChoice) }),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.topP === undefined ? {} : { top_p: request.topP }),
      ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
      ...(request.stop === undefined || request.stop.length === 0 ? {} : { stop: request.stop }),
      ...(stream ? { stream: true, ...(options.includeStreamUsage ? { stream_options: { include_usage: true } } : {}) } : {}),
    };
  },

  nativeBody(body, model, stream, options) {
    const out: Record<string, unknown> = { ...body, model };
    delete out['understudy'];
    if (stream) {
      out['stream'] = true;
      if (options.includeStreamUsage) out['stream_options'] = { ...asRecord(body['stream_options']), include_usage: true };
    } else {
      delete out['stream'];
      delete out['stream_options'];
    }
    return out;
  },

  decodeResponse(json, requestedModel) {
    const body = asRecord(json);
    if (body === undefined) throw new WireError('malformed', 'malformed response: not a JSON object');
    const error = errorPayload(body, JSON.stringify(json));
    if (error !== undefined) throw error;
    const choices = body['choices'];
    if (!Array.isArray(choices)) throw new WireError('malformed', 'malformed response: no choices list');
    const choice = asRecord(choices[0]);
    if (choice === undefined) throw new WireError('empty', 'the response has no choices');
    const message = asRecord(choice['message']) ?? {};
    const content = message['content'];
    const text = typeof content === 'string' ? content : Array.isArray(content) ? contentText(decodeParts(content)) : '';
    const refusal = asString(message['refusal']);
    const toolCalls: ChatToolCall[] = [];
    const rawCalls = message['tool_calls'];
    if (Array.isArray(rawCalls)) {
      for (const item of rawCalls) {
        const call = asRecord(item);
        const fn = asRecord(call?.['function']);
        if (call === undefined || fn === undefined) continue;
        toolCalls.push({
          id: asString(call['id']) ?? '',
          name: asString(fn['name']) ?? '',
          arguments: asString(fn['arguments']) ?? '',
        });
      }
    }
    const rawFinish = asString(choice['finish_reason']);
    let finishReason: FinishReason = rawFinish === undefined ? (toolCalls.length > 0 ? 'tool_calls' : 'stop') : openAiFinishReason(rawFinish);
    if (refusal !== undefined && text === '') finishReason = 'content_filter';
    const usage = decodeUsage(body['usage']);
    return {
      ...(asString(body['id']) === undefined ? {} : { id: asString(body['id']) }),
      model: asString(body['model']) || requestedModel,
      text: text === '' && refusal !== undefined ? refusal : text,
      toolCalls,
      finishReason,
      ...(rawFinish === undefined ? {} : { rawFinishReason: rawFinish }),
      ...(usage === undefined ? {} : { usage }),
    };
  },

  createStreamDecoder: (options = {}) => new OpenAiStreamDecoder(options),
};

function decodeParts(parts: readonly unknown[]): ChatContent {
  return parts.flatMap((item) => {
    const part = asRecord(item);
    const text = asString(part?.['text']);
    return text === undefined ? [] : [{ kind: 'text' as const, text }];
  });
}
