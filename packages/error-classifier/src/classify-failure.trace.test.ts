/**
 * The decision trace `understudy classify --explain` prints: which wrapper layers were peeled, the inner status,
 * the status that decided and where it came from, and the phrase family (with its language) of a text rule.
 */
import { describe, expect, it } from 'vitest';
import { explainFailure } from './classify-failure.js';

const NOW = Date.UTC(2026, 0, 1);

describe('explainFailure trace', () => {
  it('gives a status-bearing wrapper the inner status (a relay 500 around a 429)', () => {
    const inner = JSON.stringify({ error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } });
    const result = explainFailure({ provider: 'vertex-relay', status: 500, body: JSON.stringify({ error: { message: inner, type: 'upstream_error' } }) }, { nowMs: NOW });
    expect(result.reason).toBe('rate_limit');
    expect(result.status).toBe(500);
    expect(result.trace.innerStatus).toBe(429);
    expect(result.trace.decidingStatus).toBe(429);
    expect(result.trace.decidingStatusSource).toBe('inner');
    expect(result.trace.unwrapped).toContain('json-string');
  });

  it('names the phrase family and its language for a CJK message', () => {
    const result = explainFailure({ provider: 'one-api-relay', status: 403, body: '{"error":{"message":"您的账户已欠费，请充值后重试。"}}' }, { nowMs: NOW });
    expect(result.reason).toBe('billing');
    expect(result.trace.layer).toBe('phrase');
    expect(result.trace.phraseFamily).toBe('text.billing');
    expect(result.trace.language).toBe('zh');
  });

  it('decides an empty answer from the parsed success shape', () => {
    const result = explainFailure({ provider: 'openai', status: 200, body: '{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":""},"finish_reason":"stop"}]}' }, { nowMs: NOW });
    expect(result.reason).toBe('empty_response');
    expect(result.trace.layer).toBe('completion');
  });

  it('lets the provider code decide over misleading words in a completion', () => {
    const body = '{"choices":[{"message":{"role":"assistant","content":"Your rate limit and billing questions are answered below."},"finish_reason":"content_filter"}]}';
    const result = explainFailure({ provider: 'azure-openai', status: 200, body }, { nowMs: NOW });
    expect(result.reason).toBe('refusal');
    expect(result.trace.phraseFamily).toBeNull();
  });

  it('reports the fallback layer and no family when nothing matched', () => {
    const result = explainFailure({ provider: 'x', status: null, message: 'something odd happened' }, { nowMs: NOW });
    expect(result.reason).toBe('unclassified');
    expect(result.trace.layer).toBe('fallback');
    expect(result.trace.unwrapped).toEqual([]);
  });
});
