/**
 * The bench's upstream: a minimal `node:http` server that answers the OpenAI chat-completions wire format with
 * a fixed answer, so every path under test (direct, bare proxy, understudy, Portkey) talks to the same thing and
 * the upstream itself adds as little as possible.
 *
 * - `POST …/chat/completions`: a fixed `chat.completion`, or with `"stream": true` an SSE stream whose first
 *   content chunk is written at once and the rest {@link STREAM_CHUNK_GAP_MS} apart.
 *   A streamed request with `max_tokens` ≥ {@link LONG_STREAM_MIN_TOKENS} gets that many one-character content
 *   chunks written back to back instead (the relayed-stream throughput figure).
 * - Any path containing `/limited/`: 429 with an OpenAI rate-limit body (the failing primary of the failover
 *   figure); its `finish` time is recorded.
 * - Any path containing `/fallback/`: the fixed answer; its arrival time is recorded.
 * - `GET /__events`: the recorded times (`performance.now()` of this process, ms) since the last call, which
 *   clears them. Only those two paths record, so long load runs keep no state.
 * - `GET /__counts`: requests per first path segment, for paths outside `/v1/` (e.g. `{"cool": 0}` proves a
 *   cooling primary was never called).
 *
 * Run as a process: `node dist/upstream/fixed-upstream.js [--port N]` prints `{"url":"http://127.0.0.1:N"}`.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

/** Milliseconds between the stream's content chunks after the first. */
const STREAM_CHUNK_GAP_MS = 1;

/** One recorded event of the failover figure. */
export interface UpstreamEvent {
  /** `limited-sent`: a 429 finished writing; `fallback-arrived`: a request reached the fallback path. */
  readonly kind: 'limited-sent' | 'fallback-arrived';
  /** `performance.now()` of the upstream process, ms. */
  readonly atMs: number;
}

const COMPLETION = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1_767_225_600,
  model: 'bench-model',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from the bench upstream.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 },
});

const RATE_LIMITED = JSON.stringify({
  error: {
    message: 'Rate limit reached for requests per minute on this bench model. Please try again later.',
    type: 'requests',
    param: null,
    code: 'rate_limit_exceeded',
  },
});

function chunk(delta: Record<string, unknown>, finishReason: string | null): string {
  return `data: ${JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1_767_225_600,
    model: 'bench-model',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  })}\n\n`;
}

const STREAM_HEAD = chunk({ role: 'assistant', content: '' }, null) + chunk({ content: 'Hello' }, null);
const STREAM_REST = [' from', ' the', ' bench', ' upstream.'].map((text) => chunk({ content: text }, null));
const STREAM_TAIL = `${chunk({}, 'stop')}data: [DONE]\n\n`;

/** From this `max_tokens` on, a streamed answer is that many content chunks written back to back. */
const LONG_STREAM_MIN_TOKENS = 1_000;

/** Whether the request asks for a stream, and how many back-to-back chunks (0: the short timed stream). */
function streamRequest(body: string): { readonly stream: boolean; readonly chunks: number } {
  try {
    const parsed = JSON.parse(body) as { stream?: unknown; max_tokens?: unknown };
    const tokens = typeof parsed.max_tokens === 'number' ? parsed.max_tokens : 0;
    return { stream: parsed.stream === true, chunks: tokens >= LONG_STREAM_MIN_TOKENS ? Math.floor(tokens) : 0 };
  } catch {
    return { stream: false, chunks: 0 };
  }
}

const LONG_CHUNK = chunk({ content: 'x' }, null);

/** Writes `count` one-character content chunks as fast as the socket takes them, then the tail. */
function sendLongStream(response: ServerResponse, count: number): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.write(chunk({ role: 'assistant', content: '' }, null));
  let sent = 0;
  const pump = (): void => {
    while (sent < count && !response.destroyed) {
      sent += 1;
      if (!response.write(LONG_CHUNK)) {
        response.once('drain', pump);
        return;
      }
    }
    if (!response.destroyed) response.end(STREAM_TAIL);
  };
  pump();
}

function sendStream(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.write(STREAM_HEAD);
  let index = 0;
  const next = (): void => {
    if (response.destroyed) return;
    const piece = STREAM_REST[index];
    index += 1;
    if (piece === undefined) {
      response.end(STREAM_TAIL);
      return;
    }
    response.write(piece);
    setTimeout(next, STREAM_CHUNK_GAP_MS);
  };
  setTimeout(next, STREAM_CHUNK_GAP_MS);
}

/** A running fixed upstream. */
export interface FixedUpstream {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts the fixed upstream on loopback.
 *
 * @example const upstream = await startFixedUpstream({ port: 0 }); await upstream.close();
 */
export async function startFixedUpstream(options: { readonly port?: number } = {}): Promise<FixedUpstream> {
  let events: UpstreamEvent[] = [];
  const counts: Record<string, number> = {};
  const handle = (request: IncomingMessage, response: ServerResponse, body: string, arrivedMs: number): void => {
    const url = request.url ?? '/';
    if (url === '/__counts') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(counts));
      return;
    }
    if (url === '/__events') {
      const taken = events;
      events = [];
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(taken));
      return;
    }
    if (request.method !== 'POST' || !url.endsWith('/chat/completions')) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `no endpoint ${request.method ?? ''} ${url}`, type: 'invalid_request_error' } }));
      return;
    }
    if (!url.startsWith('/v1/')) {
      const segment = url.split('/')[1] ?? '';
      counts[segment] = (counts[segment] ?? 0) + 1;
    }
    if (url.includes('/limited/')) {
      response.once('finish', () => events.push({ kind: 'limited-sent', atMs: performance.now() }));
      response.writeHead(429, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(RATE_LIMITED) });
      response.end(RATE_LIMITED);
      return;
    }
    if (url.includes('/fallback/')) events.push({ kind: 'fallback-arrived', atMs: arrivedMs });
    const asked = streamRequest(body);
    if (asked.stream) {
      if (asked.chunks > 0) sendLongStream(response, asked.chunks);
      else sendStream(response);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(COMPLETION) });
    response.end(COMPLETION);
  };
  const server: Server = createServer({ keepAliveTimeout: 65_000 }, (request, response) => {
    const arrivedMs = performance.now();
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (piece: string) => (body += piece));
    request.on('end', () => handle(request, response, body, arrivedMs));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const invokedDirectly = process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(import.meta.filename);
if (invokedDirectly) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } }, strict: true });
  const upstream = await startFixedUpstream({ port: Number(values.port) });
  process.stdout.write(`${JSON.stringify({ url: upstream.url })}\n`);
  const stop = (): void => {
    void upstream.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
