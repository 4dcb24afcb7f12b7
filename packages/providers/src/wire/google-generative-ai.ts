/**
 * `google-generative-ai`: Gemini `generateContent`, and `streamGenerateContent?alt=sse` for streams (each SSE
 * event is a whole `GenerateContentResponse`; there is no end marker, the last chunk carries `finishReason`).
 * Endpoint `<baseUrl>/models/<model>:generateContent` with `baseUrl` ending in `/v1beta` (added when absent).
 */
import { randomUUID } from 'node:crypto';
import type { ChatContent, ChatMessage, ChatRequest, ChatStreamDelta, ChatToolCall, ChatToolChoice, FinishReason } from '../chat-types.js';
import type { ChatUsage } from '../chat-types.js';
import { answerObject, asCount, asRecord, asString, contentParts, contentText, errorPayload, parseDataUrl, parseJson, parseToolArguments, trimSlashes, usageOf } from './content.js';
import { clamp, clampTemperature, reasons, thinkingBudget } from './shaping.js';
import type { SseEvent, StreamDecoder, WireFormat } from './wire-format.js';
import { WireError } from './wire-format.js';

const FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  STOP: 'stop',
  MAX_TOKENS: 'length',
  SAFETY: 'content_filter',
  RECITATION: 'content_filter',
  BLOCKLIST: 'content_filter',
  PROHIBITED_CONTENT: 'content_filter',
  SPII: 'content_filter',
  IMAGE_SAFETY: 'content_filter',
  MALFORMED_FUNCTION_CALL: 'error',
};

/** Gemini's `finishReason` normalised. */
export function geminiFinishReason(raw: string): FinishReason {
  return FINISH_REASONS[raw] ?? 'other';
}

const EXTENSION_MEDIA_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  heic: 'image/heic',
};

type Part = Record<string, unknown>;

function encodeParts(content: ChatContent): Part[] {
  return contentParts(content).map((part): Part => {
    if (part.kind === 'text') return { text: part.text };
    const source = part.source;
    if (source.kind === 'base64') return { inlineData: { mimeType: source.mediaType, data: source.data } };
    const inline = parseDataUrl(source.url);
    if (inline !== undefined) return { inlineData: { mimeType: inline.mediaType, data: inline.data } };
    const extension = /\.([a-z0-9]+)(?:\?|#|$)/i.exec(source.url)?.[1]?.toLowerCase() ?? '';
    return { fileData: { mimeType: EXTENSION_MEDIA_TYPES[extension] ?? 'image/jpeg', fileUri: source.url } };
  });
}

/** Gemini wants the function response as an object: a JSON object result as-is, anything else wrapped. */
function functionResponseBody(content: ChatContent): Record<string, unknown> {
  const text = contentText(content);
  try {
    const parsed: unknown = JSON.parse(text);
    const record = asRecord(parsed);
    if (record !== undefined) return record;
    return { content: parsed };
  } catch {
    return { content: text };
  }
}

/** Gemini rejects some JSON Schema keywords in function parameters; drop them, recursively. */
function geminiSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(geminiSchema);
  const record = asRecord(schema);
  if (record === undefined) return schema;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === '$schema' || key === 'additionalProperties' || key === '$id') continue;
    result[key] = geminiSchema(value);
  }
  return result;
}

function encodeContents(messages: readonly ChatMessage[]): { role: string; parts: Part[] }[] {
  const toolNames = new Map<string, string>();
  const contents: { role: string; parts: Part[] }[] = [];
  for (const message of messages) {
    let role: string;
    let parts: Part[];
    switch (message.role) {
      case 'system':
        continue;
      case 'user':
        role = 'user';
        parts = encodeParts(message.content);
        break;
      case 'assistant':
        role = 'model';
        parts = [
          ...encodeParts(message.content ?? ''),
          ...(message.toolCalls ?? []).map((call) => {
            toolNames.set(call.id, call.name);
            return { functionCall: { name: call.name, args: parseToolArguments(call.arguments, call.name) } };
          }),
        ];
        break;
      case 'tool': {
        const name = message.name ?? toolNames.get(message.toolCallId);
        if (name === undefined) {
          throw new WireError('invalid_request', `tool result ${message.toolCallId}: no tool name and no earlier call with that id`);
        }
        role = 'user';
        parts = [
          {
            functionResponse: {
              name,
              response: message.isError === true ? { error: contentText(message.content) } : functionResponseBody(message.content),
            },
          },
          // Images a tool returned go beside its response, in the same turn.
          ...(typeof message.content === 'string' ? [] : encodeParts(message.content.filter((part) => part.kind === 'image'))),
        ];
        break;
      }
    }
    if (parts.length === 0) continue;
    const last = contents.at(-1);
    if (last !== undefined && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  }
  return contents;
}

/** Gemini models that think, for when the model metadata does not say. */
const THINKING_MODEL = /gemini-(2\.5|[3-9])/;

/** `thinkingBudget`: the request's budget or its effort's; 0 (thinking off) when the caller disabled reasoning. */
function geminiThinkingBudget(request: ChatRequest): number | undefined {
  const reasoning = request.reasoning;
  if (reasoning === undefined) return undefined;
  if (reasoning.disabled === true) return 0;
  return thinkingBudget(reasoning);
}

function encodeToolConfig(choice: ChatToolChoice): unknown {
  if (typeof choice !== 'string') return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
  return { functionCallingConfig: { mode: choice === 'required' ? 'ANY' : choice === 'none' ? 'NONE' : 'AUTO' } };
}

function decodeUsage(value: unknown): ChatUsage | undefined {
  const usage = asRecord(value);
  if (usage === undefined) return undefined;
  const cached = asCount(usage['cachedContentTokenCount']);
  const thoughts = asCount(usage['thoughtsTokenCount']);
  return {
    ...usageOf(asCount(usage['promptTokenCount']), asCount(usage['candidatesTokenCount']) + thoughts, asCount(usage['totalTokenCount'])),
    ...(cached > 0 ? { cachedInputTokens: cached } : {}),
    ...(thoughts > 0 ? { reasoningTokens: thoughts } : {}),
  };
}

function newToolCallId(): string {
  return `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
}

/** The answer parts of a response's first candidate. */
function candidateParts(body: Record<string, unknown>): { parts: Record<string, unknown>[]; finish: string | undefined } | undefined {
  const candidates = body['candidates'];
  if (!Array.isArray(candidates) || candidates.length === 0) return undefined;
  const candidate = asRecord(candidates[0]) ?? {};
  const content = asRecord(candidate['content']) ?? {};
  const rawParts: unknown = content['parts'];
  const parts = Array.isArray(rawParts)
    ? rawParts.flatMap((part: unknown): Record<string, unknown>[] => {
        const record = asRecord(part);
        return record === undefined ? [] : [record];
      })
    : [];
  return { parts, finish: asString(candidate['finishReason']) };
}

class GeminiStreamDecoder implements StreamDecoder {
  model: string | undefined;
  readonly done = false;
  finished = false;
  /** The chunk with the finish reason carries the usage too: nothing is owed after it. */
  readonly tailPending = false;
  #toolCount = 0;

  push(event: SseEvent): readonly ChatStreamDelta[] {
    if (event.event === 'error') throw new WireError('provider_error', 'the stream sent an error event', { raw: event.data });
    const parsed = parseJson(event.data, 'stream chunk');
    const chunk = asRecord(Array.isArray(parsed) ? parsed[0] : parsed);
    if (chunk === undefined) throw new WireError('malformed', 'malformed stream chunk: not a JSON object', { raw: event.data });
    const error = errorPayload(chunk, event.data);
    if (error !== undefined) throw error;
    this.model = asString(chunk['modelVersion']) || this.model;
    const deltas: ChatStreamDelta[] = [];
    const candidate = candidateParts(chunk);
    for (const part of candidate?.parts ?? []) {
      const text = asString(part['text']);
      if (text !== undefined && text !== '' && part['thought'] !== true) deltas.push({ kind: 'text', text });
      const call = asRecord(part['functionCall']);
      if (call !== undefined) {
        deltas.push({
          kind: 'tool_call',
          index: this.#toolCount,
          id: asString(call['id']) ?? newToolCallId(),
          name: asString(call['name']) ?? '',
          argumentsDelta: JSON.stringify(call['args'] ?? {}),
        });
        this.#toolCount += 1;
      }
    }
    if (candidate?.finish !== undefined && !this.finished) {
      this.finished = true;
      let finishReason = geminiFinishReason(candidate.finish);
      if (finishReason === 'stop' && this.#toolCount > 0) finishReason = 'tool_calls';
      deltas.push({ kind: 'finish', finishReason, rawFinishReason: candidate.finish });
      const usage = decodeUsage(chunk['usageMetadata']);
      if (usage !== undefined) deltas.push({ kind: 'usage', usage });
    }
    return deltas;
  }
}

/** The `google-generative-ai` wire format. */
export const googleGenerativeAi: WireFormat = {
  api: 'google-generative-ai',
  staticHeaders: {},

  endpoint(baseUrl, request, stream) {
    let base = trimSlashes(baseUrl);
    if (!/\/v1(beta|alpha)?\d*$/.test(base)) base = `${base}/v1beta`;
    const model = encodeURIComponent(request.model.replace(/^models\//, ''));
    return stream ? `${base}/models/${model}:streamGenerateContent?alt=sse` : `${base}/models/${model}:generateContent`;
  },

  encodeRequest(request: ChatRequest) {
    const system = request.messages
      .filter((message) => message.role === 'system')
      .map((message) => contentText(message.content))
      .filter((text) => text !== '')
      .join('\n\n');
    const tools = request.tools ?? [];
    const temperature = clampTemperature(request, 2);
    const format = request.responseFormat;
    const budget = request.reasoning !== undefined && reasons(request, THINKING_MODEL) ? geminiThinkingBudget(request) : undefined;
    const generationConfig = {
      ...(temperature === undefined ? {} : { temperature }),
      ...(request.topP === undefined ? {} : { topP: request.topP }),
      ...(request.topK === undefined ? {} : { topK: request.topK }),
      ...(request.maxTokens === undefined ? {} : { maxOutputTokens: request.maxTokens }),
      // Gemini takes at most 5 stop sequences.
      ...(request.stop === undefined || request.stop.length === 0 ? {} : { stopSequences: request.stop.slice(0, 5) }),
      ...(request.seed === undefined ? {} : { seed: request.seed }),
      ...(request.presencePenalty === undefined ? {} : { presencePenalty: clamp(request.presencePenalty, -2, 2) }),
      ...(request.frequencyPenalty === undefined ? {} : { frequencyPenalty: clamp(request.frequencyPenalty, -2, 2) }),
      ...(format === undefined ? {} : { responseMimeType: 'application/json' }),
      ...(format?.kind === 'json_schema' ? { responseSchema: geminiSchema(format.schema) } : {}),
      ...(budget === undefined ? {} : { thinkingConfig: { thinkingBudget: budget } }),
    };
    return {
      contents: encodeContents(request.messages),
      ...(system === '' ? {} : { systemInstruction: { parts: [{ text: system }] } }),
      ...(tools.length === 0
        ? {}
        : {
            tools: [
              {
                functionDeclarations: tools.map((tool) => ({
                  name: tool.name,
                  ...(tool.description === undefined ? {} : { description: tool.description }),
                  parameters: geminiSchema(tool.parameters),
                })),
              },
            ],
          }),
      ...(request.toolChoice === undefined || tools.length === 0 ? {} : { toolConfig: encodeToolConfig(request.toolChoice) }),
      ...(Object.keys(generationConfig).length === 0 ? {} : { generationConfig }),
    };
  },

  nativeBody(body) {
    // The model and the stream mode are in the URL; the body names neither.
    const out: Record<string, unknown> = { ...body };
    delete out['understudy'];
    delete out['model'];
    delete out['stream'];
    return out;
  },

  decodeResponse(json, requestedModel) {
    const body = answerObject(json, Array.isArray(json) ? json[0] : json);
    const candidate = candidateParts(body);
    if (candidate === undefined) {
      const blockReason = asString(asRecord(body['promptFeedback'])?.['blockReason']);
      throw new WireError('empty', blockReason === undefined ? 'the response has no candidates' : `the prompt was blocked: ${blockReason}`);
    }
    const texts: string[] = [];
    const toolCalls: ChatToolCall[] = [];
    for (const part of candidate.parts) {
      const text = asString(part['text']);
      if (text !== undefined && part['thought'] !== true) texts.push(text);
      const call = asRecord(part['functionCall']);
      if (call !== undefined) {
        toolCalls.push({
          id: asString(call['id']) ?? newToolCallId(),
          name: asString(call['name']) ?? '',
          arguments: JSON.stringify(call['args'] ?? {}),
        });
      }
    }
    let finishReason: FinishReason = candidate.finish === undefined ? 'stop' : geminiFinishReason(candidate.finish);
    if (finishReason === 'stop' && toolCalls.length > 0) finishReason = 'tool_calls';
    const usage = decodeUsage(body['usageMetadata']);
    return {
      ...(asString(body['responseId']) === undefined ? {} : { id: asString(body['responseId']) }),
      model: asString(body['modelVersion']) || requestedModel,
      text: texts.join(''),
      toolCalls,
      finishReason,
      ...(candidate.finish === undefined ? {} : { rawFinishReason: candidate.finish }),
      ...(usage === undefined ? {} : { usage }),
    };
  },

  createStreamDecoder: () => new GeminiStreamDecoder(),
};
