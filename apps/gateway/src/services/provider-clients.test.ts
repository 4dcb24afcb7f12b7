/**
 * The provider clients the gateway builds from config (docs/configuration.md#timeouts): `models.timeouts.requestMs`
 * is applied once, as each non-streamed attempt's own deadline (turn/run-turn.ts), never as a second timer inside
 * the client. The provider emulator plays a provider whose whole answer is slow.
 */
import { parseConfig } from '@understudy/config';
import { silentLogger } from '@understudy/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorProcess } from '../test-support/processes.js';
import { startEmulator } from '../test-support/processes.js';
import { AttemptDeadline } from '../turn/attempt-deadline.js';
import { ProviderClients, providerRequestTimeoutMs } from './provider-clients.js';

/** The emulator's whole answer comes this long after the request: later than headersMs and requestMs below. */
const ANSWER_AFTER_MS = 400;
let emulator: EmulatorProcess;
let clients: ProviderClients;
let config: ReturnType<typeof parseConfig>;

beforeAll(async () => {
  emulator = await startEmulator({ routes: [{ match: { model: 'gpt-a' }, steps: [{ delayMs: ANSWER_AFTER_MS }] }] });
  config = parseConfig({
    models: {
      providers: {
        slow: { baseUrl: `${emulator.url}/v1`, api: 'openai-completions', timeouts: { requestMs: 150 } },
      },
      timeouts: { headersMs: 100, requestMs: 200 },
    },
  });
  clients = new ProviderClients({ config, logger: silentLogger, nowMs: Date.now });
});

afterAll(async () => {
  await clients?.closeAll();
  await emulator?.stop();
});

const request = { model: 'gpt-a', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('the whole-request limit of a non-streamed call', () => {
  it('is the provider override of models.timeouts.requestMs', () => {
    expect(providerRequestTimeoutMs(config, 'slow')).toBe(150);
    expect(providerRequestTimeoutMs(config, 'other')).toBe(200);
  });

  it('is no timer of the client: an answer slower than headersMs and requestMs still arrives without a deadline', async () => {
    const result = await clients.get('slow')?.complete(request, { credential: null });
    expect(result?.ok && result.value.text).toBe('hi');
  });

  it('is the attempt deadline: it cuts the call once, as a timeout of the request', async () => {
    const started = performance.now();
    const deadline = new AttemptDeadline(new AbortController().signal, providerRequestTimeoutMs(config, 'slow'), 'the provider request took too long');
    const result = await clients.get('slow')?.complete(request, { credential: null, signal: deadline });
    deadline.clear();
    expect(result?.ok).toBe(false);
    expect(!result?.ok && result?.failure).toMatchObject({ abortCause: 'timeout', timeoutKind: 'turn', outputStarted: false });
    expect(performance.now() - started).toBeLessThan(ANSWER_AFTER_MS);
  });
});
