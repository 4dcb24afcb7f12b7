/**
 * The bench's own servers on real loopback sockets (shape only, nothing timed): the fixed upstream answers the
 * OpenAI wire format whole and streamed, fails under `/limited/` and records the failover events; the bare
 * proxy relays both unchanged; the SSE reader finds the first content chunk.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBareProxy } from './baselines/bare-proxy.js';
import type { BareProxy } from './baselines/bare-proxy.js';
import { portkeyFallbackConfig, portkeySingleConfig, portkeyVersion } from './baselines/portkey.js';
import { tryStartPortkey } from './figures/side-by-side.js';
import { connect, hasContentChunk, sendOnce, timeFirstContent, timeRequests } from './load/sequential.js';
import type { HttpTarget } from './load/target.js';
import { startFixedUpstream } from './upstream/fixed-upstream.js';
import type { FixedUpstream, UpstreamEvent } from './upstream/fixed-upstream.js';

let upstream: FixedUpstream;
let proxy: BareProxy;

beforeAll(async () => {
  upstream = await startFixedUpstream();
  proxy = await startBareProxy({ upstream: upstream.url });
});

afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

const target = (name: string, origin: string, path = '/v1/chat/completions'): HttpTarget => ({
  name,
  origin,
  path,
  headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
  model: 'bench-model',
});

describe('fixed upstream and bare proxy', () => {
  it.each([
    ['the upstream itself', () => upstream.url],
    ['through the bare proxy', () => proxy.url],
  ])('%s: a whole chat completion and a stream with content', async (_title, origin) => {
    const timed = connect(target('t', origin()));
    try {
      const whole = await sendOnce(timed);
      expect(JSON.parse(whole.text)).toMatchObject({ object: 'chat.completion', choices: [{ message: { content: 'Hello from the bench upstream.' } }] });
      const streamed = await sendOnce(timed, true);
      expect(streamed.headers['content-type']).toBe('text/event-stream');
      expect(streamed.text.endsWith('data: [DONE]\n\n')).toBe(true);
      expect(hasContentChunk(streamed.text)).toBe(true);
      expect(await timeRequests(timed, 3, 1)).toHaveLength(3);
      expect(await timeFirstContent(timed, 2, 0)).toHaveLength(2);
    } finally {
      await timed.client.close();
    }
  });

  it('answers 429 under /limited/ and records the 429 finish and the fallback arrival, once', async () => {
    const limited = connect(target('limited', upstream.url, '/limited/v1/chat/completions'));
    const fallback = connect(target('fallback', upstream.url, '/fallback/v1/chat/completions'));
    try {
      await expect(sendOnce(limited)).rejects.toThrow(/answered 429 instead of 200: .*rate_limit_exceeded/);
      await sendOnce(fallback);
      const events = (await (await fetch(`${upstream.url}/__events`)).json()) as UpstreamEvent[];
      expect(events.map((event) => event.kind)).toEqual(['limited-sent', 'fallback-arrived']);
      expect(await (await fetch(`${upstream.url}/__events`)).json()).toEqual([]);
      expect(await (await fetch(`${upstream.url}/__counts`)).json()).toMatchObject({ limited: 1, fallback: 1 });
    } finally {
      await limited.client.close();
      await fallback.client.close();
    }
  });
});

describe('SSE content detection', () => {
  it.each([
    ['a role-only chunk is not content', 'data: {"choices":[{"delta":{"role":"assistant","content":""}}]}\n\n', false],
    ['a text delta is content', 'data: {"choices":[{"delta":{"content":"Hi"}}]}\n\n', true],
    ['an event cut mid-JSON waits for the rest', 'data: {"choices":[{"delta":{"content":"H', false],
    ['comments and [DONE] are not content', ': understudy-notice x\n\ndata: [DONE]\n\n', false],
  ])('%s', (_title, buffer, expected) => {
    expect(hasContentChunk(buffer)).toBe(expected);
  });
});

describe('Portkey', () => {
  it('is the pinned version', () => {
    expect(portkeyVersion()).toBe('1.15.2');
  });

  it('that cannot start comes back as a reason to skip its figures, not as an error', async () => {
    const notAFolder = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-bench-pk-')), 'file');
    fs.writeFileSync(notAFolder, '');
    const started = await tryStartPortkey(notAFolder);
    expect(started.ok).toBe(false);
    expect(started.ok ? '' : started.reason).toMatch(/^Portkey could not run here: /);
    fs.rmSync(path.dirname(notAFolder), { recursive: true, force: true });
  });
});

describe('Portkey config header', () => {
  it('targets the same upstream as an OpenAI provider, and falls back on 429 only', () => {
    expect(JSON.parse(portkeySingleConfig('http://127.0.0.1:1/v1'))).toEqual({ provider: 'openai', api_key: 'sk-bench-portkey', custom_host: 'http://127.0.0.1:1/v1' });
    expect(JSON.parse(portkeyFallbackConfig('http://a/v1', 'http://b/v1'))).toMatchObject({
      strategy: { mode: 'fallback', on_status_codes: [429] },
      targets: [{ custom_host: 'http://a/v1' }, { custom_host: 'http://b/v1' }],
    });
  });

  it('falls back on any failure without on_status_codes, and never sets a request_timeout', () => {
    const config = JSON.parse(portkeyFallbackConfig('http://a/v1', 'http://b/v1', null)) as { strategy: object; targets: object[] };
    expect(config.strategy).toEqual({ mode: 'fallback' });
    expect(config.targets.every((each) => !('request_timeout' in each))).toBe(true);
  });
});
