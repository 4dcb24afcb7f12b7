/**
 * The innermost provider error of a wrapped failure is read first (docs/policy.md, "Nested and proxy-wrapped errors"):
 * its own decisive codes, then the specific phrase families over its message, before the wrapper's words — a client's
 * retry banner, an abort handler's name, a proxy's exception class, a Chinese "parameter error" prefix.
 */
import { describe, expect, it } from 'vitest';
import { explain } from './test-support/classify.js';

describe('the innermost error of a wrapped failure decides before its wrapper', () => {
  it.each([
    [
      "a client's timeout hint around a provider's 401 is auth",
      { message: '401 {"error":{"message":"Authentication Fails, the key is invalid","type":"authentication_error"}} · Retrying in 5s · REQUEST_TIMEOUT_MS=60000' },
      'auth',
    ],
    [
      "an abort handler's words around a provider's 400 are the handler's",
      { message: 'abort: request aborted after 3 attempts: 400 {"type":"error","error":{"type":"invalid_request_error","message":"messages.2: content must be non-empty"}}' },
      'format',
    ],
    [
      "a proxy's content-policy class around a tool-call validation error is format",
      { status: 400, body: JSON.stringify({ message: 'proxy.ContentPolicyViolationError: Upstream - {"error":{"message":"No tool call found for function call output with call_id c1.","type":"invalid_request_error"}}', code: '400' }) },
      'format',
    ],
    [
      'a Chinese "parameter error" prefix around a Python-printed missing model is model_not_found',
      { message: "请求失败: 参数错误: Error code: 404 - {'error': {'message': 'The model does not exist', 'type': 'invalid_request_error', 'param': None}}" },
      'model_not_found',
    ],
    [
      "the inner error's own decisive code beats the wrapper's class",
      { message: 'wrapper.ContentPolicyViolationError: {"error":{"type":"rate_limit_error","message":"slow down please"}}' },
      'rate_limit',
    ],
  ])('%s', (_name, failure, reason) => {
    const result = explain(failure);
    expect(result.reason).toBe(reason);
    expect(result.trace.unwrapped).toContain('json');
    expect(result.trace.readInnermost).toBe(true);
  });

  it.each([
    [
      "an `extensions.reason` sentence under a generic message names the cause",
      { status: 400, message: 'SdkError: {"message":"Bad argument","extensions":{"code":"INVALID_INPUT","reason":"the prompt has 9000 tokens, which exceeds the model limit of 8192"}}' },
      'context_overflow',
    ],
    [
      "OAuth's `error_description` under a bare `invalid_client` is read",
      { status: null, message: 'token refresh failed: {"error":"invalid_client","error_description":"The client secret supplied for a confidential client is invalid."}' },
      'auth',
    ],
  ])('%s', (_name, failure, reason) => {
    expect(explain(failure).reason).toBe(reason);
    expect(explain(failure).trace.readInnermost).toBe(true);
  });

  it('a failure that is the provider error itself (no wrapper) is read as before', () => {
    expect(explain({ status: 429, body: '{"error":{"type":"rate_limit_error","message":"This is overloaded traffic"}}' }).reason).toBe('rate_limit');
    expect(explain({ status: 429, body: '{"error":{"type":"rate_limit_error","message":"slow down"}}' }).trace.readInnermost).toBe(false);
    expect(explain({ status: 400, body: '{"error":{"message":"Invalid prompt: flagged as violating our usage policy"}}' }).reason).toBe('refusal');
  });
});

describe("the value in the AI SDK's type validation error is the provider's answer", () => {
  const zodIssues = ' Error message: [{"code":"invalid_union","errors":[[{"expected":"array","code":"invalid_type","path":["choices"],"message":"Invalid input"}]],"path":[],"message":"Invalid input"}]';
  it('a completion with no choices is an empty answer, not the schema issues after it', () => {
    const value = '{"id":"a1","object":"chat.completion","model":"m","choices":null,"usage":{"prompt_tokens":0,"completion_tokens":0}}';
    const result = explain({ message: `AI_TypeValidationError: Type validation failed: Value: ${value}.${zodIssues}` });
    expect(result.reason).toBe('empty_response');
    expect(result.detail).toBe('completion.empty');
  });
  it('an error value is read as that error', () => {
    const value = '{"type":"error","error":{"type":"rate_limit_error","message":"Number of requests exceeded"}}';
    expect(explain({ message: `Type validation failed: Value: ${value}.${zodIssues}` }).reason).toBe('rate_limit');
  });
  it('a chunk with output is an answer; a value with brackets inside its strings is still cut where it closes', () => {
    const value = '{"choices":[{"delta":{"content":"a } and a ] inside"},"finish_reason":null}]}';
    expect(explain({ message: `Type validation failed: Value: ${value}.${zodIssues}` }).reason).toBe('unclassified');
  });
  it('an error value that never closes is read as text, so its words still decide', () => {
    expect(explain({ message: 'Type validation failed: Value: {"type":"error","error":{"type":"rate_limit_error","message":"Number of requests exceeded' }).reason).toBe('rate_limit');
  });
  it('the marker is looked for in the head only, where a wrapper prefix stands: past it, the value is not read', () => {
    const value = '{"id":"a1","object":"chat.completion","choices":null}';
    expect(explain({ message: `Type validation failed: Value: ${value}.` }).reason).toBe('empty_response');
    expect(explain({ message: `${'log line of a long session. '.repeat(40)}Type validation failed: Value: ${value}.` }).reason).toBe('unclassified');
  });
});
