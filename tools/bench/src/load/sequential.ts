/**
 * Sequential timing: one keep-alive connection per target, one request at a time, wall time per request from
 * sending to the last byte of the answer (or, for streams, to the first content chunk).
 */
import { performance } from 'node:perf_hooks';
import { Client } from 'undici';
import { BenchError } from '../errors.js';
import type { HttpTarget } from './target.js';
import { chatBody } from './target.js';

/** A target with its own keep-alive connection. */
export interface TimedTarget {
  readonly target: HttpTarget;
  readonly client: Client;
}

/** Opens one keep-alive connection per target. */
export function connect(target: HttpTarget): TimedTarget {
  return { target, client: new Client(target.origin, { pipelining: 1, keepAliveTimeout: 60_000 }) };
}

function fail(target: HttpTarget, status: number, text: string): never {
  throw new BenchError(`${target.name} answered ${status} instead of 200: ${text.slice(0, 300)}`, 'bad_answer');
}

/**
 * Sends one whole (non-streamed) request and returns its answer, for checks before measuring.
 *
 * @throws {BenchError} `bad_answer` for a status other than 200.
 */
export async function sendOnce(timed: TimedTarget, stream = false): Promise<{ readonly headers: Record<string, string | string[] | undefined>; readonly text: string }> {
  const answer = await timed.client.request({ method: 'POST', path: timed.target.path, headers: timed.target.headers, body: chatBody(timed.target, stream) });
  const text = await answer.body.text();
  if (answer.statusCode !== 200) fail(timed.target, answer.statusCode, text);
  return { headers: answer.headers, text };
}

/**
 * Times `count` sequential whole requests after `warmup` untimed ones; milliseconds per request. `body` defaults
 * to the small chat body of {@link chatBody}.
 *
 * @throws {BenchError} `bad_answer` on the first answer that is not a 200.
 */
export async function timeRequests(timed: TimedTarget, count: number, warmup: number, body = chatBody(timed.target, false)): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < warmup + count; index += 1) {
    const start = performance.now();
    const answer = await timed.client.request({ method: 'POST', path: timed.target.path, headers: timed.target.headers, body });
    const text = await answer.body.text();
    const elapsed = performance.now() - start;
    if (answer.statusCode !== 200) fail(timed.target, answer.statusCode, text);
    if (index >= warmup) times.push(elapsed);
  }
  return times;
}

/**
 * Whether an SSE buffer holds a `data:` event with non-empty assistant text (OpenAI `choices[0].delta.content`).
 * Lines that are not complete JSON are ignored (the rest of the event is still to come).
 *
 * @example hasContentChunk('data: {"choices":[{"delta":{"content":"Hi"}}]}\n\n') // true
 */
export function hasContentChunk(buffer: string): boolean {
  for (const line of buffer.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '' || data === '[DONE]') continue;
    try {
      const event = JSON.parse(data) as { choices?: { delta?: { content?: unknown } }[] };
      const content = event.choices?.[0]?.delta?.content;
      if (typeof content === 'string' && content !== '') return true;
    } catch {
      // an event split across reads
    }
  }
  return false;
}

/**
 * Times `count` sequential streamed requests after `warmup` untimed ones: milliseconds from sending to the
 * first chunk that carries content. Each stream is read to its end before the next request.
 *
 * @throws {BenchError} `bad_answer` for a non-200 answer or a stream without content.
 */
export async function timeFirstContent(timed: TimedTarget, count: number, warmup: number): Promise<number[]> {
  const body = chatBody(timed.target, true);
  const times: number[] = [];
  for (let index = 0; index < warmup + count; index += 1) {
    const start = performance.now();
    const answer = await timed.client.request({ method: 'POST', path: timed.target.path, headers: timed.target.headers, body });
    if (answer.statusCode !== 200) fail(timed.target, answer.statusCode, await answer.body.text());
    let firstContentMs: number | undefined;
    let buffer = '';
    answer.body.setEncoding('utf8');
    for await (const piece of answer.body) {
      if (firstContentMs !== undefined) continue;
      buffer += piece as string;
      if (hasContentChunk(buffer)) firstContentMs = performance.now() - start;
    }
    if (firstContentMs === undefined) throw new BenchError(`${timed.target.name} streamed no content chunk: ${buffer.slice(0, 300)}`, 'bad_answer');
    if (index >= warmup) times.push(firstContentMs);
  }
  return times;
}

/** Sums the assistant text of every complete SSE `data:` event in `text` (OpenAI `choices[0].delta.content`). */
export function streamedContentLength(text: string): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '' || data === '[DONE]') continue;
    try {
      const content = (JSON.parse(data) as { choices?: { delta?: { content?: unknown } }[] }).choices?.[0]?.delta?.content;
      if (typeof content === 'string') total += content.length;
    } catch {
      // not an event this reader counts
    }
  }
  return total;
}

/**
 * Relays `count` streams of `chunks` one-character content chunks each (the upstream writes them back to back):
 * content chunks per second from sending to the stream's end, one value per stream.
 *
 * @throws {BenchError} `bad_answer` for a non-200 answer or a stream that lost content.
 */
export async function timeLongStreams(timed: TimedTarget, count: number, chunks: number): Promise<number[]> {
  const body = JSON.stringify({ ...(JSON.parse(chatBody(timed.target, true)) as Record<string, unknown>), max_tokens: chunks });
  const rates: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const start = performance.now();
    const answer = await timed.client.request({ method: 'POST', path: timed.target.path, headers: timed.target.headers, body });
    const text = await answer.body.text();
    const seconds = (performance.now() - start) / 1000;
    if (answer.statusCode !== 200) fail(timed.target, answer.statusCode, text);
    const received = streamedContentLength(text);
    if (received !== chunks) throw new BenchError(`${timed.target.name} relayed ${received} of ${chunks} streamed characters`, 'bad_answer');
    rates.push(chunks / seconds);
  }
  return rates;
}
