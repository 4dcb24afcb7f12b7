/**
 * Throughput: autocannon at a fixed concurrency against one target for a fixed time, counting only 200s.
 */
import autocannon from 'autocannon';
import { BenchError } from '../errors.js';
import type { HttpTarget } from './target.js';
import { chatBody } from './target.js';

/** What one load run measured. */
export interface LoadResult {
  /** Completed 2xx requests per second over the run. */
  readonly requestsPerSecond: number;
  readonly requests: number;
  readonly seconds: number;
  /** 99th percentile latency of the run's requests, ms (autocannon's own histogram). */
  readonly p99Ms: number;
}

/**
 * Runs autocannon with `connections` keep-alive connections for `seconds`.
 *
 * @throws {BenchError} `bad_answer` when any answer is not a 2xx or a connection failed (a figure over failures
 *   would flatter the target).
 */
export async function measureThroughput(target: HttpTarget, connections: number, seconds: number): Promise<LoadResult> {
  const result = await autocannon({
    url: `${target.origin}${target.path}`,
    method: 'POST',
    headers: { ...target.headers },
    body: chatBody(target, false),
    connections,
    duration: seconds,
    pipelining: 1,
    timeout: 10,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new BenchError(`${target.name} under load: ${result.non2xx} non-2xx answers, ${result.errors} connection errors (${result['2xx']} ok)`, 'bad_answer');
  }
  return { requestsPerSecond: result['2xx'] / result.duration, requests: result['2xx'], seconds: result.duration, p99Ms: result.latency.p99 };
}
