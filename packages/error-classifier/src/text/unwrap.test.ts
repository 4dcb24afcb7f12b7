/**
 * Unwrapping of wrapped provider errors: the innermost error object, its status and codes, and the layers
 * peeled. Payload shapes are taken from the fixture corpora (provider-errors-3.jsonl cites their sources).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SSE_EVENTS, MAX_SSE_TAIL_EVENTS, MAX_UNWRAP_CHARS, pythonLiteralToJson, unwrap } from './unwrap.js';

describe('unwrap', () => {
  it('peels an SDK prefix and reads the inner status of the provider error', () => {
    const result = unwrap('API Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}');
    expect(result.layers[0]).toBe('prefix');
    expect(result.inner?.codes).toContain('rate_limit_error');
    expect(result.inner?.message).toMatch(/per-minute rate limit/);
  });

  it('reads a JSON document held in a string (a relay quoting the upstream body)', () => {
    const inner = JSON.stringify({ error: { code: 402, message: 'Insufficient credits', status: 'PAYMENT_REQUIRED' } });
    const result = unwrap(JSON.stringify({ error: { code: 500, message: inner, type: 'upstream_error' } }));
    expect(result.layers).toContain('json-string');
    expect(result.inner?.status).toBe(402);
    expect(result.inner?.message).toBe('Insufficient credits');
  });

  it('keeps a sentence beside the message as its detail, but not a code-like reason', () => {
    const sentence = unwrap('Err: {"message":"Bad argument","extensions":{"code":"X","reason":"input is 9000 tokens, limit 8192"}}');
    expect(sentence.inner?.detail).toBe('input is 9000 tokens, limit 8192');
    expect(sentence.inner?.codes).toContain('x');
    const code = unwrap('Err: {"message":"Model is busy","reason":"MODEL_BUSY"}');
    expect(code.inner?.detail).toBeNull();
    expect(code.inner?.codes).toContain('model_busy');
    expect(unwrap('Err: {"error":"invalid_grant","error_description":"Token has been expired or revoked."}').inner?.detail).toBe('Token has been expired or revoked.');
  });

  it('reads OpenRouter metadata.raw as the innermost error', () => {
    const raw = JSON.stringify({ error: { message: 'This model is currently overloaded', type: 'overloaded_error' } });
    const result = unwrap(JSON.stringify({ error: { message: 'Provider returned error', code: 502, metadata: { raw, provider_name: 'Anthropic' } } }));
    expect(result.layers.join(' ')).toMatch(/metadata\.raw/);
    expect(result.inner?.codes).toContain('overloaded_error');
  });

  it('reads an SSE error event inside a 200 stream', () => {
    const stream = 'data: {"choices":[{"delta":{"content":"Hi"}}]}\n\nevent: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    const result = unwrap(stream);
    expect(result.layers).toContain('sse');
    expect(result.inner?.codes).toContain('overloaded_error');
  });

  it('returns no inner error for plain text and for HTML pages', () => {
    expect(unwrap('connect ECONNREFUSED 127.0.0.1:11434').inner).toBeNull();
    expect(unwrap('<html><head><title>502 Bad Gateway</title></head><body>cloudflare</body></html>').inner).toBeNull();
  });

  it('reads pretty-printed JSON, and refuses what JSON.parse refuses without trying it twice', () => {
    expect(unwrap('{\n  "error": {\n    "message": "slow down",\n    "code": 429\n  }\n}').inner?.status).toBe(429);
    // A raw line break inside a string (a line-wrapped log) is not JSON; neither is a bracketed log prefix.
    expect(unwrap('{"error":{"message":"slow\ndown","code":429}}').inner).toBeNull();
    expect(unwrap('[API Error: 429 status code (no body)]').inner).toBeNull();
    expect(unwrap('[2025-08-13 21:13:57.016] [error]').inner).toBeNull();
    expect(unwrap('[{"error":{"code":400,"message":"bad"}}]').inner?.status).toBe(400);
  });

  it('reads every array whose first item is a scalar, and refuses log prefixes in brackets before JSON.parse', () => {
    const scalar = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
    const item = fc.oneof(scalar, fc.string(), fc.array(scalar, { maxLength: 2 }));
    fc.assert(
      fc.property(scalar, fc.array(item, { maxLength: 3 }), fc.constantFrom(undefined, 1), fc.constantFrom('', ' ', '\n'), (first, rest, indent, pad) => {
        const text = `${pad}${JSON.stringify([first, ...rest], null, indent)}${pad}`;
        expect(unwrap(text).document).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
    for (const prefix of ['[2025-08-13 21:13:57.016] [error]', '[78.86s]', '[524 None]', '[6:10:42 PM]']) {
      expect(unwrap(prefix).document, prefix).toBeUndefined();
    }
    // a log line after a complete array: refused whole, then read up to its last bracket as before
    expect(unwrap('[0]     at Object.fetch (node:internal)').document).toEqual([0]);
  });

  it('does not parse texts longer than its bound', () => {
    const big = `{"error":{"message":"rate limit","filler":"${'x'.repeat(MAX_UNWRAP_CHARS)}"}}`;
    expect(unwrap(big).inner).toBeNull();
  });

  it('marks a success answer too long to parse by its head, and nothing else', () => {
    const content = 'y'.repeat(MAX_UNWRAP_CHARS);
    expect(unwrap(`{"id":"chatcmpl-1","object":"chat.completion","choices":[{"message":{"role":"assistant","content":"${content}"}}]}`).unreadAnswer).toBe('output');
    expect(unwrap(`{\n  "type": "message",\n  "role": "assistant",\n  "content": [{"type": "text", "text": "${content}"}]}`).unreadAnswer).toBe('output');
    expect(unwrap(`{"model":"llama3","created_at":"2025-01-01T00:00:00Z","response":"${content}","done":true}`).unreadAnswer).toBe('output');
    // an error beside answer-like keys, a Responses object (it echoes the request), and text are not marked
    expect(unwrap(`{"choices":[{"message":{"content":""}}],"error":{"message":"${content}"}}`).unreadAnswer).toBeUndefined();
    expect(unwrap(`{"object":"response","instructions":"${content}","output":[]}`).unreadAnswer).toBeUndefined();
    expect(unwrap(`choices: [{ ${content}`).unreadAnswer).toBeUndefined();
  });

  it('reads a stream longer than its bound by its first and last events, parsing at most the bound', () => {
    const event = (content: string) => `data: {"choices":[{"delta":{"content":"${content}"}}]}\n\n`;
    const long = event('a').repeat(2000) + event('');
    expect(long.length).toBeGreaterThan(MAX_UNWRAP_CHARS);
    const read = unwrap(long);
    expect(read.layers).toEqual(['sse']);
    expect(Array.isArray(read.document) && read.document.length).toBe(MAX_SSE_EVENTS + MAX_SSE_TAIL_EVENTS);
    // one event over the parse budget: output when it opens as an answer, else not read as a stream at all
    expect(unwrap(event('b'.repeat(MAX_UNWRAP_CHARS))).unreadAnswer).toBe('output');
    expect(unwrap(`data: {"error":{"message":"${'c'.repeat(MAX_UNWRAP_CHARS)}"}}\n\n`)).toMatchObject({ inner: null, document: undefined });
  });

  it('reads a Python literal (an SDK printing the dict it got) as the error it holds', () => {
    const result = unwrap("请求参数错误: Error code: 400 - {'error': {'message': \"Model 'x' Not Exist\", 'type': 'invalid_request_error', 'param': None, 'retry': False}}");
    expect(result.layers.slice(0, 2)).toEqual(['prefix', 'json']);
    expect(result.inner?.message).toBe("Model 'x' Not Exist");
    expect(result.inner?.codes).toContain('invalid_request_error');
  });

  it('rewrites Python literals as JSON and refuses what is not one', () => {
    expect(pythonLiteralToJson("{'a': None, 'b': [True, False], 'c': 'it\\'s', 'd': \"say \\\"hi\\\"\"}")).toBe('{"a": null, "b": [true, false], "c": "it\'s", "d": "say \\"hi\\""}');
    expect(JSON.parse(pythonLiteralToJson("{'m': 'line\none'}") ?? '')).toEqual({ m: 'line\none' });
    expect(pythonLiteralToJson("{'a': Nonesuch}")).toBeUndefined();
    expect(pythonLiteralToJson("{'a': 'open")).toBeUndefined();
    expect(pythonLiteralToJson('plain text')).toBeUndefined();
  });

  it('tries the next opening bracket when a log prefix opens with one ("[handleAbortError] … 400 {…}")', () => {
    const result = unwrap('[worker] [retry] failed: 400 {"type":"error","error":{"type":"invalid_request_error","message":"bad"}}');
    expect(result.layers[0]).toBe('prefix');
    expect(result.inner?.message).toBe('bad');
  });

  it('never throws, and reports a status only in 100–599', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.json().map((json) => `Error: 400 ${json}`), fc.json().map((json) => `data: ${json}\n\n`)), (text) => {
        const result = unwrap(text);
        const status = result.inner?.status ?? null;
        expect(status === null || (Number.isInteger(status) && status >= 100 && status <= 599)).toBe(true);
        expect(Array.isArray(result.layers)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('an array of chunks cut short', () => {
  it('is read through its first whole chunk, so the generated text after it is never read as words', () => {
    const cut = 'TypeError: x: [{"candidates":[{"content":{"parts":[{"text":"The"}]}}]},{"candidates":[{"content":{"parts":[{"text":"Your credit balance is too low';
    expect(unwrap(cut).document).toEqual({ candidates: [{ content: { parts: [{ text: 'The' }] } }] });
  });
  it('leaves a log tag before a whole completion alone', () => {
    expect(unwrap('[INFO] {"choices":[{"message":{"content":""}}]}').document).toEqual({ choices: [{ message: { content: '' } }] });
  });
  it('leaves an object cut short, read through its first whole item, alone', () => {
    expect(unwrap('{"id":"x","choices":[{"message":{"content":""}},').document).toEqual({ message: { content: '' } });
  });
});

describe("unwrap: a terminal's box frame around the error JSON", () => {
  it('takes the frame off and names the layer', () => {
    const framed = '  │ {\n  │   "error": {\n  │     "message": "Rate limit reached",\n  │     "code": 429\n  │   }\n  │ }';
    const result = unwrap(framed);
    expect(result.layers).toEqual(['frame', 'json', 'error']);
    expect(result.inner).toEqual({ message: 'Rate limit reached', status: 429, codes: [], detail: null });
  });
  it('leaves a text with a single bar, or framed prose, as it is', () => {
    expect(unwrap('a │ b').layers).toEqual([]);
    expect(unwrap('│ rate limit\n│ exceeded').layers).toEqual([]);
  });
  it('takes a frame off once: bars nested inside the frame are not peeled again', () => {
    const nested = `${'│'.repeat(5_000)} {"error":{"message":"x"}}\n${'│'.repeat(5_000)}`;
    expect(unwrap(nested).layers).toEqual([]);
  });
});
