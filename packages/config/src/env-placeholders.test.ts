import { describe, expect, it } from 'vitest';
import { ConfigError, expandEnvPlaceholders, isLoopbackHost } from './index.js';

describe('${ENV} placeholders', () => {
  const env = { OPENAI_API_KEY: 'sk-1', HOST: 'api.example.com', EMPTY: '' };
  it.each([
    ['a whole value', { apiKey: '${OPENAI_API_KEY}' }, { apiKey: 'sk-1' }],
    ['inside a string', { baseUrl: 'https://${HOST}/v1' }, { baseUrl: 'https://api.example.com/v1' }],
    ['in arrays', ['${HOST}', 1, null, true], ['api.example.com', 1, null, true]],
    ['$${ writes a literal ${', { text: 'cost $${HOST}' }, { text: 'cost ${HOST}' }],
    ['other dollar signs are left alone', { text: '$HOST ${lower-case' }, { text: '$HOST ${lower-case' }],
    ['keys are not expanded', { '${HOST}': 'x' }, { '${HOST}': 'x' }],
  ])('%s', (_sentence, input, expected) => {
    expect(expandEnvPlaceholders(input, env)).toEqual(expected);
  });

  it('does not change its input', () => {
    const input = { models: { providers: { openai: { apiKey: '${OPENAI_API_KEY}' } } } };
    const output = expandEnvPlaceholders(input, env);
    expect(input.models.providers.openai.apiKey).toBe('${OPENAI_API_KEY}');
    expect(output.models.providers.openai.apiKey).toBe('sk-1');
  });

  it('names each path whose variable is unset or empty', () => {
    try {
      expandEnvPlaceholders({ models: { providers: { openai: { apiKey: '${MISSING}' } } }, list: ['${EMPTY}'] }, env);
      expect.unreachable();
    } catch (error) {
      expect(ConfigError.isInstance(error)).toBe(true);
      if (!ConfigError.isInstance(error)) throw error;
      expect(error.issues.map((issue) => issue.path)).toEqual(['models.providers.openai.apiKey', 'list[0]']);
      expect(error.issues[0]?.message).toContain('environment variable MISSING is not set');
    }
  });
});

describe('loopback hosts (binding anything else requires gateway.auth.token)', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    [' LOCALHOST ', true],
    ['::1', true],
    ['[::1]', true],
    ['::ffff:127.0.0.1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.10', false],
    ['127.0.0.256', false],
    ['127.0.0', false],
    ['example.com', false],
  ])('%s → %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});
