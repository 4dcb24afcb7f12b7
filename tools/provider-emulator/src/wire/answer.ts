/** What an ok step answers, independent of the wire format, and the frames a format streams it as. */
import type { EmulatorApi } from '../script.js';

/** A tool call in an answer; `arguments` is JSON text. */
export interface AnswerToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** One ok answer. */
export interface Answer {
  /** Response id, unique per emulator run. */
  readonly id: string;
  readonly model: string;
  /** The answer text, in the pieces a stream sends (joined, the whole text). */
  readonly chunks: readonly string[];
  readonly toolCalls: readonly AnswerToolCall[];
  /** The wire format's own finish reason, when the step overrides the default. */
  readonly finishReason: string | undefined;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** OpenAI: the request asked for a usage chunk (`stream_options.include_usage`). */
  readonly includeUsage: boolean;
  /** Epoch seconds, for `created` fields. */
  readonly createdSeconds: number;
}

/**
 * A stream, as SSE frames (each a complete `event:`/`data:` block ending in a blank line).
 * `content` frames carry answer content and are what `…AfterChunks` faults count.
 */
export interface StreamFrames {
  readonly prelude: readonly string[];
  readonly content: readonly string[];
  readonly trailer: readonly string[];
  /** The end marker (`[DONE]`, `message_stop`); left out by `omitDone`. Gemini has none. */
  readonly terminator: string | undefined;
}

/** A wire format as the emulator writes it. */
export interface WireWriter {
  readonly api: EmulatorApi;
  wholeBody(answer: Answer): unknown;
  streamFrames(answer: Answer): StreamFrames;
  /** A frame that is not valid JSON. */
  malformedFrame(answer: Answer): string;
  /** An in-stream error event (`data` given: sent as the event's data). */
  errorFrame(data: unknown): string;
}

/** An SSE data frame. */
export function dataFrame(data: unknown, event?: string): string {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event === undefined ? '' : `event: ${event}\n`}data: ${text}\n\n`;
}

/** Splits text into word-sized stream pieces (leading spaces kept): "a b" → ["a", " b"]. */
export function splitIntoChunks(text: string): string[] {
  if (text === '') return [];
  return text.match(/\s*\S+\s*$|\s*\S+/g) ?? [text];
}

/** A rough token count (4 characters a token), never 0 for non-empty text. */
export function estimateTokens(text: string): number {
  return text === '' ? 0 : Math.max(1, Math.ceil(text.length / 4));
}

/** Tool-call argument text as an object (anything that is not a JSON object becomes `{}`). */
export function argumentsObject(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}
