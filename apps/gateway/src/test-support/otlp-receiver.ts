/**
 * A small OTLP/HTTP trace receiver on loopback port 0 for the tests (JSON encoding, the encoding the gateway's
 * exporter sends): it keeps every export request and flattens the spans they carry.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One OTLP JSON attribute value. */
interface AnyValue {
  readonly stringValue?: string;
  readonly intValue?: number | string;
  readonly boolValue?: boolean;
  readonly doubleValue?: number;
}

/** A received span: ids as hex, attributes flattened to plain values. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly name: string;
  /** OTLP span kind: 2 server, 3 client. */
  readonly kind: number;
  readonly startTimeUnixNano: bigint;
  readonly endTimeUnixNano: bigint;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  readonly statusCode: number;
  readonly statusMessage: string | undefined;
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
  readonly resource: Readonly<Record<string, string | number | boolean>>;
}

/** A running receiver. */
export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>` (the base endpoint: exports go to `/v1/traces`). */
  readonly url: string;
  /** Every request received, path and content type. */
  readonly requests: readonly { readonly path: string; readonly contentType: string | undefined }[];
  spans(): readonly ReceivedSpan[];
  close(): Promise<void>;
}

function plain(value: AnyValue | undefined): string | number | boolean {
  if (value?.stringValue !== undefined) return value.stringValue;
  if (value?.intValue !== undefined) return Number(value.intValue);
  if (value?.boolValue !== undefined) return value.boolValue;
  return value?.doubleValue ?? '';
}

function attributesOf(list: readonly { key: string; value: AnyValue }[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const entry of list ?? []) out[entry.key] = plain(entry.value);
  return out;
}

/** Starts a receiver on 127.0.0.1, port 0. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: { path: string; contentType: string | undefined }[] = [];
  const spans: ReceivedSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ path: request.url ?? '', contentType: request.headers['content-type'] });
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans?: {
            resource?: { attributes?: { key: string; value: AnyValue }[] };
            scopeSpans?: { spans?: Record<string, unknown>[] }[];
          }[];
        };
        for (const resourceSpans of body.resourceSpans ?? []) {
          const resource = attributesOf(resourceSpans.resource?.attributes);
          for (const scope of resourceSpans.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              const status = span['status'] as { code?: number; message?: string } | undefined;
              const parent = span['parentSpanId'] as string | undefined;
              spans.push({
                traceId: String(span['traceId']),
                spanId: String(span['spanId']),
                parentSpanId: parent === undefined || parent === '' ? undefined : parent,
                name: String(span['name']),
                kind: Number(span['kind']),
                startTimeUnixNano: BigInt(String(span['startTimeUnixNano'])),
                endTimeUnixNano: BigInt(String(span['endTimeUnixNano'])),
                statusCode: status?.code ?? 0,
                statusMessage: status?.message,
                attributes: attributesOf(span['attributes'] as { key: string; value: AnyValue }[] | undefined),
                resource,
              });
            }
          }
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch {
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    spans: () => spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
