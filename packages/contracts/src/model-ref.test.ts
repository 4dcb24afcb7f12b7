import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatModelRef, modelRefKey, normalizeProviderId, parseModelRef, sameModelRef } from './model-ref.js';

describe('model refs', () => {
  it.each([
    [' OpenAI/gpt-4o ', { provider: 'openai', model: 'gpt-4o' }],
    ['Z.AI/glm-4.6', { provider: 'zai', model: 'glm-4.6' }],
    ['openrouter/meta-llama/llama-3.3-70b', { provider: 'openrouter', model: 'meta-llama/llama-3.3-70b' }],
    ['gemini/gemini-2.5-pro', { provider: 'google', model: 'gemini-2.5-pro' }],
  ])('normalises %j (trim, provider case and aliases; the model id keeps its case and inner slashes)', (raw, ref) => {
    expect(parseModelRef(raw)).toEqual(ref);
  });

  it.each(['', '   ', '/gpt-4o', 'openai/', 'gpt-4o'])('rejects %j without a default provider', (raw) => {
    expect(parseModelRef(raw)).toBeUndefined();
  });

  it('uses the default provider for a bare model id', () => {
    expect(parseModelRef('gpt-4o', 'OpenAI')).toEqual({ provider: 'openai', model: 'gpt-4o' });
  });

  it('treats Object.prototype member names as plain provider ids', () => {
    expect(normalizeProviderId('constructor')).toBe('constructor');
    expect(normalizeProviderId('__proto__')).toBe('__proto__');
    expect(parseModelRef('toString/x')).toEqual({ provider: 'tostring', model: 'x' });
  });

  it('round-trips through formatModelRef and compares after normalisation', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/), fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,20}$/), (provider, model) => {
        const ref = parseModelRef(`${provider}/${model}`);
        expect(ref).toBeDefined();
        if (ref === undefined) return;
        expect(parseModelRef(formatModelRef(ref))).toEqual(ref);
        expect(sameModelRef(ref, { provider: provider.toUpperCase(), model: ref.model })).toBe(true);
      }),
    );
  });

  it.each([
    [{ provider: 'OpenAI', model: 'gpt-4o' }, { provider: 'openai', model: 'gpt-4o' }, true],
    [{ provider: 'Z.AI', model: 'glm-4' }, { provider: 'zai', model: 'glm-4' }, true],
    [{ provider: 'openai', model: ' gpt-4o ' }, { provider: 'openai', model: 'gpt-4o' }, true],
    [{ provider: 'openai', model: 'GPT-4o' }, { provider: 'openai', model: 'gpt-4o' }, false],
    [{ provider: 'openai', model: 'gpt-4o' }, { provider: 'azure', model: 'gpt-4o' }, false],
  ])('sameModelRef(%j, %j) is %s: the normalisation of parseModelRef, nothing more', (a, b, same) => {
    expect(sameModelRef(a, b)).toBe(same);
    expect(modelRefKey(a) === modelRefKey(b)).toBe(same);
  });

  it('keys a reference as parseModelRef reads its text, whatever extra fields it carries', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^ ?[A-Za-z][A-Za-z0-9.-]{0,12} ?$/), fc.stringMatching(/^ ?[A-Za-z0-9][A-Za-z0-9._:/-]{0,20} ?$/), (provider, model) => {
        const ref = parseModelRef(`${provider}/${model}`);
        if (ref === undefined) return;
        expect(modelRefKey({ provider, model })).toBe(formatModelRef(ref));
        expect(sameModelRef({ provider, model, origin: 'requested' } as { provider: string; model: string }, ref)).toBe(true);
      }),
    );
  });
});
