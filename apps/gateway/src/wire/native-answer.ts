/**
 * The same-format answer (docs/wire-mapping.md#same-format): when the request went out in the client's own
 * format, the upstream's body (whole) or its SSE events (streamed) are sent back as they came, with only the
 * `model` naming the model that answered and the gateway's `understudy` fields added.
 */
import type { ChatResult, ChatStreamDelta, WireApi } from '@understudy/providers';
import type { GatewayError } from '../gateway-error.js';
import type { AnswerMeta, StreamEncoder, StreamIdentity } from './dialect.js';
import { sseEvent } from './dialect.js';

/** The upstream's whole body with the answering model and the `understudy` fields, or `undefined` when it is not in `api`. */
export function nativeResult(result: ChatResult, meta: AnswerMeta, api: WireApi): Record<string, unknown> | undefined {
  const native = result.native;
  if (native?.api !== api) return undefined;
  return { ...native.body, model: meta.model, ...(meta.understudy === undefined ? {} : { understudy: meta.understudy }) };
}

const MODEL_KEY = '"model":"';
const CHUNK_ID = /^\{\s*"id"\s*:\s*"([^"\\]{1,256})"/;
const CHUNK_CREATED = /"created"\s*:\s*(\d{1,12})[,}]/;

/**
 * The `id` and `created` of an OpenAI chunk written with `id` first (as OpenAI and the compatible servers write
 * them), or `undefined`. A regular expression on the text: the event was already parsed once by the decoder.
 */
export function openAIChunkIdentity(data: string): StreamIdentity | undefined {
  const id = CHUNK_ID.exec(data)?.[1];
  const created = CHUNK_CREATED.exec(data)?.[1];
  return id === undefined || created === undefined ? undefined : { id, createdSeconds: Number(created) };
}

/**
 * `data` with its first `"model":"…"` value replaced by `model` (the upstream's events are compact JSON; an event
 * written otherwise keeps its own value). String work only: the event was already parsed once by the decoder.
 */
function withModel(data: string, model: string): string {
  const start = data.indexOf(MODEL_KEY);
  if (start === -1) return data;
  const valueStart = start + MODEL_KEY.length;
  const valueEnd = data.indexOf('"', valueStart);
  if (valueEnd === -1 || data.charCodeAt(valueEnd - 1) === 92) return data;
  return `${data.slice(0, start)}"model":${JSON.stringify(model)}${data.slice(valueEnd + 1)}`;
}

/** What differs between the formats' same-format streams. */
export interface NativeStreamRules {
  /** True for the event that ends a complete stream (`[DONE]`, `message_stop`). */
  isEnd(event: string | undefined, data: string): boolean;
  /** What to send when the upstream's stream finished without its end event. */
  readonly end: string;
  /** True for an event the client did not ask for (OpenAI's usage-only chunk without `include_usage`). */
  drop?(data: string): boolean;
  /** True for the events that carry the model name (`message_start`; every OpenAI chunk). */
  namesModel(event: string | undefined): boolean;
  /** The error event that ends a stream failing after output. */
  error(error: GatewayError): string;
  /**
   * The id and creation time an event gives the client, read from the first event that has them and handed to
   * the shadow (OpenAI chunks: their `id` and `created`), so a continuation's chunks keep them.
   */
  identity?(data: string): StreamIdentity | undefined;
}

/**
 * Relays the upstream's own events (`native` deltas) and ignores the decoded ones. With a `shadow` (the
 * format's decoded encoder), every delta also goes to the shadow, whose output is dropped: it keeps the state
 * of what the client got, so a continuation can go on through it ({@link NativeStreamEncoder.resume}).
 */
export class NativeStreamEncoder implements StreamEncoder {
  readonly #meta: AnswerMeta;
  readonly #rules: NativeStreamRules;
  readonly #shadow: StreamEncoder | undefined;
  #ended = false;
  #identified = false;

  constructor(meta: AnswerMeta, rules: NativeStreamRules, shadow?: StreamEncoder) {
    this.#meta = meta;
    this.#rules = rules;
    this.#shadow = shadow;
  }

  delta(delta: ChatStreamDelta): string {
    this.#shadow?.delta(delta);
    if (delta.kind !== 'native') return '';
    const { event, data } = delta;
    if (!this.#identified && this.#shadow?.adopt !== undefined && this.#rules.identity !== undefined) {
      const identity = this.#rules.identity(data);
      if (identity !== undefined) {
        this.#shadow.adopt(identity);
        this.#identified = true;
      }
    }
    if (this.#rules.isEnd(event, data)) this.#ended = true;
    if (this.#rules.drop?.(data) === true) return '';
    return sseEvent(this.#rules.namesModel(event) ? withModel(data, this.#meta.model) : data, event);
  }

  end(): string {
    return this.#ended ? '' : this.#rules.end;
  }

  error(error: GatewayError): string {
    return this.#rules.error(error);
  }

  /** The shadow, which continues the answer the client is reading; none once the upstream sent its end. */
  resume(): StreamEncoder | undefined {
    return this.#ended ? undefined : this.#shadow;
  }
}
