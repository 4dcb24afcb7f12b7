import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, scrubSecrets } from './logger.js';

function capture(): { stream: Writable; lines: () => Record<string, unknown>[]; text: () => string } {
  let out = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      out += chunk.toString();
      done();
    },
  });
  return { stream, text: () => out, lines: () => out.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('logger', () => {
  // pino redact.paths for every place a key could sit, and a grep of all output for the fixture keys.
  it('redacts secret fields by path', () => {
    const sink = capture();
    const logger = createLogger({ destination: sink.stream });
    logger.info({ apiKey: 'k1', authorization: 'Bearer k2', 'x-api-key': 'k3', headers: { authorization: 'Bearer k4', 'x-api-key': 'k5' }, credential: { key: 'k6' }, adminToken: 'k7', keep: 'visible' }, 'm');
    const [line] = sink.lines();
    expect(line).toMatchObject({ apiKey: '***', authorization: '***', 'x-api-key': '***', headers: { authorization: '***', 'x-api-key': '***' }, credential: '***', adminToken: '***', keep: 'visible' });
  });

  it('scrubs key-shaped strings anywhere, in fields, nested objects, errors and the message', () => {
    const sink = capture();
    const logger = createLogger({ destination: sink.stream });
    logger.warn(
      { detail: 'Incorrect API key provided: sk-test-openai-key-aaaa.', nested: { deeper: ['gsk_abcdefghijkl', 'xai-abcdefghijk'] }, err: new Error('auth failed for sk-ant-api03-abcdefgh') },
      'upstream said Bearer abcdefghijklmnop',
    );
    const text = sink.text();
    for (const secret of ['sk-test-openai-key-aaaa', 'gsk_abcdefghijkl', 'xai-abcdefghijk', 'sk-ant-api03-abcdefgh', 'abcdefghijklmnop']) expect(text).not.toContain(secret);
    expect(text).toContain('Incorrect API key provided: ***.');
  });

  // Breaker F2: an internal error's log line keeps its class, code, stack and cause, scrubbed, and no body.
  it('logs an error with its class, code, stack and cause chain, scrubbed, without other fields', () => {
    const sink = capture();
    const logger = createLogger({ destination: sink.stream });
    const root = Object.assign(new Error('file is not a database near sk-test-root-key-1234'), { name: 'SqliteError', code: 'SQLITE_NOTADB' });
    class WrapperError extends Error {}
    const wrapper = Object.assign(new WrapperError('request failed', { cause: root }), { body: 'plainSECRETvalue42', code: 'wrapped' });
    logger.error({ err: wrapper }, 'failed');
    const [line] = sink.lines() as [{ err: { type: string; code: string; stack: string; message: string } }];
    expect(line.err.type).toBe('WrapperError');
    expect(line.err.code).toBe('wrapped');
    expect(line.err.message).toContain('file is not a database');
    expect(line.err.stack).toMatch(/^Error: request failed\n\s+at /);
    expect(line.err.stack).toContain('caused by: SqliteError: file is not a database');
    expect(sink.text()).not.toContain('sk-test-root-key-1234');
    expect(sink.text()).not.toContain('plainSECRETvalue42');
  });

  it.each([
    ['sk-proj-ABCdef123456', '***'],
    ['AIzaSyA1234567890abcdefghijklmn', '***'],
    ['a normal sentence with sk- in it', 'a normal sentence with sk- in it'],
    ['Bearer short', 'Bearer short'],
    // The quick length and prefix checks never let a secret through: the shortest matching key, and keys
    // after a long stretch of harmless text.
    ['sk-abcdef', '***'],
    [`${'x'.repeat(200)} pk-abcdefghijkl`, `${'x'.repeat(200)} ***`],
    ['POST', 'POST'],
    ['/v1/chat/completions', '/v1/chat/completions'],
  ])('scrubSecrets(%j) = %j', (input, output) => {
    expect(scrubSecrets(input)).toBe(output);
  });

  // The access log line's fixed fields carry nothing to scrub: they are logged as given, values intact,
  // while a key in a field beside them is still scrubbed.
  it('logs a record without secrets unchanged, and still scrubs one field among many', () => {
    const sink = capture();
    const logger = createLogger({ destination: sink.stream });
    const fields = { method: 'POST', path: '/v1/chat/completions', status: 200, durationMs: 1.5, upstreamMs: 1.2, nested: { model: 'openai/gpt-4o-mini' } };
    logger.info(fields, 'request');
    logger.info({ ...fields, detail: 'echoed sk-test-access-key-0001' }, 'request');
    const [plain, scrubbed] = sink.lines() as [Record<string, unknown>, Record<string, unknown>];
    expect(plain).toMatchObject(fields);
    expect(scrubbed).toMatchObject({ ...fields, detail: 'echoed ***' });
    expect(sink.text()).not.toContain('sk-test-');
    expect(fields).toEqual({ method: 'POST', path: '/v1/chat/completions', status: 200, durationMs: 1.5, upstreamMs: 1.2, nested: { model: 'openai/gpt-4o-mini' } });
  });
});
