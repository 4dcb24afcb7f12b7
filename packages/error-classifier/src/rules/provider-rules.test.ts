import { describe, expect, it } from 'vitest';
import { expectRuleCase, explain } from '../test-support/classify.js';
import type { RuleCase } from '../test-support/classify.js';

describe('provider-scoped rules (seed: provider-specific matchers stay scoped to the provider that owns them)', () => {
  const cases: RuleCase[] = [
    ['bare "Provider returned error" is a timeout when the provider is OpenRouter', { provider: 'openrouter', status: 400, body: '400 Provider returned error' }, 'timeout', 'openrouter.provider_returned_error'],
    ['provider ids are normalised (case, aliases)', { provider: ' Open-Router ', body: 'Provider returned error' }, 'timeout', 'openrouter.provider_returned_error'],
    ['the same text from another provider is not a timeout', { provider: 'anthropic', body: 'Provider returned error' }, 'unclassified', 'unclassified'],
    ['the same text without a provider is not a timeout', { body: 'Provider returned error' }, 'unclassified'],
    ['OpenRouter: a specific cause in metadata.raw wins over the wrapper', { provider: 'openrouter', status: 400, body: '{"error":{"message":"Provider returned error","metadata":{"raw":"{\\"error\\":{\\"message\\":\\"Param Incorrect\\"}}"}}}' }, 'format', 'text.format'],
    ['OpenRouter 403 "Key limit exceeded" is billing', { provider: 'openrouter', status: 403, body: '{"error":{"message":"Key limit exceeded (total limit)","code":403}}' }, 'billing', 'openrouter.key_limit_exceeded'],
    ['"Key limit exceeded" from another provider is not OpenRouter billing', { provider: 'groq', status: 403, body: 'Key limit exceeded' }, 'auth', 'status.403'],
    ['an OpenRouter per-key monthly limit that reads like an overflow is a rate limit', { provider: 'openrouter', status: 402, body: 'Prompt tokens limit exceeded: 230799 > 91442. To increase, visit https://openrouter.ai/settings/keys and create a key with a higher monthly limit' }, 'rate_limit', 'text.key_spend_limit'],
    ["DashScope's #token-limit anchor makes OpenAI's quota text a rate limit", { provider: 'qwen', status: 429, body: '{"error":{"code":"insufficient_quota","message":"You exceeded your current quota. See https://help.aliyun.com/zh/model-studio/error-code#token-limit"}}' }, 'rate_limit', 'dashscope.token_limit'],
    ["DashScope's #overdue-payment anchor is billing", { status: 400, body: 'Access denied, see https://help.aliyun.com/zh/model-studio/error-code#overdue-payment' }, 'billing', 'dashscope.overdue_payment'],
    ["Google's free-tier quota text is a rate limit for Google providers", { provider: 'google', status: 429, body: 'You exceeded your current quota, please check your plan and billing details.' }, 'rate_limit', 'google.quota_window'],
    ['the same quota text from OpenAI is billing', { provider: 'openai', status: 429, body: 'You exceeded your current quota, please check your plan and billing details.' }, 'billing', 'text.billing'],
    ['Zhipu code 1113 is billing', { provider: 'zai', status: 429, body: '{"error":{"code":"1113","message":"..."}}' }, 'billing', 'zhipu.1113'],
    ['Zhipu code 1305 is capacity', { provider: 'zhipu', body: '{"error":{"code":"1305","message":"..."}}' }, 'overloaded', 'zhipu.1305'],
    ['Zhipu code 1305 under a 429 is this caller throttled, as "overloaded" under a 429', { provider: 'zhipu', status: 429, body: '{"error":{"code":"1305","message":"..."}}' }, 'rate_limit', 'zhipu.1305.under_429'],
    ['Zhipu code 1121 (locked for a violation) is permanent', { provider: 'zhipu', body: '{"error":{"code":"1121","message":"..."}}' }, 'auth_permanent', 'zhipu.1121'],
    ['Zhipu code 1215 (parameters that exclude each other) is format', { provider: 'glm', body: '{"error":{"code":"1215","message":"..."}}' }, 'format', 'zhipu.1215'],
    ['Zhipu code 1221 (an API taken offline) is a missing model', { provider: 'zhipu', code: '1221', body: 'gone' }, 'model_not_found', 'zhipu.1221'],
    ['Zhipu code 1234 (a network error with an error id) is transport-shaped, as the reference reads it', { provider: 'zhipu', code: '1234', body: 'x' }, 'timeout', 'zhipu.1234'],
    ['Zhipu code 1312 (a model overloaded) is capacity', { provider: 'zhipu', code: '1312', body: 'x' }, 'overloaded', 'zhipu.1312'],
    ['Zhipu codes are ignored for other providers', { provider: 'openai', status: 429, body: '{"error":{"code":"1305","message":"..."}}' }, 'rate_limit', 'status.429'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("OpenRouter's bare wrapper under a 404", () => {
  it('is the missing model the status names, not a transient failure', () => {
    expect(explain({ provider: 'openrouter', status: 404, body: '{"error":{"message":"Provider returned error","code":404}}' }).reason).toBe('model_not_found');
  });
});
