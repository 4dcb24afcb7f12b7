import { describe, expect, it } from 'vitest';
import { expectRuleCase, explain } from '../test-support/classify.js';
import type { RuleCase } from '../test-support/classify.js';

describe('decisive codes: a provider type beats the prose around it', () => {
  const cases: RuleCase[] = [
    ['a rate_limit_error whose message says "overloaded" stays a rate limit', { status: 429, body: '{"error":{"type":"rate_limit_error","message":"The engine is currently overloaded"},"type":"error"}' }, 'rate_limit', 'anthropic.rate_limit_error'],
    ['an engine_overloaded_error behind a "Rate limit exceeded" prefix is overloaded', { status: 429, body: 'Rate limit exceeded {"message":"busy","type":"engine_overloaded_error"}' }, 'overloaded', 'moonshot.engine_overloaded_error'],
    ['insufficient_quota under 429 is billing', { status: 429, body: '{"error":{"code":"insufficient_quota","message":"quota"}}' }, 'billing', 'openai.insufficient_quota'],
    ['RESOURCE_EXHAUSTED with "plan and billing details" prose is a rate limit', { status: 429, body: "{'error': {'code': 429, 'message': 'You exceeded your current quota, please check your plan and billing details.', 'status': 'RESOURCE_EXHAUSTED'}}" }, 'rate_limit'],
    ['a Go map print carries the code', { body: 'map[code:model_not_found message:The model does not exist type:invalid_request_error]' }, 'model_not_found', 'openai.model_not_found'],
    ['a Rust debug print carries the exception name', { body: 'Error { code: "ThrottlingException", message: "slow down" }' }, 'rate_limit', 'bedrock.throttling_exception'],
    ['a boto3 event-stream exception type is read from its header map', { body: "{'headers': {':exception-type': 'modelStreamErrorException'}}" }, 'server_error', 'bedrock.model_stream_error'],
    ['the failure\'s own `code` is read (transport)', { code: 'ECONNRESET', message: 'socket hang up' }, 'timeout', 'transport.econnreset'],
    ['the failure\'s own `errorType` is read', { errorType: 'overloaded_error', message: 'Request failed' }, 'overloaded', 'anthropic.overloaded_error'],
    ['a structured type with no status and no text at all is a fragment: unclassified', { errorType: 'rate_limit_error', message: '' }, 'unclassified', 'code.without_context'],
    ['a runtime transport code needs no text', { code: 'ECONNRESET' }, 'timeout', 'transport.econnreset'],
    ['a wrapper code yields to the wrapped cause', { status: 402, body: 'API Error: 402 {"error":{"message":"Insufficient credits","code":402,"type":"upstream_error"}}' }, 'billing', 'text.billing'],
    ['a stream error event after HTTP 200 is read from the SSE payload', { status: 200, body: 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}' }, 'overloaded', 'anthropic.overloaded_error'],
    ['context_length_exceeded is an overflow', { status: 400, body: '{"error":{"code":"context_length_exceeded","message":"too long"}}' }, 'context_overflow', 'openai.context_length_exceeded'],
    ['previous_response_not_found is a session expiry', { status: 400, body: '{"error":{"code":"previous_response_not_found"}}' }, 'session_expired', 'openai.previous_response_not_found'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('broad codes: family hints that more specific text overrides', () => {
  const cases: RuleCase[] = [
    ['billing text under permission_error is billing', { status: 403, body: '{"type":"error","error":{"type":"permission_error","message":"Your credit balance is too low"}}' }, 'billing', 'text.billing'],
    ['capacity text under invalid_request_error is overloaded', { body: '{"message":"Service tier capacity exceeded for this model.","type":"invalid_request_error"}' }, 'overloaded', 'text.overloaded'],
    ['an IAM denial wrapped as APIConnectionError is auth', { body: 'litellm.APIConnectionError: BedrockException - Model access is denied' }, 'auth', 'text.auth'],
    ['invalid_request_error alone is format', { body: '{"error":{"type":"invalid_request_error","message":"Something about the payload"}}' }, 'format', 'code.invalid_request_error'],
    ['an SDK APIConnectionError alone is a timeout', { message: 'APIConnectionError: Connection error.' }, 'timeout'],
    ['the input status beats a broad SDK class name', { status: 401, message: 'APIConnectionError: unexpected response' }, 'auth', 'status.401'],
    ['a JVM SDK exception class alone names its status family', { body: 'dev.langchain4j.exception.AuthenticationException: \n\tat dev.langchain4j.internal.ExceptionMapper.mapHttpStatusCode(ExceptionMapper.java:62)' }, 'auth', 'sdk.authentication_error'],
    ['a Python SDK class named after its status (cohere UnauthorizedError) is auth', { message: 'cohere.errors.unauthorized_error.UnauthorizedError: status_code: None' }, 'auth'],
    ['the provider\'s "server_error" type yields to overload prose', { status: 503, body: '{"error":{"message":"That model is currently overloaded with other requests.","type":"server_error"}}' }, 'overloaded', 'text.overloaded'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('SDK classes with a vendor or layer prefix (provider-errors-7, dev rows)', () => {
  it('reads a prefixed status-named class as the class it ends with', () => {
    expect(explain({ body: 'Error [ProxyInternalServerError]: could not start' }).reason).toBe('server_error');
    expect(explain({ body: 'AcmeRateLimitError: slow' }).reason).toBe('rate_limit');
  });
});

describe('codes from the ninth set (provider-errors-9, provider documentation, dev rows)', () => {
  it('a window code under a 402 yields to the payment status and its text', () => {
    expect(explain({ status: 402, body: '{"error":{"code":402,"message":"Your prepaid balance has no credits left.","status":"RESOURCE_EXHAUSTED"}}' }).reason).toBe('billing');
    expect(explain({ status: 402, code: 'RESOURCE_EXHAUSTED', body: 'payment needed' }).reason).toBe('billing');
    expect(explain({ status: 429, code: 'RESOURCE_EXHAUSTED', body: 'slow' }).reason).toBe('rate_limit');
  });
  it('reads the Gemini Interactions invalid_request code as a format error', () => {
    expect(explain({ body: '{"error":{"code":"invalid_request","message":"bad tools"}}' }).reason).toBe('format');
  });
  it("reads Qianfan's tokens_too_long and characters_too_long codes as an overflow", () => {
    expect(explain({ status: 400, code: 'tokens_too_long', body: 'rejected' }).reason).toBe('context_overflow');
    expect(explain({ status: 400, body: '{"error":{"code":"characters_too_long","message":"too big","type":"invalid_request_error"}}' }).reason).toBe('context_overflow');
  });
});

describe("codes and finish reasons from the twenty-fifth set's dev rows, in other words", () => {
  const cases: RuleCase[] = [
    ["Vertex AI's Model Armor stop is a refusal", { status: 200, body: '{"candidates":[{"finishReason":"MODEL_ARMOR","finishMessage":"blocked by screening"}]}' }, 'refusal', 'finish_reason.model_armor'],
    ['a generation "stopped with reason: blacklist" (GigaChat) is a refusal', { body: 'chat model: generation stopped with reason: blacklist' }, 'refusal', 'finish_reason.blacklist'],
    ["Gemini's numbered RECITATION (4) in a printed candidate is a refusal", { body: 'candidates { content { role: "model" } finish_reason: 4 }' }, 'refusal', 'finish_reason.recitation'],
    ["Gemini's numbered SAFETY (3) printed by the Vertex SDK is a refusal", { body: 'ResponseValidationError: The model response did not complete successfully.\nFinish reason: 3.\nFinish message: .' }, 'refusal', 'finish_reason.safety'],
    ['an image withheld by Gemini, named as a code in a message, is a refusal', { body: 'generation failed: IMAGE_SAFETY' }, 'refusal', 'gemini.image_safety'],
    ["ElevenLabs' abuse flag is a permanent auth failure", { status: 401, body: '{"detail":{"status":"detected_unusual_activity","message":"free accounts from this network are blocked"}}' }, 'auth_permanent', 'elevenlabs.detected_unusual_activity'],
    ['a quota code beside credit words is billing: the words say which quota', { status: 401, body: "{'detail': {'status': 'quota_exceeded', 'message': 'You have 0 credits left for this request.'}}" }, 'billing', 'text.billing'],
    ['a quota code alone is still a rate limit', { status: 401, body: '{"detail":{"status":"quota_exceeded"}}' }, 'rate_limit'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('reads a numbered finish reason only beside Gemini words, and only 3 and 4', () => {
    expect(explain({ body: 'job stats: finish_reason: 4, retries 2' }).reason).toBe('unclassified');
    expect(explain({ body: 'candidates: [{ finish_reason: 9 }]' }).reason).toBe('unclassified');
    expect(explain({ body: 'candidates: [{ finish_reason: 4.5 }]' }).reason).toBe('unclassified');
  });
});
