/**
 * The part of the config that model selection reads (`agents.*`), as a structural type: `@understudy/config`'s
 * parsed `agents` section satisfies it, and tests or other hosts can pass a plain object.
 */
import type { ModelRef } from '@understudy/contracts';
import { normalizeProviderId, parseModelRef } from '@understudy/contracts';
import { CandidateChainError } from './errors.js';

/** A model selection in config: `"provider/model"` or `{ primary, fallbacks? }` (docs/configuration.md). */
export type ModelSelectionConfig =
  | string
  | { readonly primary?: string | undefined; readonly fallbacks?: readonly string[] | undefined };

/** `agents.defaults.models["provider/model"]`: the allowlist entry of a model, with its optional alias. */
export interface ModelEntryConfig {
  readonly alias?: string | undefined;
}

/** The `agents` config section as model selection reads it. */
export interface AgentsModelConfig {
  readonly defaults?:
    | {
        readonly model?: ModelSelectionConfig | undefined;
        readonly imageModel?: ModelSelectionConfig | undefined;
        readonly models?: Readonly<Record<string, ModelEntryConfig>> | undefined;
      }
    | undefined;
  readonly entries?: Readonly<Record<string, { readonly model?: ModelSelectionConfig | undefined }>> | undefined;
}

/** A model selection with its refs resolved; `fallbacks` is `undefined` when the config gave none. */
export interface ResolvedModelSelection {
  readonly primary?: ModelRef | undefined;
  readonly fallbacks?: readonly ModelRef[] | undefined;
}

/**
 * Resolves a model reference: a configured alias (`agents.defaults.models["p/m"].alias`, matched trimmed and
 * case-insensitively), else `provider/model` normalised (trimmed, provider id lower-cased, provider aliases
 * folded). A {@link ModelRef} is normalised the same way.
 *
 * @param field - the config path or input field the reference came from, for the error message.
 * @throws {CandidateChainError} `invalid_model_ref` when it is blank, or neither an alias nor `provider/model`.
 * @example resolveModelRef(' OpenAI/gpt-4o ') // { provider: 'openai', model: 'gpt-4o' }
 * @example resolveModelRef('opus', { agents: { defaults: { models: { 'anthropic/claude-opus-4': { alias: 'Opus' } } } } })
 *   // { provider: 'anthropic', model: 'claude-opus-4' }
 */
export function resolveModelRef(
  raw: string | ModelRef,
  options: { readonly agents?: AgentsModelConfig | undefined; readonly field?: string | undefined } = {},
): ModelRef {
  const field = options.field ?? 'model';
  if (typeof raw !== 'string') {
    const provider = normalizeProviderId(raw.provider);
    const model = raw.model.trim();
    if (provider === '' || model === '') {
      throw new CandidateChainError(
        'invalid_model_ref',
        field,
        `${field}: a model reference needs a provider and a model id (e.g. { provider: "openai", model: "gpt-4o" })`,
      );
    }
    return { provider, model };
  }
  const text = raw.trim();
  const parsed = lookupModelRef(text, options.agents);
  if (parsed === undefined) {
    throw new CandidateChainError(
      'invalid_model_ref',
      field,
      `${field}: "${text}" is neither "provider/model" nor a configured alias; write e.g. "openai/gpt-4o", or add an alias under agents.defaults.models["<provider>/<model>"].alias`,
    );
  }
  return parsed;
}

/**
 * The model a user or config text names, or `undefined`: a configured alias (matched trimmed and
 * case-insensitively), else `provider/model` normalised as {@link parseModelRef} does. The one reading of such a
 * text; {@link resolveModelRef} throws on `undefined`, and the gateway's callers answer with their own error
 * codes. Whether the provider is configured is not checked here.
 *
 * @example lookupModelRef(' Opus ', { defaults: { models: { 'anthropic/claude-opus-4': { alias: 'opus' } } } }) // { provider: 'anthropic', model: 'claude-opus-4' }
 * @example lookupModelRef('gpt-4o', undefined) // undefined (no provider, no alias)
 */
export function lookupModelRef(text: string, agents: AgentsModelConfig | undefined): ModelRef | undefined {
  const trimmed = text.trim();
  return aliasIndex(agents).get(trimmed.toLowerCase()) ?? parseModelRef(trimmed);
}

const aliasCache = new WeakMap<object, ReadonlyMap<string, ModelRef>>();

/** Alias (lower-cased) → model ref, from `agents.defaults.models`. Entries whose key is not `p/m` are ignored. */
export function aliasIndex(agents: AgentsModelConfig | undefined): ReadonlyMap<string, ModelRef> {
  const models = agents?.defaults?.models;
  if (models === undefined) return new Map();
  const cached = aliasCache.get(models);
  if (cached !== undefined) return cached;
  const index = new Map<string, ModelRef>();
  for (const [key, entry] of Object.entries(models)) {
    const alias = entry.alias?.trim().toLowerCase();
    const ref = parseModelRef(key);
    if (alias !== undefined && alias !== '' && ref !== undefined && !index.has(alias)) index.set(alias, ref);
  }
  aliasCache.set(models, index);
  return index;
}

/**
 * Resolves a configured selection (`"p/m"` or `{ primary, fallbacks }`) at config path `field`.
 * A string has no `fallbacks` (`undefined`); an object keeps its list as given (`[]` stays `[]`).
 */
export function resolveModelSelection(
  selection: ModelSelectionConfig | undefined,
  agents: AgentsModelConfig | undefined,
  field: string,
): ResolvedModelSelection {
  if (selection === undefined) return {};
  if (typeof selection === 'string') {
    return selection.trim() === '' ? {} : { primary: resolveModelRef(selection, { agents, field }) };
  }
  const primary =
    selection.primary === undefined || selection.primary.trim() === ''
      ? undefined
      : resolveModelRef(selection.primary, { agents, field: `${field}.primary` });
  const fallbacks = selection.fallbacks?.map((entry, index) =>
    resolveModelRef(entry, { agents, field: `${field}.fallbacks[${index}]` }),
  );
  return { ...(primary === undefined ? {} : { primary }), ...(fallbacks === undefined ? {} : { fallbacks }) };
}
