/**
 * Each timeout and the two kinds of abort, against the emulator. Behaviour, not timing: the limits are
 * small and the emulator's delays far longer, so only which limit fired and what the failure says matter.
 */
import { describe, expect, it } from 'vitest';
import type { EmulatorStep } from '@understudy/provider-emulator/client';
import type { ChatRequest, ChatStreamDelta, ProviderApi } from './chat-types.js';
import { PROVIDER_APIS } from './chat-types.js';
import type { ProviderClient, ProviderTimeouts } from './client-options.js';
import { ProviderCallError } from './provider-call-error.js';
import { apiKey, emulatorClient } from './test-support/clients.js';
import { useEmulator } from './test-support/emulator.js';

const emulator = useEmulator();

const request: ChatRequest = { model: 'model-t', messages: [{ role: 'user', content: 'one two three four' }] };
const LONG_MS = 30_000;

async function clientWith(api: ProviderApi, step: EmulatorStep, timeouts: ProviderTimeouts): Promise<ProviderClient> {
  await emulator.setScript({ routes: [{ steps: [step] }] });
  const client = emulator.client(api, { timeouts });
  return client;
}

describe.each(PROVIDER_APIS)('%s timeouts', (api) => {
  it('headers: the provider sends nothing within headersTimeoutMs', async () => {
    const client = await clientWith(api, { delayMs: LONG_MS }, { headersTimeoutMs: 100 });
    const result = await client.complete(request, { credential: apiKey('sk-t') });
    expect(!result.ok && result.failure).toMatchObject({
      phase: 'headers',
      abortCause: 'timeout',
      timeoutKind: 'headers',
      code: 'UND_ERR_HEADERS_TIMEOUT',
      outputStarted: false,
    });
  });

  it('first token: headers come, the first token does not', async () => {
    const client = await clientWith(api, { firstTokenDelayMs: LONG_MS }, { firstTokenTimeoutMs: 150 });
    const result = await client.stream(request, { credential: apiKey('sk-t') });
    expect(!result.ok && result.failure).toMatchObject({ abortCause: 'timeout', timeoutKind: 'first_token', outputStarted: false });
    // The limit counts from sending the request, so on a very busy machine it may fire before the headers.
    const failure = result.ok ? undefined : result.failure;
    if (failure?.phase === 'stream') expect(failure.status).toBe(200);
    else expect(failure?.phase).toBe('headers');
  });

  it('stall before the first token fails over (outputStarted false)', async () => {
    const client = await clientWith(api, { stallAfterChunks: 0 }, { stallTimeoutMs: 100 });
    const result = await client.stream(request, { credential: apiKey('sk-t') });
    expect(!result.ok && result.failure).toMatchObject({ timeoutKind: 'stall', abortCause: 'timeout', outputStarted: false });
  });

  it('stall mid-stream: no byte for stallTimeoutMs after output started', async () => {
    const client = await clientWith(api, { stallAfterChunks: 2 }, { stallTimeoutMs: 100 });
    const result = await client.stream(request, { credential: apiKey('sk-t') });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const seen: ChatStreamDelta[] = [];
    const error = await (async () => {
      try {
        for await (const delta of result.value) seen.push(delta);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(seen.map((delta) => (delta.kind === 'text' ? delta.text : delta.kind))).toEqual(['one', ' two']);
    expect(ProviderCallError.isInstance(error)).toBe(true);
    expect((error as ProviderCallError).failure).toMatchObject({ phase: 'stream', timeoutKind: 'stall', abortCause: 'timeout', outputStarted: true, code: 'ETIMEDOUT' });
    const [record] = await emulator.requests();
    expect(record?.outcome).toMatch(/until the client left|pending/);
  });

  it('a slow first token within the limits is no failure', async () => {
    const client = await clientWith(api, { firstTokenDelayMs: 50, chunkDelayMs: 20 }, { firstTokenTimeoutMs: LONG_MS, stallTimeoutMs: LONG_MS });
    const result = await client.stream(request, { credential: apiKey('sk-t') });
    expect(result.ok).toBe(true);
  });
});

describe('body and connect timeouts', () => {
  it('body: a whole answer that stops half-way times out in phase body', async () => {
    const client = await clientWith('openai-completions', { stallAfterChunks: 0 }, { bodyTimeoutMs: 100 });
    const result = await client.complete(request, { credential: apiKey('sk-t') });
    expect(!result.ok && result.failure).toMatchObject({ phase: 'body', status: 200, timeoutKind: 'body', abortCause: 'timeout', code: 'UND_ERR_BODY_TIMEOUT' });
  });

  it('connect: a connection that never opens times out in phase connect', async () => {
    // The name never resolves (the lookup never answers), so undici's connect timeout is what ends the call.
    const client = emulatorClient('openai-completions', 'http://provider.invalid:9', {
      timeouts: { connectTimeoutMs: 50 },
      pool: { connect: { lookup: () => undefined } },
    });
    emulator.closeAfterAll(client);
    const result = await client.complete(request, { credential: apiKey('sk-t') });
    expect(!result.ok && result.failure).toMatchObject({
      phase: 'connect',
      timeoutKind: 'connect',
      abortCause: 'timeout',
      code: 'UND_ERR_CONNECT_TIMEOUT',
      outputStarted: false,
    });
  });
});

describe('aborts', () => {
  it('a caller abort while waiting is abortCause user, without a timeout kind', async () => {
    const client = await clientWith('anthropic-messages', { delayMs: LONG_MS }, {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const result = await client.complete(request, { credential: apiKey('sk-t'), signal: controller.signal });
    expect(!result.ok && result.failure).toMatchObject({ abortCause: 'user', code: 'ABORT_ERR', outputStarted: false });
    expect(!result.ok && result.failure.timeoutKind).toBeUndefined();
  });

  it('an already aborted signal fails at once', async () => {
    const client = await clientWith('openai-completions', {}, {});
    const result = await client.stream(request, { credential: apiKey('sk-t'), signal: AbortSignal.abort() });
    expect(!result.ok && result.failure).toMatchObject({ abortCause: 'user', outputStarted: false });
  });

  it('a turn deadline (a TimeoutError reason) is a timeout of kind turn, not a user abort', async () => {
    const client = await clientWith('google-generative-ai', { delayMs: LONG_MS }, {});
    const result = await client.complete(request, { credential: apiKey('sk-t'), signal: AbortSignal.timeout(50) });
    expect(!result.ok && result.failure).toMatchObject({ abortCause: 'timeout', timeoutKind: 'turn', outputStarted: false });
  });

  it('a caller abort mid-stream ends the stream with abortCause user and outputStarted true', async () => {
    const client = await clientWith('openai-completions', { chunkDelayMs: 200 }, {});
    const controller = new AbortController();
    const result = await client.stream(request, { credential: apiKey('sk-t'), signal: controller.signal });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    let error: unknown;
    try {
      for await (const delta of result.value) {
        if (delta.kind === 'text') controller.abort();
      }
    } catch (caught) {
      error = caught;
    }
    expect(ProviderCallError.isInstance(error) && error.failure).toMatchObject({ abortCause: 'user', phase: 'stream', outputStarted: true });
  });

  it('leaving the loop early stops the upstream request', async () => {
    const client = await clientWith('anthropic-messages', { chunkDelayMs: 100 }, {});
    const result = await client.stream(request, { credential: apiKey('sk-t') });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    for await (const delta of result.value) {
      if (delta.kind === 'text') break;
    }
    let outcome = '';
    for (let tries = 0; tries < 250 && !outcome.includes('client left'); tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      outcome = (await emulator.requests())[0]?.outcome ?? '';
    }
    expect(outcome).toBe('client left');
  });
});
