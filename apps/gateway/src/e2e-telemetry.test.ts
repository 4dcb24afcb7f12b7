/**
 * OpenTelemetry traces end to end (docs/operations.md#observability): the real gateway process exports to a
 * small OTLP/HTTP receiver on loopback while the emulator's primary answers 429 and the fallback answers. The
 * turn span continues the caller's `traceparent`, has one child per attempt with the GenAI attributes, and the
 * failed attempt's status is an error; the spans are flushed when the gateway drains. Without an endpoint no
 * OpenTelemetry module is loaded and nothing is exported.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, fixtureConfig, seedProfiles } from './test-support/e2e-fixture.js';
import type { OtlpReceiver, ReceivedSpan } from './test-support/otlp-receiver.js';
import { startOtlpReceiver } from './test-support/otlp-receiver.js';
import type { EmulatorProcess } from './test-support/processes.js';
import { startEmulator, startGateway } from './test-support/processes.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN_ID = '00f067aa0ba902b7';
const RATE_LIMIT = { status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit reached for gpt-a', type: 'requests', code: 'rate_limit_exceeded' } } };

let emulator: EmulatorProcess;
let receiver: OtlpReceiver;
let hooksDir: string;

/** A module-resolution hook that writes down every `@opentelemetry` module the process loads. */
function loadRecorder(logFile: string): Record<string, string> {
  const hooks = path.join(hooksDir, 'hooks.mjs');
  const register = path.join(hooksDir, 'register.mjs');
  fs.writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (result.url.includes('@opentelemetry')) appendFileSync(log, result.url + '\\n');
  return result;
}
`,
  );
  fs.writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)}, { data: { log: ${JSON.stringify(logFile)} } });\n`);
  return { NODE_OPTIONS: `--import=${pathToFileURL(register).href}` };
}

/** The fixture config with no same-profile retry and no rotation after a rate limit: 429 → the next model at once. */
function config(telemetry: Record<string, unknown> | undefined): Record<string, unknown> {
  const base = fixtureConfig(emulator.url);
  return {
    ...base,
    retry: { provider: { maxRetries: 0 } },
    auth: { ...(base['auth'] as Record<string, unknown>), cooldowns: { rateLimitedProfileRotations: 0 } },
    ...(telemetry === undefined ? {} : { telemetry }),
  };
}

async function ask(gatewayUrl: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: 'default', messages: [{ role: 'user', content: 'hello trace' }] }),
  });
}

beforeAll(async () => {
  emulator = await startEmulator({ routes: [{ match: { api: 'openai-completions', model: 'gpt-a' }, steps: [RATE_LIMIT] }] });
  receiver = await startOtlpReceiver();
  hooksDir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-otel-hooks-'));
});

afterAll(async () => {
  await emulator?.stop();
  await receiver?.close();
  if (hooksDir !== undefined) fs.rmSync(hooksDir, { recursive: true, force: true });
});

describe('a turn that fell back, traced', () => {
  let spans: readonly ReceivedSpan[];
  let loaded: string;
  let answer: Response;

  beforeAll(async () => {
    const logFile = path.join(hooksDir, 'loaded-on.txt');
    const gateway = await startGateway({
      config: config({ otlp: { endpoint: receiver.url }, serviceName: 'understudy-e2e' }),
      env: { TEST_ANTHROPIC_KEY: KEYS.anthropic, ...loadRecorder(logFile) },
      prepare: seedProfiles,
    });
    try {
      answer = await ask(gateway.url, { traceparent: `00-${TRACE_ID}-${CALLER_SPAN_ID}-01`, tracestate: 'vendor=1' });
      await answer.text();
    } finally {
      // The batch is flushed on drain: the spans are at the receiver once the process exited.
      expect(await gateway.stop()).toBe(0);
    }
    spans = receiver.spans();
    loaded = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
  });

  it('answered from the fallback', () => {
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-understudy-model')).toBe('anthropic/claude-b');
    expect(receiver.requests.every((request) => request.path === '/v1/traces' && request.contentType === 'application/json')).toBe(true);
    expect(loaded).toContain('@opentelemetry');
  });

  it('continues the caller trace: the turn span is a child of its traceparent, with one child span per attempt', () => {
    expect(spans).toHaveLength(3);
    const turn = spans.find((span) => span.parentSpanId === CALLER_SPAN_ID);
    expect(turn).toBeDefined();
    expect(spans.every((span) => span.traceId === TRACE_ID)).toBe(true);
    const attempts = spans.filter((span) => span.parentSpanId === turn?.spanId);
    expect(attempts).toHaveLength(2);
    expect(turn?.kind).toBe(2);
    expect(attempts.map((span) => span.kind)).toEqual([3, 3]);
    // The attempts lie inside the turn, in order.
    const [first, second] = [...attempts].sort((a, b) => Number(a.startTimeUnixNano - b.startTimeUnixNano));
    expect(first?.attributes['gen_ai.provider.name']).toBe('openai');
    expect(second?.attributes['gen_ai.provider.name']).toBe('anthropic');
    expect((first?.endTimeUnixNano ?? 0n) <= (second?.startTimeUnixNano ?? 0n)).toBe(true);
    expect((turn?.startTimeUnixNano ?? 0n) <= (first?.startTimeUnixNano ?? 0n)).toBe(true);
    expect((second?.endTimeUnixNano ?? 0n) <= (turn?.endTimeUnixNano ?? 0n)).toBe(true);
    expect(turn?.resource['service.name']).toBe('understudy-e2e');
  });

  it('carries the GenAI and understudy attributes, and an error status on the failed attempt', () => {
    const turn = spans.find((span) => span.parentSpanId === CALLER_SPAN_ID);
    expect(turn?.name).toBe('chat default');
    expect(turn?.statusCode).toBe(0);
    expect(turn?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'default',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.response.model': 'claude-b',
      'understudy.profile': 'anthropic:inline',
      'understudy.fallback.reason': 'rate_limit',
      'understudy.attempts': 2,
    });
    const failed = spans.find((span) => span.attributes['gen_ai.provider.name'] === 'openai');
    expect(failed?.name).toBe('chat gpt-a');
    expect(failed?.statusCode).toBe(2);
    expect(failed?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-a',
      'understudy.profile': 'openai:a',
      'understudy.attempt.kind': 'call',
      'understudy.failover.reason': 'rate_limit',
      'error.type': 'rate_limit',
      'http.response.status_code': 429,
    });
    expect(failed?.attributes['gen_ai.response.model']).toBeUndefined();
    const answered = spans.find((span) => span.attributes['gen_ai.provider.name'] === 'anthropic' && span.spanId !== turn?.spanId);
    expect(answered?.statusCode).toBe(0);
    expect(answered?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'claude-b',
      'gen_ai.response.model': 'claude-b',
      'understudy.profile': 'anthropic:inline',
      'understudy.attempt.kind': 'call',
    });
    expect(answered?.attributes['gen_ai.usage.input_tokens']).toEqual(expect.any(Number));
    expect(answered?.attributes['gen_ai.usage.output_tokens']).toEqual(expect.any(Number));
    expect(answered?.attributes['understudy.failover.reason']).toBeUndefined();
  });

  it('never exports a secret', () => {
    const text = JSON.stringify(spans, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
    for (const key of Object.values(KEYS)) expect(text).not.toContain(key);
  });
});

describe('a streamed turn that fell back, traced', () => {
  it('spans the stream to its end, with the usage the stream reported', async () => {
    const before = receiver.spans().length;
    const gateway = await startGateway({
      config: config({ otlp: { endpoint: receiver.url } }),
      env: { TEST_ANTHROPIC_KEY: KEYS.anthropic },
      prepare: seedProfiles,
    });
    let text: string;
    try {
      const response = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: `00-${TRACE_ID}-${CALLER_SPAN_ID}-01` },
        body: JSON.stringify({ model: 'default', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hello stream' }] }),
      });
      expect(response.headers.get('x-understudy-model')).toBe('anthropic/claude-b');
      text = await response.text();
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
    expect(text).toContain('[DONE]');
    const fresh = receiver.spans().slice(before);
    const turn = fresh.find((span) => span.parentSpanId === CALLER_SPAN_ID);
    expect(turn?.attributes).toMatchObject({ 'understudy.stream': true, 'gen_ai.provider.name': 'anthropic', 'understudy.fallback.reason': 'rate_limit' });
    expect(turn?.attributes['gen_ai.usage.output_tokens']).toEqual(expect.any(Number));
    const attempts = fresh.filter((span) => span.parentSpanId === turn?.spanId);
    expect(attempts.map((span) => [span.attributes['gen_ai.provider.name'], span.statusCode])).toEqual([
      ['openai', 2],
      ['anthropic', 0],
    ]);
    // The turn span lasts to the end of the stream, past the answering attempt (which ends at its first content).
    expect((turn?.endTimeUnixNano ?? 0n) >= (attempts[1]?.endTimeUnixNano ?? 0n)).toBe(true);
  });
});

describe('a turn that failed, traced', () => {
  it('marks the turn span an error with the code the client got, every attempt an error', async () => {
    const before = receiver.spans().length;
    // Every provider answers 503 "Service unavailable" (an overload): the chain is exhausted.
    const down = { status: 503, body: { error: { message: 'Service unavailable', type: 'server_error' } } };
    await emulator.setScript({ routes: [{ match: {}, steps: [down] }] });
    const gateway = await startGateway({ config: config({ otlp: { endpoint: receiver.url } }), env: { TEST_ANTHROPIC_KEY: KEYS.anthropic }, prepare: seedProfiles });
    let status: number;
    let body: string;
    try {
      const response = await ask(gateway.url, { traceparent: `00-${TRACE_ID}-${CALLER_SPAN_ID}-01` });
      status = response.status;
      body = await response.text();
    } finally {
      expect(await gateway.stop()).toBe(0);
      await emulator.setScript({ routes: [{ match: { api: 'openai-completions', model: 'gpt-a' }, steps: [RATE_LIMIT] }] });
    }
    expect(status).toBeGreaterThanOrEqual(500);
    const code = (JSON.parse(body) as { error?: { code?: string } }).error?.code;
    const fresh = receiver.spans().slice(before);
    const turn = fresh.find((span) => span.parentSpanId === CALLER_SPAN_ID);
    expect(turn?.statusCode).toBe(2);
    expect(turn?.attributes['error.type']).toBe(code);
    expect(turn?.attributes['gen_ai.response.model']).toBeUndefined();
    const attempts = fresh.filter((span) => span.parentSpanId === turn?.spanId);
    expect(attempts.length).toBeGreaterThanOrEqual(3);
    expect(attempts.every((span) => span.statusCode === 2 && span.attributes['understudy.failover.reason'] === 'overloaded')).toBe(true);
  });
});

describe('without an OTLP endpoint', () => {
  it('loads no OpenTelemetry module and exports nothing', async () => {
    const before = receiver.requests.length;
    const logFile = path.join(hooksDir, 'loaded-off.txt');
    const gateway = await startGateway({ config: config(undefined), env: { TEST_ANTHROPIC_KEY: KEYS.anthropic, ...loadRecorder(logFile) }, prepare: seedProfiles });
    try {
      const response = await ask(gateway.url, { traceparent: `00-${TRACE_ID}-${CALLER_SPAN_ID}-01` });
      expect(response.status).toBe(200);
      await response.text();
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
    expect(receiver.requests.length).toBe(before);
    expect(fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '').toBe('');
    expect(gateway.stderr()).not.toContain('exporting OpenTelemetry traces');
  });

  it('exports to OTEL_EXPORTER_OTLP_ENDPOINT when only the standard variable is set', async () => {
    const before = receiver.spans().length;
    const gateway = await startGateway({
      config: config(undefined),
      env: { TEST_ANTHROPIC_KEY: KEYS.anthropic, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
      prepare: seedProfiles,
    });
    try {
      await (await ask(gateway.url)).text();
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
    const fresh = receiver.spans().slice(before);
    expect(fresh).toHaveLength(3);
    // No caller trace: the turn span is a root.
    expect(fresh.filter((span) => span.parentSpanId === undefined)).toHaveLength(1);
    expect(fresh.find((span) => span.parentSpanId === undefined)?.resource['service.name']).toBe('understudy-gateway');
  });
});
