/**
 * `openai-completions`: OpenAI Chat Completions and the servers that copy it (OpenRouter, Groq, Together,
 * DeepSeek, Mistral, xAI, Ollama `/v1`, vLLM). Endpoint `<baseUrl>/chat/completions`; streaming is SSE with
 * `data: {chunk}` lines and a final `data: [DONE]`.
 */
import type { ChatContent, ChatContentPart, ChatMessage, ChatResponseFormat, ChatRequest, ChatStreamDelta, ChatToolCall, ChatToolChoice, FinishReason } from '../chat-types.js';
import { answerObject, asRecord, asString, contentText, errorPayload, openAIUsage, parseJson, trimSlashes } from './content.js';
import type { ChatUsage } from '../chat-types.js';
import { clampTemperature, reasoningEffort, reasons, toOpenAiToolId } from './shaping.js';
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
            ...(part.detail === undefined ? {} : { detail: part.detail }),
          },
        },
  );
}

/**
 * Messages in OpenAI's shape. A tool result can hold only text here: its images follow the run of tool
 * messages as one user message (a user message between tool messages would break the tool-call sequence).
 */
function encodeMessages(messages: readonly ChatMessage[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let toolImages: ChatContentPart[] = [];
  const flush = (): void => {
    if (toolImages.length === 0) return;
    out.push({ role: 'user', content: encodeContent([{ kind: 'text', text: 'Images returned by the tool calls above:' }, ...toolImages]) });
    toolImages = [];
  };
  for (const message of messages) {
    if (message.role !== 'tool') flush();
    else if (typeof message.content !== 'string') toolImages.push(...message.content.filter((part) => part.kind === 'image'));
    out.push(encodeMessage(message));
  }
  flush();
  return out;
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
                id: toOpenAiToolId(call.id),
                type: 'function',
                function: { name: call.name, arguments: call.arguments },
              })),
            }),
      };
    }
    case 'tool':
      return { role: 'tool', tool_call_id: toOpenAiToolId(message.toolCallId), content: `${message.isError === true ? 'Error: ' : ''}${contentText(message.content)}` };
  }
}

/** OpenAI reasoning models, for when the model metadata does not say (o1, o3, o4-mini, gpt-5…). */
const REASONING_MODEL = /^(o\d|gpt-5)/;
const MAX_STOP_SEQUENCES = 4;

function encodeResponseFormat(format: ChatResponseFormat): Record<string, unknown> {
  if (format.kind === 'json_object') return { type: 'json_object' };
  return {
    type: 'json_schema',
    json_schema: {
      name: format.name,
      schema: format.schema,
      ...(format.description === undefined ? {} : { description: format.description }),
      ...(format.strict === undefined ? {} : { strict: format.strict }),
    },
  };
}

function encodeToolChoice(choice: ChatToolChoice): unknown {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

function decodeUsage(value: unknown): ChatUsage | undefined {
  return openAIUsage(value, { input: 'prompt', output: 'completion' });
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
    const tools = request.tools ?? [];
    // Reasoning models refuse max_tokens and the sampling options (temperature, top_p, penalties, logprobs).
    const reasoning = reasons(request, REASONING_MODEL);
    const sampling = !reasoning;
    const limitField = reasoning || request.maxTokensField === 'max_completion_tokens' ? 'max_completion_tokens' : 'max_tokens';
    const effort = reasoning && request.reasoning !== undefined ? reasoningEffort(request.reasoning) : undefined;
    const temperature = sampling ? clampTemperature(request, 2) : undefined;
    return {
      model: request.model,
      messages: encodeMessages(request.messages),
      ...(tools.length === 0
        ? {}
        : {
            tools: tools.map((tool) => ({
              type: 'function',
              function: {
                name: tool.name,
                ...(tool.description === undefined ? {} : { description: tool.description }),
                parameters: tool.parameters,
                ...(tool.strict === undefined ? {} : { strict: tool.strict }),
              },
            })),
          }),
      ...(request.toolChoice === undefined ? {} : { tool_choice: encodeToolChoice(request.toolChoice) }),
      // OpenAI refuses parallel_tool_calls without tools.
      ...(tools.length === 0 || request.parallelToolCalls === undefined ? {} : { parallel_tool_calls: request.parallelToolCalls }),
      ...(temperature === undefined ? {} : { temperature }),
      ...(!sampling || request.topP === undefined ? {} : { top_p: request.topP }),
      ...(!sampling || request.frequencyPenalty === undefined ? {} : { frequency_penalty: request.frequencyPenalty }),
      ...(!sampling || request.presencePenalty === undefined ? {} : { presence_penalty: request.presencePenalty }),
      ...(!sampling || request.logprobs === undefined ? {} : { logprobs: request.logprobs }),
      ...(!sampling || request.topLogprobs === undefined || request.logprobs !== true ? {} : { top_logprobs: request.topLogprobs }),
      ...(request.maxTokens === undefined ? {} : { [limitField]: request.maxTokens }),
      // OpenAI takes at most 4 stop sequences.
      ...(request.stop === undefined || request.stop.length === 0 ? {} : { stop: request.stop.slice(0, MAX_STOP_SEQUENCES) }),
      ...(request.seed === undefined ? {} : { seed: request.seed }),
      ...(request.user === undefined ? {} : { user: request.user }),
      ...(request.responseFormat === undefined ? {} : { response_format: encodeResponseFormat(request.responseFormat) }),
      ...(effort === undefined ? {} : { reasoning_effort: effort }),
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
    const body = answerObject(json);
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
