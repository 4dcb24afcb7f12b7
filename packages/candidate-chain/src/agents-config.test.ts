import { describe, expect, it } from 'vitest';
import type { AgentsModelConfig } from './index.js';
import { CandidateChainError, aliasIndex, configuredSelection, lookupModelRef, resolveModelRef, resolveModelSelection, resolveSessionSelection } from './index.js';

const agents: AgentsModelConfig = {
  defaults: {
    model: { primary: 'openai/gpt-main', fallbacks: ['anthropic/claude-fb'] },
    models: {
      'anthropic/claude-opus': { alias: ' Opus ' },
      'anthropic/claude-opus-old': { alias: 'opus' },
      'not a ref': { alias: 'broken' },
      'openai/no-alias': {},
      'openai/blank-alias': { alias: '  ' },
    },
  },
};

describe('model refs (normalised: trim, provider case, provider aliases, configured aliases)', () => {
  it.each([
    [' OpenAI/gpt-4o ', { provider: 'openai', model: 'gpt-4o' }],
    ['openrouter/meta/llama', { provider: 'openrouter', model: 'meta/llama' }],
    ['OPUS', { provider: 'anthropic', model: 'claude-opus' }],
    [{ provider: ' Gemini ', model: ' flash ' }, { provider: 'google', model: 'flash' }],
  ])('%j → %j', (raw, expected) => {
    expect(resolveModelRef(raw, { agents })).toEqual(expected);
  });

  it.each(['', 'no-slash', 'broken', '/model', 'provider/'])('rejects %j', (raw) => {
    expect(() => resolveModelRef(raw, { agents, field: 'x.y' })).toThrow(/x\.y/);
  });

  it('rejects a ModelRef with an empty part', () => {
    expect(() => resolveModelRef({ provider: 'openai', model: ' ' })).toThrow(CandidateChainError);
  });

  it('indexes aliases case-insensitively, first one wins, ignoring bad keys and blank aliases', () => {
    const index = aliasIndex(agents);
    expect([...index.keys()]).toEqual(['opus']);
    expect(aliasIndex(agents)).toBe(index);
    expect(aliasIndex(undefined).size).toBe(0);
  });
});

describe('lookupModelRef (the one text → ModelRef reading, issue 13)', () => {
  it('trims, then takes a configured alias case-insensitively before provider/model', () => {
    expect(lookupModelRef('  OPUS\t', agents)).toEqual({ provider: 'anthropic', model: 'claude-opus' });
    expect(lookupModelRef(' OpenAI/gpt-4o ', agents)).toEqual({ provider: 'openai', model: 'gpt-4o' });
  });

  it('answers undefined, never throws, for blank text, a bare model id or an unknown alias', () => {
    expect(lookupModelRef('   ', agents)).toBeUndefined();
    expect(lookupModelRef('gpt-4o', agents)).toBeUndefined();
    expect(lookupModelRef('broken', agents)).toBeUndefined();
    expect(lookupModelRef('opus', undefined)).toBeUndefined();
  });

  it('is what resolveModelRef reads, with its error for undefined', () => {
    for (const text of [' Opus ', 'anthropic/claude-x']) expect(resolveModelRef(text, { agents })).toEqual(lookupModelRef(text, agents));
    expect(() => resolveModelRef('gpt-4o', { agents, field: 'f' })).toThrow(CandidateChainError);
  });
});

describe('configured selections', () => {
  it('reads strings and objects', () => {
    expect(resolveModelSelection('openai/a', undefined, 'f')).toEqual({ primary: { provider: 'openai', model: 'a' } });
    expect(resolveModelSelection(' ', undefined, 'f')).toEqual({});
    expect(resolveModelSelection(undefined, undefined, 'f')).toEqual({});
    expect(resolveModelSelection({ primary: ' ', fallbacks: [] }, undefined, 'f')).toEqual({ fallbacks: [] });
  });

  it('falls back to the default when an agent has no model', () => {
    expect(configuredSelection(agents, 'ghost', false)).toMatchObject({ kind: 'default', field: 'agents.defaults.model' });
    expect(configuredSelection(undefined, undefined, true)).toEqual({ kind: 'default', primary: undefined, fallbacks: [], field: 'agents.defaults.model' });
  });
});

describe('session selection (docs/contracts.md#simulate: the override is the requested model; its source sets the policy)', () => {
  it.each([
    ['no session', undefined, undefined],
    ['no override', { authProfileOverride: 'openai:a' }, undefined],
    ['a blank override', { modelOverride: '  ' }, undefined],
    [
      'provider + model fields',
      { providerOverride: 'Anthropic', modelOverride: 'claude-x', modelOverrideSource: 'user' as const },
      { requested: { provider: 'anthropic', model: 'claude-x' }, source: 'user' },
    ],
    ['an alias in the model field', { modelOverride: 'opus' }, { requested: { provider: 'anthropic', model: 'claude-opus' }, source: 'legacy' }],
    [
      'a blank provider field reads the model field as provider/model',
      { providerOverride: ' ', modelOverride: 'openai/x', modelOverrideSource: 'user' as const },
      { requested: { provider: 'openai', model: 'x' }, source: 'user' },
    ],
    [
      'an auto override with a blank origin uses the configured primary',
      { modelOverride: 'openai/x', modelOverrideSource: 'auto' as const, modelOverrideOrigin: ' ' },
      { requested: { provider: 'openai', model: 'x' }, source: 'auto', origin: { provider: 'openai', model: 'gpt-main' } },
    ],
  ])('%s', (_sentence, session, expected) => {
    expect(resolveSessionSelection(session, agents, 'main')).toEqual(expected);
  });
});
