import { describe, expect, it } from 'vitest';
import { configuredOrder, inlineKeysOf, isConfiguredProvider, providerSettings, turnDeadlineAtMs } from './config-lookup.js';
import { parseConfig } from './parse-config.js';

const config = parseConfig({
  models: { providers: { openai: { baseUrl: 'http://127.0.0.1:9/v1', api: 'openai-completions', allowFormatRetry: true } } },
  auth: { order: { openai: ['openai:b', 'openai:a'] } },
});

describe('config lookups by provider id', () => {
  it('find a configured provider and its order', () => {
    expect(providerSettings(config, 'openai')?.allowFormatRetry).toBe(true);
    expect(isConfiguredProvider(config, 'openai')).toBe(true);
    expect(configuredOrder(config, 'openai')).toEqual(['openai:b', 'openai:a']);
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'anthropic'])('find nothing for %s, which is not configured', (id) => {
    expect(providerSettings(config, id)).toBeUndefined();
    expect(isConfiguredProvider(config, id)).toBe(false);
    expect(configuredOrder(config, id)).toBeUndefined();
  });
});

describe('values derived from the config', () => {
  it('inline keys: every provider with a non-blank apiKey, the key kept secret', () => {
    const withKeys = parseConfig({
      models: {
        providers: {
          openai: { baseUrl: 'http://127.0.0.1:9/v1', api: 'openai-completions', apiKey: 'sk-test-inline-openai' },
          anthropic: { baseUrl: 'http://127.0.0.1:9', api: 'anthropic-messages', apiKey: '   ' },
          groq: { baseUrl: 'http://127.0.0.1:9/v1', api: 'openai-completions' },
        },
      },
    });
    const keys = inlineKeysOf(withKeys);
    expect(keys.map((entry) => entry.provider)).toEqual(['openai']);
    expect(keys[0]?.key.reveal()).toBe('sk-test-inline-openai');
    expect(JSON.stringify(keys)).not.toContain('sk-test-inline-openai');
  });

  it('the turn deadline: gateway.turnTimeoutMs after the start', () => {
    expect(turnDeadlineAtMs(config, 1_000)).toBe(601_000);
    expect(turnDeadlineAtMs(parseConfig({ gateway: { turnTimeoutMs: 5_000 } }), 1_000)).toBe(6_000);
  });
});
