/** Small helpers the wire formats share. */
import type { ChatContent, ChatContentPart, ChatUsage } from '../chat-types.js';
import { WireError } from './wire-format.js';

/** Content as a list of parts. */
export function contentParts(content: ChatContent | null): readonly ChatContentPart[] {
  if (content === null) return [];
  return typeof content === 'string' ? (content === '' ? [] : [{ kind: 'text', text: content }]) : content;
}

/** The text parts of some content, joined by blank lines. */
export function contentText(content: ChatContent | null): string {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return content
    .flatMap((part) => (part.kind === 'text' ? [part.text] : []))
    .join('\n\n');
}

/** `data:<media type>;base64,<data>` split into its parts; `undefined` for anything else. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return match === null ? undefined : { mediaType: match[1] ?? 'application/octet-stream', data: match[2] ?? '' };
}

/** A plain object, or `undefined`. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A string, or `undefined`. */
export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A finite non-negative number, or 0. */
export function asCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** JSON text parsed, or a `malformed` {@link WireError}. */
export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new WireError('malformed', `malformed ${what}: ${(error as Error).message}`, { raw: text, cause: error });
  }
}

/** Tool-call argument text parsed to an object, or an `invalid_request` {@link WireError}. */
export function parseToolArguments(text: string, toolName: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new WireError('invalid_request', `tool call ${toolName}: arguments are not valid JSON`, { cause: error });
  }
  const record = asRecord(value);
  if (record === undefined) throw new WireError('invalid_request', `tool call ${toolName}: arguments must be a JSON object`);
  return record;
}

/** Usage from input and output counts; `total` defaults to their sum. */
export function usageOf(inputTokens: number, outputTokens: number, total?: number): ChatUsage {
  return { inputTokens, outputTokens, totalTokens: total !== undefined && total > 0 ? total : inputTokens + outputTokens };
}

/** Removes trailing slashes. */
export function trimSlashes(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

/**
 * The error a provider put in an answer body or stream chunk: an `error` field that is set, or `marked` (the
 * format's own error marker, e.g. Anthropic's `type: "error"`). `raw` (the body or chunk as received) goes along
 * for diagnosis; `undefined` when the record is no error.
 */
export function errorPayload(record: Record<string, unknown>, raw: string, marked = false): WireError | undefined {
  if (!marked && (record['error'] === undefined || record['error'] === null)) return undefined;
  return new WireError('provider_error', 'the provider answered with an error payload', { raw });
}

/**
 * The object of a whole (non-streamed) answer, `json` as parsed (`body` of it: Gemini may wrap it in an array).
 *
 * @param errorOf how this format marks an error payload. @default errorPayload
 * @throws {WireError} `malformed` when it is no JSON object; the format's error when it is an error payload.
 */
export function answerObject(
  json: unknown,
  body: unknown = json,
  errorOf: (record: Record<string, unknown>, raw: string) => WireError | undefined = errorPayload,
): Record<string, unknown> {
  const record = asRecord(body);
  if (record === undefined) throw new WireError('malformed', 'malformed response: not a JSON object');
  const error = errorOf(record, JSON.stringify(json));
  if (error !== undefined) throw error;
  return record;
}

/**
 * A client body as sent, for an upstream of its own format that names the model and the stream mode in the
 * body: the `understudy` extension removed, `model` set, `stream: true` set or removed.
 */
export function nativeBodyWithModel(body: Readonly<Record<string, unknown>>, model: string, stream: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body, model };
  delete out['understudy'];
  if (stream) out['stream'] = true;
  else delete out['stream'];
  return out;
}

/**
 * OpenAI's usage object (chat completions: `prompt`/`completion`; Responses: `input`/`output`): the token counts,
 * cached input tokens and reasoning tokens under `<input>_tokens_details` / `<output>_tokens_details`.
 */
export function openAIUsage(value: unknown, names: { readonly input: string; readonly output: string }): ChatUsage | undefined {
  const usage = asRecord(value);
  if (usage === undefined) return undefined;
  const cached = asCount(asRecord(usage[`${names.input}_tokens_details`])?.['cached_tokens']);
  const reasoningTokens = asCount(asRecord(usage[`${names.output}_tokens_details`])?.['reasoning_tokens']);
  return {
    ...usageOf(asCount(usage[`${names.input}_tokens`]), asCount(usage[`${names.output}_tokens`]), asCount(usage['total_tokens'])),
    ...(cached > 0 ? { cachedInputTokens: cached } : {}),
    ...(reasoningTokens > 0 ? { reasoningTokens } : {}),
  };
}
