import { describe, expect, it } from 'vitest';
import { configuredOrder, isConfiguredProvider, providerSettings } from './config-lookup.js';
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
