import type { Candidate, SelectionSource, SessionFields } from '@understudy/contracts';
import { describe, expect, it } from 'vitest';
import type { AgentsModelConfig, CandidateChainInput } from './index.js';
import { CandidateChainError, buildCandidateChain, resolveCandidateChain } from './index.js';

const agents: AgentsModelConfig = {
  defaults: {
    model: { primary: 'openai/gpt-main', fallbacks: ['anthropic/claude-fb', 'google/gemini-fb'] },
    imageModel: { primary: 'openai/gpt-vision', fallbacks: ['anthropic/claude-vision'] },
    models: {
      'openai/gpt-main': { alias: 'main-model' },
      'anthropic/claude-opus': { alias: 'Opus' },
    },
  },
  entries: {
    strict: { model: 'anthropic/claude-agent' },
    'strict-object': { model: { primary: 'anthropic/claude-agent' } },
    'explicit-strict': { model: { primary: 'anthropic/claude-agent', fallbacks: [] } },
    'with-fallbacks': { model: { primary: 'anthropic/claude-agent', fallbacks: ['openai/gpt-agent-fb'] } },
    'no-primary': { model: { fallbacks: ['openai/gpt-agent-fb'] } },
  },
};

const refs = (candidates: readonly Candidate[]): string[] =>
  candidates.map((candidate) => `${candidate.provider}/${candidate.model}:${candidate.origin}`);
const chain = (input: CandidateChainInput): string[] => refs(buildCandidateChain({ agents, ...input }));

describe('selection source policy (the model-failover doc)', () => {
  it.each<[string, CandidateChainInput, string[]]>([
    [
      'the configured default primary uses the configured fallbacks',
      {},
      ['openai/gpt-main:requested', 'anthropic/claude-fb:configured_fallback', 'google/gemini-fb:configured_fallback'],
    ],
    [
      'a requested model is first, configured fallbacks come before the configured primary even across providers',
      { requested: 'mistral/large', source: 'default' },
      [
        'mistral/large:requested',
        'anthropic/claude-fb:configured_fallback',
        'google/gemini-fb:configured_fallback',
        'openai/gpt-main:configured_primary',
      ],
    ],
    ['a user selection is strict', { requested: 'mistral/large', source: 'user' }, ['mistral/large:requested']],
    ['a legacy selection is strict', { requested: 'mistral/large', source: 'legacy' }, ['mistral/large:requested']],
    [
      'an auto-selected fallback walks the configured chain and settles back on the primary',
      { requested: 'google/gemini-fb', source: 'auto' },
      ['google/gemini-fb:requested', 'anthropic/claude-fb:configured_fallback', 'openai/gpt-main:configured_primary'],
    ],
    ['an agent primary given as a string is strict', { agentId: 'strict' }, ['anthropic/claude-agent:requested']],
    ['an agent model object without fallbacks is strict', { agentId: 'strict-object' }, ['anthropic/claude-agent:requested']],
    ['`fallbacks: []` makes an agent explicitly strict', { agentId: 'explicit-strict' }, ['anthropic/claude-agent:requested']],
    [
      'an agent with its own fallbacks opts into fallback',
      { agentId: 'with-fallbacks' },
      ['anthropic/claude-agent:requested', 'openai/gpt-agent-fb:configured_fallback'],
    ],
    [
      'an agent without its own primary uses the default primary with its own fallbacks',
      { agentId: 'no-primary' },
      ['openai/gpt-main:requested', 'openai/gpt-agent-fb:configured_fallback'],
    ],
    ['an unknown agent uses the configured default', { agentId: 'nobody' }, ['openai/gpt-main:requested', 'anthropic/claude-fb:configured_fallback', 'google/gemini-fb:configured_fallback']],
    [
      'a cron job model is a job primary that walks the configured fallbacks',
      { requested: 'mistral/large', source: 'cron' },
      [
        'mistral/large:requested',
        'anthropic/claude-fb:configured_fallback',
        'google/gemini-fb:configured_fallback',
        'openai/gpt-main:configured_primary',
      ],
    ],
    [
      'a cron job with payload.fallbacks uses exactly those',
      { requested: 'mistral/large', source: 'cron', fallbacksOverride: ['openai/gpt-cron'] },
      ['mistral/large:requested', 'openai/gpt-cron:override_fallback'],
    ],
    ['payload.fallbacks: [] makes the cron run strict', { requested: 'mistral/large', source: 'cron', fallbacksOverride: [] }, ['mistral/large:requested']],
    [
      'a heartbeat run walks the configured chain',
      { source: 'heartbeat' },
      ['openai/gpt-main:requested', 'anthropic/claude-fb:configured_fallback', 'google/gemini-fb:configured_fallback'],
    ],
  ])('%s', (_sentence, input, expected) => {
    expect(chain(input)).toEqual(expected);
  });

  it('reports the effective source and strictness', () => {
    expect(resolveCandidateChain({ agents, agentId: 'strict' })).toMatchObject({ source: 'agent', strict: true, configured: 'agent' });
    expect(resolveCandidateChain({ agents })).toMatchObject({ source: 'default', strict: false, configured: 'default' });
    expect(resolveCandidateChain({ agents, requested: 'a/b', source: 'user' })).toMatchObject({ source: 'user', strict: true });
    expect(resolveCandidateChain({ agents, requested: 'a/b', fallbacksOverride: [] }).strict).toBe(true);
    expect(resolveCandidateChain({ agents, requested: 'a/b', fallbacksOverride: ['c/d'] }).strict).toBe(false);
  });
});

describe('candidate chain rules (the model-failover doc)', () => {
  it('keeps configured fallbacks that are outside the model allowlist (operator intent)', () => {
    const onlyPrimaryAllowed: AgentsModelConfig = {
      defaults: { model: { primary: 'openai/a', fallbacks: ['openai/not-listed'] }, models: { 'openai/a': {} } },
    };
    expect(refs(buildCandidateChain({ agents: onlyPrimaryAllowed }))).toEqual(['openai/a:requested', 'openai/not-listed:configured_fallback']);
  });

  it('deduplicates by provider/model after normalisation', () => {
    const duplicated: AgentsModelConfig = {
      defaults: { model: { primary: 'OpenAI/gpt', fallbacks: [' openai/gpt ', 'anthropic/c', 'Anthropic/c', 'openai/GPT'] } },
    };
    expect(refs(buildCandidateChain({ agents: duplicated, requested: 'anthropic/c' }))).toEqual([
      'anthropic/c:requested',
      'openai/gpt:configured_fallback',
      'openai/GPT:configured_fallback',
    ]);
  });

  it('uses exactly the requested model plus fallbacksOverride (no hidden primary)', () => {
    expect(chain({ requested: 'x/one', fallbacksOverride: ['y/two', { provider: 'Z', model: 'three' }, 'x/one'] })).toEqual([
      'x/one:requested',
      'y/two:override_fallback',
      'z/three:override_fallback',
    ]);
    expect(chain({ requested: 'x/one', fallbacksOverride: [] })).toEqual(['x/one:requested']);
    expect(chain({ requested: 'x/one', source: 'user', fallbacksOverride: ['y/two'] })).toEqual(['x/one:requested', 'y/two:override_fallback']);
  });

  it('resolves aliases and normalises refs (trim, provider case, provider aliases)', () => {
    expect(chain({ requested: ' opus ', source: 'user' })).toEqual(['anthropic/claude-opus:requested']);
    expect(chain({ requested: 'MAIN-MODEL', source: 'user' })).toEqual(['openai/gpt-main:requested']);
    expect(chain({ requested: { provider: ' Z.AI ', model: ' glm-4 ' }, source: 'user' })).toEqual(['zai/glm-4:requested']);
    expect(chain({ requested: 'Gemini/flash', source: 'user' })).toEqual(['google/flash:requested']);
  });

  it('returns frozen candidates (a plan is a value)', () => {
    const plan = resolveCandidateChain({ agents });
    expect(Object.isFrozen(plan)).toBe(true);
    expect(Object.isFrozen(plan.candidates)).toBe(true);
    expect(Object.isFrozen(plan.candidates[0])).toBe(true);
    expect(Object.isFrozen(plan.sessionActions)).toBe(true);
    expect(plan.requested).toEqual({ provider: 'openai', model: 'gpt-main' });
  });
});

describe('image requests route through agents.defaults.imageModel', () => {
  it.each<[string, AgentsModelConfig, CandidateChainInput, string[]]>([
    ['the image chain replaces the text chain', agents, { isImageRequest: true }, ['openai/gpt-vision:requested', 'anthropic/claude-vision:configured_fallback']],
    [
      'an image model given as a string has no fallbacks',
      { defaults: { model: 'openai/text', imageModel: 'openai/vision' } },
      { isImageRequest: true },
      ['openai/vision:requested'],
    ],
    [
      'a requested model walks the image fallbacks, then the image primary',
      agents,
      { isImageRequest: true, requested: 'mistral/pix', source: 'default' },
      ['mistral/pix:requested', 'anthropic/claude-vision:configured_fallback', 'openai/gpt-vision:configured_primary'],
    ],
    ['without an image model the text chain is used', { defaults: { model: 'openai/text' } }, { isImageRequest: true }, ['openai/text:requested']],
    ['an agent image request still uses the image chain', agents, { isImageRequest: true, agentId: 'strict' }, ['openai/gpt-vision:requested', 'anthropic/claude-vision:configured_fallback']],
  ])('%s', (_sentence, config, input, expected) => {
    expect(refs(buildCandidateChain({ agents: config, ...input }))).toEqual(expected);
  });
});

describe('session overrides (the model-failover doc "Session overrides and live model switching", docs/contracts.md#simulate)', () => {
  const session = (fields: SessionFields): SessionFields => fields;
  it.each<[string, SessionFields, SelectionSource | undefined, string[], SelectionSource]>([
    [
      'a user override is the requested model and strict',
      session({ providerOverride: 'anthropic', modelOverride: 'claude-x', modelOverrideSource: 'user' }),
      'default',
      ['anthropic/claude-x:requested'],
      'user',
    ],
    [
      'an override without a source is a legacy selection, strict like a user one',
      session({ modelOverride: 'anthropic/claude-x' }),
      undefined,
      ['anthropic/claude-x:requested'],
      'legacy',
    ],
    [
      'a legacy auto override chains from the override through the configured chain',
      session({ providerOverride: 'google', modelOverride: 'gemini-fb', modelOverrideSource: 'auto', modelOverrideOrigin: 'openai/gpt-main' }),
      'default',
      ['google/gemini-fb:requested', 'anthropic/claude-fb:configured_fallback', 'openai/gpt-main:configured_primary'],
      'auto',
    ],
    [
      'a cron run ignores the session override: its job model wins',
      session({ modelOverride: 'anthropic/claude-x', modelOverrideSource: 'user' }),
      'cron',
      ['openai/gpt-main:requested', 'anthropic/claude-fb:configured_fallback', 'google/gemini-fb:configured_fallback'],
      'cron',
    ],
  ])('%s', (_sentence, fields, source, expected, effectiveSource) => {
    const plan = resolveCandidateChain({ agents, session: fields, source });
    expect(refs(plan.candidates)).toEqual(expected);
    expect(plan.source).toBe(effectiveSource);
    expect(plan.sessionActions).toEqual([]);
  });

  it('knows the origin of a legacy auto override (probed every 5 min)', () => {
    const withOrigin = resolveCandidateChain({
      agents,
      session: { modelOverride: 'google/gemini-fb', modelOverrideSource: 'auto', modelOverrideOrigin: 'OpenAI/gpt-main' },
    });
    expect(withOrigin.autoOverrideOrigin).toEqual({ provider: 'openai', model: 'gpt-main' });
    const withoutOrigin = resolveCandidateChain({ agents, agentId: 'strict', session: { modelOverride: 'google/x', modelOverrideSource: 'auto' } });
    expect(withoutOrigin.autoOverrideOrigin).toEqual({ provider: 'anthropic', model: 'claude-agent' });
    const nothingConfigured = resolveCandidateChain({ session: { modelOverride: 'google/x', modelOverrideSource: 'auto' } });
    expect(nothingConfigured.autoOverrideOrigin).toBeUndefined();
    expect(refs(nothingConfigured.candidates)).toEqual(['google/x:requested']);
  });

  describe('heartbeat runs', () => {
    const auto = (origin: string | undefined, chatType?: 'direct' | 'group'): SessionFields => ({
      modelOverride: 'google/gemini-fb',
      modelOverrideSource: 'auto',
      ...(origin === undefined ? {} : { modelOverrideOrigin: origin }),
      ...(chatType === undefined ? {} : { chatType }),
    });

    it('clear a direct auto override whose origin no longer matches the configured default', () => {
      const plan = resolveCandidateChain({ agents, source: 'heartbeat', session: auto('openai/gpt-old') });
      expect(plan.sessionActions).toEqual([
        {
          kind: 'clear_auto_override',
          origin: 'openai/gpt-old',
          patch: { providerOverride: null, modelOverride: null, modelOverrideSource: null, modelOverrideOrigin: null, lastOriginProbeAt: null },
        },
      ]);
      expect(refs(plan.candidates)[0]).toBe('openai/gpt-main:requested');
      expect(plan.source).toBe('heartbeat');
    });

    it('clear an auto override without a recorded origin', () => {
      const plan = resolveCandidateChain({ agents, source: 'heartbeat', session: auto(undefined) });
      expect(plan.sessionActions).toHaveLength(1);
      expect(plan.sessionActions[0]?.origin).toBeUndefined();
    });

    it('keep an auto override whose origin still is the configured default', () => {
      const plan = resolveCandidateChain({ agents, source: 'heartbeat', session: auto('openai/gpt-main') });
      expect(plan.sessionActions).toEqual([]);
      expect(plan.source).toBe('auto');
    });

    it('leave group chats and user overrides alone', () => {
      expect(resolveCandidateChain({ agents, source: 'heartbeat', session: auto('openai/gpt-old', 'group') }).sessionActions).toEqual([]);
      const user = resolveCandidateChain({ agents, source: 'heartbeat', session: { modelOverride: 'x/y', modelOverrideSource: 'user' } });
      expect(user.sessionActions).toEqual([]);
      expect(refs(user.candidates)).toEqual(['x/y:requested']);
    });
  });
});

describe('errors name the field and the fix', () => {
  it.each<[string, AgentsModelConfig | undefined, CandidateChainInput, string, string]>([
    ['a bad configured fallback', { defaults: { model: { primary: 'openai/a', fallbacks: ['openai/b', 'nope'] } } }, {}, 'invalid_model_ref', 'agents.defaults.model.fallbacks[1]'],
    ['a bad agent model', { entries: { main: { model: 'nope' } } }, { agentId: 'main' }, 'invalid_model_ref', 'agents.entries.main.model'],
    ['a bad agent primary', { entries: { main: { model: { primary: 'nope' } } } }, { agentId: 'main' }, 'invalid_model_ref', 'agents.entries.main.model.primary'],
    ['a bad requested model', undefined, { requested: '  ' }, 'invalid_model_ref', 'requested'],
    ['a bad override entry', undefined, { requested: 'a/b', fallbacksOverride: ['c'] }, 'invalid_model_ref', 'fallbacksOverride[0]'],
    ['a bad session override', undefined, { session: { modelOverride: 'x' } }, 'invalid_model_ref', 'session.modelOverride'],
    ['a bad session origin', undefined, { session: { modelOverride: 'x/y', modelOverrideSource: 'auto', modelOverrideOrigin: 'z' } }, 'invalid_model_ref', 'session.modelOverrideOrigin'],
    ['nothing requested and nothing configured', undefined, {}, 'missing_model', 'agents.defaults.model.primary'],
    ['an agent without any primary', { entries: { main: { model: { fallbacks: ['a/b'] } } } }, { agentId: 'main' }, 'missing_model', 'agents.entries.main.model.primary'],
  ])('%s', (_sentence, config, input, code, field) => {
    try {
      buildCandidateChain({ agents: config, ...input });
      expect.unreachable();
    } catch (error) {
      expect(CandidateChainError.isInstance(error)).toBe(true);
      if (!CandidateChainError.isInstance(error)) throw error;
      expect(error.code).toBe(code);
      expect(error.field).toBe(field);
      expect(error.message).toContain(code === 'missing_model' ? 'primary' : field);
    }
  });

  it('brands only its own errors', () => {
    expect(CandidateChainError.isInstance(new Error('x'))).toBe(false);
    expect(CandidateChainError.isInstance(undefined)).toBe(false);
  });
});
