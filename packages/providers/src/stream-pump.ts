import type { Logger } from '@understudy/contracts';
import { silentLogger } from '@understudy/contracts';
/**
 * Reads a streaming response: bytes → `eventsource-parser` events → the wire decoder's deltas, one delta at a
 * time, with the stall timer running only while waiting for bytes (so a slow consumer never looks like a
 * stalled provider).
 *
 * A stream is complete at its end marker, or as soon as its finish reason arrived and nothing the format still
 * owes is worth waiting for (issue 7: a provider that sends the finish reason and then keeps the connection
 * open without `[DONE]` must not hold the caller). The part a format owes after its finish reason (OpenAI's
 * usage chunk when asked for, Anthropic's `message_stop`) gets a short grace, never the stall timeout. A
 * completed stream's response is left to end on its own in the background for a bounded time, so its
 * keep-alive connection is reused, and is destroyed after that.
 */
import { createParser } from 'eventsource-parser';
import type { EventSourceParser, ParseError } from 'eventsource-parser';
import type { ProviderFailure } from '@understudy/contracts';
import { UnderstudyError } from '@understudy/contracts';
import type { ChatStreamDelta } from './chat-types.js';
import type { CallControl } from './call-control.js';
import { streamFailure, transportFailure } from './failure.js';
import type { FailureContext } from './failure.js';
import type { ResponseBody } from './http.js';
import { discardBody } from './http.js';
import type { SseEvent, StreamDecoder } from './wire/wire-format.js';
import { WireError } from './wire/wire-format.js';

/** Largest SSE event we buffer, in characters; beyond it the stream is malformed. */
const MAX_SSE_BUFFER_CHARS = 16 * 1024 * 1024;

/**
 * The body is read eagerly into our own queue (so bytes that arrived before a connection drop are not lost
 * with undici's buffer); past this many queued bytes the body is paused until the consumer catches up.
 */
const HIGH_WATER_BYTES = 1024 * 1024;

/** Why a stream could not be read further; turned into a failure once we know whether output started. */
export class StreamPumpError extends UnderstudyError<'stream_failed'> {
  readonly #toFailure: (outputStarted: boolean) => ProviderFailure;

  constructor(message: string, toFailure: (outputStarted: boolean) => ProviderFailure, options: { readonly cause?: unknown } = {}) {
    super('stream_failed', message, options);
    this.#toFailure = toFailure;
  }

  /** The failure, marked with whether output had reached the caller. */
  failure(outputStarted: boolean): ProviderFailure {
    return this.#toFailure(outputStarted);
  }
}

/** Options of a {@link StreamPump}. */
export interface StreamPumpOptions {
  readonly body: ResponseBody;
  readonly decoder: StreamDecoder;
  readonly control: CallControl;
  readonly stallTimeoutMs: number;
  /** How long a finished stream waits for the part its format still owes (`ProviderTimeouts.afterFinishGraceMs`). */
  readonly afterFinishGraceMs: number;
  /** How long a completed stream's response may take to end in the background (`ProviderTimeouts.drainAfterFinishMs`). */
  readonly drainAfterFinishMs: number;
  /** The client's set of responses ending in the background: each entry closes its connection at once. */
  readonly drains?: Set<() => void> | undefined;
  readonly context: FailureContext;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Also hand out every decoded event as it came (`native` deltas, after the deltas decoded from it). @default false */
  readonly native?: boolean | undefined;
  /** Told about each event skipped because its data is not valid JSON (it is also logged at warn). */
  readonly onSkippedEvent?: (() => void) | undefined;
  /** Where a skipped event is logged (warn, with provider and model; never the event's data). @default silentLogger */
  readonly logger?: Logger | undefined;
}

/** True when `text` parses as JSON. */
function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Pulls normalised deltas out of a streaming response. */
export class StreamPump {
  readonly #options: StreamPumpOptions;
  readonly #chunks: Buffer[] = [];
  #queuedBytes = 0;
  #bodyEnded = false;
  #bodyError: { readonly error: unknown } | undefined;
  #wake: (() => void) | undefined;
  readonly #parser: EventSourceParser;
  readonly #text = new TextDecoder();
  readonly #events: SseEvent[] = [];
  readonly #queue: ChatStreamDelta[] = [];
  #parseError: ParseError | undefined;
  /** A failure found after some deltas of the same read: thrown once those deltas were handed out. */
  #pendingError: StreamPumpError | undefined;
  #ended = false;
  /** Runs while a finished stream waits for its owed part; sets {@link #graceOver} when it fires. */
  #graceTimer: ReturnType<typeof setTimeout> | undefined;
  #graceOver = false;
  /** Closes the connection of a completed stream whose response is still ending in the background. */
  #stopDrain: (() => void) | undefined;

  /** Whether `native` deltas are handed out. */
  readonly native: boolean;

  constructor(options: StreamPumpOptions) {
    this.#options = options;
    this.native = options.native === true;
    const wake = (): void => this.#wakeUp();
    options.body.on('data', (chunk: Buffer) => {
      // Once the stream is over, what still comes (end marker, stray bytes) is dropped unread.
      if (this.#ended) return;
      this.#chunks.push(chunk);
      this.#queuedBytes += chunk.length;
      if (this.#queuedBytes > HIGH_WATER_BYTES) options.body.pause();
      wake();
    });
    options.body.on('end', () => {
      this.#bodyEnded = true;
      wake();
    });
    options.body.on('error', (error: unknown) => {
      this.#bodyError ??= { error };
      wake();
    });
    options.body.on('close', wake);
    this.#parser = createParser({
      maxBufferSize: MAX_SSE_BUFFER_CHARS,
      onEvent: (event) => this.#events.push(event),
      onError: (error) => {
        // A bare JSON line without `data:` (some servers send their error that way) is read as an event;
        // other unknown fields are ignored, as the SSE format says.
        if (error.type === 'unknown-field' && error.line?.trimStart().startsWith('{') === true) {
          this.#events.push({ data: error.line });
        } else if (error.type !== 'unknown-field') {
          this.#parseError = error;
        }
      },
    });
  }

  /** The upstream model id, once the stream named it. */
  get model(): string | undefined {
    return this.#options.decoder.model;
  }

  /**
   * The next delta, or `undefined` when the stream ended cleanly (end marker, or a finish reason).
   * @throws {StreamPumpError} for a transport error, a timeout, an error event, a malformed chunk, or an early end.
   */
  async next(): Promise<ChatStreamDelta | undefined> {
    for (;;) {
      const delta = this.#queue.shift();
      if (delta !== undefined) return delta;
      if (this.#pendingError !== undefined) throw this.#pendingError;
      if (this.#ended) return undefined;
      await this.#readMore();
    }
  }

  /** Stops reading and destroys the body at once (a completed stream's connection included). */
  discard(): void {
    this.#ended = true;
    this.#stopGrace();
    this.#stopDrain?.();
    discardBody(this.#options.body);
  }

  /** A finish reason or the end marker arrived: the answer is whole, whatever follows. */
  get #complete(): boolean {
    return this.#options.decoder.done || this.#options.decoder.finished;
  }

  /** Complete, and nothing the format still owes is worth waiting for. */
  get #settled(): boolean {
    const { decoder } = this.#options;
    return decoder.done || (decoder.finished && !decoder.tailPending);
  }

  #wakeUp(): void {
    const resolve = this.#wake;
    this.#wake = undefined;
    resolve?.();
  }

  async #bytesOrEvent(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.#wake = resolve;
    });
  }

  #stopGrace(): void {
    if (this.#graceTimer !== undefined) clearTimeout(this.#graceTimer);
    this.#graceTimer = undefined;
  }

  /**
   * The next chunk of the body: `end` at its end, `settled` when the answer is complete and no byte is
   * buffered. Bytes already received are always handed out first. Waits for more with the stall timer
   * running, or, once the finish reason arrived, for at most the after-finish grace.
   */
  async #nextChunk(): Promise<Buffer | 'end' | 'settled'> {
    for (;;) {
      const chunk = this.#chunks.shift();
      if (chunk !== undefined) {
        this.#queuedBytes -= chunk.length;
        if (this.#options.body.isPaused() && this.#queuedBytes <= HIGH_WATER_BYTES / 2) this.#options.body.resume();
        return chunk;
      }
      if (this.#bodyError !== undefined) throw this.#bodyError.error;
      if (this.#bodyEnded) return 'end';
      if (this.#settled || this.#ended) return 'settled';
      if (this.#options.decoder.finished) {
        // Only the format's owed part is missing: a short grace for it (never beyond the stall timeout),
        // counted once from the first wait.
        const { afterFinishGraceMs, stallTimeoutMs } = this.#options;
        const graceMs = stallTimeoutMs > 0 ? Math.min(afterFinishGraceMs, stallTimeoutMs) : afterFinishGraceMs;
        if (this.#graceOver || !(graceMs > 0)) return 'settled';
        this.#graceTimer ??= setTimeout(() => {
          this.#graceOver = true;
          this.#wakeUp();
        }, graceMs);
        await this.#bytesOrEvent();
        continue;
      }
      const { control } = this.#options;
      control.arm('stall', this.#options.stallTimeoutMs);
      await this.#bytesOrEvent();
      control.disarm('stall');
    }
  }

  /**
   * The answer is complete: stop reading. A response that has not ended yet is left to end on its own for up
   * to `drainAfterFinishMs` (its keep-alive connection is then reused), and destroyed after that.
   */
  #settle(): void {
    this.#ended = true;
    this.#stopGrace();
    this.#chunks.length = 0;
    this.#queuedBytes = 0;
    const { body, drainAfterFinishMs, drains } = this.#options;
    if (this.#bodyEnded || this.#bodyError !== undefined || body.destroyed) return;
    if (!(drainAfterFinishMs > 0)) {
      discardBody(body);
      return;
    }
    const finished = (): void => {
      clearTimeout(timer);
      drains?.delete(stop);
      this.#stopDrain = undefined;
    };
    const stop = (): void => {
      finished();
      discardBody(body);
    };
    const timer = setTimeout(stop, drainAfterFinishMs);
    body.once('end', finished);
    body.once('close', finished);
    drains?.add(stop);
    this.#stopDrain = stop;
    if (body.isPaused()) body.resume();
  }

  async #readMore(): Promise<void> {
    const { control } = this.#options;
    let next: Buffer | 'end' | 'settled';
    try {
      next = await this.#nextChunk();
    } catch (error) {
      control.disarm('stall');
      this.#stopGrace();
      if (this.#complete && control.abortInfo?.cause !== 'user') {
        // The answer was complete; a missing end marker or a close after it is no failure.
        this.discard();
        return;
      }
      this.#ended = true;
      throw new StreamPumpError(
        'stream read failed',
        (outputStarted) =>
          transportFailure(this.#options.context, error, {
            phase: 'stream',
            outputStarted,
            abort: control.abortInfo,
            status: this.#options.status,
            headers: this.#options.headers,
          }),
        { cause: error },
      );
    }
    if (next === 'settled') {
      this.#settle();
      return;
    }
    if (next === 'end') {
      this.#stopGrace();
      this.#parser.feed(this.#text.decode());
      this.#parser.reset({ consume: true });
      this.#decodeEvents();
      this.#ended = true;
      if (!this.#complete && this.#pendingError === undefined) {
        this.#pendingError = this.#failure('stream ended early: the provider closed the stream before a finish reason', {
          code: 'STREAM_ENDED_EARLY',
        });
      }
      return;
    }
    this.#parser.feed(this.#text.decode(next, { stream: true }));
    this.#decodeEvents();
  }

  /** Decodes the parsed events into the queue; a bad event stops the stream after the deltas before it. */
  #decodeEvents(): void {
    for (const event of this.#events.splice(0)) {
      if (this.#options.decoder.done) break;
      try {
        this.#queue.push(...this.#options.decoder.push(event));
        if (this.native) this.#queue.push(event.event === undefined ? { kind: 'native', data: event.data } : { kind: 'native', event: event.event, data: event.data });
      } catch (error) {
        if (!WireError.isInstance(error)) throw error;
        if (error.kind === 'malformed' && !isJson(event.data)) {
          // One event whose data is not JSON between good ones is skipped: the rest of the answer is fine. A
          // stream that then ends without a finish reason is still an error ("stream ended early").
          this.#skipEvent();
          continue;
        }
        this.#stop(
          error.kind === 'provider_error'
            ? this.#failure(`the provider sent an error in the stream: ${event.data.slice(0, 300)}`, {
                status: this.#options.status,
                body: event.data,
              })
            : this.#failure(error.message, { code: 'MALFORMED_CHUNK', body: event.data }),
        );
        return;
      }
    }
    if (this.#parseError !== undefined) {
      this.#stop(this.#failure(`malformed stream: ${this.#parseError.message}`, { code: 'MALFORMED_STREAM' }));
    }
  }

  #skipEvent(): void {
    const { context } = this.#options;
    (this.#options.logger ?? silentLogger).warn(
      { provider: context.provider, model: context.model },
      'skipped a stream event whose data is not valid JSON; the stream goes on',
    );
    this.#options.onSkippedEvent?.();
  }

  #stop(error: StreamPumpError): void {
    this.#events.length = 0;
    this.#pendingError = error;
    this.discard();
  }

  #failure(message: string, extra: { readonly code?: string; readonly status?: number; readonly body?: string }): StreamPumpError {
    return new StreamPumpError(message, (outputStarted) =>
      streamFailure(this.#options.context, {
        message,
        ...extra,
        headers: this.#options.headers,
        phase: 'stream',
        outputStarted,
      }),
    );
  }
}
