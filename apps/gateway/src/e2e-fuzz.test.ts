/**
 * The hostile-input fuzzer (issue 20): fast-check generates raw HTTP requests (see
 * `test-support/hostile-requests.ts`) and sends them, eight at a time, over raw sockets to a real gateway process
 * whose upstreams are a healthy emulator. It fails on any 5xx, on the process ending, on an error body outside
 * the dialect's wire format, and on an auth profile marked when its key never got a failing upstream answer.
 *
 * Bounded by time in `pnpm test` (`UNDERSTUDY_FUZZ_SECONDS`, default 30); `UNDERSTUDY_FUZZ_REQUESTS=100000`
 * runs that many requests instead, however long it takes. `UNDERSTUDY_FUZZ_SEED` replays a run.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixture } from './test-support/e2e-fixture.js';
import { KEYS, startFixture, tail } from './test-support/e2e-fixture.js';
import type { HostileRequest } from './test-support/hostile-requests.js';
import { hostileRequest } from './test-support/hostile-requests.js';
import { rawClient } from './test-support/in-process-gateway.js';

const BATCH = 8;
const requestsWanted = Number(process.env['UNDERSTUDY_FUZZ_REQUESTS'] ?? '0');
const seconds = Number(process.env['UNDERSTUDY_FUZZ_SECONDS'] ?? '30');
const seed = process.env['UNDERSTUDY_FUZZ_SEED'] === undefined ? undefined : Number(process.env['UNDERSTUDY_FUZZ_SEED']);

let fixture: Fixture;

beforeAll(async () => {
  fixture = await startFixture({ gateway: { maxRequestBytes: 1_048_576, logLevel: 'warn' } });
});

afterAll(async () => {
  await fixture?.stop();
});

/** Sends one request and resolves with what came back once the server closed the connection (10 s at most). */
async function send(port: number, request: HostileRequest): Promise<string> {
  const client = await rawClient(port);
  client.write(request.text);
  const timer = setTimeout(() => client.destroy(), 10_000);
  try {
    return await client.closed;
  } finally {
    clearTimeout(timer);
  }
}

/** The dialect whose error shape a request's answer must have, by its path (as the router reads it). */
function dialectOf(target: string): 'openai' | 'anthropic' | 'either' {
  let path: string;
  try {
    path = target.startsWith('/') ? new URL(`http://x${target}`).pathname : new URL(target).pathname;
  } catch {
    return 'openai';
  }
  if (path === '/v1/messages' || path === '/messages') return 'anthropic';
  // /v1/models answers in Anthropic's shape when the request carries anthropic-version.
  return path === '/v1/models' || path === '/models' ? 'either' : 'openai';
}

function isOpenAIError(body: unknown): boolean {
  const error = (body as { error?: { message?: unknown; type?: unknown } } | null)?.error;
  return typeof error === 'object' && error !== null && typeof error.message === 'string' && typeof error.type === 'string';
}

function isAnthropicError(body: unknown): boolean {
  const record = body as { type?: unknown; error?: { message?: unknown; type?: unknown } } | null;
  return record?.type === 'error' && typeof record.error?.message === 'string' && typeof record.error.type === 'string';
}

/** What is wrong with one answer (`undefined`: nothing). Answers to chunked responses are not read as JSON. */
function problemOf(request: HostileRequest, received: string): string | undefined {
  if (received === '') return request.brokenFraming ? undefined : 'no answer to a well-framed request';
  const split = received.indexOf('\r\n\r\n');
  const head = split === -1 ? received : received.slice(0, split);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  if (!Number.isInteger(status)) return `no status line: ${JSON.stringify(head.slice(0, 80))}`;
  if (status >= 500) return `status ${status}: ${received.slice(split + 4, split + 400)}`;
  // An answer to HEAD has no body, by definition.
  if (status < 400 || request.method === 'HEAD') return undefined;
  const lowerHead = head.toLowerCase();
  if (!lowerHead.includes('content-type: application/json')) return `error ${status} without a JSON body`;
  if (lowerHead.includes('transfer-encoding: chunked')) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(received.slice(split + 4));
  } catch {
    return `error ${status} whose body is not JSON`;
  }
  const dialect = dialectOf(request.target);
  // Node refuses some requests before any route is known (400 "not valid HTTP", 431): OpenAI's shape then.
  const preRoute = request.brokenFraming && isOpenAIError(body);
  if (dialect === 'anthropic' && !isAnthropicError(body) && !preRoute) return `error ${status} outside Anthropic's format`;
  if (dialect === 'openai' && !isOpenAIError(body)) return `error ${status} outside OpenAI's format`;
  if (dialect === 'either' && !isOpenAIError(body) && !isAnthropicError(body)) return `error ${status} in neither format`;
  return undefined;
}

const FINGERPRINT_OF_PROFILE: Readonly<Record<string, string>> = {
  'openai:a': tail(KEYS.openaiA),
  'openai:b': tail(KEYS.openaiB),
};

describe('hostile raw HTTP against a real gateway', () => {
  it(
    'never answers 5xx, never dies, keeps the wire format of errors and marks no profile without an upstream failure',
    async () => {
      const port = Number(new URL(fixture.gateway.url).port);
      const failingKeys = new Set<string>();
      const collectUpstream = async (): Promise<void> => {
        for (const record of await fixture.emulator.requests()) {
          if (!record.outcome.startsWith('ok') && record.keyFingerprint !== null) failingKeys.add(record.keyFingerprint);
        }
        await fixture.emulator.clearRequests();
      };
      let sent = 0;
      let unanswered = 0;
      const problems: string[] = [];
      const started = Date.now();
      await fc.assert(
        fc.asyncProperty(fc.array(hostileRequest, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
          const answers = await Promise.all(batch.map((request) => send(port, request)));
          sent += batch.length;
          batch.forEach((request, index) => {
            const received = answers[index] ?? '';
            if (received === '') unanswered += 1;
            const problem = problemOf(request, received);
            if (problem !== undefined && problems.length < 20) problems.push(`${problem}\n  request: ${JSON.stringify(request.text.slice(0, 300))}`);
          });
          if (fixture.gateway.child.exitCode !== null) throw new Error(`the gateway exited (${fixture.gateway.child.exitCode})\n${fixture.gateway.stderr().slice(-2000)}`);
          if (problems.length > 0) throw new Error(problems.join('\n'));
          if (sent % 800 === 0) await collectUpstream();
        }),
        {
          numRuns: requestsWanted > 0 ? Math.ceil(requestsWanted / BATCH) : 1_000_000,
          ...(requestsWanted > 0 ? {} : { interruptAfterTimeLimit: seconds * 1000, markInterruptAsFailure: false }),
          ...(seed === undefined ? {} : { seed }),
          endOnFailure: true,
        },
      );
      await collectUpstream();
      const { json } = await fixture.admin('GET', '/admin/profiles');
      const profiles = (json as { profiles: { id: string; usageStats: Record<string, unknown> }[] }).profiles;
      const wronglyMarked = profiles.filter((profile) => {
        const stats = profile.usageStats;
        const marked = stats['errorCount'] !== undefined || stats['cooldownUntil'] !== undefined || stats['disabledUntil'] !== undefined;
        const fingerprint = FINGERPRINT_OF_PROFILE[profile.id];
        return marked && (fingerprint === undefined || !failingKeys.has(fingerprint));
      });
      const summary = { sent, unanswered, seconds: Math.round((Date.now() - started) / 1000), wronglyMarked: wronglyMarked.map((profile) => profile.id) };
      process.stdout.write(`fuzz: ${JSON.stringify(summary)}\n`);
      expect(wronglyMarked).toEqual([]);
      expect(fixture.gateway.child.exitCode).toBeNull();
      expect(fixture.gateway.stderr()).not.toContain('request handling failed unexpectedly');
      expect((await fetch(`${fixture.gateway.url}/healthz`)).status).toBe(200);
    },
    (requestsWanted > 0 ? 3_600 : seconds + 60) * 1000,
  );
});
