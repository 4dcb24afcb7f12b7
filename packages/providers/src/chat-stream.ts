/**
 * The streamed answer a client hands over once output started: the deltas already read (the first content
 * delta among them) followed by the rest of the upstream stream.
 */
import type { ProviderFailure } from '@understudy/contracts';
import type { ChatResult, ChatStreamDelta, ChatToolCall, ChatUsage, FinishReason } from './chat-types.js';
import type { CallControl } from './call-control.js';
import { ProviderCallError } from './provider-call-error.js';
import type { StreamPump } from './stream-pump.js';
import { StreamPumpError } from './stream-pump.js';

/**
 * A started answer stream. Iterate it once: it yields every delta in order and ends after the last one.
 * A failure while iterating throws a {@link ProviderCallError} whose `failure.outputStarted` is `true`
 * (output had started, so the failure is terminal). Breaking out of the loop, or {@link ChatStream.cancel},
 * aborts the upstream request.
 */
export interface ChatStream extends AsyncIterable<ChatStreamDelta> {
  /** The upstream model id as the stream named it (else the requested one). */
  readonly model: string;
  /** HTTP status of the upstream response. */
  readonly status: number;
  /** Upstream response headers, lower-cased names. */
  readonly responseHeaders: Readonly<Record<string, string>>;
  /** The stream hands out `native` deltas (the request went out in its client's own format and the answer is SSE). */
  readonly native: boolean;
  /**
   * Stops the upstream request (a caller abort); iteration then ends. After the last delta it closes at once
   * a connection whose response is still ending in the background.
   */
  cancel(): void;
}

/** Failure check for a finish delta that reports an error. */
export function finishErrorFailure(
  delta: ChatStreamDelta,
  base: Pick<ProviderFailure, 'provider' | 'model' | 'headers'>,
  outputStarted: boolean,
): ProviderFailure | undefined {
  if (delta.kind !== 'finish' || delta.finishReason !== 'error') return undefined;
  return {
    ...base,
    message: `Provider finish_reason: ${delta.rawFinishReason ?? 'error'}`,
    phase: 'stream',
    outputStarted,
  };
}

/** A {@link ChatStream} over a live upstream response. */
export class PumpedChatStream implements ChatStream {
  readonly status: number;
  readonly responseHeaders: Readonly<Record<string, string>>;
  readonly native: boolean;
  readonly #buffered: ChatStreamDelta[];
  readonly #pump: StreamPump | undefined;
  readonly #control: CallControl | undefined;
  readonly #requestedModel: string;
  readonly #failureBase: Pick<ProviderFailure, 'provider' | 'model' | 'headers'>;
  #modelFromStream: string | undefined;
  #iterated = false;

  constructor(options: {
    readonly buffered: readonly ChatStreamDelta[];
    readonly pump?: StreamPump | undefined;
    readonly control?: CallControl | undefined;
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly provider: string;
    readonly requestedModel: string;
    readonly model?: string | undefined;
    readonly native?: boolean | undefined;
  }) {
    this.native = options.native === true;
    this.#buffered = [...options.buffered];
    this.#pump = options.pump;
    this.#control = options.control;
    this.status = options.status;
    this.responseHeaders = options.headers;
    this.#requestedModel = options.requestedModel;
    this.#modelFromStream = options.model;
    this.#failureBase = { provider: options.provider, model: options.requestedModel, headers: options.headers };
  }

  get model(): string {
    return this.#pump?.model ?? this.#modelFromStream ?? this.#requestedModel;
  }

  cancel(): void {
    this.#control?.abort({ cause: 'user' });
    this.#pump?.discard();
    this.#control?.dispose();
  }

  [Symbol.asyncIterator](): AsyncIterator<ChatStreamDelta> {
    if (this.#iterated) throw new TypeError('a ChatStream can be iterated only once');
    this.#iterated = true;
    return this.#iterate();
  }

  async *#iterate(): AsyncGenerator<ChatStreamDelta> {
    let completed = false;
    try {
      for (;;) {
        const delta = this.#buffered.shift() ?? (await this.#pull());
        if (delta === undefined) break;
        const failure = finishErrorFailure(delta, this.#failureBase, true);
        if (failure !== undefined) throw new ProviderCallError(failure);
        yield delta;
      }
      completed = true;
    } finally {
      if (!completed) this.cancel();
      this.#control?.dispose();
    }
  }

  async #pull(): Promise<ChatStreamDelta | undefined> {
    if (this.#pump === undefined) return undefined;
    try {
      return await this.#pump.next();
    } catch (error) {
      if (StreamPumpError.isInstance(error)) throw new ProviderCallError(error.failure(true), { cause: error });
      throw error;
    }
  }
}

/**
 * Reads a whole {@link ChatStream} into a {@link ChatResult} (text concatenated, tool-call pieces joined,
 * last finish reason and usage).
 *
 * @throws {ProviderCallError} when the stream fails part-way.
 * @example const result = await collectChatStream(stream); result.text
 */
export async function collectChatStream(stream: ChatStream): Promise<ChatResult> {
  let text = '';
  const calls: { id: string; name: string; arguments: string }[] = [];
  let finishReason: FinishReason = 'stop';
  let rawFinishReason: string | undefined;
  let stopSequence: string | undefined;
  let usage: ChatUsage | undefined;
  let sawFinish = false;
  for await (const delta of stream) {
    switch (delta.kind) {
      case 'text':
        text += delta.text;
        break;
      case 'tool_call': {
        const call = (calls[delta.index] ??= { id: '', name: '', arguments: '' });
        if (delta.id !== undefined && delta.id !== '') call.id = delta.id;
        if (delta.name !== undefined && delta.name !== '') call.name = delta.name;
        call.arguments += delta.argumentsDelta;
        break;
      }
      case 'finish':
        sawFinish = true;
        finishReason = delta.finishReason;
        rawFinishReason = delta.rawFinishReason;
        stopSequence = delta.stopSequence;
        break;
      case 'usage':
        usage = delta.usage;
        break;
    }
  }
  const toolCalls: ChatToolCall[] = calls.filter((call) => call !== undefined);
  if (!sawFinish && toolCalls.length > 0) finishReason = 'tool_calls';
  return {
    model: stream.model,
    text,
    toolCalls,
    finishReason,
    ...(rawFinishReason === undefined ? {} : { rawFinishReason }),
    ...(usage === undefined ? {} : { usage }),
    ...(stopSequence === undefined ? {} : { stopSequence }),
    responseHeaders: stream.responseHeaders,
  };
}

/** The deltas a whole answer would have streamed (for a server that answered a stream request with JSON). */
export function resultToDeltas(result: Omit<ChatResult, 'responseHeaders'>): ChatStreamDelta[] {
  const deltas: ChatStreamDelta[] = [];
  if (result.text !== '') deltas.push({ kind: 'text', text: result.text });
  result.toolCalls.forEach((call, index) =>
    deltas.push({ kind: 'tool_call', index, id: call.id, name: call.name, argumentsDelta: call.arguments }),
  );
  deltas.push({
    kind: 'finish',
    finishReason: result.finishReason,
    rawFinishReason: result.rawFinishReason,
    ...(result.stopSequence === undefined ? {} : { stopSequence: result.stopSequence }),
  });
  if (result.usage !== undefined) deltas.push({ kind: 'usage', usage: result.usage });
  return deltas;
}
