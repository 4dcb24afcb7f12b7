/**
 * Breaker F4 follow-up: provider ids such as `constructor` are ordinary names. A config lookup must not find
 * `Object.prototype` members, in the gateway or in the packages the config is handed to (the runner reads
 * `auth.order[provider]`).
 */
import { configuredOrder, isConfiguredProvider, parseConfig } from '@understudy/config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InProcessGateway } from './test-support/in-process-gateway.js';
import { startInProcessGateway } from './test-support/in-process-gateway.js';

const providers = {
  constructor: { baseUrl: 'http://127.0.0.1:9/v1', api: 'openai-completions', apiKey: 'sk-test-ctor-key-0000' },
  openai: { baseUrl: 'http://127.0.0.1:9/v1', api: 'openai-completions' },
};

describe('config lookups by own key', () => {
  const config = parseConfig({ models: { providers: { openai: providers.openai } } });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])('finds no provider or order named %s', (id) => {
    expect(isConfiguredProvider(config, id)).toBe(false);
    expect(configuredOrder(config, id)).toBeUndefined();
    const owned = config; // parseConfig already gives null-prototype maps
    expect(owned.models.providers[id]).toBeUndefined();
    expect(owned.auth.order[id]).toBeUndefined();
    expect(owned.auth.profiles[id]).toBeUndefined();
    expect(owned.agents.entries[id]).toBeUndefined();
  });

  it('keeps every entry the config has', () => {
    const owned = (parseConfig({ models: { providers }, auth: { order: { openai: ['openai:a'] } } }));
    expect(Object.keys(owned.models.providers).sort()).toEqual(['constructor', 'openai']);
    expect(owned.auth.order['openai']).toEqual(['openai:a']);
  });
});

describe('a provider that is really called constructor', () => {
  let gateway: InProcessGateway;
  beforeAll(async () => {
    gateway = await startInProcessGateway({ config: { models: { providers }, agents: { defaults: { model: 'openai/gpt-a' } } } });
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('is tried like any other (its upstream refuses: a timeout failure, not an internal error)', async () => {
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'constructor/x', messages: [{ role: 'user', content: 'x' }] }),
    });
    const body = (await response.json()) as { error: { code: string } };
    expect(body.error.code).not.toBe('internal_error');
    expect(response.status).toBe(408); // a timeout without an HTTP status answers 408 (docs/policy.md)
  });
});
