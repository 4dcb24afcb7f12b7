import { describe, expect, it } from 'vitest';
import { GatewayError } from '../gateway-error.js';
import { responsesDialect } from './dialects.js';

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
