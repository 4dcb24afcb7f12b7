import { describe, expect, it } from 'vitest';
import { lookupModelMetadata, parseConfig, safeParseConfig } from './index.js';

const config = parseConfig({
  models: {
    providers: {
      openai: {
        baseUrl: 'http://127.0.0.1:1/v1',
        api: 'openai-completions',
        models: ['gpt-a', { id: 'gpt-4o', contextWindow: 64_000 }, { id: 'gpt-big', contextWindow: 1_000_000, prefill: true, input: ['text', 'image'] }],
      },
      anthropic: { baseUrl: 'http://127.0.0.1:1', api: 'anthropic-messages', models: [{ id: 'claude-x', prefill: false }, 'claude-y'] },
      emu: { baseUrl: 'http://127.0.0.1:1', api: 'google-generative-ai', models: ['claude-sonnet-4-5'] },
    },
  },
  agents: {
    defaults: { model: { primary: 'openai/gpt-a', fallbacks: ['anthropic/claude-y'], contextFallbacks: ['openai/gpt-big'] } },
    entries: { coder: { model: { primary: 'anthropic/claude-x', contextFallbacks: [] } } },
  },
});

function issuesOf(input: unknown): { path: string; message: string }[] {
  const result = safeParseConfig(input);
  if (result.success) throw new Error('expected the config to be rejected');
  return [...result.error.issues];
}

describe('models.providers.<id>.models (docs/configuration.md#model-metadata)', () => {
  it('parses ids and objects into objects', () => {
    expect(config.models.providers['openai']?.models).toEqual([
      { id: 'gpt-a' },
      { id: 'gpt-4o', contextWindow: 64_000 },
      { id: 'gpt-big', contextWindow: 1_000_000, prefill: true, input: ['text', 'image'] },
    ]);
  });

  it('keeps contextFallbacks of the defaults and of an agent', () => {
    expect(config.agents.defaults.model).toMatchObject({ contextFallbacks: ['openai/gpt-big'] });
    expect(config.agents.entries['coder']?.model).toMatchObject({ contextFallbacks: [] });
  });

  it.each([
    [{ models: { providers: { openai: { baseUrl: 'http://127.0.0.1:1', api: 'openai-completions', models: [{ id: 'a', contextWindow: 0 }] } } } }, 'models.providers.openai.models[0].contextWindow'],
    [{ models: { providers: { openai: { baseUrl: 'http://127.0.0.1:1', api: 'openai-completions', models: [{ id: 'a', input: ['audio'] }] } } } }, 'models.providers.openai.models[0].input[0]'],
    [{ models: { providers: { openai: { baseUrl: 'http://127.0.0.1:1', api: 'openai-completions', models: [{ id: 'a', window: 5 }] } } } }, 'models.providers.openai.models[0].window'],
    [{ models: { providers: { openai: { baseUrl: 'http://127.0.0.1:1', api: 'openai-completions', models: ['a', { id: 'a' }] } } } }, 'models.providers.openai.models[1]'],
    [{ agents: { defaults: { model: { primary: 'openai/a', contextFallbacks: ['nope'] } } } }, 'agents.defaults.model.contextFallbacks[0]'],
    [{ gateway: { streams: { continueAfterOutput: 'yes' } } }, 'gateway.streams.continueAfterOutput'],
    [{ retry: { provider: { maxRetryAfterWaitMs: -1 } } }, 'retry.provider.maxRetryAfterWaitMs'],
  ])('rejects a bad entry, naming its path (%#)', (input, path) => {
    const issues = issuesOf(input);
    expect(issues.map((issue) => issue.path)).toContain(path);
    expect(issues.every((issue) => issue.message.length > 10)).toBe(true);
  });
});

describe('lookupModelMetadata', () => {
  it('lets a config entry override the built-in table field by field', () => {
    expect(lookupModelMetadata(config, { provider: 'openai', model: 'gpt-4o' })).toEqual({
      contextWindow: 64_000,
      maxTokens: 16_384,
      reasoning: false,
      input: ['text', 'image'],
      prefill: false,
      maxTemperature: 2,
      source: 'config+built-in',
    });
  });

  it('defaults prefill by wire format and input to text', () => {
    expect(lookupModelMetadata(config, { provider: 'anthropic', model: 'claude-y' })).toMatchObject({ prefill: true, input: ['text'], contextWindow: undefined, source: 'config' });
    expect(lookupModelMetadata(config, { provider: 'anthropic', model: 'claude-x' })).toMatchObject({ prefill: false, source: 'config' });
    expect(lookupModelMetadata(config, { provider: 'openai', model: 'gpt-big' })).toMatchObject({ prefill: true, contextWindow: 1_000_000 });
    expect(lookupModelMetadata(config, { provider: 'unknown', model: 'x' })).toMatchObject({ prefill: false, source: 'none' });
  });

  it('finds a well-known model id served under another provider id, and normalises the provider id', () => {
    expect(lookupModelMetadata(config, { provider: 'emu', model: 'claude-sonnet-4-5' })).toMatchObject({ contextWindow: 200_000, reasoning: true, prefill: false, source: 'config+built-in' });
    expect(lookupModelMetadata(config, { provider: 'OpenAI', model: 'gpt-big' }).contextWindow).toBe(1_000_000);
  });

  it('does not see inherited keys', () => {
    expect(lookupModelMetadata(config, { provider: 'constructor', model: 'toString' }).source).toBe('none');
  });
});
