import { describe, expect, it } from 'vitest';
import { requestTarget } from './http.js';

describe('requestTarget', () => {
  // A client splits each endpoint once into the origin and path undici's dispatcher takes, the same split
  // undici's top-level request(url) makes on every call.
  it.each([
    ['https://api.openai.com/v1/chat/completions', 'https://api.openai.com', '/v1/chat/completions'],
    ['http://127.0.0.1:8080/v1beta/models/gemini-pro:streamGenerateContent?alt=sse', 'http://127.0.0.1:8080', '/v1beta/models/gemini-pro:streamGenerateContent?alt=sse'],
    ['https://example.test:443/messages', 'https://example.test', '/messages'],
    ['http://localhost:9/a%2Fb', 'http://localhost:9', '/a%2Fb'],
  ])('%s → origin %s, path %s', (url, origin, path) => {
    expect(requestTarget(url)).toEqual({ origin, path });
  });

  it('rejects a relative URL', () => {
    expect(() => requestTarget('/v1/messages')).toThrow(TypeError);
  });
});
