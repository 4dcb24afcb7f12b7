/**
 * The runner's attempt functions over real clients: an ok stream attempt hands over a started stream,
 * a failure before the first token is an ordinary failover failure, one after it is thrown to the consumer.
 */
import type { Candidate, ResolvedProfile } from '@understudy/contracts';
import { Secret } from '@understudy/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { callOptions, completeAttempt, streamAttempt } from './attempt.js';
import type { ChatRequest } from './chat-types.js';
import { collectChatStream } from './chat-stream.js';
import type { ProviderClient } from './client-options.js';
import type { OAuthCredentialSink } from './oauth-refresher.js';
import { ProviderCallError } from './provider-call-error.js';
import { useEmulator } from './test-support/emulator.js';

const emulator = useEmulator();
let clients: Map<string, ProviderClient>;

beforeAll(() => {
  clients = new Map([
    ['openai', emulator.client('openai-completions')],
    ['anthropic', emulator.client('anthropic-messages')],
  ]);
});

const request: ChatRequest = { model: 'ignored', messages: [{ role: 'user', content: 'first second third' }] };
const candidate = (provider: string, model: string): Candidate => ({ provider, model, origin: 'requested' });
const profile = (id: string, key: string): ResolvedProfile => ({
  view: { id, provider: id.split(':')[0] ?? '', facts: { type: 'api_key', hasSecret: true, hasRefresh: false }, source: 'store' },
  credential: { type: 'api_key', provider: id.split(':')[0] ?? '', key: new Secret(key) },
});
const signal = new AbortController().signal;

describe('streamAttempt', () => {
  const attempt = streamAttempt((c) => clients.get(c.provider), request);

  it('sends the candidate model with the profile credential and resolves ok with the stream', async () => {
    await emulator.setScript({ routes: [] });
    const result = await attempt(candidate('anthropic', 'claude-y'), profile('anthropic:work', 'sk-ant-work-7777'), signal);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect((await collectChatStream(result.value)).text).toBe('first second third');
    const [record] = await emulator.requests();
    expect(record).toMatchObject({ model: 'claude-y', keyFingerprint: '…7777' });
  });

  it('a failure before the first token is an ordinary failure (outputStarted false)', async () => {
    await emulator.setScript({ routes: [{ steps: [{ status: 429, headers: { 'retry-after': '20' }, body: '{"error":{"message":"slow down"}}' }] }] });
    const result = await attempt(candidate('openai', 'gpt-y'), null, signal);
    expect(!result.ok && result.failure).toMatchObject({ status: 429, outputStarted: false, provider: 'openai', model: 'gpt-y' });
  });

  it('a failure after the first token reaches the consumer as outputStarted true', async () => {
    await emulator.setScript({ routes: [{ steps: [{ cutAfterChunks: 1 }] }] });
    const result = await attempt(candidate('openai', 'gpt-y'), null, signal);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    await expect(collectChatStream(result.value)).rejects.toSatisfy(
      (error: unknown) => ProviderCallError.isInstance(error) && error.failure.outputStarted === true,
    );
  });

  it('a provider without a client is a failure naming it', async () => {
    const result = await attempt(candidate('mistral', 'large'), null, signal);
    expect(!result.ok && result.failure).toMatchObject({ code: 'PROVIDER_NOT_CONFIGURED', provider: 'mistral', outputStarted: false });
  });
});

describe('completeAttempt', () => {
  it('builds the request per candidate when given a function', async () => {
    await emulator.setScript({ routes: [] });
    const attempt = completeAttempt(
      (c) => clients.get(c.provider),
      (c) => ({ ...request, model: `${c.model}-latest`, maxTokens: 7 }),
    );
    const result = await attempt(candidate('openai', 'gpt-z'), null, signal);
    expect(result.ok && result.value.text).toBe('first second third');
    const [record] = await emulator.requests();
    expect(record?.body).toMatchObject({ model: 'gpt-z-latest', max_tokens: 7 });
  });
});

describe('a stream request answered with a whole JSON body', () => {
  it('is read as one answer and streamed out as deltas', async () => {
    await emulator.setScript({
      routes: [
        {
          steps: [
            {
              status: 200,
              body: {
                id: 'chatcmpl-json',
                object: 'chat.completion',
                model: 'gpt-json',
                choices: [{ index: 0, message: { role: 'assistant', content: 'whole answer' }, finish_reason: 'stop' }],
                usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
              },
            },
          ],
        },
      ],
    });
    const client = emulator.client('openai-completions');
    clients.set('json', client);
    const result = await client.stream({ ...request, model: 'gpt-json' }, { credential: null });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const deltas = [];
    for await (const delta of result.value) deltas.push(delta);
    expect(deltas).toEqual([
      { kind: 'text', text: 'whole answer' },
      { kind: 'finish', finishReason: 'stop', rawFinishReason: 'stop' },
      { kind: 'usage', usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } },
    ]);
    expect(result.value.model).toBe('gpt-json');
  });
});

describe('callOptions (the one per-call options builder, issue 13)', () => {
  // Only its identity is checked: callOptions passes it on, never calls it.
  const sink = {} as OAuthCredentialSink;

  it('passes the store only for a stored profile, with its credential and id', () => {
    const stored = profile('openai:a', 'sk-stored-1111');
    expect(callOptions(stored, signal, { credentialStore: sink })).toEqual({ credential: stored.credential, profileId: 'openai:a', signal, credentialStore: sink });
    const inline: ResolvedProfile = { ...stored, view: { ...stored.view, id: 'openai:inline', source: 'inline' } };
    expect(callOptions(inline, signal, { credentialStore: sink })).toEqual({ credential: stored.credential, profileId: 'openai:inline', signal });
  });

  it('sends no credential without a profile', () => {
    expect(callOptions(null, signal, { credentialStore: sink })).toEqual({ credential: null, profileId: undefined, signal });
  });
});
