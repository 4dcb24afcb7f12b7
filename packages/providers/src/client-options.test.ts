import { describe, expect, it } from 'vitest';
import type { ProviderApi } from './chat-types.js';
import { createProviderClient } from './client.js';
import { ProviderCallError, ProviderOptionsError } from './provider-call-error.js';

describe('createProviderClient options', () => {
  it.each([
    [{ api: 'openai-assistants' as ProviderApi }, 'api', /one of openai-completions, openai-responses, anthropic-messages, google-generative-ai/],
    [{ baseUrl: 'api.openai.com/v1' }, 'baseUrl', /http\(s\) URL/],
    [{ baseUrl: 'ftp://example.com' }, 'baseUrl', /http\(s\) URL/],
    [{ timeouts: { stallTimeoutMs: -1 } }, 'timeouts.stallTimeoutMs', /0 or more/],
    [{ timeouts: { firstTokenTimeoutMs: Number.NaN } }, 'timeouts.firstTokenTimeoutMs', /milliseconds/],
    [{ timeouts: { afterFinishGraceMs: -5 } }, 'timeouts.afterFinishGraceMs', /0 or more/],
    [{ timeouts: { drainAfterFinishMs: Number.POSITIVE_INFINITY } }, 'timeouts.drainAfterFinishMs', /milliseconds/],
  ])('rejects %j naming %s', (override, field, message) => {
    const create = (): unknown =>
      createProviderClient({ providerId: 'openai', api: 'openai-completions', baseUrl: 'https://api.openai.com/v1', ...override });
    expect(create).toThrow(ProviderOptionsError);
    expect(create).toThrow(message);
    try {
      create();
    } catch (error) {
      expect(ProviderOptionsError.isInstance(error) && error.field).toBe(field);
    }
  });

  it('accepts 0 to turn a timeout off', async () => {
    const client = createProviderClient({ providerId: 'ollama', api: 'openai-completions', baseUrl: 'http://127.0.0.1:11434/v1', timeouts: { firstTokenTimeoutMs: 0 } });
    expect(client.providerId).toBe('ollama');
    await client.close();
  });
});

describe('ProviderCallError', () => {
  it('carries its failure and brand, and its message never adds to the failure message', () => {
    const error = new ProviderCallError({ message: 'Request timed out', outputStarted: true, phase: 'stream' });
    expect(ProviderCallError.isInstance(error)).toBe(true);
    expect(ProviderCallError.isInstance(new Error('x'))).toBe(false);
    expect(error).toMatchObject({ code: 'provider_call_failed', message: 'Request timed out', name: 'ProviderCallError' });
    expect(error.failure.outputStarted).toBe(true);
  });
});
