import type { Credential } from '@understudy/contracts';
import { Secret } from '@understudy/contracts';
import { describe, expect, it } from 'vitest';
import { authHeaders } from './auth-headers.js';
import type { ProviderApi } from './chat-types.js';

const apiKey: Credential = { type: 'api_key', provider: 'p', key: new Secret('key-1234') };
const oauth: Credential = { type: 'oauth', provider: 'p', access: new Secret('access-1234'), refresh: new Secret('refresh-1'), expires: 1 };
const token: Credential = { type: 'token', provider: 'p', token: new Secret('token-1234') };

describe('authHeaders', () => {
  it.each<[ProviderApi, Credential, Record<string, string>]>([
    ['openai-completions', apiKey, { authorization: 'Bearer key-1234' }],
    ['openai-completions', oauth, { authorization: 'Bearer access-1234' }],
    ['openai-completions', token, { authorization: 'Bearer token-1234' }],
    ['anthropic-messages', apiKey, { 'x-api-key': 'key-1234' }],
    ['anthropic-messages', oauth, { authorization: 'Bearer access-1234', 'anthropic-beta': 'oauth-2025-04-20' }],
    ['anthropic-messages', token, { authorization: 'Bearer token-1234', 'anthropic-beta': 'oauth-2025-04-20' }],
    ['google-generative-ai', apiKey, { 'x-goog-api-key': 'key-1234' }],
    ['google-generative-ai', oauth, { authorization: 'Bearer access-1234' }],
    ['google-generative-ai', token, { authorization: 'Bearer token-1234' }],
  ])('%s with a %o credential', (api, credential, expected) => {
    expect(authHeaders(api, credential)).toEqual(expected);
  });

  it('sends nothing for a keyless provider or a blank secret', () => {
    expect(authHeaders('openai-completions', null)).toEqual({});
    expect(authHeaders('anthropic-messages', { type: 'api_key', provider: 'p', key: new Secret('  ') })).toEqual({});
    expect(authHeaders('google-generative-ai', { type: 'oauth', provider: 'p' })).toEqual({});
  });
});
