import type { ApiKeyCredential } from '@understudy/contracts';
import { Secret } from '@understudy/contracts';
import type { ProviderApi } from '../chat-types.js';
import type { ProviderClient, ProviderClientOptions } from '../client-options.js';
import { createProviderClient } from '../client.js';

/** The base URL a config would give each wire format on the emulator at `url`. */
export function baseUrlFor(api: ProviderApi, url: string): string {
  switch (api) {
    case 'openai-completions':
    case 'openai-responses':
      return `${url}/v1`;
    case 'anthropic-messages':
      return url;
    case 'google-generative-ai':
      return `${url}/v1beta`;
  }
}

/** A provider id per wire format, for failures. */
export const PROVIDER_OF: Readonly<Record<ProviderApi, string>> = {
  'openai-completions': 'openai',
  'openai-responses': 'openai-responses',
  'anthropic-messages': 'anthropic',
  'google-generative-ai': 'google',
};

/** A client of `api` against the emulator at `url`. */
export function emulatorClient(api: ProviderApi, url: string, options: Partial<ProviderClientOptions> = {}): ProviderClient {
  return createProviderClient({ providerId: PROVIDER_OF[api], api, baseUrl: baseUrlFor(api, url), ...options });
}

/** An API key credential. */
export function apiKey(value: string, provider = 'test'): ApiKeyCredential {
  return { type: 'api_key', provider, key: new Secret(value) };
}
