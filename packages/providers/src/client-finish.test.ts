/**
 * A stream that ends with a finish reason but no end marker, on a connection the provider keeps open
 * (issue 7), against the emulator process: the stream completes while the emulator still holds the
 * connection, the connection is then closed (by `cancel()`, `close()` or the bounded background drain), and a
 * normal stream's connection is kept for reuse. Behaviour only: where a wait would be wrong, the grace is set
 * far beyond the test's time limit, so waiting would fail the test rather than slow it.
 */
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import type { EmulatorStep } from '@understudy/provider-emulator/client';
import type { ChatRequest, ProviderApi } from './chat-types.js';
import type { ChatStream } from './chat-stream.js';
import { collectChatStream } from './chat-stream.js';
import type { ProviderClient, ProviderClientOptions } from './client-options.js';
import { apiKey, emulatorClient } from './test-support/clients.js';
import { useEmulator } from './test-support/emulator.js';

const emulator = useEmulator();

const request: ChatRequest = { model: 'model-h', messages: [{ role: 'user', content: 'kept open' }] };
/** Far beyond the test time limit: a wait this long fails the test. */
const NEVER_MS = 600_000;
const HELD = 'held open until the client left';

async function clientFor(api: ProviderApi, step: EmulatorStep, options: Partial<ProviderClientOptions> = {}): Promise<ProviderClient> {
  await emulator.setScript({ routes: [{ steps: [step] }] });
  const client = emulator.client(api, options);
  return client;
}

async function startedStream(client: ProviderClient): Promise<ChatStream> {
  const result = await client.stream(request, { credential: apiKey('sk-finish-0001') });
  if (!result.ok) throw new Error(`expected a stream, got ${JSON.stringify(result.failure)}`);
  return result.value;
}

async function outcome(): Promise<string> {
  return (await emulator.requests())[0]?.outcome ?? '';
}

/** Polls the emulator until it saw the client leave the held connection. */
async function outcomeOnceLeft(): Promise<string> {
  let seen = await outcome();
  for (let tries = 0; tries < 250 && !seen.includes(HELD); tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    seen = await outcome();
  }
  return seen;
}

describe('a finish reason on a connection the provider keeps open', () => {
  it.each([
    ['openai-completions: finish and usage chunks, no [DONE]', 'openai-completions', { omitDone: true }, {}, true],
    ['openai-completions: finish chunk, no usage asked for, no [DONE]', 'openai-completions', { omitDone: true }, { includeStreamUsage: false }, false],
    ['openai-completions: [DONE] sent but the body never ends', 'openai-completions', {}, {}, true],
    ['anthropic-messages: message_delta and message_stop, the body never ends', 'anthropic-messages', {}, {}, true],
    ['google-generative-ai: the finish chunk (with usage), the body never ends', 'google-generative-ai', {}, {}, true],
  ] as const)('%s: completes at once, while the emulator still holds the connection', async (_label, api, step, options, hasUsage) => {
    const client = await clientFor(api, { chunks: ['kept', ' open'], holdOpen: true, ...step }, {
      ...options,
      timeouts: { afterFinishGraceMs: NEVER_MS, drainAfterFinishMs: NEVER_MS },
    });
    const stream = await startedStream(client);
    const result = await collectChatStream(stream);
    expect(result).toMatchObject({ text: 'kept open', finishReason: 'stop' });
    expect(result.usage !== undefined).toBe(hasUsage);
    expect(await outcome()).toBe('pending');
    stream.cancel();
    expect(await outcomeOnceLeft()).toMatch(/held open until the client left$/);
  });

  it('anthropic-messages without message_stop completes after the short grace, with the usage of message_delta', async () => {
    const client = await clientFor('anthropic-messages', { chunks: ['kept', ' open'], omitDone: true, holdOpen: true, usage: { outputTokens: 7 } }, {
      timeouts: { drainAfterFinishMs: NEVER_MS },
    });
    const stream = await startedStream(client);
    const result = await collectChatStream(stream);
    expect(result).toMatchObject({ text: 'kept open', finishReason: 'stop', usage: { outputTokens: 7 } });
    expect(await outcome()).toBe('pending');
    stream.cancel();
    expect(await outcomeOnceLeft()).toBe(`ok (no end marker), ${HELD}`);
  });

  it('the connection of a completed stream is closed by itself once drainAfterFinishMs passed', async () => {
    const client = await clientFor('openai-completions', { omitDone: true, holdOpen: true }, { timeouts: { drainAfterFinishMs: 100 } });
    const result = await collectChatStream(await startedStream(client));
    expect(result.finishReason).toBe('stop');
    expect(await outcomeOnceLeft()).toBe(`ok (no end marker), ${HELD}`);
  });

  it('close() closes the connection of a completed stream still held by the provider', async () => {
    await emulator.setScript({ routes: [{ steps: [{ holdOpen: true }] }] });
    const client = emulatorClient('google-generative-ai', emulator.url, { timeouts: { drainAfterFinishMs: NEVER_MS } });
    await collectChatStream(await startedStream(client));
    await client.close();
    expect(await outcomeOnceLeft()).toBe(`ok, ${HELD}`);
  });
});

describe('a stream that ends normally', () => {
  it('keeps its keep-alive connection: the next call reuses it', async () => {
    await emulator.setScript({ routes: [{ steps: [{ chunks: ['one', ' two'] }] }] });
    const agent = new Agent({ connections: 4 });
    const client = emulatorClient('openai-completions', emulator.url, { dispatcher: agent });
    try {
      for (let call = 0; call < 2; call += 1) {
        expect((await collectChatStream(await startedStream(client))).text).toBe('one two');
        // The response's end is read in the background; wait until the pool got the connection back.
        const busy = (): boolean => Object.values(agent.stats).some((stats) => 'free' in stats && stats.free < stats.connected);
        for (let tries = 0; tries < 250 && busy(); tries += 1) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
      const connections = (await emulator.requests()).map((record) => record.connection);
      expect(connections).toHaveLength(2);
      expect(connections[1]).toBe(connections[0]);
    } finally {
      await client.close();
      await agent.close();
    }
  });
});
