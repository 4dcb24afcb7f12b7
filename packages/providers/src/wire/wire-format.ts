/**
 * What a wire format has to provide: the endpoint, the request body, decoding a whole response, and a
 * stateful decoder for its server-sent events. Decoders never see HTTP or timers; they turn text into
 * normalised values or throw a {@link WireError}.
 */
import { UnderstudyError } from '@understudy/contracts';
import type { ChatRequest, ChatResult, ChatStreamDelta, ProviderApi } from '../chat-types.js';

/** One server-sent event, as `eventsource-parser` delivers it. */
export interface SseEvent {
  readonly event?: string | undefined;
  readonly data: string;
}

/**
 * Turns a stream's events into deltas. `push` throws a {@link WireError} for an error event (`provider_error`)
 * or a chunk it cannot read (`malformed`).
 */
export interface StreamDecoder {
  push(event: SseEvent): readonly ChatStreamDelta[];
  /** The upstream model id, once a chunk named it. */
  readonly model: string | undefined;
  /** The format's explicit end marker arrived (`[DONE]`, `message_stop`). */
  readonly done: boolean;
  /** A finish reason arrived. */
  readonly finished: boolean;
  /**
   * A finish reason arrived and the format still owes a part worth a short wait: OpenAI's usage chunk when it
   * was asked for and has not come yet, Anthropic's `message_stop`. False once the end marker arrived.
   */
  readonly tailPending: boolean;
}

/** Options of {@link WireFormat.createStreamDecoder}. */
export interface StreamDecoderOptions {
  /** OpenAI: the request asked for a usage chunk (`stream_options.include_usage`), so one follows the finish. */
  readonly includeStreamUsage?: boolean | undefined;
}

/** Options a format may need to build a request. */
export interface EncodeOptions {
  /** Output limit used when the request has none and the format requires one (Anthropic). */
  readonly defaultMaxTokens: number;
  /** OpenAI: ask for a final usage chunk (`stream_options.include_usage`). */
  readonly includeStreamUsage: boolean;
}

/** One wire format. */
export interface WireFormat {
  readonly api: ProviderApi;
  /** The full URL for a request to `baseUrl`. */
  endpoint(baseUrl: string, request: ChatRequest, stream: boolean): string;
  /** Headers every request of the format carries (besides auth and content type). */
  readonly staticHeaders: Readonly<Record<string, string>>;
  /** The JSON body. @throws {WireError} `invalid_request` when the request cannot be expressed. */
  encodeRequest(request: ChatRequest, stream: boolean, options: EncodeOptions): unknown;
  /**
   * The body of a same-format request: the client's `body` with the model id replaced, the `understudy`
   * extension removed and the stream fields set for `stream` (OpenAI: the usage chunk asked for when
   * `includeStreamUsage`). Nothing else changes (docs/wire-mapping.md#same-format). A shallow copy; `body` is not
   * modified.
   */
  nativeBody(body: Readonly<Record<string, unknown>>, model: string, stream: boolean, options: EncodeOptions): Record<string, unknown>;
  /**
   * A whole (non-streaming) response body, parsed from JSON.
   * @throws {WireError} `provider_error` for an error payload, `empty` for no answer, `malformed` otherwise.
   */
  decodeResponse(json: unknown, requestedModel: string): Omit<ChatResult, 'responseHeaders'>;
  createStreamDecoder(options?: StreamDecoderOptions): StreamDecoder;
}

/** Why a wire value could not be used. */
export type WireErrorKind = 'malformed' | 'provider_error' | 'empty' | 'invalid_request';

/** A wire value that is not an answer: malformed, an error payload, empty, or an inexpressible request. */
export class WireError extends UnderstudyError<'wire_error'> {
  readonly kind: WireErrorKind;
  /** The offending raw text (event data or body), when there is one. */
  readonly raw: string | undefined;

  constructor(kind: WireErrorKind, message: string, options?: { readonly raw?: string | undefined; readonly cause?: unknown }) {
    super('wire_error', message, { cause: options?.cause });
    this.kind = kind;
    this.raw = options?.raw;
  }
}
