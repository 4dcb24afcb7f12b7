/**
 * End to end, the selection sources a request can declare (docs/contracts.md#gateway; the model-failover doc
 * "Selection source policy"): an explicit model is a strict user selection, unless the header
 * `x-understudy-source: cron | heartbeat` says it is a scheduled job's primary — then it walks the configured
 * fallbacks, or exactly `understudy.fallbacks` (the job's `payload.fallbacks`; `[]` is strict).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Fixture } from './test-support/e2e-fixture.js';
import { startFixture } from './test-support/e2e-fixture.js';

let fixture: Fixture;

beforeAll(async () => {
  fixture = await startFixture();
});

afterAll(async () => {
  await fixture?.stop();
});

beforeEach(async () => {
  await fixture.clearCooldowns();
  // Both OpenAI profiles are out of credit: only a fallback can answer.
  await fixture.emulator.setScript({
    routes: [{ match: { api: 'openai-completions', model: 'gpt-a' }, steps: [{ status: 402, body: { error: { message: 'Insufficient credits', code: 'insufficient_quota' } } }] }],
  });
});

async function ask(headers: Record<string, string>, extra: Record<string, unknown> = {}) {
  const response = await fetch(`${fixture.gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: 'openai/gpt-a', messages: [{ role: 'user', content: 'scheduled hello' }], ...extra }),
  });
  return { status: response.status, model: response.headers.get('x-understudy-model'), body: (await response.json()) as Record<string, unknown> };
}

describe('x-understudy-source', () => {
  it('without it, an explicit model is strict: the failure is reported', async () => {
    const answer = await ask({});
    expect(answer.status).toBe(402);
    expect(answer.model).toBeNull();
  });

  it.each(['cron', 'heartbeat', 'CRON'])('%s: the explicit model is the job primary and walks the configured fallbacks', async (source) => {
    const answer = await ask({ 'x-understudy-source': source });
    expect(answer.status).toBe(200);
    expect(answer.model).toBe('anthropic/claude-b');
  });

  it('cron with understudy.fallbacks uses exactly that list (payload.fallbacks)', async () => {
    const answer = await ask({ 'x-understudy-source': 'cron' }, { understudy: { fallbacks: ['backup/model-c'] } });
    expect(answer.status).toBe(200);
    expect(answer.model).toBe('backup/model-c');
  });

  it('cron with understudy.fallbacks [] is strict', async () => {
    const answer = await ask({ 'x-understudy-source': 'cron' }, { understudy: { fallbacks: [] } });
    expect(answer.status).toBe(402);
  });

  it('cron ignores the session model override: the job model runs', async () => {
    const session = { 'x-understudy-session': 'cron-session' };
    await fetch(`${fixture.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...session },
      body: JSON.stringify({ model: 'default', messages: [{ role: 'user', content: '/model backup/model-c' }] }),
    });
    // A user turn on the session runs the override (and consumes its pending live switch).
    expect((await ask(session)).model).toBe('backup/model-c');
    const answer = await ask({ ...session, 'x-understudy-source': 'cron' }, { understudy: { fallbacks: ['anthropic/claude-b'] } });
    expect(answer.status).toBe(200);
    expect(answer.model).toBe('anthropic/claude-b');
  });

  it('any other value is a 400 naming the header and the allowed values', async () => {
    const answer = await ask({ 'x-understudy-source': 'user' });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toMatch(/x-understudy-source: expected one of cron, heartbeat/);
  });
});
