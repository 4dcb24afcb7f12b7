/**
 * What the gateway needs from a client wire format (OpenAI chat completions, Anthropic messages): parse a
 * request into the internal chat shape, render a whole answer, encode a streamed answer as SSE, and render an
 * error in the format's own error JSON. The chat handler is written once against this interface.
 */
import type { ChatRequest, ChatResult, ChatStreamDelta, ChatUsage, WireApi } from '@understudy/providers';
import type { GatewayError } from '../gateway-error.js';

/** Which client wire format. */
export type DialectId = 'openai' | 'anthropic' | 'responses';

/** A client request, parsed and validated. */
export interface ParsedChatRequest {
  /**
   * The `model` field as sent (never trimmed; an empty or blank one is a 400); `undefined` when absent or null
   * (then the agent's configured chain runs).
   */
  readonly model: string | undefined;
  /** The request in the internal shape; `model` is filled in per candidate. */
  readonly chat: Omit<ChatRequest, 'model'>;
  readonly stream: boolean;
  /** Whether a streamed answer should end with a usage report (OpenAI `stream_options.include_usage`). */
  readonly streamUsage: boolean;
  /** The body extension `understudy.fallbacks`: the caller's `fallbacksOverride`. */
  readonly fallbacksOverride: readonly string[] | undefined;
  /** The text of the last message when a user sent it (commands are read from it). */
  readonly lastUserText: string | undefined;
  /** The request carries an image (the configured image chain applies). */
  readonly hasImages: boolean;
}

/** What an answer says about itself. */
export interface AnswerMeta {
  /** The response id (`chatcmpl-…` / `msg_…`). */
  readonly id: string;
  /** `provider/model` that answered (or `understudy` for a command answer). */
  readonly model: string;
  /** Creation time, epoch seconds. */
  readonly createdSeconds: number;
  /** Extra fields for the body's `understudy` object (whole answers only), e.g. `{ notice }`. */
  readonly understudy?: Readonly<Record<string, unknown>> | undefined;
}

/** The id and creation time a streamed answer's chunks carry (OpenAI's `id` and `created`). */
export interface StreamIdentity {
  readonly id: string;
  /** Epoch seconds. */
  readonly createdSeconds: number;
}

/**
 * What one stream encoder writes for each delta that goes out at once; {@link StreamEnding.route} calls the
 * writer of a delta's kind and returns its SSE text.
 */
export interface DeltaWriters {
  /** A text delta, never empty. */
  text(text: string): string;
  toolCall(call: Extract<ChatStreamDelta, { readonly kind: 'tool_call' }>): string;
  /** An upstream event of a same-format stream (most decoded encoders send nothing for it). */
  native(native: Extract<ChatStreamDelta, { readonly kind: 'native' }>): string;
}

/**
 * What every stream encoder keeps from the deltas that close a stream until its `end()`: the last `finish`
 * delta (reason, raw reason, stop sequence) and the last usage. One place for it, so the three client formats
 * cannot disagree on which delta wins, nor on which deltas send nothing now.
 */
export class StreamEnding {
  /** The last `finish` delta; `undefined` until one came. */
  finish: Extract<ChatStreamDelta, { readonly kind: 'finish' }> | undefined;
  /** The last usage reported; `undefined` until one came. */
  usage: ChatUsage | undefined;

  /**
   * The head of every encoder's `delta()`: a `finish` or `usage` delta is kept for `end()` and an empty text is
   * dropped (both send `''`); any other delta goes to the writer of its kind in `writers`.
   */
  route(delta: ChatStreamDelta, writers: DeltaWriters): string {
    switch (delta.kind) {
      case 'finish':
        this.finish = delta;
        return '';
      case 'usage':
        this.usage = delta.usage;
        return '';
      case 'text':
        return delta.text === '' ? '' : writers.text(delta.text);
      case 'tool_call':
        return writers.toolCall(delta);
      case 'native':
        return writers.native(delta);
    }
  }
}

/** Turns a stream of deltas into SSE text, one call at a time. */
export interface StreamEncoder {
  /** The SSE text for one delta (`''` when it sends nothing yet). */
  delta(delta: ChatStreamDelta): string;
  /** The SSE text that closes a complete answer (OpenAI: finish/usage chunks and `[DONE]`). */
  end(): string;
  /** The SSE text that ends the stream with an explicit error (never a clean-looking end). */
  error(error: GatewayError): string;
  /**
   * The encoder that goes on with the decoded deltas of another stream after this one broke (a continuation,
   * docs/policy.md#continuing-a-broken-stream): it sends only content in the message the client is reading (no
   * second message start or role, the same choice and content block), then this format's end. `undefined` (or
   * absent) when this answer cannot be continued.
   */
  resume?(): StreamEncoder | undefined;
  /**
   * Takes the id and creation time the upstream's own chunks gave the client (a same-format stream), so the
   * chunks this encoder sends after a continuation carry the same ones. Absent where chunks carry no id.
   */
  adopt?(identity: StreamIdentity): void;
}

/** A client wire format. */
export interface WireDialect {
  readonly id: DialectId;
  /** The upstream wire format that equals this client format: requests to it take the same-format path. */
  readonly api: WireApi;
  /** Request headers of this format that a same-format upstream receives as the client sent them (lower case). */
  readonly forwardedHeaders: readonly string[];
  /**
   * Parses a request body.
   * @throws {GatewayError} 400 naming the bad field and the fix.
   */
  parseRequest(body: unknown): ParsedChatRequest;
  /** The JSON body of a whole answer. */
  renderResult(result: ChatResult, meta: AnswerMeta): Record<string, unknown>;
  /**
   * A fresh encoder for one streamed answer. `native`: the stream hands out the upstream's own events in this
   * format (`ChatStream.native`), which are relayed instead of re-encoding the deltas.
   */
  createStreamEncoder(meta: AnswerMeta, options: { readonly usage: boolean; readonly native?: boolean | undefined }): StreamEncoder;
  /** The format's error JSON. */
  renderError(error: GatewayError): Record<string, unknown>;
}

/** One SSE `data:` event (with an optional `event:` line). */
export function sseEvent(data: unknown, event?: string): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  return event === undefined ? `data: ${payload}\n\n` : `event: ${event}\ndata: ${payload}\n\n`;
}

/** An SSE comment line: ignored by SSE clients, visible to people reading the stream. */
export function sseComment(text: string): string {
  return `: ${text.replace(/[\r\n]+/g, ' ')}\n\n`;
}
