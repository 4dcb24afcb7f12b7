/**
 * Model references (`provider/model`) and their normalisation (docs/policy.md#failover-reasons, the model-failover doc "Candidate chain rules":
 * model refs are compared after trimming, lower-casing the provider id and resolving provider aliases).
 */

/** A model reference: provider id plus the provider's own model id (which keeps its case). */
export interface ModelRef {
  readonly provider: string;
  readonly model: string;
}

/**
 * Provider id aliases folded onto one canonical id, so `Z.AI/glm-4` and `zai/glm-4` are the same candidate.
 * Keys are lower-case.
 */
export const PROVIDER_ID_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  'z.ai': 'zai',
  'z-ai': 'zai',
  'x-ai': 'xai',
  gemini: 'google',
  'google-gemini': 'google',
  'google-ai-studio': 'google',
  bedrock: 'amazon-bedrock',
  'aws-bedrock': 'amazon-bedrock',
  'together-ai': 'together',
  togetherai: 'together',
  'open-router': 'openrouter',
  'fireworks-ai': 'fireworks',
  'mistral-ai': 'mistral',
  mistralai: 'mistral',
  'deepseek-ai': 'deepseek',
  'moonshot-ai': 'moonshot',
  moonshotai: 'moonshot',
});

/**
 * Canonical provider id: trimmed, lower-cased, aliases resolved.
 *
 * @example normalizeProviderId(' OpenAI ') // 'openai'
 * @example normalizeProviderId('Z.AI') // 'zai'
 */
export function normalizeProviderId(provider: string): string {
  const lowered = provider.trim().toLowerCase();
  // Own keys only: `constructor` or `__proto__` are provider names, not Object.prototype members.
  return Object.hasOwn(PROVIDER_ID_ALIASES, lowered) ? (PROVIDER_ID_ALIASES[lowered] as string) : lowered;
}

/**
 * Parses `provider/model` into a normalised {@link ModelRef}. The model id keeps everything after the first
 * `/` (OpenRouter ids such as `openrouter/meta-llama/llama-3` keep their inner slash) and its case.
 *
 * @param raw - the reference text, e.g. `"anthropic/claude-sonnet-4"`.
 * @param defaultProvider - provider to assume when `raw` has no `/`; without it such a string is rejected.
 * @returns the reference, or `undefined` when `raw` is blank or a part is empty.
 * @example parseModelRef('OpenAI/gpt-4o') // { provider: 'openai', model: 'gpt-4o' }
 */
export function parseModelRef(raw: string, defaultProvider?: string): ModelRef | undefined {
  const text = raw.trim();
  if (text === '') return undefined;
  const slash = text.indexOf('/');
  if (slash === -1) {
    if (defaultProvider === undefined || defaultProvider.trim() === '') return undefined;
    return { provider: normalizeProviderId(defaultProvider), model: text };
  }
  const provider = normalizeProviderId(text.slice(0, slash));
  const model = text.slice(slash + 1).trim();
  if (provider === '' || model === '') return undefined;
  return { provider, model };
}

/** `provider/model` text of a reference. @example formatModelRef({ provider: 'openai', model: 'gpt-4o' }) // 'openai/gpt-4o' */
export function formatModelRef(ref: ModelRef): string {
  return `${ref.provider}/${ref.model}`;
}

/**
 * The one answer to "is this the same model": the key of a reference, normalised as {@link parseModelRef}
 * normalises text — the canonical provider id ({@link normalizeProviderId}) and the model id trimmed (its case
 * kept), as `provider/model`. Two references name the same model exactly when their keys are equal, so maps and
 * sets of models (a run's per-candidate state, deduplicated chains) are keyed by it and {@link sameModelRef}
 * compares with it.
 *
 * @example modelRefKey({ provider: 'Z.AI', model: ' glm-4 ' }) // 'zai/glm-4'
 */
export function modelRefKey(ref: ModelRef): string {
  return formatModelRef({ provider: normalizeProviderId(ref.provider), model: ref.model.trim() });
}

/**
 * True when two references name the same model: their {@link modelRefKey}s are equal (provider id canonical,
 * model id trimmed and compared with its case). The gateway, the runner, the chain builder and `simulate` all
 * compare model references through this.
 *
 * @example sameModelRef({ provider: 'OpenAI', model: 'gpt-4o' }, { provider: 'openai', model: 'gpt-4o' }) // true
 * @example sameModelRef({ provider: 'openai', model: 'GPT-4o' }, { provider: 'openai', model: 'gpt-4o' }) // false
 */
export function sameModelRef(a: ModelRef, b: ModelRef): boolean {
  return modelRefKey(a) === modelRefKey(b);
}
