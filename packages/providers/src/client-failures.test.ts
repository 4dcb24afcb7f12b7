import { classifyFailure } from '@understudy/error-classifier';
/**
 * Every failure phase, against the emulator: what the runner learns from the wire (status, headers, body,
 * code, phase) and whether output had already started.
 */
import { createServer } from 'node:net';
import type { ProviderFailure } from '@understudy/contracts';
import { describe, expect, it } from 'vitest';
import type { EmulatorStep } from '@understudy/provider-emulator/client';
import type { ChatRequest, ChatStreamDelta, ProviderApi } from './chat-types.js';
import { PROVIDER_APIS } from './chat-types.js';
import type { ChatStream } from './chat-stream.js';
import { collectChatStream } from './chat-stream.js';
import { MAX_FAILURE_BODY_BYTES } from './failure.js';
import { ProviderCallError } from './provider-call-error.js';
import { apiKey, emulatorClient } from './test-support/clients.js';
import { useEmulator } from './test-support/emulator.js';

const emulator = useEmulator();

const request: ChatRequest = { model: 'model-f', messages: [{ role: 'user', content: 'alpha beta gamma delta' }] };

/** Runs `step` for one call of `api` and returns the failure of `complete` (or fails the test). */
async function completeFailure(api: ProviderApi, step: EmulatorStep, options: Parameters<typeof emulatorClient>[2] = {}): Promise<ProviderFailure> {
  await emulator.setScript({ routes: [{ steps: [step] }] });
  const client = emulatorClient(api, emulator.url, options);
  try {
    const result = await client.complete(request, { credential: apiKey('sk-failures-key-9876') });
    if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
    return result.failure;
  } finally {
    await client.close();
  }
}

/** Starts a stream for `step`: the failure before output, or the stream. */
async function startStream(
  api: ProviderApi,
  step: EmulatorStep,
  options: Parameters<typeof emulatorClient>[2] = {},
): Promise<{ failure?: ProviderFailure; stream?: ChatStream }> {
  await emulator.setScript({ routes: [{ steps: [step] }] });
  const client = emulator.client(api, options);
  const result = await client.stream(request, { credential: apiKey('sk-failures-key-9876') });
  return result.ok ? { stream: result.value } : { failure: result.failure };
}

/** Starts a stream for `step` that must get past its first token. */
async function startedStream(api: ProviderApi, step: EmulatorStep, options: Parameters<typeof emulatorClient>[2] = {}): Promise<ChatStream> {
  const { stream, failure } = await startStream(api, step, options);
  if (stream === undefined) throw new Error(`expected the stream to start, got ${JSON.stringify(failure)}`);
  return stream;
}

/** Reads a started stream to its end: the deltas seen and the error thrown, if any. */
async function drain(stream: ChatStream): Promise<{ deltas: ChatStreamDelta[]; error?: ProviderCallError }> {
  const deltas: ChatStreamDelta[] = [];
  try {
    for await (const delta of stream) deltas.push(delta);
    return { deltas };
  } catch (error) {
    if (!ProviderCallError.isInstance(error)) throw error;
    return { deltas, error };
  }
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.each(PROVIDER_APIS)('%s failures before any output', (api) => {
  it('connection refused: phase connect, ECONNREFUSED, no status', async () => {
    const client = emulatorClient(api, `http://127.0.0.1:${await closedPort()}`);
    const result = await client.stream(request, { credential: apiKey('sk-x') });
    await client.close();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failure).toMatchObject({ phase: 'connect', code: 'ECONNREFUSED', outputStarted: false });
    expect(result.failure.status).toBeUndefined();
  });

  it('reset before headers: phase headers, ECONNRESET', async () => {
    expect(await completeFailure(api, { reset: true })).toMatchObject({ phase: 'headers', code: 'ECONNRESET', outputStarted: false });
  });

  it('error status: status, lower-cased headers, body and error type come back as sent', async () => {
    const failure = await completeFailure(api, {
      status: 529,
      headers: { 'Retry-After': '3', 'X-Request-Id': 'req_1' },
      body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
    expect(failure).toMatchObject({
      provider: expect.any(String),
      model: 'model-f',
      status: 529,
      body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      errorType: 'overloaded_error',
      phase: 'body',
      outputStarted: false,
    });
    expect(failure.headers).toMatchObject({ 'retry-after': '3', 'x-request-id': 'req_1' });
    expect(failure.message).toContain('529');
  });

  it('an error status on a stream request fails before output with the same facts', async () => {
    const { failure } = await startStream(api, { status: 503, body: 'upstream connect error or disconnect/reset before headers' });
    expect(failure).toMatchObject({ status: 503, phase: 'body', outputStarted: false, body: 'upstream connect error or disconnect/reset before headers' });
  });

  it('an event whose data is not JSON before the first chunk is skipped, never passed on', async () => {
    const { deltas, error } = await drain(await startedStream(api, { malformedAfterChunks: 0 }));
    expect(error).toBeUndefined();
    expect(deltas.filter((delta) => delta.kind === 'text').map((delta) => delta.text).join('')).toBe('alpha beta gamma delta');
  });

  it('a cut before the first chunk fails with outputStarted false', async () => {
    const { failure } = await startStream(api, { cutAfterChunks: 0 });
    expect(failure).toMatchObject({ phase: 'stream', outputStarted: false });
    expect(failure?.code).toMatch(/^(UND_ERR_SOCKET|ECONNRESET)$/);
  });
});

describe.each(PROVIDER_APIS)('%s failures after output started', (api) => {
  it('a cut after the first token throws with outputStarted true (and false just before it)', async () => {
    const before = await startStream(api, { cutAfterChunks: 0 });
    expect(before.failure?.outputStarted).toBe(false);
    const { deltas, error } = await drain(await startedStream(api, { cutAfterChunks: 2 }));
    expect(deltas.filter((delta) => delta.kind === 'text').map((delta) => delta.text)).toEqual(['alpha', ' beta']);
    expect(error?.failure).toMatchObject({ phase: 'stream', outputStarted: true });
    expect(error?.failure.code).toMatch(/^(UND_ERR_SOCKET|ECONNRESET)$/);
  });

  it('a slow consumer still gets the chunks that arrived before the connection dropped', async () => {
    const stream = await startedStream(api, { cutAfterChunks: 3 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const { deltas, error } = await drain(stream);
    expect(deltas.filter((delta) => delta.kind === 'text').map((delta) => delta.text)).toEqual(['alpha', ' beta', ' gamma']);
    expect(error?.failure.outputStarted).toBe(true);
  });

  it('an event whose data is not JSON mid-stream is skipped and counted; the answer goes on whole', async () => {
    const skipped: { provider: string; model: string }[] = [];
    const { deltas, error } = await drain(await startedStream(api, { malformedAfterChunks: 1 }, { onSkippedStreamEvent: (event) => skipped.push(event) }));
    expect(error).toBeUndefined();
    expect(deltas.filter((delta) => delta.kind === 'text').map((delta) => delta.text).join('')).toBe('alpha beta gamma delta');
    expect(skipped).toHaveLength(1);
  });

  it('an error event mid-stream surfaces with its payload', async () => {
    const { error } = await drain(await startedStream(api, { errorAfterChunks: 2 }));
    expect(error?.failure).toMatchObject({ phase: 'stream', status: 200, outputStarted: true });
    expect(error?.failure.body).toMatch(/overloaded|server_error|UNAVAILABLE/i);
  });

  it('a stream closed before any finish reason is a failure ("stream ended early")', async () => {
    const { error } = await drain(await startedStream(api, { endAfterChunks: 2 }));
    expect(error?.failure).toMatchObject({ phase: 'stream', code: 'STREAM_ENDED_EARLY', outputStarted: true });
    expect(error?.failure.message).toContain('stream ended early');
  });

  it('a finish reason without the end marker completes normally', async () => {
    const result = await collectChatStream(await startedStream(api, { omitDone: true }));
    expect(result).toMatchObject({ text: 'alpha beta gamma delta', finishReason: 'stop' });
  });
});

describe('whole-body failures', () => {
  it('a 200 whose body is not JSON is a body failure keeping status and text', async () => {
    const failure = await completeFailure('openai-completions', {
      status: 200,
      body: "Cannot read properties of undefined (reading 'finish_reason')",
    });
    expect(failure).toMatchObject({ status: 200, phase: 'body', code: 'MALFORMED_RESPONSE', body: "Cannot read properties of undefined (reading 'finish_reason')" });
  });

  it('a 200 with no choices is an empty response', async () => {
    const failure = await completeFailure('openai-completions', {
      status: 200,
      body: { id: '', object: '', created: 0, model: '', prompt_annotations: [], choices: [], usage: null },
    });
    expect(failure).toMatchObject({ status: 200, phase: 'body', code: 'EMPTY_RESPONSE' });
  });

  it('an error object inside a 200 is a provider failure with its type', async () => {
    const failure = await completeFailure('google-generative-ai', {
      status: 200,
      body: { error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } },
    });
    expect(failure).toMatchObject({ status: 200, phase: 'body', code: 'RESOURCE_EXHAUSTED' });
  });

  it('a truncated JSON body is malformed; a body cut mid-way is a transport failure in phase body', async () => {
    expect(await completeFailure('anthropic-messages', { malformedAfterChunks: 0 })).toMatchObject({ status: 200, phase: 'body', code: 'MALFORMED_RESPONSE' });
    const cut = await completeFailure('anthropic-messages', { cutAfterChunks: 0 });
    expect(cut).toMatchObject({ status: 200, phase: 'body', outputStarted: false });
    expect(cut.code).toMatch(/^(UND_ERR_SOCKET|ECONNRESET)$/);
  });

  it('keeps only the first 64 KiB of an error body', async () => {
    const failure = await completeFailure('openai-completions', { status: 500, body: `${'x'.repeat(MAX_FAILURE_BODY_BYTES)}TAIL` });
    expect(failure.body).toHaveLength(MAX_FAILURE_BODY_BYTES);
    expect(failure.body?.endsWith('TAIL')).toBe(false);
  });

  it('a finish_reason of error is a failure', async () => {
    const failure = await completeFailure('openai-completions', { finishReason: 'error' });
    expect(failure).toMatchObject({ message: 'Provider finish_reason: error', outputStarted: false });
    const { failure: streamed } = await startStream('openai-completions', { finishReason: 'error', text: '' });
    expect(streamed).toMatchObject({ message: 'Provider finish_reason: error', phase: 'stream', outputStarted: false });
  });

  it('fixture rows are replayed as-is: status null answers 500 with the text', async () => {
    const row = { id: 'pe-075', provider: 'anthropic', status: null, body: 'Unable to connect to API (ECONNRESET)', expect: 'timeout', why: 'reset' };
    expect(await completeFailure('anthropic-messages', row)).toMatchObject({ status: 500, body: 'Unable to connect to API (ECONNRESET)' });
  });
});

describe('Retry-After travels to the classifier untouched (read once there, capped once by the runner)', () => {
  it.each([
    [{ 'retry-after': '120' }, 120_000],
    [{ 'retry-after': '2' }, 2_000],
    [{ 'retry-after-ms': '90000' }, 90_000],
    [{}, null],
  ] as const)('headers %j → retryAfterMs %j', async (headers, expected) => {
    const failure = await completeFailure('openai-completions', { status: 429, headers, body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } } });
    expect(failure.status).toBe(429);
    expect(classifyFailure(failure, { nowMs: 0 }).retryAfterMs).toBe(expected);
  });

  it('keeps the body hint too (Gemini retryDelay)', async () => {
    const body = {
      error: {
        code: 429,
        message: 'You exceeded your current quota.',
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '95s' }],
      },
    };
    expect(classifyFailure(await completeFailure('google-generative-ai', { status: 429, body }), { nowMs: 0 }).retryAfterMs).toBe(95_000);
  });
});

describe('secrets', () => {
  it('logs failures without the key', async () => {
    const lines: string[] = [];
    const record = (fields: Readonly<Record<string, unknown>>, message?: string): void => {
      lines.push(JSON.stringify({ fields, message }));
    };
    const logger = { debug: record, info: record, warn: record, error: record };
    const failure = await completeFailure('anthropic-messages', { status: 401, body: 'bad key sk-failures-key-9876' }, { logger });
    expect(failure.body).toBe('bad key ***');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain('sk-failures-key-9876');
  });

  it('never puts the key into a failure, even when the provider echoes it', async () => {
    const failure = await completeFailure('openai-completions', {
      status: 401,
      body: { error: { message: 'Incorrect API key provided: sk-failures-key-9876. You can find your API key at https://platform.openai.com.', type: 'invalid_request_error', code: 'invalid_api_key' } },
    });
    const text = JSON.stringify(failure);
    expect(text).not.toContain('sk-failures-key-9876');
    expect(failure.body).toContain('Incorrect API key provided: ***.');
    expect(failure).toMatchObject({ status: 401, code: 'invalid_api_key', errorType: 'invalid_request_error' });
  });
});

describe('a request that cannot be serialised (issue 20, defect 2)', () => {
  /** A JSON Schema nested `depth` levels deep: too deep for `JSON.stringify`. */
  function deepSchema(depth: number): Record<string, unknown> {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < depth; level += 1) schema = { type: 'object', properties: { a: schema } };
    return schema;
  }
  const deep: ChatRequest = { ...request, tools: [{ name: 'deep', parameters: deepSchema(60_000) }] };

  it.each(PROVIDER_APIS)('%s: returns a phase "request" failure (nothing sent) instead of throwing', async (api) => {
    await emulator.setScript({ routes: [{ steps: [{ chunks: ['x'] }] }] });
    await emulator.clearRequests();
    const client = emulatorClient(api, emulator.url);
    try {
      for (const call of [() => client.complete(deep, { credential: apiKey('sk-failures-key-9876') }), () => client.stream(deep, { credential: apiKey('sk-failures-key-9876') })]) {
        const result = await call();
        expect(result.ok).toBe(false);
        if (result.ok) return;
        expect(result.failure).toMatchObject({ phase: 'request', code: 'REQUEST_NOT_SERIALISABLE', errorType: 'invalid_request_error', outputStarted: false });
        expect(result.failure.message).toContain('could not be serialised');
      }
      expect(await emulator.requests()).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

describe('a stored credential that cannot be sent as a header value (issue 20, defect 7)', () => {
  it.each(PROVIDER_APIS)('%s: is an auth failure of the profile, never a timeout, and nothing is sent', async (api) => {
    await emulator.setScript({ routes: [{ steps: [{ chunks: ['x'] }] }] });
    await emulator.clearRequests();
    const client = emulatorClient(api, emulator.url);
    try {
      for (const call of [
        () => client.complete(request, { credential: apiKey('sk-test-broken\nkey-1234') }),
        () => client.stream(request, { credential: apiKey('sk-test-broken\nkey-1234') }),
      ]) {
        const result = await call();
        expect(result.ok).toBe(false);
        if (result.ok) return;
        expect(result.failure).toMatchObject({ code: 'INVALID_CREDENTIAL', errorType: 'authentication_error', outputStarted: false });
        expect(result.failure.message).not.toContain('broken');
        expect(classifyFailure(result.failure).reason).toBe('auth');
      }
      expect(await emulator.requests()).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
