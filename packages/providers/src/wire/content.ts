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
