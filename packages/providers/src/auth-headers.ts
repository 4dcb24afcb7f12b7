import type { Credential } from '@understudy/contracts';
import type { ProviderApi } from './chat-types.js';

/** The `anthropic-version` header every Anthropic Messages request carries. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** The beta flag Anthropic requires on requests authorised by an OAuth access token. */
export const ANTHROPIC_OAUTH_BETA = 'oauth-2025-04-20';

/**
 * The secret a credential sends on the wire: the API key, the static token, or the OAuth access token.
 * `undefined` when there is none (or it is blank).
 */
export function credentialSecret(credential: Credential): string | undefined {
  let value: string | undefined;
  switch (credential.type) {
    case 'api_key':
      value = credential.key.reveal();
      break;
    case 'token':
      value = credential.token.reveal();
      break;
    case 'oauth':
      value = credential.access?.reveal();
      break;
  }
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/**
 * The authorisation headers for one request (lower-case names). The secret is revealed here and only here,
 * at the wire.
 *
 * - `openai-completions`, `openai-responses`: `authorization: Bearer <secret>` for every credential type.
 * - `anthropic-messages`: `x-api-key` for an API key; `authorization: Bearer` plus
 *   `anthropic-beta: oauth-2025-04-20` for an OAuth or static token.
 * - `google-generative-ai`: `x-goog-api-key` for an API key; `authorization: Bearer` otherwise.
 *
 * A keyless provider (`credential` null) and a blank secret send no authorisation header.
 *
 * @example authHeaders('anthropic-messages', { type: 'api_key', provider: 'anthropic', key: new Secret('k') })
 * // { 'x-api-key': 'k' }
 */
export function authHeaders(api: ProviderApi, credential: Credential | null): Record<string, string> {
  if (credential === null) return {};
  const secret = credentialSecret(credential);
  if (secret === undefined) return {};
  const isApiKey = credential.type === 'api_key';
  switch (api) {
    case 'openai-completions':
    case 'openai-responses':
      return { authorization: `Bearer ${secret}` };
    case 'anthropic-messages':
      return isApiKey
        ? { 'x-api-key': secret }
        : { authorization: `Bearer ${secret}`, 'anthropic-beta': ANTHROPIC_OAUTH_BETA };
    case 'google-generative-ai':
      return isApiKey ? { 'x-goog-api-key': secret } : { authorization: `Bearer ${secret}` };
  }
}
