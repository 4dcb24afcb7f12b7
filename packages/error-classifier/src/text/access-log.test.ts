import { describe, expect, it } from 'vitest';
import { blankAccessLogReplies } from './access-log.js';

describe('blankAccessLogReplies (docs/policy.md: an access log states its own reply)', () => {
  it('blanks the reason phrase after an access-log status, keeping the status and the offsets', () => {
    const text = 'info: 127.0.0.1:1 - "get /v1/tags http/1.1" 500 internal server error server error: all connection attempts failed';
    const blanked = blankAccessLogReplies(text);
    expect(blanked).toHaveLength(text.length);
    expect(blanked).toContain('"get /v1/tags http/1.1" 500 ');
    expect(blanked).not.toContain('internal server error');
    expect(blanked).toContain('server error: all connection attempts failed');
  });

  it('blanks every access-log line of a text', () => {
    const text = '"post /a http/1.1" 429 too many requests | "post /b http/2" 503 service unavailable';
    expect(blankAccessLogReplies(text)).not.toMatch(/too many requests|service unavailable/);
  });

  it.each([
    'http request: post https://api.openai.com/v1/chat/completions "http/1.1 429 too many requests"',
    '500 internal server error',
    '"get /health http/1.1" 200 ok',
    '',
  ])('leaves a text without an access-log reason phrase as it is: %s', (text) => {
    expect(blankAccessLogReplies(text)).toBe(text);
  });
});
