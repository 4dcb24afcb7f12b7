import { REASON_POLICY } from '../../policy.js';
import { describe, expect, it } from 'vitest';
import { expectRuleCase, explain } from '../../test-support/classify.js';
import type { RuleCase } from '../../test-support/classify.js';

describe('refusals (seed: a final provider refusal ends the turn)', () => {
  const cases: RuleCase[] = [
    ['a usage-policy flag is a refusal, not a format error', { status: 400, body: 'Invalid prompt: your prompt was flagged as potentially violating our usage policy.' }, 'refusal', 'text.refusal'],
    ['a content-management-policy filter is a refusal', { status: 400, body: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy." }, 'refusal', 'text.refusal'],
    ['a recitation block is a refusal, not a server error', { body: 'candidate was blocked due to recitation' }, 'refusal', 'text.refusal'],
    ['a moderation block dressed as invalid_request_error is a refusal', { status: 400, body: "{'error': {'message': 'Content Exists Risk', 'type': 'invalid_request_error'}}" }, 'refusal', 'text.refusal'],
    ['an InternalError-named content inspection failure is a refusal', { status: 400, body: 'InternalError.Algo.DataInspectionFailed: Input text data may contain inappropriate content.' }, 'refusal', 'text.refusal'],
    ['Chinese "content security" wording is a refusal', { status: 400, body: '输入内容可能包含不当内容，请修改后重试' }, 'refusal', 'text.refusal'],
    ['a refusal stop reason in a 200 body is a refusal', { status: 200, body: '{"type":"message","content":[],"stop_reason":"refusal"}' }, 'refusal', 'finish_reason.refusal'],
    ['a model that declined to answer is a refusal', { message: 'The assistant declined to continue this conversation.' }, 'refusal', 'text.refusal'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('never advances fallback and puts nothing on cooldown', () => {
    const result = explain({ status: 400, body: 'flagged as potentially violating our usage policy' });
    expect(REASON_POLICY[result.reason].advancesFallback).toBe(false);
    expect(result.cooldownScope).toBeNull();
  });
});

describe('context overflow (seed: overflow stays in compaction/retry logic and does not advance)', () => {
  const cases: RuleCase[] = [
    ['"request_too_large" is an overflow', { status: 413, body: '{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum size"}}' }, 'context_overflow'],
    ['"input token count exceeds the maximum number of input tokens" is an overflow', { status: 400, body: 'The input token count (1200293) exceeds the maximum number of input tokens allowed (1048576).' }, 'context_overflow', 'text.context_overflow'],
    ['"input exceeds the maximum number of tokens" is an overflow', { body: 'input exceeds the maximum number of tokens' }, 'context_overflow', 'text.context_overflow'],
    ['"input too long for the model" is an overflow', { body: 'input too long for the model' }, 'context_overflow', 'text.context_overflow'],
    ['"ollama error: context length exceeded" is an overflow', { body: 'ollama error: context length exceeded' }, 'context_overflow', 'text.context_overflow'],
    ['a size limit exceeded by a number of tokens is an overflow (Cohere\'s wording)', { status: 400, body: '{"message":"too many tokens: size limit exceeded by 1201 tokens. Try using shorter or fewer inputs."}' }, 'context_overflow', 'text.context_overflow'],
    ['"prompt is too long" is an overflow even behind a gateway wrapper', { status: 400, body: 'LLM request failed: status 400: {"error":{"message":"prompt is too long: 200251 tokens > 200000 maximum"}}' }, 'context_overflow', 'text.context_overflow'],
    ['llama.cpp "n_keep >= n_ctx" is an overflow', { body: 'Cannot truncate prompt with n_keep (15028) >= n_ctx (7424)' }, 'context_overflow', 'text.context_overflow'],
    ['an overflow in a 404 body is an overflow, not a missing model', { status: 404, body: 'maximum context length is 8192 tokens' }, 'context_overflow', 'text.context_overflow'],
    ["Groq's 413 tokens-per-minute ceiling is a rate limit: another provider may admit it", { status: 413, body: '413 Request too large for model `llama-3.3-70b` on tokens per minute (TPM): Limit 8000, Requested 8098' }, 'rate_limit', 'text.rate_limit'],
    ['a bare 413 is an overflow', { status: 413, body: '' }, 'context_overflow', 'status.413'],
    ["the model's own length ceiling named outright is an overflow", { body: 'sequence max length reached for this model' }, 'context_overflow', 'text.context_overflow'],
    ["input over the model's maximum sequence length is an overflow", { status: 400, body: "Input exceeds the model's maximum sequence length." }, 'context_overflow', 'text.context_overflow'],
    ['a stated ceiling on the prompt itself is an overflow', { body: '{"error_code":336007,"error_msg":"the maximum length of the prompt is 2000"}' }, 'context_overflow', 'text.context_overflow'],
    ['Japanese: input tokens over the ceiling is an overflow', { body: 'プロンプトのトークン数が最大値を超えています' }, 'context_overflow', 'text.context_overflow'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('session expiry and the 404 rule (seed: a 404 is model_not_found unless its body names a more specific cause)', () => {
  const cases: RuleCase[] = [
    ['a 404 that names an expired session is session_expired', { status: 404, body: '{"error":{"message":"Session expired. Start a new session."}}' }, 'session_expired', 'text.session_expired'],
    ['a previous response that no longer exists is session_expired', { status: 400, body: "Previous response with id 'resp_1' not found." }, 'session_expired', 'text.session_expired'],
    ['a 404 that names billing is billing', { status: 404, body: 'Insufficient credits for this account' }, 'billing', 'text.billing'],
    ['a 404 that names authentication is auth', { status: 404, body: 'Invalid API key' }, 'auth', 'text.auth'],
    ['a 404 that names a request-format problem is format', { status: 404, body: 'model is missing conversation_config, please use /completions API instead' }, 'format', 'text.format'],
    ['a 404 with a plain not-found body is model_not_found', { status: 404, body: '{"error":"Not Found","path":"/v1/chat/completions"}' }, 'model_not_found', 'status.404'],
    ['an OpenAI-style missing model is model_not_found', { body: 'The model `gpt-9` does not exist or you do not have access to it.' }, 'model_not_found', 'text.model_not_found'],
    ["Ollama's missing model is model_not_found", { status: 404, body: '{"error":"model \\"qwen3:8b\\" not found, try pulling it first"}' }, 'model_not_found', 'text.model_not_found'],
    ['"not found" about a user is not a missing model', { status: 401, body: 'User not found.' }, 'auth', 'text.auth'],
    ['a 404 for a session that "not exists" is session_expired', { status: 404, body: '{"msg":"chat session not exists"}' }, 'session_expired', 'text.session_expired'],
    ['an expired code-execution container is session_expired', { status: 400, body: '{"error":{"message":"Container cntr_9 has expired.","type":"invalid_request_error"}}' }, 'session_expired', 'text.session_expired'],
    ['a 404 for a thread with a short id is session_expired', { status: 404, body: 'Thread t1 does not exist.' }, 'session_expired', 'text.session_expired'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('format (seed: invalid requests are terminal for this payload; no profile rotation)', () => {
  const cases: RuleCase[] = [
    ['a transcript structure error is format', { status: 400, body: 'messages.7.content.0: unexpected `tool_use_id` found in `tool_result` blocks' }, 'format', 'text.format'],
    ['a capability mismatch (no tools) is format, not model_not_found', { status: 400, body: '{"error":"registry.ollama.ai/library/qwen3:0.6b does not support tools"}' }, 'format', 'text.format'],
    ['no endpoint supporting tool use is format even under 404', { status: 404, body: 'No endpoints found that support tool use.' }, 'format', 'text.format'],
    ['an unrecognised request argument is format, not a timeout', { status: 400, body: 'Unrecognized request argument supplied: timeout' }, 'format', 'text.format'],
    ['a 404 for a wrong endpoint URL is format, not a missing model', { status: 404, body: '{"error":{"message":"Invalid URL (POST /v1/chat/completion)"}}' }, 'format', 'text.format'],
    ['a bare 400 is format', { status: 400, body: 'Bad Request' }, 'format', 'status.400'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('format advances fallback without touching the profile', () => {
    const result = explain({ status: 400, body: 'roles must alternate between "user" and "assistant"' });
    expect(result.reason).toBe('format');
    expect(result.cooldownScope).toBeNull();
    expect(REASON_POLICY.format.advancesFallback).toBe(true);
  });
});

describe('shapes from the fourth public set (provider-errors-4, dev rows)', () => {
  const cases: RuleCase[] = [
    ['a deployment "for the resource" that does not exist is a missing model', { body: 'The API deployment for the resource does not exist.' }, 'model_not_found', 'text.model_not_found'],
    ['a model that is not served on this endpoint (needs a dedicated one) is a missing model, even under 400', { status: 400, body: 'Unable to access non-serverless model acme/tiny-1. Create a dedicated endpoint first.' }, 'model_not_found', 'text.model_not_found'],
    ['a dedicated endpoint that is not running is a missing model', { status: 400, body: 'The dedicated endpoint for acme/tiny-1 is not running.' }, 'model_not_found', 'text.model_not_found'],
    ['a total token count that "cannot exceed" the window is an overflow', { body: 'total number of tokens (prompt and prediction) cannot exceed 4096 - received 9000' }, 'context_overflow', 'text.context_overflow'],
    ['stored history "with id … not found" is an expired session', { body: "history node with id 'h-42' not found while building the chain" }, 'session_expired', 'text.session_expired'],
    ['JSON-schema "additional properties are not allowed" is a format error', { body: "Additional properties are not allowed ('foo' was unexpected)" }, 'format', 'text.format'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('shapes from the fifth public set (provider-errors-5, dev rows)', () => {
  const cases: RuleCase[] = [
    ['a model id that cannot be invoked on demand (needs an inference profile) is a missing model', { body: 'Invocation of model ID acme.tiny-v1:0 with on-demand throughput is not supported.' }, 'model_not_found', 'text.model_not_found'],
    ['a sampling parameter the model refuses is a format error', { body: 'invalid top_p: only 0.95 is allowed for this model' }, 'format', 'text.format'],
    ['a malformed previous_response_id is the request, not an expired session', { body: "Invalid 'previous_response_id': 'x y'. Expected an ID that contains letters." }, 'format', 'text.format'],
    ['a previous_response_id that is not found is an expired session', { body: 'previous_response_id resp_42 not found' }, 'session_expired', 'text.session_expired'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('shapes from the fifth public set (provider-errors-5, held-back rows, after the fifth was opened)', () => {
  const cases: RuleCase[] = [
    ['"prompt token count of N exceeds the limit of M" is an overflow', { body: 'API error: prompt token count of 120001 exceeds the limit of 100000' }, 'context_overflow', 'text.context_overflow'],
    ['"invalid params" (a relay or MiniMax 2013) is a format error', { body: '{"error":{"message":"invalid params, unknown message role (2013)","type":"bad_request_error"}}' }, 'format', 'text.format'],
    ['a bad_request_error type alone is a format error', { body: '{"error":{"message":"something about the request","type":"bad_request_error"}}' }, 'format', 'code.bad_request_error'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('shapes from the sixth public set (provider-errors-6, dev rows)', () => {
  const cases: RuleCase[] = [
    ['a relay\'s sensitive-word filter is a refusal', { body: '{"error":{"message":"input contains sensitive words: [x]","code":"sensitive_words_detected"}}' }, 'refusal', 'text.refusal'],
    ['a request blocked by a gateway or proxy is access, not a safety refusal', { status: 403, body: 'Forbidden: request was blocked by a gateway or proxy.' }, 'auth'],
    ['a request blocked by the content filter is still a refusal', { body: 'the request was blocked by the content filter' }, 'refusal', 'text.refusal'],
    ['a local runtime whose model is unloaded has no such model now', { body: 'Error in RPC handler: Error: Model is unloaded.' }, 'model_not_found', 'text.model_not_found'],
    ['"No models loaded" is model_not_found', { body: 'No models loaded. Please load a model in the developer page first.' }, 'model_not_found', 'text.model_not_found'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('shapes from the seventh public set (provider-errors-7, dev rows)', () => {
  const cases: RuleCase[] = [
    ['"input length (N tokens) exceeds the maximum allowed length" is an overflow', { body: 'Input length (90001 tokens) exceeds the maximum allowed length (80000 tokens).' }, 'context_overflow', 'text.context_overflow'],
    ['"the input (N tokens) is longer than the model\'s context length" is an overflow, before a 400 code', { body: '{"object":"error","message":"The input (5000 tokens) is longer than the model\'s context length (4096 tokens).","code":400}' }, 'context_overflow', 'text.context_overflow'],
    ['stated token arithmetic over the maximum beats a banner\'s capacity words', { body: 'SERVER BUSY DUE TO HIGH TRAFFIC. (error_code: 50004, Prompt tokens (4000) + max-sampled tokens (256) exceeds max (4096))' }, 'context_overflow', 'text.context_overflow'],
    ['a quoted conversation id that "doesn\'t exist or has expired" is an expired session', { body: "Conversation 'abc123def' doesn't exist or has expired." }, 'session_expired', 'text.session_expired'],
    ['"the first message should be user" is a format error', { body: 'response error: The first message should be user' }, 'format', 'text.format'],
    ['a parameter the model refuses in favour of another is a format error', { body: 'model does not allow it: not supported max_tokens, please use max_completion_tokens' }, 'format', 'text.format'],
    ['a JSON-schema type mismatch is a format error', { body: "AiError: Bad input: Type mismatch of '/prompt', 'number' not in 'string'" }, 'format', 'text.format'],
    ['an endpoint "that does not exist" (an Ark endpoint id) is a missing model', { body: 'The request targeted an endpoint that does not exist or is invalid.' }, 'model_not_found', 'text.model_not_found'],
    ['"the requested model (x) is not available on <cloud>" is a missing model', { body: 'The requested model (Tiny-7B) is not available on Example Cloud.' }, 'model_not_found', 'text.model_not_found'],
    ['a quoted model that "is not supported for this environment" is a missing model', { body: "Model 'acme/tiny' is not supported for this environment." }, 'model_not_found', 'text.model_not_found'],
    ['a selected model that "may not exist" is a missing model', { body: 'There is a problem with the selected model (tiny-1). It may not exist or you may not have access.' }, 'model_not_found', 'text.model_not_found'],
    ['a model_not_supported code is a missing model', { body: '{"error":{"message":"nope","code":"model_not_supported"}}' }, 'model_not_found', 'code.model_not_supported'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));

  it('leaves a capability the model lacks ("… with this model is not supported") to the format family', () => {
    expect(explain({ body: "Unsupported parameter: 'max_tokens' is not supported with this model." }).reason).toBe('format');
    expect(explain({ body: 'model `x` is not supported MaxTokens' }).reason).not.toBe('model_not_found');
  });
});

describe('shapes from the seventh public set (provider-errors-7, held-back rows, after the fifth was opened)', () => {
  const cases: RuleCase[] = [
    ['a message count that must be odd (ERNIE 336006) is a format error', { body: '{"error":{"message":"the number of messages must be odd","code":336006}}' }, 'format', 'text.format'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('shapes from the eighth public set (provider-errors-8, dev rows)', () => {
  const cases: RuleCase[] = [
    ['a request refused for breaking the provider\'s terms of service is a refusal', { body: '{"error":{"message":"Request blocked due to a violation of the provider\'s Terms of Service","type":"upstream_error","code":403}}' }, 'refusal', 'text.refusal'],
    ['"parameter check failed" is a format error', { body: 'error: parameter check failed, top_k out of bounds' }, 'format', 'text.format'],
    ['a value outside its stated range is a format error', { body: 'max_output_tokens range is [1, 1024]' }, 'format', 'text.format'],
    ['more documents per call than allowed is a format error', { body: 'rerank failed: max number of documents is 32' }, 'format', 'text.format'],
    ['an embeddings batch over its maximum is a format error', { body: 'max batch size is 8, got 20' }, 'format', 'text.format'],
    ['an unknown request URL is a format error (the endpoint as configured)', { body: 'Unknown request URL: POST /v2/chat. Please check the URL for typos.' }, 'format', 'text.format'],
    ['"x is not a valid model ID" is a missing model, before a 400', { status: 400, body: '{"error":{"message":"acme/tiny:free is not a valid model ID","code":400}}' }, 'model_not_found', 'text.model_not_found'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('request families from the ninth set (provider-errors-9, provider documentation, dev rows)', () => {
  const cases: RuleCase[] = [
    ['input flagged by a model that requires moderation is a refusal, before a 403', { status: 403, body: 'This model requires moderation and your prompt was flagged for self-harm.' }, 'refusal', 'text.refusal'],
    ['a Japanese safety-filter block is a refusal', { body: '安全フィルターにより応答がブロックされました' }, 'refusal', 'text.refusal'],
    ['a prompt that must be smaller than the context window is an overflow, even under a 403', { status: 403, body: 'prompt plus completion must be smaller than the model context window' }, 'context_overflow', 'text.context_overflow'],
    ['a stated maximum input size is an overflow', { status: 400, body: 'maximum input tokens is 8192' }, 'context_overflow', 'text.context_overflow'],
    ['"input tokens too long" is an overflow', { body: 'error: input tokens too long for this deployment' }, 'context_overflow', 'text.context_overflow'],
    ['a Chinese over-long prompt is an overflow', { body: '提示词超长，请精简后重试' }, 'context_overflow', 'text.context_overflow'],
    ['a Japanese context overflow is an overflow', { body: '入力が長すぎます' }, 'context_overflow', 'text.context_overflow'],
    ['a value a parameter does not take is a format error', { body: "The value 'fast' is not supported for 'mode' at 'config'." }, 'format', 'text.format'],
    ['two Chinese parameters that exclude each other are a format error', { body: 'temperature 与 top_p 不能同时使用' }, 'format', 'text.format'],
    ['a Chinese call method the model does not take is a format error', { body: '该模型不支持同步调用方式' }, 'format', 'text.format'],
    ['a Japanese invalid parameter is a format error', { body: 'パラメータが不正です' }, 'format', 'text.format'],
    ['a Chinese API taken offline is a missing model', { body: '接口 chat-v1 已下线' }, 'model_not_found', 'text.model_not_found'],
    ['a Japanese missing model is a missing model', { body: 'モデルが見つかりません' }, 'model_not_found', 'text.model_not_found'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('request families from the tenth set (provider-errors-10, dev rows), in other words', () => {
  const cases: RuleCase[] = [
    ['a context window that "exceeds" its limit is an overflow, not the invalid-params family around it', { body: 'invalid params, context length exceeds limit (2013)' }, 'context_overflow', 'text.context_overflow'],
    ['a prompt counted in tokens against the window is an overflow', { body: 'Input has 9000 tokens, more than the model maximum of 8192.' }, 'context_overflow', 'text.context_overflow'],
    ['a provider session past its maximum duration is session_expired', { message: 'Realtime error: the session reached its maximum duration (60 minutes).' }, 'session_expired', 'text.session_expired'],
    ['a path the local server does not serve is format', { body: '[ERROR] Unexpected endpoint or method. (GET /v1/completion)' }, 'format', 'text.format'],
    ['a model served only on another API of the provider is format', { body: 'This endpoint is not supported by the Chat Completions API' }, 'format', 'text.format'],
    ['a tool output without its call is format', { status: 400, body: 'No tool call found for function call output with call_id call_1.' }, 'format', 'text.format'],
    ['an organisation that must be verified first is format', { status: 400, body: 'Your organization must be verified to access this model.' }, 'format', 'text.format'],
    ['"messages.N:" names a message of the request: format', { status: 400, body: 'messages.3: text content blocks must be non-empty' }, 'format', 'text.format'],
    ['no deployment for the model is model_not_found', { message: 'RuntimeError: no deployments found for model gpt-4o-mini in resource group default' }, 'model_not_found', 'text.model_not_found'],
    ['a serverless endpoint that is not found is model_not_found', { body: '{"status": "Dedicated endpoint not found"}' }, 'model_not_found', 'text.model_not_found'],
    ['a missing assistant id is model_not_found', { status: 404, body: "No assistant found with id 'asst_1'." }, 'model_not_found', 'text.model_not_found'],
    ['a model past its end of life is model_not_found', { status: 400, body: 'The model version claude-2 has passed its end of life.' }, 'model_not_found', 'text.model_not_found'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('request families found when the tenth set\'s held-back part was opened, in other words', () => {
  const cases: RuleCase[] = [
    ["a prompt longer than the model's maximum length is an overflow", { status: 400, body: '{"message":"The prompt (length 9000) is longer than the maximum model length of 4096."}' }, 'context_overflow', 'text.context_overflow'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('request families from the eleventh set (provider-errors-11, dev rows), in other words', () => {
  const cases: RuleCase[] = [
    ['a prompt that violates guardrails is a refusal', { body: 'This request violates our safety guidelines.' }, 'refusal', 'text.refusal'],
    ['an item of an earlier response that was not kept is session_expired', { status: 404, body: "Item with id 'msg_12345678' not found." }, 'session_expired', 'text.session_expired'],
    ['Chinese: a request format that is wrong (有误) is format', { body: '{"error":{"message":"参数有误"}}' }, 'format', 'text.format'],
    ['a field that cannot be blank is format', { body: "tool's name cannot be blank" }, 'format', 'text.format'],
    ['a model not in the list of supported models is model_not_found', { message: 'InvalidArgumentError: model `x-1` is not in the list of available models.' }, 'model_not_found', 'text.model_not_found'],
    ["an account's endpoint that is not found is model_not_found", { message: 'when calling InvokeEndpoint: Endpoint my-model of account 1234 not found.' }, 'model_not_found', 'text.model_not_found'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("request families found when the eleventh set's held-back part was opened, in other words", () => {
  const cases: RuleCase[] = [
    ['no session matched the id to resume is session_expired', { message: "Error: No session or name matched 'abc-123'." }, 'session_expired', 'text.session_expired'],
    ['a bare stated 400 behind a stack trace names no cause', { message: 'BadRequestError: 400 status code (no body)\n    at APIError.generate (file:///app/node_modules/openai/error.mjs:41:20)' }, 'unclassified'],
    ['a bare stated 400 behind a client label and a Chinese "request failed" names no cause', { message: '请求失败 chat completion error: 400 "bad request"' }, 'unclassified'],
    ['a stated 400 that names the field still names a cause', { message: '400 field max_tokens invalid, must be in [1, 8192]' }, 'format'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('request families from the twelfth set (provider-errors-12, dev rows), in other words', () => {
  const cases: RuleCase[] = [
    ["a model's safeguards flagging the message is a refusal", { message: "API Error: the model's safeguards blocked this message" }, 'refusal', 'text.refusal'],
    ['a model that refused the request is a refusal', { message: 'The model refused this request (policy).' }, 'refusal', 'text.refusal'],
    ['a malformed input request is format', { message: 'Malformed input request: required key [messages] not found' }, 'format', 'text.format'],
    ['a message shorter than one token is format', { message: 'invalid request: prompt must be at least 1 token long' }, 'format', 'text.format'],
    ['history elements without a message are format', { message: 'invalid request: all elements in history must have a message' }, 'format', 'text.format'],
    ['an invalid URL with the method glued is format', { message: 'Invalid URL(POST /v1/v1/embeddings)' }, 'format', 'text.format'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("request families found when the twelfth set's held-back part was opened, in other words", () => {
  it('Chinese: a wrong model name is model_not_found even under a 503', () => {
    expect(explain({ status: 503, body: '模型名称错误，请检查' }).reason).toBe('model_not_found');
  });
});

describe('request words in a vocabulary pass before the thirteenth set', () => {
  const cases: RuleCase[] = [
    ['a model id that you provided does not exist is model_not_found', { message: 'The model id you specified does not exist.' }, 'model_not_found', 'text.model_not_found'],
    ['at least one message is required is format', { message: 'messages: at least one content block is required' }, 'format', 'text.format'],
    ['a JSON-schema "required property" is format', { message: "'model' is a required property" }, 'format', 'text.format'],
    ['a pattern mismatch is format', { message: 'tools.0.name: String does not match pattern ^[a-z]+$' }, 'format', 'text.format'],
    ['a value that must be one of a set is format', { message: "role must be one of system, user, assistant" }, 'format', 'text.format'],
    ['a value out of its range is format', { message: 'top_p must be between 0 and 1' }, 'format', 'text.format'],
    ['too many stop sequences is format', { message: 'Too many tools: at most 128 are allowed' }, 'format', 'text.format'],
    ['a feature only some models support is format', { message: 'response_format is only supported by newer models' }, 'format', 'text.format'],
    ['a program assertion inside a 500 stays the server\'s', { status: 500, body: 'handler.lua:266: path must be a string' }, 'server_error'],
    ['a context length of N exceeded is an overflow', { message: 'context size of 4096 tokens exceeded' }, 'context_overflow', 'text.context_overflow'],
    ['input tokens over the configured limit is an overflow', { message: 'input tokens exceed the configured limit of 100000' }, 'context_overflow', 'text.context_overflow'],
    ["a refusal in the model's words is a refusal", { message: "I'm sorry, but I cannot help with this request." }, 'refusal', 'text.refusal'],
    ['a deleted thread is session_expired', { message: 'The conversation has been deleted.' }, 'session_expired', 'text.session_expired'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('request families from the thirteenth set (provider-errors-13, dev rows), in other words', () => {
  const cases: RuleCase[] = [
    ['a model provider that does not serve the region is format', { message: 'This provider does not serve your country.' }, 'format', 'text.format'],
    ['a request without a model is format', { message: 'Chat error: you must specify a valid model.' }, 'format', 'text.format'],
    ['advice to shorten the prompt is an overflow', { message: 'Token budget exceeded; please shorten your prompt.' }, 'context_overflow', 'text.context_overflow'],
    ["an answer withheld by the content filter is a refusal", { message: "Response withheld by the content filter." }, 'refusal', 'text.refusal'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('a second vocabulary pass (words providers and clients use for the same causes)', () => {
  const cases: RuleCase[] = [
    ['a guardrail that intervened is a refusal', { message: 'Bedrock: guardrail intervened on the output' }, 'refusal', 'text.refusal'],
    ['a jailbreak filter is a refusal', { message: 'Prompt rejected by the jailbreak filter' }, 'refusal', 'text.refusal'],
    ['a risk detector is a refusal', { body: '{"error":{"code":"OutputTextRiskDetection"}}' }, 'refusal'],
    ["Gemini's prohibited-content reason in a text is a refusal", { message: 'generation stopped: IMAGE_PROHIBITED_CONTENT' }, 'refusal'],
    ['flagged for a possible violation is a refusal', { message: 'Input flagged for potential policy violation.' }, 'refusal', 'text.refusal'],
    ["Zhipu's finish_reason sensitive is a refusal", { body: '{"choices":[{"finish_reason":"sensitive","message":{"content":""}}]}', status: 200 }, 'refusal'],
    ['"cannot help with that" is a refusal', { message: "I can't help with that." }, 'refusal', 'text.refusal'],
    ['a conversation no longer available is session_expired', { message: 'That thread is no longer available.' }, 'session_expired', 'text.session_expired'],
    ['a run that is not found is session_expired', { status: 404, body: 'Run not found: run_1' }, 'session_expired', 'text.session_expired'],
    ['a maximum input length exceeded is an overflow', { message: 'Max input length reached for this endpoint' }, 'context_overflow', 'text.context_overflow'],
    ['a conversation grown too long is an overflow', { message: 'This conversation has grown too long.' }, 'context_overflow', 'text.context_overflow'],
    ['token arithmetic over the maximum is an overflow', { message: 'requested 9000 tokens, but the maximum is 8192' }, 'context_overflow', 'text.context_overflow'],
    ['a model that could not be found is model_not_found', { message: 'The selected model could not be found.' }, 'model_not_found', 'text.model_not_found'],
    ['no model named X is model_not_found', { message: 'no model named "mixtral" in this server' }, 'model_not_found', 'text.model_not_found'],
    ['a bare "model is not supported" is model_not_found', { message: 'Error: model is not supported' }, 'model_not_found', 'text.model_not_found'],
    ['a parameter the model does not support is format', { message: "This model does not support the 'logprobs' option" }, 'format', 'text.format'],
    ['an unsupported media type is format', { message: 'Unsupported image type: image/tiff' }, 'format', 'text.format'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('a third vocabulary pass: request shapes', () => {
  const cases: RuleCase[] = [
    ["a tool message without its tool_calls (OpenAI's own spelling) is format", { status: 400, body: "messages with role 'tool' must be a response to a preceeding message with 'tool_calls'" }, 'format'],
    ['a deprecated parameter with its replacement is format', { message: "The 'functions' parameter is deprecated. Please use 'tools' instead." }, 'format', 'text.format'],
    ['too many images to reduce is format', { message: 'Please reduce the number of images in the request.' }, 'format', 'text.format'],
    ['a model not available with the available ones listed is model_not_found', { message: "Model 'x' is not available. Available models: a, b" }, 'model_not_found', 'text.model_not_found'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("request families from the fourteenth set's dev rows, in other words", () => {
  const cases: RuleCase[] = [
    ['output blocked as a potential violation of usage guidelines is a refusal', { message: 'blocked output: this generation may be a potential violation of our usage guidelines' }, 'refusal', 'text.refusal'],
    ['a guardrail that failed the call is a refusal', { message: 'Guardrail failed: the request mentions personal data' }, 'refusal', 'text.refusal'],
    ['a quoted conversation id in any alphabet that does not exist is a lost session', { message: "Conversation 'ab|cd|ef.gh' does not exist" }, 'session_expired', 'text.session_expired'],
    ["Bing's InvalidSession is a lost session", { body: '{"result":{"value":"InvalidSession","message":"gone"}}' }, 'session_expired', 'text.session_expired'],
    ['a body that does not match its content-type is format', { body: '{"error":{"message":"content-type header does not match request body"}}' }, 'format', 'text.format'],
    ['a chat template that could not be applied is format', { message: 'Error: failed to apply chat template to the messages' }, 'format', 'text.format'],
    ['a model not configured in the gateway is a missing model', { message: 'the model requested is not configured' }, 'model_not_found', 'text.model_not_found'],
    ['token arithmetic that must stay under a bound is an overflow', { message: 'prompt tokens (9000) plus max new tokens (100) must be less than 8192' }, 'context_overflow', 'text.context_overflow'],
    ['a token count over its ceiling is an overflow (Chinese)', { message: 'token数超出上限，请精简' }, 'context_overflow', 'text.context_overflow'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("request families found when the fourteenth set's held-back part was opened, in other words", () => {
  const cases: RuleCase[] = [
    ['NSFW content detected is a refusal', { message: 'NSFW content detected, try another prompt' }, 'refusal', 'text.refusal'],
    ['a field that can not be empty is format', { message: 'relay error: prompt can not be empty' }, 'format', 'text.format'],
    // (read as format until the eighteenth set: a conversation's accumulated attachments reached the cap, and `/compact` was the remedy)
    ['a request over a size cap in megabytes is a context overflow', { message: 'Request too large (max 20MB).' }, 'context_overflow', 'text.context_overflow'],
    ['an image that failed to decode is format', { message: 'failed to decode image: unknown format' }, 'format', 'text.format'],
    ['an API endpoint that does not exist is format', { message: 'The requested API endpoint GET /v9/x does not exist.' }, 'format', 'text.format'],
    ['a deprecated feature with its replacement is format', { status: 410, message: 'Web search is deprecated. Please migrate to the tools API.' }, 'format', 'text.format'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("request families from the fifteenth set's dev rows, in other words", () => {
  const cases: RuleCase[] = [
    ['input tokens that exceeded the prompt ceiling are an overflow', { message: 'number of prompt tokens (9000) has exceeded max_prompt_tokens (8192) limit.' }, 'context_overflow', 'text.context_overflow'],
    ['the supported model names listed beside the one passed is a missing model', { message: 'The supported model names are a-1, b-2, but you passed c-3.' }, 'model_not_found', 'text.model_not_found'],
    ['a model version switched off by its host is a missing model', { message: 'this model version is currently disabled' }, 'model_not_found', 'text.model_not_found'],
    ['a quoted model not supported with a kind of account is a missing model', { body: "{\"detail\":\"The 'm-9' model is not supported with this account.\"}" }, 'model_not_found', 'text.model_not_found'],
    ['a request method not supported is format', { status: 500, message: "Request method 'GET' not supported" }, 'format', 'text.format'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("request families found when the fifteenth set's held-back part was opened, in other words", () => {
  it('a safety policy that blocked the response is a refusal', () => {
    expect(explain({ message: 'Error: the safety policy blocked this answer' }).reason).toBe('refusal');
  });
});

describe("request families from the sixteenth set's dev rows, in other words", () => {
  const cases: RuleCase[] = [
    ['content that did not pass the safety review is a refusal', { message: 'The content did not pass the safety review.' }, 'refusal', 'text.refusal'],
    ['content that did not pass review is a refusal (Chinese)', { message: '内容未通过审核' }, 'refusal', 'text.refusal'],
    ['an unsupported protocol scheme is format', { message: 'Post "/api.example.com/v1": unsupported protocol scheme ""' }, 'format', 'text.format'],
    ['a value outside its stated valid range is format', { status: 500, body: '{"details":{"message":"Invalid top_k value, the valid range of top_k is [1, 100]"}}' }, 'format', 'text.format'],
    ['a message over the chat length limit is an overflow (Japanese)', { message: '会話の長さ制限を超えています' }, 'context_overflow', 'text.context_overflow'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("families found when the sixteenth set's held-back part was opened, in other words", () => {
  it("a quoted session id that expired is a lost session, before gRPC's broad FAILED_PRECONDITION", () => {
    expect(explain({ message: "Error: 9 FAILED_PRECONDITION: Session: 'abc:def-1' expired or invalid" }).reason).toBe('session_expired');
  });
  it("a plan's messages used up until a stated time is a window", () => {
    expect(explain({ message: "You're out of assistant messages. Wait until June 2, 9:00 AM." }).reason).toBe('rate_limit');
  });
});

describe("request families found in the seventeenth set, in other words", () => {
  it('access to models that has been removed is a missing model', () => {
    expect(explain({ body: '<p>Access to LLM models has been removed from this endpoint.</p>' }).reason).toBe('model_not_found');
  });
});

describe("a model version disabled (a breaker's finding)", () => {
  it('under a 410 is a missing model', () => {
    expect(explain({ status: 410, body: '{"error":{"code":"ModelDeprecated","message":"The model gpt-x version 0301 is disabled. Please use a newer version."}}' }).reason).toBe('model_not_found');
  });
});

describe('request families from the eighteenth set, in other words', () => {
  it.each([
    ['a prompt whose token count is too long for the engine', { message: 'scheduler: Input prompt (9120 tokens) is too long and exceeds limit of 8192' }, 'context_overflow'],
    ['an input token limit stated as a number', { status: 400, body: 'engine refused: message: input token limit is 32000' }, 'context_overflow'],
    ['the prompt tokens that may not exceed a ceiling', { status: 400, body: 'too many tokens: the tokens in the prompt cannot exceed 2048' }, 'context_overflow'],
    ["a provider's hard cap on the request's size", { message: 'Request is too large (max 20MB). Remove some images.' }, 'context_overflow'],
    ['a value outside its range', { message: 'InvalidArgument: value out of range: -5' }, 'format'],
    ['a request parameter named by its path as invalid', { message: "{'code': -2000, 'message': 'Params body.messages invalid'}" }, 'format'],
    ['two settings that exclude each other', { status: 400, body: 'Streaming may not be enabled when n is greater than 1.' }, 'format'],
    ['a required field left empty', { status: 400, body: 'The text field in the Part object at contents.0 is empty.' }, 'format'],
    ['a model no provider of the stack serves', { message: 'ValueError: Model Llama-Guard not served by any of the providers: ollama.' }, 'model_not_found'],
    ['a relay without a price for the model', { status: 500, body: '{"error":{"message":"model foo-1 ratio or price not set, please set it first"}}' }, 'model_not_found'],
    ['the same in Chinese', { message: '模型 foo-1 倍率或价格未配置' }, 'model_not_found'],
    ['a model never pulled (a missing manifest)', { status: 500, body: 'open /root/.ollama/models/manifests/registry.ollama.ai/library/mistral/7b: no such file or directory' }, 'model_not_found'],
    ['a model whose id names no model, with a placeholder in it', { message: 'The model $DEPLOYMENT does not exist' }, 'model_not_found'],
    ['a model said to be no longer offered', { message: 'This model models/old-pro is no longer available to new projects.' }, 'model_not_found'],
    ['a model code that does not exist', { status: 400, body: 'rejected (HTTP 400: model code does not exist)' }, 'model_not_found'],
    ["FastChat's controller naming the models it serves", { status: 400, body: "{'object': 'error', 'message': 'Only llama-3 allowed now, your model gpt-4', 'code': 40301}" }, 'model_not_found'],
    ['a server asking for a model to be loaded first', { message: 'Generation is unavailable: please load a model first.' }, 'model_not_found'],
    ['a model bare-named as not supported, inside a client\'s wrapper, under a 401', { status: 401, body: 'APIError: {"type":"error","error":{"type":"ModelError","message":"Model foo-lite not supported"}}' }, 'model_not_found'],
    ['a relay refusing sensitive chat messages', { status: 400, body: 'Sensitive chat message detected' }, 'refusal'],
    ['a model that cannot answer the question', { message: 'Sorry, the model cannot answer this request.' }, 'refusal'],
  ] as const)('%s', (_name, failure, reason) => {
    expect(explain(failure).reason).toBe(reason);
  });

  it('a model "not supported for" an endpoint is no missing model: the bare-named family reads only a model not supported at all', () => {
    expect(explain({ message: 'Model foo not supported for this endpoint' }).reason).toBe('unclassified');
    expect(explain({ message: 'Model foo not supported' }).reason).toBe('model_not_found');
  });
});

describe('request families from the nineteenth set, in other words', () => {
  it.each([
    ['an endpoint the API does not offer', { message: 'Mistral does not support the /v1/responses endpoint.' }, 'format'],
    ['a URL retired for another', { status: 410, body: '{"error":"https://old.example.ai is no longer supported. Use https://new.example.ai."}' }, 'format'],
    ["Kong's route that does not exist, under a 404", { status: 404, body: '{"message":"no Route matched with those values"}' }, 'format'],
    ['an address refused as private (SSRF)', { status: 400, body: '{"error":{"reason":"ssrf_blocked","message":"private address"}}' }, 'format'],
    ['an invalid URL', { message: 'Invalid URL: htp:/x' }, 'format'],
    ['an image file that cannot be read', { message: 'Invalid image data for input 2' }, 'format'],
    ['input that must follow a format', { message: 'Each line must follow the {"messages": [...]} format' }, 'format'],
    ['a conversation with a response already running', { message: 'Thread already has an active run.' }, 'format'],
    ['a training file of the wrong format', { message: 'Invalid file format. Line 3 contains an invalid token: <|endoftext|>.' }, 'format'],
    ['an input too large for the batch of a local server', { status: 500, body: 'srv error: input is too large to process, increase the batch size' }, 'context_overflow'],
    ['too many input tokens for the model', { status: 400, body: 'ValidationException: Too many input tokens. Max input tokens: 4096' }, 'context_overflow'],
    ['a batch over its token cap', { message: 'The max allowed tokens per submitted batch is 1000' }, 'context_overflow'],
    ['an attachment over the size limit, in Chinese', { message: '上传失败：文件大小超过了服务器的限制' }, 'context_overflow'],
    ["LiteLLM's unknown provider prefix", { message: 'BedrockError: Unknown provider=eu, model=eu.foo-v1' }, 'model_not_found'],
    ['no chat model found', { message: 'No chat model found in the server config' }, 'model_not_found'],
    ['an image prompt blocked as it may violate policy', { status: 400, body: 'The image is blocked, as it may violate our policies.' }, 'refusal'],
    ['images filtered for violating usage guidelines', { message: 'All images were filtered out because they violated the usage guidelines.' }, 'refusal'],
  ] as const)('%s', (_name, failure, reason) => {
    expect(explain(failure).reason).toBe(reason);
  });

  it('a resource blocked for a policy is a ban of the account, not a refusal of this request', () => {
    expect(explain({ status: 403, body: 'Your resource has been temporarily blocked because of behaviour that may violate our content policy.' }).reason).toBe('auth');
  });
});

describe("refusal, overflow, session and format families from the twenty-fifth set's dev rows, in other words", () => {
  const cases: RuleCase[] = [
    ['a request flagged by a content moderation system is a refusal', { body: 'Denied: the prompt was flagged by our content moderation system.' }, 'refusal', 'text.refusal'],
    ['NSFW content that "was detected" is a refusal', { body: 'NSFW content has been detected in the output image.' }, 'refusal', 'text.refusal'],
    ['safety measures that flagged a message are a refusal', { body: 'This model has safety measures that blocked your request on a restricted topic.' }, 'refusal', 'text.refusal'],
    ['"Prompt is sensitive" is a refusal', { body: '{"error":{"message":"Input was flagged as sensitive."}}' }, 'refusal', 'text.refusal'],
    ['a violated guardrail is a refusal, not a format error', { status: 400, body: 'Request violated the guardrail configured for this key' }, 'refusal', 'text.refusal'],
    ['"inappropiate content" (a common misspelling) is a refusal', { status: 400, body: 'output may contain inappropiate content' }, 'refusal', 'text.refusal'],
    ['a context size in tokens over a limit is an overflow', { body: 'Context size 12001 tokens exceeds limit 12000.' }, 'context_overflow', 'text.context_overflow'],
    ['a context cache the provider no longer has is a lost session, not a missing model', { status: 404, body: '{"error":{"code":404,"message":"Not found: cached content 12345.","status":"NOT_FOUND"}}' }, 'session_expired', 'text.session_expired'],
    ['a batch over its size is a format error', { status: 400, body: 'at most 2048 inputs can be in one batch' }, 'format', 'text.format'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('does not read "sensitive to" or a cached-content size error as these causes', () => {
    expect(explain({ status: 400, body: 'The prompt is sensitive to temperature; lower it.' }).reason).toBe('format');
    expect(explain({ status: 400, body: 'Cached content is too small. total_token_count=416' }).reason).toBe('format');
  });
});

describe("families found when the twenty-fifth set's held-back part was opened, in other words", () => {
  const cases: RuleCase[] = [
    ["Bedrock relaying a model's validation errors is a format error", { body: '{"message":"The model returned the following errors: top_k is not a valid field."}' }, 'format', 'text.format'],
    ['a "remove X and try again" remedy is a format error', { body: '{"message":"Documents cannot be nested. Remove the nested document and try again."}' }, 'format', 'text.format'],
    ['a parameter deprecated for this model is a format error', { body: 'top_p is deprecated for this model.' }, 'format', 'text.format'],
    ['an option not supported for this model is a format error', { body: 'parallel tool calls are not supported for this model.' }, 'format', 'text.format'],
    ["a field the model doesn't support is a format error", { body: "This model doesn't support the document field." }, 'format', 'text.format'],
    ['an audio input too short is a format error', { body: 'Audio file is too short. Minimum length is 0.1 seconds.' }, 'format', 'text.format'],
    ['a validator\'s "at most N characters" is a format error', { body: "[{'type': 'string_too_long', 'msg': 'String should have at most 2048 characters'}]" }, 'format', 'text.format'],
    ['a file extension refused is a format error', { body: 'Invalid file extension exe. Supported formats: "pdf", "txt"' }, 'format', 'text.format'],
    ['a required input type missing is a format error', { body: 'invalid request: valid embedding_types must be provided' }, 'format', 'text.format'],
    ['a short field constraint is a format error, the body cap an overflow', { status: 400, body: "Value at 'name' failed to satisfy constraint: Member must have length less than or equal to 64" }, 'format'],
    ['too many tokens in a batch is an overflow', { body: 'Too many tokens in the batch. Max is 8192 got 9000' }, 'context_overflow', 'text.context_overflow'],
    ['a file that could not be read because it is too large is an overflow', { body: 'The document could not be indexed because it is too large.' }, 'context_overflow', 'text.context_overflow'],
    ['a chat flagged for a possible risk is a refusal', { body: 'This conversation was flagged for potential misuse risk' }, 'refusal', 'text.refusal'],
    ["the OpenAI SDK's content-filter parse error is a refusal", { body: 'openai.ContentFilterFinishReasonError: Could not parse response content' }, 'refusal', 'openai.content_filter_finish_reason'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('keeps the body cap in the millions an overflow', () => {
    expect(explain({ status: 400, body: "Value at 'body' failed to satisfy constraint: Member must have length less than or equal to 25000000" }).reason).toBe('context_overflow');
  });
});

describe("families from the twenty-sixth set's dev rows, in other words", () => {
  const cases: RuleCase[] = [
    ["a value over a stated maximum is a format error", { body: "2.5 is greater than the maximum of 2 - 'temperature'" }, 'format', 'text.format'],
    ['a value under a stated minimum is a format error', { body: "-1 is less than the minimum of 0 - 'n'" }, 'format', 'text.format'],
    ['Chinese "the request contains unsafe content" is a refusal', { body: '您的问题中包含不安全内容，请修改后再试' }, 'refusal', 'text.refusal'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it("OpenRouter's wrapper around the routed provider's own 400 is that 400, not a transient wrapper", () => {
    const raw = JSON.stringify({ error: { code: 400, message: 'Unable to submit request because the tool signature is not valid.', status: 'INVALID_ARGUMENT' } });
    expect(explain({ provider: 'openrouter', status: 400, body: JSON.stringify({ error: { message: 'Provider returned error', code: 400, metadata: { raw, provider_name: 'Google' } } }) }).reason).toBe('format');
    expect(explain({ provider: 'openrouter', status: 400, body: '400 Provider returned error' }).reason).toBe('timeout');
  });
});

describe("families found when the twenty-sixth set's held-back part was opened, in other words", () => {
  const cases: RuleCase[] = [
    ["a gateway that could not read the request's shape to count tokens is a format error", { body: 'Failed to parse and estimate tokens from the incoming request.' }, 'format', 'text.format'],
    ['prompt caching a model does not take is a format error, not a missing model', { status: 400, body: '{"message":"This model is supported but prompt caching is not supported for it."}' }, 'format', 'text.format'],
    ["LMDeploy's INPUT_LENGTH_ERROR is an overflow", { body: 'error: status code ResponseType.INPUT_LENGTH_ERROR' }, 'context_overflow', 'lmdeploy.input_length_error'],
    ['a session over its maximum length is an overflow, not a lost session', { body: 'Warning: exceeds session max length, end the session.' }, 'context_overflow', 'text.context_overflow'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("families found when the twenty-seventh set's held-back part was opened, in other words", () => {
  const cases: RuleCase[] = [
    ['a chat model that may not make embeddings is a format error, even under a 403', { status: 403, body: '{"error":{"message":"You are not allowed to generate embeddings with this model","type":"invalid_request_error"}}' }, 'format', 'text.format'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("format and missing-model families from the twenty-eighth set, in other words", () => {
  const cases: RuleCase[] = [
    ['a Responses input item sent without the item it must travel with is format', { body: "Item 'msg_test1' of type 'message' was provided without its required preceding item." }, 'format', 'text.format'],
    ['a tool call sent back without its thought signature is format', { body: 'Tool call part is missing a thought_signature; resend the signature you received.' }, 'format', 'text.format'],
    ['a Chinese "parameter validation failed" is format', { body: '请求被拒绝：参数校验失败' }, 'format', 'text.format'],
    ['a Chinese "check whether the parameters are correct" after a failed check is format', { body: '校验失败：请检查参数是否合法' }, 'format', 'text.format'],
    ["LM Studio's model key not loaded is a missing model", { body: "Model with key 'test/model-7b' is not loaded." }, 'model_not_found', 'text.model_not_found'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("format families from the twenty-ninth set, in other words", () => {
  const cases: RuleCase[] = [
    ['an option a model does not take is format', { body: 'Unknown option for this model: top_k' }, 'format', 'text.format'],
    ["Ollama's invalid options are format", { body: '{"error":"invalid options: seedx"}' }, 'format', 'text.format'],
    ['an API version no longer supported is format', { body: 'This API version is no longer supported. Move to the v2 endpoint.' }, 'format', 'text.format'],
    ["Gradio's app without the endpoint is format", { body: "{ error: 'This app has no endpoint /run/predict.' }" }, 'format', 'text.format'],
    ['a request field the API demands by name is format', { body: 'you must provide "input" for this model' }, 'format', 'text.format'],
    ["gRPC's UNIMPLEMENTED in Google's words is format", { body: 'received 1008 (policy violation) Operation is not implemented or supported or enabled.' }, 'format', 'text.format'],
    ['a FastAPI field error ("prompt: Field required") is format', { body: 'SSE request failed: messages: Field required' }, 'format', 'text.format'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('a field demanded by name needs the quotes: "you must provide an API key" is a missing credential, not format', () => {
    expect(explain({ body: 'You must provide an API key to use this service.' }).reason).toBe('auth');
  });
});

describe("overflow, refusal, format and missing-model families from the thirtieth set, in other words", () => {
  const cases: RuleCase[] = [
    ['an input that does not fit the context window is an overflow', { body: 'The document at index 3 does not fit into the context window of 8192 tokens.' }, 'context_overflow', 'text.context_overflow'],
    ['a max length printed in parentheses is an overflow', { body: 'RuntimeError: input size (5000) exceeds max length (4096)' }, 'context_overflow', 'text.context_overflow'],
    ['a character ceiling with the size given is an overflow, not a validation format error', { body: '{"error":"Input validation error: `inputs` must have less than 512 characters. Given: 900"}' }, 'context_overflow', 'text.context_overflow'],
    ['more data than a step can handle is an overflow', { body: 'The action returned too much data to handle.' }, 'context_overflow', 'text.context_overflow'],
    ["a guard's toxic finding is a refusal", { body: 'Validation failed: the following sentences were found to be toxic.' }, 'refusal', 'text.refusal'],
    ['a moderation model flagging categories is a refusal', { body: '`some text` was flagged for hate, violence [type=value_error]' }, 'refusal', 'text.refusal'],
    ['community standards are a refusal', { body: 'Your prompt may be against our community guidelines.' }, 'refusal', 'text.refusal'],
    ['a banned word is a refusal', { body: 'word "example" is banned' }, 'refusal', 'text.refusal'],
    ['a policy against a kind of content is a refusal', { body: 'This query violates the policy against generating hateful content.' }, 'refusal', 'text.refusal'],
    ["Qdrant's wrong input is format", { body: '{"status":{"error":"Wrong input: vector dimension error"}}' }, 'format', 'text.format'],
    ['an invalid guardrail identifier is format', { body: 'The guardrail id is invalid.' }, 'format', 'text.format'],
    ['a paused endpoint is a model not served', { status: 400, body: 'Bad request: The endpoint is paused, ask a maintainer to restart it' }, 'model_not_found', 'text.model_not_found'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('"moderation failed" inside an API method name (CreateModeration) is no refusal: the 429 decides', () => {
    expect(explain({ status: 429, body: 'Error: 429 Client::CreateModeration failed with: Request failed with status code 429' }).reason).toBe('rate_limit');
  });
});

describe("format and missing-model families from the thirty-first set, in other words", () => {
  const cases: RuleCase[] = [
    ['an API removed on a date is a request to rewrite', { status: 404, body: 'The Completions API was removed on 2025-06-01; please migrate to the Chat API.' }, 'format', 'text.format'],
    ['an API that has been retired is a request to rewrite', { body: 'This legacy API has been retired. Use /v2/chat instead.' }, 'format', 'text.format'],
    ['a model an API version does not take is format', { status: 400, body: "The model 'o3-mini' cannot be used with the Assistants API in v1." }, 'format', 'text.format'],
    ['a model version that does not exist is a missing model, whatever the hedge after it', { status: 422, body: "The requested version does not exist (or perhaps you don't have permission to use it?)" }, 'model_not_found', 'text.model_not_found'],
    ['a service switched off for a deprecation brownout is gone for this request', { status: 410, body: 'This endpoint is unavailable during a scheduled deprecation brownout.' }, 'model_not_found', 'text.model_not_found'],
    ['a service not available in the caller\'s location is a region refusal', { body: 'Sorry, this assistant is not currently available in your location.' }, 'format', 'text.format'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('an API key removed from an account is no removed API', () => {
    expect(explain({ status: 401, body: 'This API has been removed from your organization; ask an admin to enable it.' }).reason).toBe('auth');
  });
});

describe("families from the thirty-second set, in other words", () => {
  const cases: RuleCase[] = [
    ['a model file the runtime cannot load is a missing model', { status: 500, body: 'Error: failed to load model: this model is incompatible with this version of the runtime' }, 'model_not_found', 'text.model_not_found'],
    ["a tool's schema a model cannot take is format", { body: 'The input schema for tool search_docs is incompatible with gpt-4o-mini.' }, 'format', 'text.format'],
    ['an array parameter without items is format', { status: 400, body: "Invalid schema for function 'lookup': array schema missing items." }, 'format', 'text.format'],
    ['too many tools is format', { body: 'Reason: You may not include more than 64 tools in your request.' }, 'format', 'text.format'],
    ['a client without MCP sampling is format', { body: 'McpError: MCP error -32601: Sampling not supported by this client' }, 'format', 'text.format'],
    ["a tool result over the model's token cap is an overflow", { body: 'Error: MCP tool "search" response (98123 tokens) exceeds maximum allowed tokens (25000).' }, 'context_overflow', 'text.context_overflow'],
    ['a subrequest cap per invocation is a rate limit', { body: 'Error: Too many subrequests.' }, 'rate_limit', 'text.rate_limit'],
    ['one message at a time is a rate limit', { body: '{"detail":"Only one message at a time. Please wait."}' }, 'rate_limit', 'text.rate_limit'],
    ["a client that failed to authenticate is auth", { body: 'Failed to authenticate with the provider: token rejected' }, 'auth', 'text.auth'],
    ['API Gateway\'s default `{"message":"Not Found"}` states a 404', { body: '{"message":"Not Found"}' }, 'model_not_found'],
    ['a Failed Dependency is a server error', { status: 424, body: 'Error retrieving tool list from MCP server.' }, 'server_error'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});
