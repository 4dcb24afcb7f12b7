/**
 * The config `pnpm start` uses when no config file exists: one provider per API key found in the environment
 * (each key becomes that provider's `<provider>:inline` auth profile), and a default chain across them. With
 * no key at all the gateway still starts, and says what to configure.
 */
import type { UnderstudyConfig, UnderstudyConfigInput } from '@understudy/config';
import { parseConfig } from '@understudy/config';

/** A provider the gateway recognises by its environment variable. */
export interface KnownProvider {
  /** Provider id (normalised, as in `models.providers`). */
  readonly id: string;
  /** Variables holding its key, first set wins. */
  readonly keyEnv: readonly string[];
  readonly api: 'openai-completions' | 'openai-responses' | 'anthropic-messages' | 'google-generative-ai';
  readonly baseUrl: string;
  /** A sensible default model id of the provider (without the provider prefix). */
  readonly model: string;
}

/**
 * The providers recognised from the environment, in the order the default chain prefers them. Each base URL
 * can be moved with `<ID>_BASE_URL` (e.g. `OPENAI_BASE_URL`), which is how the demo points them at the emulator.
 */
export const KNOWN_PROVIDERS: readonly KnownProvider[] = Object.freeze([
  { id: 'anthropic', keyEnv: ['ANTHROPIC_API_KEY'], api: 'anthropic-messages', baseUrl: 'https://api.anthropic.com', model: 'claude-sonnet-4-5' },
  { id: 'openai', keyEnv: ['OPENAI_API_KEY'], api: 'openai-completions', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4.1-mini' },
  {
    id: 'google',
    keyEnv: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    api: 'google-generative-ai',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    model: 'gemini-2.5-flash',
  },
  { id: 'openrouter', keyEnv: ['OPENROUTER_API_KEY'], api: 'openai-completions', baseUrl: 'https://openrouter.ai/api/v1', model: 'openrouter/auto' },
  { id: 'groq', keyEnv: ['GROQ_API_KEY'], api: 'openai-completions', baseUrl: 'https://api.groq.com/openai/v1', model: 'llama-3.3-70b-versatile' },
  { id: 'mistral', keyEnv: ['MISTRAL_API_KEY'], api: 'openai-completions', baseUrl: 'https://api.mistral.ai/v1', model: 'mistral-small-latest' },
  { id: 'deepseek', keyEnv: ['DEEPSEEK_API_KEY'], api: 'openai-completions', baseUrl: 'https://api.deepseek.com/v1', model: 'deepseek-chat' },
  { id: 'xai', keyEnv: ['XAI_API_KEY'], api: 'openai-completions', baseUrl: 'https://api.x.ai/v1', model: 'grok-3-mini' },
  {
    id: 'together',
    keyEnv: ['TOGETHER_API_KEY'],
    api: 'openai-completions',
    baseUrl: 'https://api.together.xyz/v1',
    model: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
  },
  {
    id: 'fireworks',
    keyEnv: ['FIREWORKS_API_KEY'],
    api: 'openai-completions',
    baseUrl: 'https://api.fireworks.ai/inference/v1',
    model: 'accounts/fireworks/models/llama-v3p3-70b-instruct',
  },
  { id: 'cerebras', keyEnv: ['CEREBRAS_API_KEY'], api: 'openai-completions', baseUrl: 'https://api.cerebras.ai/v1', model: 'llama-3.3-70b' },
]);

/** One `models.providers` entry as the config file would hold it. */
type ProviderInput = NonNullable<NonNullable<UnderstudyConfigInput['models']>['providers']>[string];

/** The config built from the environment, and what was found. */
export interface EnvironmentConfig {
  readonly config: UnderstudyConfig;
  /** For each provider found: its id, the variable its key came from, and its default model. */
  readonly found: readonly { readonly provider: string; readonly keyEnv: string; readonly model: string }[];
}

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/**
 * The default config from provider keys in `env`: `models.providers.<id>` with the key inline, and
 * `agents.defaults.model` = the first provider's model with the others' models as fallbacks.
 *
 * @example defaultConfigFromEnv({ OPENAI_API_KEY: 'sk-…' }).config.agents.defaults.model
 *   // { primary: 'openai/gpt-4.1-mini', fallbacks: [] }
 */
export function defaultConfigFromEnv(env: Readonly<Record<string, string | undefined>>): EnvironmentConfig {
  const providers: Record<string, ProviderInput> = {};
  const found: { provider: string; keyEnv: string; model: string }[] = [];
  for (const known of KNOWN_PROVIDERS) {
    const keyEnv = known.keyEnv.find((name) => nonBlank(env[name]) !== undefined);
    if (keyEnv === undefined) continue;
    const baseUrl = nonBlank(env[`${known.id.toUpperCase()}_BASE_URL`]) ?? known.baseUrl;
    providers[known.id] = { baseUrl, api: known.api, apiKey: nonBlank(env[keyEnv]) ?? '', models: [known.model] };
    found.push({ provider: known.id, keyEnv, model: `${known.id}/${known.model}` });
  }
  const [first, ...rest] = found;
  const input: UnderstudyConfigInput = {
    models: { providers },
    ...(first === undefined ? {} : { agents: { defaults: { model: { primary: first.model, fallbacks: rest.map((entry) => entry.model) } } } }),
  };
  return { config: parseConfig(input, { source: 'environment' }), found };
}
