import { describe, expect, it } from 'vitest';
import { defaultConfigFromEnv } from './default-config.js';

describe('defaultConfigFromEnv', () => {
  // Issue 7 item 8: with no config file, provider keys in the environment make the config.
  it('configures each provider with a key as an inline profile and chains them in preference order', () => {
    const { config, found } = defaultConfigFromEnv({
      OPENAI_API_KEY: 'sk-a',
      GOOGLE_API_KEY: 'g-key',
      GROQ_API_KEY: ' ',
      ANTHROPIC_API_KEY: 'sk-ant',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/',
    });
    expect(found.map((entry) => `${entry.provider}:${entry.keyEnv}`)).toEqual(['anthropic:ANTHROPIC_API_KEY', 'openai:OPENAI_API_KEY', 'google:GOOGLE_API_KEY']);
    expect(Object.keys(config.models.providers)).toEqual(['anthropic', 'openai', 'google']);
    expect(config.models.providers['anthropic']).toMatchObject({ baseUrl: 'http://127.0.0.1:9/', api: 'anthropic-messages', apiKey: 'sk-ant' });
    expect(config.models.providers['google']?.api).toBe('google-generative-ai');
    expect(config.agents.defaults.model).toEqual({ primary: 'anthropic/claude-sonnet-4-5', fallbacks: ['openai/gpt-4.1-mini', 'google/gemini-2.5-flash'] });
    expect(config.gateway).toMatchObject({ host: '127.0.0.1', port: 4317 });
  });

  it('prefers GEMINI_API_KEY over GOOGLE_API_KEY', () => {
    expect(defaultConfigFromEnv({ GEMINI_API_KEY: 'g1', GOOGLE_API_KEY: 'g2' }).config.models.providers['google']?.apiKey).toBe('g1');
  });

  it('starts empty without any key', () => {
    const { config, found } = defaultConfigFromEnv({});
    expect(found).toEqual([]);
    expect(config.models.providers).toEqual({});
    expect(config.agents.defaults.model).toBeUndefined();
  });
});
