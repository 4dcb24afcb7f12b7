/**
 * End to end: how the gateway starts and stops (docs/contracts.md#gateway "Binds 127.0.0.1:4317 by default", issue 7 items
 * 7 and 8): a config built from provider keys in the environment when no config file exists, a clear message
 * with no key at all, the bind-address rule, the client token, and a graceful shutdown that drains.
 */
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorProcess } from './test-support/processes.js';
import { accessLineCount, runGatewayToExit, startEmulator, startGateway, stderrWhen } from './test-support/processes.js';
import { fixtureConfig } from './test-support/e2e-fixture.js';

let emulator: EmulatorProcess;

beforeAll(async () => {
  emulator = await startEmulator({ routes: [] });
});

afterAll(async () => {
  await emulator?.stop();
});

describe('no config file', () => {
  it('builds providers and a default chain from API keys in the environment', async () => {
    const gateway = await startGateway({
      env: { OPENAI_API_KEY: 'sk-test-env-openai-eeee', OPENAI_BASE_URL: `${emulator.url}/v1`, ANTHROPIC_API_KEY: 'sk-test-env-anthropic-ffff', ANTHROPIC_BASE_URL: emulator.url },
    });
    try {
      const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
      const models = (await client.models.list()).data.map((model) => model.id);
      expect(models).toEqual(expect.arrayContaining(['default', 'anthropic/claude-sonnet-4-5', 'openai/gpt-4.1-mini']));
      const { data, response } = await client.chat.completions.create({ model: 'default', messages: [{ role: 'user', content: 'from env' }] }).withResponse();
      expect(data.choices[0]?.message.content).toBe('from env');
      expect(data.model).toBe('anthropic/claude-sonnet-4-5');
      expect(response.headers.get('x-understudy-profile')).toBe('anthropic:inline');
      const log = gateway.stderr();
      expect(log).toContain('providers configured from API keys in the environment');
      expect(log).not.toContain('sk-test-env');
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
  });

  it('starts without any key and says what to configure', async () => {
    const gateway = await startGateway({});
    try {
      expect(gateway.stderr()).toContain('no provider key in the environment');
      const response = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'default', messages: [{ role: 'user', content: 'x' }] }),
      });
      expect(response.status).toBe(503);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain('agents.defaults.model');
    } finally {
      await gateway.stop();
    }
  });
});

describe('binding and access', () => {
  it('refuses a non-loopback address without gateway.auth.token', async () => {
    const result = await runGatewayToExit(['--host', '0.0.0.0', '--port', '0'], { HOME: '/nonexistent-home' });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('gateway.auth.token');
    expect(result.stdout).toBe('');
  });

  it('reports an invalid config with the path of the bad key', async () => {
    const result = await runGatewayToExit(['--config', '/nonexistent/understudy.json5'], { HOME: '/nonexistent-home' });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('/nonexistent/understudy.json5');
  });

  it('with gateway.auth.token, every request carries it (Bearer or x-api-key)', async () => {
    const token = 'gateway-client-token-42';
    const gateway = await startGateway({ config: fixtureConfig(emulator.url, { auth: { token } }), env: { TEST_ANTHROPIC_KEY: 'sk-test-x-1234' } });
    try {
      const body = JSON.stringify({ model: 'backup/model-c', messages: [{ role: 'user', content: 'x' }] });
      const post = (headers: Record<string, string>) =>
        fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
      expect((await post({})).status).toBe(401);
      expect((await post({ authorization: 'Bearer wrong' })).status).toBe(401);
      expect((await post({ authorization: `Bearer ${token}` })).status).toBe(200);
      expect((await post({ 'x-api-key': token })).status).toBe(200);
      const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: token, maxRetries: 0 });
      const message = await anthropic.messages.create({ model: 'backup/model-c', max_tokens: 16, messages: [{ role: 'user', content: 'sdk' }] });
      expect(message.content[0]).toMatchObject({ text: 'sdk' });
      expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    } finally {
      await gateway.stop();
    }
  });
});

describe('graceful shutdown', () => {
  it('drains in-flight requests on SIGTERM, refuses new ones, closes the databases and exits 0', async () => {
    await emulator.setScript({ routes: [{ match: { model: 'model-c' }, steps: [{ ok: true, delayMs: 1200 }] }] });
    const gateway = await startGateway({ config: fixtureConfig(emulator.url), env: { TEST_ANTHROPIC_KEY: 'sk-test-x-1234' } });
    const inFlight = fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'backup/model-c', messages: [{ role: 'user', content: 'slow one' }] }),
    });
    // Let the request reach the upstream before the signal.
    for (let tries = 0; tries < 100 && (await emulator.requests()).length === 0; tries += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    gateway.child.kill('SIGTERM');
    for (let tries = 0; tries < 100 && !gateway.stderr().includes('shutting down'); tries += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    const late = await fetch(`${gateway.url}/healthz`).then((response) => response.status, () => 'refused');
    expect(['refused', 503]).toContain(late);
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content).toBe('slow one');
    expect(await gateway.exited).toBe(0);
    expect(gateway.stderr()).toContain('databases closed');
    await gateway.stop();
  });
});

describe('the buffered access log (apps/gateway/src/logger.ts)', () => {
  const chat = (url: string, content: string): Promise<number> =>
    fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'backup/model-c', messages: [{ role: 'user', content }] }),
    }).then(async (response) => {
      await response.arrayBuffer();
      return response.status;
    });

  it('loses no line at shutdown: every answered request has its access line after a SIGTERM right behind the last answer', async () => {
    await emulator.setScript({ routes: [] });
    const gateway = await startGateway({ config: fixtureConfig(emulator.url), env: { TEST_ANTHROPIC_KEY: 'sk-test-x-1234' } });
    const statuses: number[] = [];
    // 300 requests, 20 at a time: far more than one buffer of lines, the last ones still buffered at the signal.
    for (let batch = 0; batch < 15; batch += 1) {
      statuses.push(...(await Promise.all(Array.from({ length: 20 }, (_, index) => chat(gateway.url, `line ${batch}-${index}`)))));
    }
    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toBe(0);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const lines = gateway.stderr().split('\n').filter((line) => line !== '');
    // Every line whole and parseable (a flush never cuts one), the access lines all there, the shutdown last.
    const parsed = lines.map((line) => JSON.parse(line) as { msg?: string });
    expect(accessLineCount(gateway.stderr())).toBe(300);
    expect(parsed.at(-1)?.msg).toBe('gateway stopped; databases closed');
    await gateway.stop();
  });

  it('writes a lone line without a shutdown (the buffer is flushed on a timer, not only when full)', async () => {
    const gateway = await startGateway({ config: fixtureConfig(emulator.url), env: { TEST_ANTHROPIC_KEY: 'sk-test-x-1234' } });
    try {
      expect(await chat(gateway.url, 'one')).toBe(200);
      expect(accessLineCount(await stderrWhen(gateway, (stderr) => accessLineCount(stderr) === 1))).toBe(1);
    } finally {
      await gateway.stop();
    }
  });
});
