/**
 * The wire formats a provider can speak (config `models.providers.<id>.api`, docs/configuration.md): one list,
 * which the config schema validates against and the provider clients dispatch on.
 */

/** Every provider wire format, in a stable order. */
export const PROVIDER_APIS = Object.freeze(['openai-completions', 'openai-responses', 'anthropic-messages', 'google-generative-ai'] as const);

/** One provider wire format. */
export type ProviderApi = (typeof PROVIDER_APIS)[number];
