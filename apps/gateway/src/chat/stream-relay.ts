/**
 * Relays a started answer stream to the client as SSE: the fallback notice as a comment line first, then the
 * deltas re-encoded in the client's wire format (so a malformed upstream chunk can never reach the client),
 * then the format's end. A failure after output ends the stream with an explicit error event, never a
 * clean-looking end; a client that leaves cancels the upstream request.
 */
import type { ProviderFailure } from '@understudy/contracts';
import type { ChatStream } from '@understudy/providers';
import { ProviderCallError } from '@understudy/providers';
import type { GatewayError } from '../gateway-error.js';
import type { SseSink } from '../http/respond.js';
import type { StreamEncoder } from '../wire/dialect.js';
import { sseComment } from '../wire/dialect.js';

/** How a relay ended. */
export type RelayOutcome = 'complete' | 'failed' | 'client_gone';

/**
 * Relays `stream` to `sink`.
 *
 * @param onFailure - turns a failure after output into the error to send (and records it).
 * @param onError - turns any other error into the error to send.
 */
export async function relayStream(options: {
  readonly sink: SseSink;
  readonly encoder: StreamEncoder;
  readonly stream: ChatStream;
  readonly notice?: string | undefined;
  readonly onFailure: (failure: ProviderFailure) => Promise<GatewayError>;
  readonly onError: (error: unknown) => GatewayError;
}): Promise<RelayOutcome> {
  const { sink, encoder, stream } = options;
  const cancelOnClose = (): void => stream.cancel();
  sink.onClose(cancelOnClose);
  try {
    if (options.notice !== undefined) await sink.write(sseComment(`understudy-notice ${options.notice}`));
    for await (const delta of stream) {
      if (sink.closed) return 'client_gone';
      await sink.write(encoder.delta(delta));
    }
    if (sink.closed) return 'client_gone';
    sink.end(encoder.end());
    return 'complete';
  } catch (error) {
    if (sink.closed) return 'client_gone';
    const gatewayError = ProviderCallError.isInstance(error) ? await options.onFailure(error.failure) : options.onError(error);
    sink.end(encoder.error(gatewayError));
    return 'failed';
  } finally {
    sink.offClose(cancelOnClose);
  }
}
