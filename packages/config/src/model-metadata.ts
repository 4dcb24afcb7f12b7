/**
 * Model metadata (docs/configuration.md#model-metadata): what a model can take and give — context window, output
 * ceiling, reasoning, input kinds, assistant prefill, temperature ceiling. A config entry under
 * `models.providers.<id>.models` overrides a small built-in table of well-known models field by field; the
 * runner reads `contextWindow` for context-overflow fallback and `prefill` for continuing a stream after output,
 * the wire translation reads `reasoning`, `input` and `maxTemperature`. Pure: no I/O, no clock.
 */
import type { ModelRef } from '@understudy/contracts';
import { normalizeProviderId } from '@understudy/contracts';
import * as z from 'zod';

/** What a model accepts as input. */
export const MODEL_INPUT_KINDS = ['text', 'image'] as const;
/** One of {@link MODEL_INPUT_KINDS}. */
export type ModelInputKind = (typeof MODEL_INPUT_KINDS)[number];

const tokenCount = z.number().int().positive();

/** The optional metadata fields of one model (as written in config and in the built-in table). */
export const modelMetadataFieldsSchema = z.strictObject({
  contextWindow: tokenCount
    .optional()
    .describe('Largest prompt + completion the model takes, tokens. Context-overflow fallback only moves to a larger window.'),
  maxTokens: tokenCount.optional().describe('Largest completion the model produces, tokens.'),
  reasoning: z.boolean().optional().describe('The model thinks before answering (reasoning / extended thinking).'),
  input: z
    .array(z.enum(MODEL_INPUT_KINDS))
    .min(1, 'list at least one input kind: ["text"] or ["text", "image"]')
    .optional()
    .describe('What the model accepts: ["text"] or ["text", "image"].'),
  prefill: z
    .boolean()
    .optional()
    .describe('The model accepts a trailing assistant message and continues it (used to finish a stream that broke after output).'),
  maxTemperature: z.number().nonnegative().finite().optional().describe('Highest sampling temperature the model accepts.'),
});

/** `models.providers.<id>.models[n]` as an object. */
export const modelConfigEntrySchema = modelMetadataFieldsSchema.extend({
  id: z.string().trim().min(1, 'a model id must not be blank: write e.g. "gpt-4o"').describe('Model id as the provider names it.'),
});

/** A model entry after parsing: always an object (a bare id becomes `{ id }`). */
export type ModelConfigEntry = z.output<typeof modelConfigEntrySchema>;

/**
 * `models.providers.<id>.models`: model ids or `{ id, contextWindow?, maxTokens?, reasoning?, input?, prefill?,
 * maxTemperature? }` objects. The output is always objects; two entries with the same id are an error at the second.
 */
export const providerModelsSchema = z
  .array(
    z.union([
      z.string().trim().min(1, 'a model id must not be blank: write e.g. "gpt-4o"').transform((id): ModelConfigEntry => ({ id })),
      modelConfigEntrySchema,
    ]),
  )
  .superRefine((entries, context) => {
    const seen = new Set<string>();
    entries.forEach((entry, index) => {
      if (seen.has(entry.id)) {
        context.addIssue({ code: 'custom', path: [index], message: `model "${entry.id}" is listed twice: keep one entry` });
      }
      seen.add(entry.id);
    });
  });

/** Wire formats whose models accept an assistant prefill unless their metadata says otherwise. */
const PREFILL_BY_API: Readonly<Record<string, boolean>> = {
  'anthropic-messages': true,
  'openai-completions': false,
  'openai-responses': false,
  'google-generative-ai': false,
};

/** The metadata fields of a model (every field optional). */
export type ModelMetadataFields = z.output<typeof modelMetadataFieldsSchema>;

/**
 * Built-in metadata of well-known models, by normalised provider id then model id (figures from the providers'
 * published model pages). A config entry overrides any field. Kept small on purpose: configure the rest.
 */
export const BUILT_IN_MODEL_METADATA: Readonly<Record<string, Readonly<Record<string, ModelMetadataFields>>>> = {
  openai: {
    'gpt-4o': { contextWindow: 128_000, maxTokens: 16_384, reasoning: false, input: ['text', 'image'], maxTemperature: 2 },
    'gpt-4o-mini': { contextWindow: 128_000, maxTokens: 16_384, reasoning: false, input: ['text', 'image'], maxTemperature: 2 },
    'gpt-4.1': { contextWindow: 1_047_576, maxTokens: 32_768, reasoning: false, input: ['text', 'image'], maxTemperature: 2 },
    'gpt-4.1-mini': { contextWindow: 1_047_576, maxTokens: 32_768, reasoning: false, input: ['text', 'image'], maxTemperature: 2 },
    'gpt-4.1-nano': { contextWindow: 1_047_576, maxTokens: 32_768, reasoning: false, input: ['text', 'image'], maxTemperature: 2 },
    o3: { contextWindow: 200_000, maxTokens: 100_000, reasoning: true, input: ['text', 'image'] },
    'o4-mini': { contextWindow: 200_000, maxTokens: 100_000, reasoning: true, input: ['text', 'image'] },
    'gpt-5': { contextWindow: 400_000, maxTokens: 128_000, reasoning: true, input: ['text', 'image'] },
    'gpt-5-mini': { contextWindow: 400_000, maxTokens: 128_000, reasoning: true, input: ['text', 'image'] },
  },
  anthropic: {
    'claude-3-5-haiku-latest': { contextWindow: 200_000, maxTokens: 8_192, reasoning: false, input: ['text', 'image'], maxTemperature: 1 },
    'claude-3-7-sonnet-latest': { contextWindow: 200_000, maxTokens: 64_000, reasoning: true, input: ['text', 'image'], maxTemperature: 1 },
    'claude-sonnet-4-0': { contextWindow: 200_000, maxTokens: 64_000, reasoning: true, input: ['text', 'image'], maxTemperature: 1 },
    'claude-sonnet-4-5': { contextWindow: 200_000, maxTokens: 64_000, reasoning: true, input: ['text', 'image'], maxTemperature: 1 },
    'claude-opus-4-1': { contextWindow: 200_000, maxTokens: 32_000, reasoning: true, input: ['text', 'image'], maxTemperature: 1 },
    'claude-haiku-4-5': { contextWindow: 200_000, maxTokens: 64_000, reasoning: true, input: ['text', 'image'], maxTemperature: 1 },
  },
  google: {
    'gemini-2.5-pro': { contextWindow: 1_048_576, maxTokens: 65_536, reasoning: true, input: ['text', 'image'], maxTemperature: 2 },
    'gemini-2.5-flash': { contextWindow: 1_048_576, maxTokens: 65_536, reasoning: true, input: ['text', 'image'], maxTemperature: 2 },
    'gemini-2.0-flash': { contextWindow: 1_048_576, maxTokens: 8_192, reasoning: false, input: ['text', 'image'], maxTemperature: 2 },
  },
};

/** Where a model's metadata came from. */
export type ModelMetadataSource = 'config' | 'built-in' | 'config+built-in' | 'none';

/** The resolved metadata of one model ({@link lookupModelMetadata}). Unknown figures stay `undefined`. */
export interface ModelMetadata {
  /** Largest prompt + completion, tokens; `undefined` when neither config nor the built-in table knows it. */
  readonly contextWindow: number | undefined;
  /** Largest completion, tokens; `undefined` when unknown. */
  readonly maxTokens: number | undefined;
  /** The model reasons before answering; `undefined` when unknown (treat as "do not send reasoning options"). */
  readonly reasoning: boolean | undefined;
  /** Accepted input kinds. Default `["text"]` when unknown (an image then needs the image chain). */
  readonly input: readonly ModelInputKind[];
  /**
   * The model continues a trailing assistant message. Default by wire format of the provider
   * (`models.providers.<id>.api`): `anthropic-messages` yes, `openai-completions` and `google-generative-ai` no,
   * an unknown provider no.
   */
  readonly prefill: boolean;
  /** Highest accepted temperature; `undefined` when unknown (send the caller's value unchanged). */
  readonly maxTemperature: number | undefined;
  /** Where the figures came from (`none`: only the defaults above). */
  readonly source: ModelMetadataSource;
}

/** The part of the parsed config that {@link lookupModelMetadata} reads (`models.providers`). */
export interface ModelMetadataConfig {
  readonly models: {
    readonly providers: Readonly<
      Record<string, { readonly api: string; readonly models?: readonly ModelConfigEntry[] | undefined } | undefined>
    >;
  };
}

function builtInEntry(provider: string, model: string): ModelMetadataFields | undefined {
  const byProvider = Object.hasOwn(BUILT_IN_MODEL_METADATA, provider) ? BUILT_IN_MODEL_METADATA[provider] : undefined;
  if (byProvider !== undefined && Object.hasOwn(byProvider, model)) return byProvider[model];
  // A well-known model id served through another provider id (a proxy, a renamed provider) keeps its figures.
  for (const table of Object.values(BUILT_IN_MODEL_METADATA)) if (Object.hasOwn(table, model)) return table[model];
  return undefined;
}

/**
 * The metadata of `ref` (docs/configuration.md#model-metadata): the entry of `models.providers.<provider>.models`
 * whose `id` equals `ref.model`, field by field over the built-in entry of that model (provider id and model id,
 * else the model id under any provider of the table), over the defaults (`input` `["text"]`, `prefill` by the
 * provider's wire format). Pure and cheap (no allocation beyond the result); never throws.
 *
 * @param config - the parsed config (only `models.providers` is read).
 * @param ref - the model; its provider id is normalised before the lookup.
 * @example lookupModelMetadata(config, { provider: 'openai', model: 'gpt-4o' }).contextWindow // 128000
 */
export function lookupModelMetadata(config: ModelMetadataConfig, ref: ModelRef): ModelMetadata {
  const provider = normalizeProviderId(ref.provider);
  const settings = Object.hasOwn(config.models.providers, provider) ? config.models.providers[provider] : undefined;
  const configured = settings?.models?.find((entry) => entry.id === ref.model);
  const builtIn = builtInEntry(provider, ref.model);
  const source: ModelMetadataSource =
    configured !== undefined && builtIn !== undefined ? 'config+built-in' : configured !== undefined ? 'config' : builtIn !== undefined ? 'built-in' : 'none';
  return {
    contextWindow: configured?.contextWindow ?? builtIn?.contextWindow,
    maxTokens: configured?.maxTokens ?? builtIn?.maxTokens,
    reasoning: configured?.reasoning ?? builtIn?.reasoning,
    input: configured?.input ?? builtIn?.input ?? ['text'],
    prefill: configured?.prefill ?? builtIn?.prefill ?? (settings === undefined ? false : (PREFILL_BY_API[settings.api] ?? false)),
    maxTemperature: configured?.maxTemperature ?? builtIn?.maxTemperature,
    source,
  };
}
