import type { SelectionSource } from '@understudy/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentsModelConfig } from './index.js';
import { buildCandidateChain, resolveCandidateChain } from './index.js';

const providerArbitrary = fc.constantFrom('openai', 'OpenAI', 'anthropic', ' google ', 'gemini', 'mistral');
const modelArbitrary = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
const refArbitrary = fc.tuple(providerArbitrary, modelArbitrary).map(([provider, model]) => `${provider}/${model}`);
const sourceArbitrary = fc.constantFrom<SelectionSource>('default', 'agent', 'auto', 'user', 'legacy', 'cron', 'heartbeat');
const selectionArbitrary = fc.oneof(
  refArbitrary,
  fc.record({ primary: refArbitrary, fallbacks: fc.option(fc.array(refArbitrary, { maxLength: 5 }), { nil: undefined }) }).map((selection) =>
    selection.fallbacks === undefined ? { primary: selection.primary } : { primary: selection.primary, fallbacks: selection.fallbacks },
  ),
);
const agentsArbitrary: fc.Arbitrary<AgentsModelConfig> = fc.record({
  defaults: fc.record({ model: selectionArbitrary, imageModel: fc.option(selectionArbitrary, { nil: undefined }) }),
  entries: fc.record({ main: fc.record({ model: fc.option(selectionArbitrary, { nil: undefined }) }) }),
});
const key = (ref: { provider: string; model: string }): string => `${ref.provider.trim().toLowerCase()}/${ref.model}`;

describe('candidate chain properties', () => {
  it('has no duplicate candidates, and the requested model is always first', () => {
    fc.assert(
      fc.property(
        agentsArbitrary,
        fc.option(refArbitrary, { nil: undefined }),
        sourceArbitrary,
        fc.option(fc.array(refArbitrary, { maxLength: 6 }), { nil: undefined }),
        fc.boolean(),
        fc.constantFrom('main', 'other'),
        (agents, requested, source, fallbacksOverride, isImageRequest, agentId) => {
          const plan = resolveCandidateChain({ agents, requested, source, fallbacksOverride, isImageRequest, agentId });
          const keys = plan.candidates.map((candidate) => `${candidate.provider}/${candidate.model}`);
          expect(new Set(keys).size).toBe(keys.length);
          expect(plan.candidates[0]?.origin).toBe('requested');
          expect(plan.candidates.filter((candidate) => candidate.origin === 'requested')).toHaveLength(1);
          if (requested !== undefined) expect(keys[0]).toBe(key({ provider: requested.split('/')[0] ?? '', model: requested.split('/')[1] ?? '' }).replace('gemini/', 'google/'));
          if (source === 'user' || source === 'legacy') {
            if (fallbacksOverride === undefined) expect(plan.candidates).toHaveLength(1);
          }
        },
      ),
    );
  });

  it('reproduces an override list exactly (requested + the list, nothing hidden)', () => {
    fc.assert(
      fc.property(
        agentsArbitrary,
        sourceArbitrary,
        fc.uniqueArray(fc.tuple(fc.constantFrom('openai', 'anthropic', 'google'), modelArbitrary), {
          selector: ([provider, model]) => `${provider}/${model}`,
          maxLength: 6,
        }),
        (agents, source, override) => {
          const list = override.filter(([provider, model]) => `${provider}/${model}` !== 'mistral/z').map(([provider, model]) => `${provider}/${model}`);
          const candidates = buildCandidateChain({ agents, requested: 'mistral/z', source, fallbacksOverride: list });
          expect(candidates.map((candidate) => `${candidate.provider}/${candidate.model}`)).toEqual(['mistral/z', ...list]);
          expect(candidates.slice(1).every((candidate) => candidate.origin === 'override_fallback')).toBe(true);
        },
      ),
    );
  });

  it('tries every configured fallback before the configured primary for non-strict sources', () => {
    fc.assert(
      fc.property(
        fc.array(refArbitrary, { maxLength: 5 }),
        refArbitrary,
        fc.constantFrom<SelectionSource>('default', 'auto', 'cron', 'heartbeat'),
        (fallbacks, primary, source) => {
          const agents: AgentsModelConfig = { defaults: { model: { primary, fallbacks } } };
          const candidates = buildCandidateChain({ agents, requested: 'mistral/z', source });
          const primaryIndex = candidates.findIndex((candidate) => candidate.origin === 'configured_primary');
          if (primaryIndex >= 0) expect(primaryIndex).toBe(candidates.length - 1);
          expect(candidates.length).toBe(new Set(['mistral/z', ...[...fallbacks, primary].map((ref) => key({ provider: ref.split('/')[0] ?? '', model: ref.split('/')[1] ?? '' }).replace('gemini/', 'google/'))]).size);
        },
      ),
    );
  });
});
