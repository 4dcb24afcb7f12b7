import { describe, expect, it } from 'vitest';
import { parseConfig } from './parse-config.js';
import { resolveProviderOAuth } from './oauth-schema.js';

describe('models.providers.<id>.oauth (docs/configuration.md)', () => {
  it('gives a provider on its own API host the built-in defaults', () => {
    expect(resolveProviderOAuth('openai', { baseUrl: 'https://api.openai.com/v1' })).toEqual({
      tokenUrl: 'https://auth.openai.com/oauth/token',
      clientId: 'app_EMoamEEZ73f0CkXaXp7hrann',
      scope: 'openid profile email offline_access',
      source: 'built-in',
    });
    expect(resolveProviderOAuth('anthropic', { baseUrl: 'https://api.anthropic.com' })?.tokenUrl).toBe('https://console.anthropic.com/v1/oauth/token');
  });

  it('gives none to a provider id pointed at another host (a proxy, the emulator) unless the config names a token URL', () => {
    expect(resolveProviderOAuth('openai', { baseUrl: 'http://127.0.0.1:9999/v1' })).toBeUndefined();
    expect(resolveProviderOAuth('openai', { baseUrl: 'http://127.0.0.1:9999/v1', oauth: { tokenUrl: 'http://127.0.0.1:9999/oauth/token', clientId: 'c' } })).toEqual({
      tokenUrl: 'http://127.0.0.1:9999/oauth/token',
      clientId: 'c',
      source: 'config',
    });
  });

  it('lets config fields win over the built-in ones', () => {
    expect(resolveProviderOAuth('google', { baseUrl: 'https://generativelanguage.googleapis.com/v1beta', oauth: { clientId: 'my-client' } })).toMatchObject({
      tokenUrl: 'https://oauth2.googleapis.com/token',
      deviceAuthorizationUrl: 'https://oauth2.googleapis.com/device/code',
      clientId: 'my-client',
      source: 'config+built-in',
    });
  });

  it('rejects a token URL that is not http(s) and unknown keys, naming the path', () => {
    const provider = { baseUrl: 'https://x.example/v1', api: 'openai-completions' };
    expect(() => parseConfig({ models: { providers: { x: { ...provider, oauth: { tokenUrl: 'ftp://x' } } } } })).toThrow(/models\.providers\.x\.oauth\.tokenUrl/);
    expect(() => parseConfig({ models: { providers: { x: { ...provider, oauth: { tokenURL: 'https://x' } } } } })).toThrow(/models\.providers\.x\.oauth/);
  });
});
