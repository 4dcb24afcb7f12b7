import { describe, expect, it } from 'vitest';
import { GatewayError } from '../gateway-error.js';
import { responsesDialect } from './dialects.js';
import { parseResponsesRequest } from './responses-request.js';

const meta = { id: 'resp_1', model: 'openai/gpt-x', createdSeconds: 100 };

/** The data of every SSE event in `text`. */
function events(text: string): Record<string, unknown>[] {
  return text
    .split('\n\n')
    .map((event) => event.split('\n').find((line) => line.startsWith('data: ')))
    .filter((line): line is string => line !== undefined)
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

describe('a Responses stream that fails', () => {
  const limited = new GatewayError(429, 'rate_limit', 'all models are rate-limited', { code: 'rate_limit' });

  it.each([
    ['the gateway-encoded stream', false],
    ['a relayed same-format stream', true],
  ])('%s ends with an event of type "error" carrying the code and message', (_name, native) => {
    const encoder = responsesDialect.createStreamEncoder(meta, { usage: false, native });
    const last = events(encoder.error(limited)).at(-1);
    expect(last).toMatchObject({ type: 'error', code: 'rate_limit', message: 'all models are rate-limited', param: null });
  });
});

describe('parseResponsesRequest', () => {
  it.each([
    { body: { input: '' }, message: 'input: empty string', param: 'input', code: 'missing_input' },
    { body: {}, message: 'input: required', param: 'input', code: 'missing_input' },
    { body: { input: [] }, message: 'input: has no message to answer', param: 'input', code: 'missing_input' },
    { body: { input: 'hi', model: '' }, message: 'model: must not be empty', param: 'model', code: 'invalid_model' },
    { body: { input: [{ role: { toString: null }, content: 'x' }] }, message: 'input[0].role: an object is not supported', param: 'input[0].role', code: 'invalid_request' },
  ])('refuses $message with a 400 whose param is $param', ({ body, message, param, code }) => {
    let error: unknown;
    try {
      parseResponsesRequest(body);
    } catch (thrown) {
      error = thrown;
    }
    expect(GatewayError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 400, code, param });
    expect((error as GatewayError).message).toContain(message);
  });

  it('takes an input of whitespace as text, as OpenAI does', () => {
    expect(parseResponsesRequest({ input: ' ' }).chat.messages).toEqual([{ role: 'user', content: ' ' }]);
  });

  it.each([
    ['the gateway-encoded stream', false],
    ['a relayed same-format stream', true],
  ])('%s carries the param of an error about one field', (_name, native) => {
    const encoder = responsesDialect.createStreamEncoder(meta, { usage: false, native });
    const last = events(encoder.error(new GatewayError(400, 'invalid_request', 'input: bad', { param: 'input' }))).at(-1);
    expect(last).toMatchObject({ type: 'error', param: 'input' });
  });
});
