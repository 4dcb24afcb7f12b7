/**
 * An OTLP/HTTP trace sink for the `understudy-traced` target (docs/operations.md#observability): a loopback
 * `node:http` server in the bench process that answers every export with 200 and counts the requests and the
 * spans they carried, so the bench can say the traced gateway really exported while it was measured.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running sink. */
export interface OtlpSink {
  /** The base endpoint (`telemetry.otlp.endpoint`): exports arrive at `/v1/traces`. */
  readonly url: string;
  /** Export requests and spans received so far. */
  counts(): { readonly requests: number; readonly spans: number };
  close(): Promise<void>;
}

/** Starts the sink on 127.0.0.1, port 0. */
export async function startOtlpSink(): Promise<OtlpSink> {
  let requests = 0;
  let spans = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests += 1;
      // Each span of the JSON encoding carries exactly one "spanId" key.
      spans += Buffer.concat(chunks).toString('utf8').split('"spanId"').length - 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts: () => ({ requests, spans }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
