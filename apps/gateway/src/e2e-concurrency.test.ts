/**
 * End to end, conduct when many callers meet one failing provider at once (docs/policy.md#retries-probes-and-rotation
 * "One retrier per profile" and "Probes"): the real gateway process in front of the real provider emulator,
 * driven by concurrent official `openai` clients. The primary has one auth profile, so every call it receives is
 * a call understudy chose to make.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorRoute } from '@understudy/provider-emulator/client';
import type { Fixture } from './test-support/e2e-fixture.js';
import { startFixture } from './test-support/e2e-fixture.js';

/** The first cooldown and the probe throttle (30 s each by default). */
const WINDOW_MS = 2_000;

/** Same-profile retries of one request (the default). */
const MAX_RETRIES = 3;

let fixture: Fixture;
let openai: OpenAI;

beforeAll(async () => {
  fixture = await startFixture({
    config: (base) => ({
      ...base,
      auth: { order: { openai: ['openai:a'] }, cooldowns: { cooldownStepsMs: [WINDOW_MS, 2 * WINDOW_MS, 3 * WINDOW_MS], probeThrottleMs: WINDOW_MS } },
      agents: { defaults: { model: { primary: 'openai/gpt-a', fallbacks: ['backup/model-c'] } } },
      // The default backoff (250 ms base, 5 s cap, 3 retries): the retry-in-place slot is held 1.75 s.
      retry: { provider: { maxRetries: MAX_RETRIES } },
    }),
  });
  openai = new OpenAI({ baseURL: `${fixture.gateway.url}/v1`, apiKey: 'unused-by-this-gateway', maxRetries: 0 });
});

afterAll(async () => {
  await fixture?.stop();
});

const UNAVAILABLE = { status: 503, body: { error: { message: 'Service Unavailable', type: 'server_error' } } };
const primary = (steps: EmulatorRoute['steps']): EmulatorRoute => ({ match: { model: 'gpt-a' }, steps });

async function askTogether(count: number, label: string): Promise<(string | null)[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const { response } = await openai.chat.completions.create({ model: 'default', messages: [{ role: 'user', content: `${label} ${index}` }] }).withResponse();
      return response.headers.get('x-understudy-model');
    }),
  );
}

async function primaryCalls(): Promise<number> {
  return (await fixture.emulator.requests()).filter((request) => request.model === 'gpt-a').length;
}

describe('many callers, one failing provider', () => {
  it('20 requests meeting the start of an outage cost one primary call each and at most one retrier\'s retries (no pile of retries), and all are answered', async () => {
    await fixture.emulator.setScript({ routes: [primary([{ ...UNAVAILABLE, delayMs: 300 }])] });
    await fixture.emulator.clearRequests();
    const models = await askTogether(20, 'outage');
    expect(models).toEqual(Array.from({ length: 20 }, () => 'backup/model-c'));
    // Twenty calls when the failures come back together (the runner's own test holds them to a barrier: exactly 20).
    // Over real sockets on a loaded machine they come back spread out, and the retrier's jittered wait can end before
    // the others have marked the profile: its own retries may then go out, but never every request's.
    expect(await primaryCalls()).toBeLessThanOrEqual(20 + MAX_RETRIES);
  });

  it('4 requests arriving together just after a cooldown ran out send one call to the primary between them', async () => {
    await fixture.clearCooldowns();
    // Let the slots of the previous test run out, then one lone failure opens a fresh first-rung cooldown.
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 100));
    await fixture.emulator.setScript({ routes: [primary([UNAVAILABLE])] });
    expect(await askTogether(1, 'open')).toEqual(['backup/model-c']);
    await fixture.emulator.setScript({ routes: [primary([{ delayMs: 300 }])] });
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 100));
    await fixture.emulator.clearRequests();
    const models = await askTogether(4, 'returning');
    expect(await primaryCalls()).toBe(1);
    expect(models.filter((model) => model === 'openai/gpt-a')).toHaveLength(1);
    expect(models.filter((model) => model === 'backup/model-c')).toHaveLength(3);
    // That call answered: the primary is healthy again for everyone.
    expect(await askTogether(2, 'after')).toEqual(['openai/gpt-a', 'openai/gpt-a']);
  });
});
