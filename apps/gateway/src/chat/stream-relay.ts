/**
 * Relays a started answer stream to the client as SSE: the fallback notice as a comment line first, then the
 * deltas re-encoded in the client's wire format (so a malformed upstream chunk can never reach the client),
 * then the format's end. A failure after output either goes on with a continuation of the answer on another
 * candidate (docs/policy.md#continuing-a-broken-stream), in the same SSE stream, or ends the stream with an
 * explicit error event, never a clean-looking end; a client that leaves cancels the upstream request.
 */
import type { ProviderFailure } from '@understudy/contracts';
import type { ChatStream, ChatUsage } from '@understudy/providers';
import { ProviderCallError } from '@understudy/providers';
import type { GatewayError } from '../gateway-error.js';
import type { SseSink } from '../http/respond.js';
import type { StreamEncoder } from '../wire/dialect.js';
import { sseComment } from '../wire/dialect.js';

/** How a relay ended: `continued` is a complete answer that a continuation finished. */
export type RelayOutcome = 'complete' | 'continued' | 'failed' | 'client_gone';

/** What reached the client before a stream broke. */
export interface StreamProgress {
  /** The answer text sent so far (every `text` delta, in order). */
  readonly text: string;
  /** A tool-call delta was sent (such an answer is never continued). */
  readonly sawToolCall: boolean;
  /** The encoder can go on with the deltas of another stream (see `StreamEncoder.resume`). */
  readonly resumable: boolean;
}

/** What to do about a failure after output: end with `error`, or go on with `stream`. */
export type AfterOutput = { readonly kind: 'end'; readonly error: GatewayError } | { readonly kind: 'continue'; readonly stream: ChatStream };

/**
 * Relays `stream` to `sink`.
 *
 * @param onFailure - records a failure after output and decides: the error to end with, or a continuation
 *   stream whose deltas go on in the same answer (through `encoder.resume()`).
 * @param onError - turns any other error into the error to send.
 * @param onUsage - told every `usage` delta (they are relayed as usual too).
 */
export async function relayStream(options: {
  readonly sink: SseSink;
  readonly encoder: StreamEncoder;
  readonly stream: ChatStream;
  readonly notice?: string | undefined;
  readonly onFailure: (failure: ProviderFailure, progress: StreamProgress) => Promise<AfterOutput>;
  readonly onError: (error: unknown) => GatewayError;
  /** Told each token usage the streams report (the last one wins), when given; a traced turn keeps it. */
  readonly onUsage?: ((usage: ChatUsage) => void) | undefined;
}): Promise<RelayOutcome> {
  const { sink } = options;
  let encoder = options.encoder;
  let stream = options.stream;
  let continued = false;
  let text = '';
  let sawToolCall = false;
  const cancelOnClose = (): void => stream.cancel();
  sink.onClose(cancelOnClose);
  try {
    if (options.notice !== undefined) await sink.write(sseComment(`understudy-notice ${options.notice}`));
    for (;;) {
      try {
        for await (const delta of stream) {
          if (sink.closed) return 'client_gone';
          if (delta.kind === 'text') text += delta.text;
          else if (delta.kind === 'tool_call') sawToolCall = true;
          else if (delta.kind === 'usage') options.onUsage?.(delta.usage);
          await sink.write(encoder.delta(delta));
        }
        break;
      } catch (error) {
        if (sink.closed) return 'client_gone';
        if (!ProviderCallError.isInstance(error)) throw error;
        const resumed = continued ? undefined : encoder.resume?.();
        const next = await options.onFailure(error.failure, { text, sawToolCall, resumable: resumed !== undefined });
        if (next.kind === 'end' || resumed === undefined) {
          sink.end(encoder.error(next.kind === 'end' ? next.error : options.onError(error)));
          if (next.kind === 'continue') next.stream.cancel();
          return 'failed';
        }
        if (sink.closed) {
          next.stream.cancel();
          return 'client_gone';
        }
        encoder = resumed;
        stream = next.stream;
        continued = true;
      }
    }
    if (sink.closed) return 'client_gone';
    sink.end(encoder.end());
    return continued ? 'continued' : 'complete';
  } catch (error) {
    if (sink.closed) return 'client_gone';
    sink.end(encoder.error(options.onError(error)));
    return 'failed';
  } finally {
    sink.offClose(cancelOnClose);
  }
}
