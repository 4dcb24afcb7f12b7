/**
 * End to end, failover conduct under faults (docs/policy.md#what-each-reason-does,
 * docs/policy.md#retries-probes-and-rotation): the real gateway process in front of the real provider emulator,
 * driven by the official `openai` and `@anthropic-ai/sdk` clients, streaming and not. Short configured windows,
 * throttles and timeouts stand in for the real ones (no real 30 s sleep).
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EmulatorRoute, EmulatorStep } from '@understudy/provider-emulator/client';
import type { Fixture } from './test-support/e2e-fixture.js';
import { KEYS, startFixture, tail } from './test-support/e2e-fixture.js';

let fixture: Fixture;
let openai: OpenAI;
let anthropic: Anthropic;

const OVERFLOW = { status: 400, body: { error: { message: "This model's maximum context length is 8000 tokens", type: 'invalid_request_error', code: 'context_length_exceeded' } } };

beforeAll(async () => {
  fixture = await startFixture({
    config: (base, url) => ({
      ...base,
      models: {
        ...(base['models'] as Record<string, unknown>),
        providers: {
          openai: { baseUrl: `${url}/v1`, api: 'openai-completions', models: [{ id: 'gpt-a', contextWindow: 8_000 }] },
          anthropic: { baseUrl: url, api: 'anthropic-messages', apiKey: '${TEST_ANTHROPIC_KEY}', models: [{ id: 'claude-b', contextWindow: 200_000 }] },
          backup: { baseUrl: `${url}/v1`, api: 'openai-completions', apiKey: KEYS.backup, models: [{ id: 'model-c', contextWindow: 4_000 }] },
        },
        timeouts: { connectMs: 1000, headersMs: 600, firstTokenMs: 800, stallMs: 800, requestMs: 1500 },
      },
      auth: { order: { openai: ['openai:a', 'openai:b'] }, cooldowns: { overloadedBackoffMs: 1, cooldownStepsMs: [20_000, 40_000, 60_000], probeThrottleMs: 500 } },
      agents: { defaults: { model: { primary: 'openai/gpt-a', fallbacks: ['backup/model-c', 'anthropic/claude-b'] } } },
      retry: { provider: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterWaitMs: 1500 } },
    }),
  });
  openai = new OpenAI({ baseURL: `${fixture.gateway.url}/v1`, apiKey: 'unused-by-this-gateway', maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: fixture.gateway.url, apiKey: 'unused-by-this-gateway', maxRetries: 0 });
});

afterAll(async () => {
  await fixture?.stop();
});

beforeEach(async () => {
  await fixture.clearCooldowns();
  await fixture.emulator.setScript({ routes: [] });
  await fixture.emulator.clearRequests();
});

const route = (model: string, steps: EmulatorStep[], extra: Omit<NonNullable<EmulatorRoute['match']>, 'model'> = {}): EmulatorRoute => ({ match: { model, ...extra }, steps });
const ask = (content: string) =>
  openai.chat.completions.create({ model: 'default', messages: [{ role: 'user', content }] }).withResponse();

async function streamText(content: string): Promise<{ text: string; model: string | null }> {
  const { data: stream, response } = await openai.chat.completions.create({ model: 'default', messages: [{ role: 'user', content }], stream: true }).withResponse();
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
  return { text, model: response.headers.get('x-understudy-model') };
}

async function calls(): Promise<string[]> {
  return (await fixture.emulator.requests()).map((request) => `${request.model ?? '?'} ${request.keyFingerprint ?? 'none'}`);
}

describe('a silent provider costs its time limit once, not once per retry', () => {
  it('non-streamed: rotates once, then the next candidate answers; never retried in place', async () => {
    await fixture.emulator.setScript({ routes: [route('gpt-a', [{ delayMs: 10_000 }])] });
    const started = performance.now();
    const { data, response } = await ask('silent whole');
    const seconds = (performance.now() - started) / 1000;
    expect(data.choices[0]?.message.content).toBe('silent whole');
    expect(response.headers.get('x-understudy-fallback')).toBe('timeout');
    expect((await calls()).filter((call) => call.startsWith('gpt-a'))).toEqual([`gpt-a ${tail(KEYS.openaiA)}`, `gpt-a ${tail(KEYS.openaiB)}`]);
    // Two whole-request limits (1.5 s each), not 2 profiles × 3 tries.
    expect(seconds).toBeLessThan(6);
  });

  it('streamed: the headers limit, once per profile, then the fallback streams', async () => {
    await fixture.emulator.setScript({ routes: [route('gpt-a', [{ delayMs: 10_000 }])] });
    const started = performance.now();
    const { text, model } = await streamText('silent stream');
    expect(text).toBe('silent stream');
    expect(model).not.toBe('openai/gpt-a');
    expect((await calls()).filter((call) => call.startsWith('gpt-a'))).toHaveLength(2);
    expect((performance.now() - started) / 1000).toBeLessThan(4);
  });
});

describe('a short Retry-After is honoured for the model the caller chose', () => {
  it('rotates to the other profile, waits out its short Retry-After, and the chosen model answers (Anthropic client, streaming)', async () => {
    const limited = { status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } } };
    await fixture.emulator.setScript({ routes: [route('gpt-a', [limited], { key: KEYS.openaiA }), route('gpt-a', [limited, { ok: true }], { key: KEYS.openaiB })] });
    const started = performance.now();
    const stream = anthropic.messages.stream({ model: 'openai/gpt-a', max_tokens: 64, messages: [{ role: 'user', content: 'wait for me' }] });
    const message = await stream.finalMessage();
    expect(message.content.map((block) => (block.type === 'text' ? block.text : '')).join('')).toBe('wait for me');
    expect(await calls()).toEqual([`gpt-a ${tail(KEYS.openaiA)}`, `gpt-a ${tail(KEYS.openaiB)}`, `gpt-a ${tail(KEYS.openaiB)}`]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('a Retry-After longer than maxRetryAfterWaitMs fails over at once', async () => {
    const limited = { status: 429, headers: { 'retry-after': '30' }, body: { error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } } };
    await fixture.emulator.setScript({ routes: [route('gpt-a', [limited])] });
    const { response } = await ask('no wait');
    expect(response.headers.get('x-understudy-fallback')).toBe('rate_limit');
    expect((await calls()).filter((call) => call.startsWith('gpt-a'))).toHaveLength(2);
  });
});

describe('context overflow reaches a larger window', () => {
  it.each([false, true])('stream %s: skips the smaller fallback and answers from the larger window', async (stream) => {
    await fixture.emulator.setScript({ routes: [route('gpt-a', [OVERFLOW])] });
    if (stream) {
      const { text, model } = await streamText('a long prompt');
      expect(text).toBe('a long prompt');
      expect(model).toBe('anthropic/claude-b');
    } else {
      const { data, response } = await ask('a long prompt');
      expect(data.model).toBe('anthropic/claude-b');
      expect(response.headers.get('x-understudy-fallback')).toBe('context_overflow');
    }
    const upstream = await calls();
    expect(upstream.filter((call) => call.startsWith('model-c'))).toEqual([]);
    expect(upstream.filter((call) => call.startsWith('gpt-a'))).toHaveLength(1);
  });
});

describe('a flapping primary comes back fast', () => {
  it('is used again within one probe throttle of recovering (computed cooldown, no provider-named wait)', async () => {
    await fixture.emulator.setScript({ routes: [route('gpt-a', [{ status: 503, body: { error: { message: 'Service Unavailable', type: 'server_error' } } }])] });
    for (let index = 0; index < 3; index += 1) expect((await ask(`down ${index}`)).response.headers.get('x-understudy-model')).not.toBe('openai/gpt-a');
    const recoveredAt = performance.now();
    await fixture.emulator.setScript({ routes: [] });
    let backAfterMs: number | undefined;
    for (let index = 0; index < 40 && backAfterMs === undefined; index += 1) {
      const { response } = await ask(`up ${index}`);
      if (response.headers.get('x-understudy-model') === 'openai/gpt-a') backAfterMs = performance.now() - recoveredAt;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(backAfterMs).toBeDefined();
    // The probe throttle is 500 ms here (30 s by default); the cooldown itself is far longer.
    expect(backAfterMs ?? Number.POSITIVE_INFINITY).toBeLessThan(1_500);
  });
});

describe('a malformed stream event between good ones', () => {
  it('is skipped, counted in /metrics, and the answer arrives whole', async () => {
    await fixture.emulator.setScript({ routes: [route('gpt-a', [{ malformedAfterChunks: 1 }])] });
    const { text, model } = await streamText('one bad event inside');
    expect(text).toBe('one bad event inside');
    expect(model).toBe('openai/gpt-a');
    const metrics = await (await fetch(`${fixture.gateway.url}/metrics`)).text();
    expect(metrics).toMatch(/understudy_stream_events_skipped_total\{provider="openai"\} 1/);
  });
});
