import { parseConfig } from '@understudy/config';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../gateway-error.js';
import { checkFallbacksOverride, resolveRequestSelection, validModelNames } from './model-selection.js';

const config = parseConfig({
  models: {
    providers: {
      openai: { baseUrl: 'http://127.0.0.1:1/v1', api: 'openai-completions', models: ['gpt-a'] },
      anthropic: { baseUrl: 'http://127.0.0.1:1', api: 'anthropic-messages' },
    },
  },
  agents: {
    defaults: { model: { primary: 'openai/gpt-a', fallbacks: ['anthropic/claude-b'] }, models: { 'anthropic/claude-b': { alias: 'Claude' } } },
    entries: { coder: { model: 'anthropic/claude-b' } },
  },
});

function thrown(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    if (GatewayError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('resolveRequestSelection', () => {
  // docs/contracts.md#gateway: `default` or an agent id runs a configured chain; an alias or provider/model is explicit (strict).
  it.each([
    { model: undefined, agent: 'main', expected: { kind: 'configured', agentId: 'main' } },
    { model: 'default', agent: 'coder', expected: { kind: 'configured', agentId: 'coder' } },
    { model: 'DEFAULT', agent: 'main', expected: { kind: 'configured', agentId: 'main' } },
    { model: 'coder', agent: 'main', expected: { kind: 'configured', agentId: 'coder' } },
    { model: 'claude', agent: 'main', expected: { kind: 'explicit', agentId: 'main', ref: { provider: 'anthropic', model: 'claude-b' } } },
    { model: 'OpenAI/gpt-unlisted', agent: 'main', expected: { kind: 'explicit', agentId: 'main', ref: { provider: 'openai', model: 'gpt-unlisted' } } },
  ])('$model for agent $agent', ({ model, agent, expected }) => {
    expect(resolveRequestSelection(model, config, agent)).toEqual(expected);
  });

  it('answers anything else with a 404 listing what is valid', () => {
    const error = thrown(() => resolveRequestSelection('gpt-4o', config, 'main'));
    expect(error.status).toBe(404);
    expect(error.code).toBe('model_not_found');
    for (const valid of ['"default"', 'main, coder', 'Claude', 'openai, anthropic', 'openai/gpt-a']) expect(error.message).toContain(valid);
    expect(thrown(() => resolveRequestSelection('groq/llama', config, 'main')).message).toContain('provider "groq" is not configured');
  });

  it('refuses an unknown agent header', () => {
    const error = thrown(() => resolveRequestSelection('default', config, 'ghost'));
    expect(error.status).toBe(404);
    expect(error.code).toBe('agent_not_found');
  });

  it('lists agents, aliases and configured models', () => {
    expect(validModelNames(config)).toEqual({ agents: ['main', 'coder'], aliases: ['Claude'], models: ['openai/gpt-a', 'anthropic/claude-b'] });
  });
});

describe('checkFallbacksOverride', () => {
  it('normalises aliases and refs, and rejects unknown providers with a 400', () => {
    expect(checkFallbacksOverride(['claude', 'OpenAI/gpt-a'], config)).toEqual([
      { provider: 'anthropic', model: 'claude-b' },
      { provider: 'openai', model: 'gpt-a' },
    ]);
    expect(checkFallbacksOverride([], config)).toEqual([]);
    expect(checkFallbacksOverride(undefined, config)).toBeUndefined();
    expect(thrown(() => checkFallbacksOverride(['x/y'], config)).message).toContain('understudy.fallbacks[0]');
    expect(thrown(() => checkFallbacksOverride(['nope'], config)).status).toBe(400);
  });

  it('reads a fallback alias with surrounding spaces like the session commands and the chain builder do (one resolver, issue 13)', () => {
    expect(checkFallbacksOverride([' Claude '], config)).toEqual([{ provider: 'anthropic', model: 'claude-b' }]);
    expect(thrown(() => resolveRequestSelection(' nope ', config, 'main')).code).toBe('model_not_found');
  });

  it('matches the request model as sent, as the OpenAI and Anthropic APIs do: surrounding whitespace is a 404 that says so (issue 20)', () => {
    expect(resolveRequestSelection('Claude', config, 'main')).toEqual({ kind: 'explicit', agentId: 'main', ref: { provider: 'anthropic', model: 'claude-b' } });
    for (const model of [' claude ', ' default ', 'main\n', '\topenai/gpt-a']) {
      const error = thrown(() => resolveRequestSelection(model, config, 'main'));
      expect(error).toMatchObject({ status: 404, code: 'model_not_found' });
      expect(error.message).toContain(`model ${JSON.stringify(model)} is not available: the name is not trimmed; send ${JSON.stringify(model.trim())}`);
    }
  });
});

describe('provider ids that are Object.prototype names (breaker F4)', () => {
  // A lookup in the config's provider map must ask for an own key: "constructor" is no configured provider.
  it.each(['constructor/x', '__proto__/x', 'toString/x', 'hasOwnProperty/y'])('%s is a 404 for a request and a 400 as a fallback', (model) => {
    const notFound = thrown(() => resolveRequestSelection(model, config, 'main'));
    expect(notFound.status).toBe(404);
    expect(notFound.message).toMatch(/provider "(constructor|__proto__|tostring|hasownproperty)" is not configured/);
    expect(thrown(() => checkFallbacksOverride([model], config)).status).toBe(400);
  });
});
