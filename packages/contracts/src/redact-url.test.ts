import { describe, expect, it } from 'vitest';
import { redactUrl, redactUrlsInText } from './index.js';

describe('redactUrl', () => {
  it.each([
    ['http://user:PASS@host/v1?key=abc&x=1', 'http://***@host/v1?key=***&x=1'],
    ['http://user:p@ss@host:8080/v1', 'http://***@host:8080/v1'],
    ['https://host/v1?api_key=k1&token=t2&sig=s3&model=m#frag', 'https://host/v1?api_key=***&token=***&sig=***&model=m#frag'],
    ['https://api.openai.com/v1', 'https://api.openai.com/v1'],
    ['https://host/path@with-at?x=1', 'https://host/path@with-at?x=1'],
    ['not a url ?key=v', 'not a url ?key=***'],
    ['', ''],
  ])('%s → %s', (input, output) => {
    expect(redactUrl(input)).toBe(output);
  });
});

describe('redactUrlsInText', () => {
  it('redacts every URL in a text and leaves text without one as it is', () => {
    expect(redactUrlsInText('connect to http://u:p@h:1/x?secret=1 failed, then https://a/b')).toBe('connect to http://***@h:1/x?secret=*** failed, then https://a/b');
    const plain = 'GET /v1/models';
    expect(redactUrlsInText(plain)).toBe(plain);
  });
});
