/**
 * Words of a reason's vocabulary in another sense — a model's answer inside a success envelope, a remedy beside the
 * cause it answers, a label before a status that names the cause, a host name, a hint offering a condition — from a
 * breaker's pass over the families of the eighteenth and nineteenth sets (fixtures/SCORES.md).
 */
import { describe, it } from 'vitest';
import { expectRuleCase } from '../../test-support/classify.js';
import type { RuleCase } from '../../test-support/classify.js';

describe('words in another sense decide nothing', () => {
  it.each([
    [
      "iFlytek Spark's success envelope around a streamed answer is an answer",
      { status: 200, body: 'data:{"code":0,"message":"Success","sid":"s1","choices":[{"delta":{"role":"assistant","content":"Your session expired, please log in again."},"index":0}]}\n\ndata:{"code":0,"message":"Success","sid":"s1","choices":[{"delta":{"content":""},"index":0,"finish_reason":"stop"}]}\n\ndata:[DONE]\n\n' },
      'unclassified',
    ],
    [
      'a `{"code":200,"msg":"success","data":{…}}` envelope is read through its data',
      { status: 200, body: '{"code":200,"msg":"success","data":{"choices":[{"index":0,"message":{"role":"assistant","content":"Rate limits are 10 per minute."},"finish_reason":"stop"}]}}' },
      'unclassified',
    ],
    ['`"error": false` is no error', { status: 200, body: '{"error":false,"choices":[{"index":0,"message":{"role":"assistant","content":"429 means too many requests."},"finish_reason":"stop"}]}' }, 'unclassified'],
    ["a success envelope around no answer is an empty answer", { status: 200, body: '{"code":0,"message":"Success","choices":[]}' }, 'empty_response'],
    ['an upgrade offered beside a per-minute limit is the rate limit', { status: 429, body: 'You have hit the requests per minute of your tier. Upgrade your plan for more.' }, 'rate_limit'],
    ['a top-up offered beside a concurrency limit is the rate limit', { status: 429, body: 'Concurrency limit reached. Top up your account to raise it.' }, 'rate_limit'],
    ['请充值 beside 请求过于频繁 is the rate limit', { status: 429, body: '请求过于频繁，如需更高并发请充值' }, 'rate_limit'],
    ['a top-up alone is billing', { message: 'Please top up your account to continue.' }, 'billing'],
    ['a monthly quota with an upgrade stays billing (waiting a month is no way out)', { status: 429, body: 'Monthly token quota exceeded. Please upgrade your plan.' }, 'billing'],
    ['"System error:" before a 429 is a label: the status decides', { status: 429, body: '{"message":"System error: request frequency exceeded"}' }, 'rate_limit'],
    ['"System error:" before a 403 is a label', { status: 403, body: '{"msg":"System error: no access to this model"}' }, 'auth'],
    ["Dify's `ssrf_proxy` host is a proxy's name, not an SSRF refusal", { message: "HTTPConnectionPool(host='ssrf_proxy', port=3128): Max retries exceeded (Caused by ProxyError('Unable to connect to proxy'))" }, 'timeout'],
    ["a database's value out of range under a 500 is the relay's failure", { status: 500, body: '{"error":{"message":"ERROR: value out of range for type integer (SQLSTATE 22003)"}}' }, 'server_error'],
    ['an Authorization header that must follow a format, under a 401, is auth', { status: 401, body: "The Authorization header must follow the format 'Bearer <token>'." }, 'auth'],
    ['"no route matched" offered as a hint under a 502 is the gateway\'s failure', { status: 502, body: '502 Bad Gateway. If you see "no route matched", the route is misconfigured.' }, 'server_error'],
    ["xAI's maximum prompt length is an overflow", { status: 400, body: '{"code":"Client specified an invalid argument","error":"This model\'s maximum prompt length is 131072 but the request contains 245342 tokens."}' }, 'context_overflow'],
    ["the model's input token limit beside an invalid max_tokens is the max_tokens", { status: 400, body: "Invalid max_tokens: 100000. The model's input token limit is 131072." }, 'format'],
    ['a fair use policy is a usage limit, not a refusal', { message: 'Your usage violates our fair use policy. Please wait 24 hours.' }, 'rate_limit'],
    ['a prompt too long offered as a condition decides nothing', { status: 500, body: '{"message":"Internal server error","hint":"This can happen if the prompt is too long or the model is overloaded."}' }, 'server_error'],
    ['"requests too quickly" in a list of possible causes under a 401 is no rate limit', { status: 401, message: 'Request failed with status 401. Possible causes: an invalid API key, sending requests too quickly.' }, 'auth'],
    ['a server that aborted a request is no caller abort', { message: 'Error: upstream server aborted request due to an internal error' }, 'server_error'],
    ['a subscription whose reason is "Canceled" is no caller abort', { message: 'Your subscription is no longer active. Reason: Canceled' }, 'unclassified'],
    ["axios's cancel is an abort", { message: 'CanceledError: canceled', code: 'ERR_CANCELED' }, 'abort'],
    ["Node's closed socket is transport", { message: 'SystemError [ERR_SOCKET_CLOSED]: Socket is closed' }, 'timeout'],
    ["GitHub's expired device code is a login to renew", { status: 400, body: '{"error":"expired_token","error_description":"The device code has expired."}' }, 'auth'],
    ['an endpoint unavailable in a region is a region refusal (`format`, docs/policy.md), not capacity', { message: 'This endpoint is unavailable in your region.' }, 'format'],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});

describe('families from the twenty-first set, in other words', () => {
  it.each([
    ["Vercel's AI Gateway refusing access", { message: 'AI Gateway access failed: no OIDC token found.' }, 'auth'],
    ['an output ceiling asked over the model\'s, even under a 500', { status: 500, body: 'Internal Server Error: max_tokens (64000) exceeds the model limit' }, 'format'],
    ["Anthropic's ten-minute rule for non-streamed requests", { message: 'Error: streaming is required for operations that may take longer than 10 minutes.' }, 'format'],
    ['a Rust debug print of an empty final response', { message: 'FinalResponse { response: "", usage: Usage { input_tokens: 12, output_tokens: 0 } }' }, 'empty_response'],
    ['a stream that completed without valid content', { message: 'Model stream completed without valid content.' }, 'empty_response'],
    ['a stream that ended before producing useful output, with no status', { message: 'Stream ended before producing useful output' }, 'empty_response'],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});

/** From a breaker's pass over the families of the twenty-second and twenty-third sets (fixtures/SCORES.md). */
describe('the twenty-second and twenty-third sets\' words in another sense', () => {
  it.each([
    ['a stream "for user abc closed" is no closed account', { message: 'Stream for user abc closed unexpectedly' }, 'unclassified'],
    ['a connection "for account 12345 closed by peer" is a dropped connection', { message: 'Connection for account 12345 closed by peer (ECONNRESET)' }, 'timeout'],
    ['an account that "has been closed" still is one', { status: 403, body: 'Your account has been closed.' }, 'auth_permanent'],
    ['`"workspace_disabled": false` is a key, not a code', { status: 429, body: '{"error":{"message":"Rate limit exceeded"},"workspace_disabled": false}' }, 'rate_limit'],
    ['a condition about maintenance reports none', { message: 'If the server is under maintenance, retry later.' }, 'unclassified'],
    ['a hint about maintenance does not overrule the timeout it explains', { message: 'Request timed out after 60s (Hint: if the server is under maintenance, try later)' }, 'timeout'],
    ['a condition about an unset key reports none', { message: 'If the api key is not set, the client falls back to anonymous mode.' }, 'unclassified'],
    ['capacity "not at maximum" is no overload', { message: 'the service is not at maximum capacity' }, 'unclassified'],
    ['a service unavailable in the caller\'s region is a region refusal', { message: 'Service is unavailable in your region' }, 'format'],
    ['a network administrator\'s block is no refusal', { message: 'Content blocked by your network administrator' }, 'unclassified'],
    ['a corporate proxy\'s block is no refusal', { message: 'Response was blocked by corporate proxy policy' }, 'unclassified'],
    ['a bot token not found is no missing model', { message: 'bot token not found' }, 'unclassified'],
    ['an errno name inside a longer name is none', { message: 'ENOTFOUNDATION_MODE is set' }, 'unclassified'],
    ['Russian: a possible cause does not overrule the stated one', { message: 'Модель gpt-5 не найдена. Возможные причины: сервер перегружен' }, 'model_not_found'],
    ['Russian: a request that does not exceed the context is no overflow', { message: 'Запрос не превышает контекст модели, но сервер вернул ошибку' }, 'unclassified'],
    ['Russian: a payment\'s authorisation is no credential', { message: 'Ошибка авторизации платежа' }, 'unclassified'],
    ['Russian: an invoice paid too late is no timeout', { message: 'превышено время ожидания оплаты' }, 'unclassified'],
    ['Russian: a timeout parameter is no timeout', { message: 'Параметр таймаут должен быть целым числом' }, 'unclassified'],
    ['Russian: a model\'s answer that a street does not exist is no missing model', { message: 'Модель сообщила, что такой улицы не существует' }, 'unclassified'],
    ['Russian: an expired token spelt with ё is auth', { message: 'Срок действия токена истёк' }, 'auth'],
    ['a success envelope\'s `data.answer` is an answer', { status: 200, body: '{"code":200,"msg":"success","data":{"answer":"Too many requests were sent by the crowd."}}' }, 'unclassified'],
    ['a success envelope\'s `data.result` in Russian is an answer', { status: 200, body: '{"code":0,"msg":"success","data":{"result":"Ошибка: превышено время ожидания"}}' }, 'unclassified'],
    ['a success envelope whose `data.reply` is blank is an empty answer', { status: 200, body: '{"code":0,"msg":"success","data":{"reply":"  "}}' }, 'empty_response'],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});

describe("look-alikes of the twenty-fifth set's families (a breaker's pass, 2026-12-07)", () => {
  it.each([
    ['a socket buffer guessed too small beside a reset is the reset', { body: 'read ECONNRESET (socket send buffer too small?)' }, 'timeout'],
    ['a condition about a buffer under a 401 is auth', { status: 401, body: 'Authentication failed. If the buffer is too small, increase it.' }, 'auth'],
    ['a region not supported for this model under a 403 is auth', { status: 403, body: 'Your region is not supported for this model' }, 'auth'],
    ['a user locked out after failed sign-ins may clear: auth', { status: 401, body: 'User is locked out after 5 failed sign-in attempts. Try again in 15 minutes' }, 'auth'],
    ['a valid model that must be provided is a missing model', { status: 404, body: 'A valid model must be provided: model not found' }, 'model_not_found'],
    ['a request that was not flagged by moderation is no refusal', { status: 502, body: 'The request was not flagged by our content moderation system, but the upstream returned an invalid response' }, 'server_error'],
    ['no NSFW content detected is no refusal', { status: 500, body: 'No NSFW content was detected; the pipeline crashed in the upscaler' }, 'server_error'],
    ['a certificate with an invalid extension is a certificate failure', { body: 'certificate has invalid extension (unable to verify the first certificate)' }, 'tls_certificate'],
    ['a provider that did not respond within the allotted time is a timeout', { message: 'Provider did not respond within the allotted 90s' }, 'timeout'],
    ['a payload too large to parse is an overflow', { status: 400, body: 'Request payload is too large to be parsed (maximum 20 MB)' }, 'context_overflow'],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});

describe("a Python traceback's source lines are code, not the failure", () => {
  it.each([
    [
      'a timeout keyword forwarded in a frame does not make a server error a timeout',
      { body: 'The server had an error while processing your request.\nTraceback (most recent call last):\n  File "/srv/bot.py", line 47, in reply\n    timeout=timeout,\nopenai.error.APIError: The server had an error while processing your request.' },
      'server_error',
    ],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});

describe("a second breaker's pass over the twenty-fifth to twenty-seventh sets' changes (2026-12-07)", () => {
  it.each([
    [
      "a traceback frame's file and function names are code: google api_core's timeout.py frame does not make a stated 500 a timeout",
      { message: 'Traceback (most recent call last):\n  File "/x/google/api_core/timeout.py", line 120, in func_with_timeout\n    return func(*args, **kwargs)\ngoogle.api_core.exceptions.InternalServerError: 500 An internal error has occurred.' },
      'server_error',
    ],
    [
      "Python 3.13's multi-line source under a frame is code too",
      { status: 500, body: 'Traceback (most recent call last):\n  File "/app/run.py", line 9, in main\n    client.create(\n    ...<2 lines>...\n        timeout,\n    )\nRuntimeError: upstream returned 500 Internal Server Error' },
      'server_error',
    ],
    [
      "a traceback in a FastAPI detail string is read without its frames",
      { status: 500, body: '{"detail":"Traceback (most recent call last):\\n  File \\"/srv/app.py\\", line 3, in handler\\n    check_rate_limit(user)\\nRuntimeError: worker crashed"}' },
      'server_error',
    ],
    ["httpx's bare 400 names no cause", { message: "httpx.HTTPStatusError: Client error '400 Bad Request' for url 'https://api.example.com/v1/chat'" }, 'unclassified'],
    ["requests' bare 400 names no cause", { message: 'requests.exceptions.HTTPError: 400 Client Error: Bad Request for url: https://api.example.com/v1' }, 'unclassified'],
    ["axios's ERR_BAD_REQUEST code on a bare 400 names no cause", { code: 'ERR_BAD_REQUEST', message: 'AxiosError: Request failed with status code 400' }, 'unclassified'],
    ['a cache key not found is no missing credential', { message: 'No cache key found' }, 'unclassified'],
    ['a partition key not provided is no missing credential', { message: 'No partition key provided' }, 'unclassified'],
    ["openai-node's missing OPENAI_API_KEY is a missing credential", { message: 'The OPENAI_API_KEY environment variable is missing or empty; either provide it, or instantiate the OpenAI client with an apiKey option' }, 'auth'],
    ["the Anthropic SDK's unresolved authentication method is a missing credential", { message: 'Could not resolve authentication method. Expected either apiKey or authToken to be set.' }, 'auth'],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});

describe("a breaker's pass over the twenty-eighth set's families: look-alikes", () => {
  it.each([
    ['a purchase offered beside a per-minute limit is the rate limit', { status: 429, body: '{"error":{"message":"Rate limit reached. Purchase pre-paid credits to lift the free-tier limit of 20 requests per minute."}}' }, 'rate_limit'],
    ['keys "used with trial credits" under a rate limit name no exhausted credit', { status: 429, body: '{"error":{"message":"Rate limit exceeded for keys used with trial credits. Retry after 20 seconds."}}' }, 'rate_limit'],
    ['a token bucket "depleted for your credits tier" is a rate limit', { status: 429, body: 'Token bucket depleted for your credits tier. Please slow down and retry in 10s.' }, 'rate_limit'],
    ['a terms note about using the API excessively decides nothing beside an invalid key', { status: 401, body: '{"error":{"message":"Invalid API key. Please note that using the API excessively is against our terms of service.","type":"authentication_error"}}' }, 'auth'],
    ['"not caused by excessive usage" is no rate limit', { status: 500, body: 'Internal server error. This is not caused by excessive usage on your side; please retry.' }, 'server_error'],
    ['a worker using GPU memory excessively is the server failing', { status: 500, body: 'CUDA error: out of memory. The worker was using GPU memory excessively and was restarted.' }, 'server_error'],
    ['excessive use of the context window is the context', { status: 400, body: 'excessive use of the context window: prompt is too long (210000 tokens > 200000 maximum)' }, 'context_overflow'],
    ['a transport failure around a chunk with status 200 stays a transport failure', { message: 'Error: read ECONNRESET {"message": "in progress", "status": 200}' }, 'timeout'],
    ["abort words around a client's 499 are the abort", { message: 'Request was aborted by user. {"error":{"message":"Client Closed Request","code":499}}' }, 'abort'],
    ['a gateway that got no response says so whatever status it put on its answer', { message: 'Failed to get response from provider: {"error":{"message":"Bad Gateway","code":502}}' }, 'timeout'],
    ['a missing model with a hint to check the parameters is the missing model', { status: 400, body: '{"code":40004,"msg":"模型不存在，请检查参数是否正确"}' }, 'model_not_found'],
    ['a missing model named between the words, with the same hint, is the missing model', { status: 400, body: '{"code":40004,"msg":"模型 test-model-2 不存在，请检查参数是否正确"}' }, 'model_not_found'],
    ['a key check that failed under a 401, with a hint to check the parameters, is auth', { status: 401, body: '{"code":401,"msg":"API Key 校验失败，请检查参数是否正确"}' }, 'auth'],
    ['an account muted for ten minutes for posting too often is a rate limit', { status: 429, body: '{"code":429,"msg":"发言过于频繁，账号已被禁言10分钟"}' }, 'rate_limit'],
    ['"Not found at least 1 healthy worker" is no stated 404 under a given 500', { status: 500, body: 'Error: Not found at least 1 healthy worker for this model' }, 'server_error'],
    ['"Not Found at all in cache" states no status', { body: 'AssertionError: Not Found at all in cache' }, 'unclassified'],
    ['a bare "Bad Request" above a stack frame names no cause', { message: 'APICallError [AI_APICallError]: Bad Request\n    at /app/node_modules/@ai-sdk/provider-utils/dist/index.mjs:699:14' }, 'unclassified'],
    ["FastChat's banner around a worker timeout is the timeout", { body: 'NETWORK ERROR DUE TO HIGH TRAFFIC. PLEASE REGENERATE OR REFRESH THIS PAGE. (error_code: 50003, Read timed out.)' }, 'timeout'],
    ["FastChat's banner around a worker's CUDA failure is the server failing, not traffic", { body: '{"text": "**NETWORK ERROR DUE TO HIGH TRAFFIC. PLEASE REGENERATE OR REFRESH THIS PAGE.**\\n\\n(CUDA out of memory.)", "error_code": 50002}' }, 'server_error'],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});

describe("a breaker's pass over the twenty-ninth and thirtieth sets' families: look-alikes", () => {
  it.each([
    ['a note that spamming is against community guidelines, under a 429, is the rate limit', { status: 429, body: '{"error":{"message":"You\'re sending messages too quickly. Please wait a moment. Spamming is against our community guidelines.","type":"rate_limit"}}' }, 'rate_limit'],
    ['a traffic pattern that violates a policy against scraping, throttled, is a rate limit', { status: 429, body: '{"error":"Your traffic pattern violates our policy against automated scraping; requests from this key are throttled for 1 hour."}' }, 'rate_limit'],
    ['a moderation backend that timed out is no refusal', { status: 503, body: '{"error":"Unable to check content against our community standards: moderation backend timed out. Please retry."}' }, 'timeout'],
    ['an organisation flagged and terminated is permanent, not a refusal', { status: 403, body: '{"error":"Your organization was flagged for violence-related content and access has been terminated."}' }, 'auth_permanent'],
    ['a policy on allowed IP ranges under a 403 is auth', { status: 403, body: '{"error":{"message":"Request from 198.51.100.4 violates the policy on allowed IP ranges for this API key."}}' }, 'auth'],
    ['"no sentences were found to be toxic" beside a 500 is the server error', { body: '{"detail":"Guard \'chat-guard\' passed (no sentences were found to be toxic), but the LLM call failed: 500 Internal Server Error"}' }, 'server_error'],
    ['blocked from using a service for ten minutes is a rate limit, not a ban', { status: 429, body: '{"error":{"message":"You have been blocked from using this service for 10 minutes due to excessive requests.","type":"rate_limit"}}' }, 'rate_limit'],
    ['"if you have been blocked" under a 500 is the server error', { status: 500, body: '{"error":{"message":"Internal server error. If you have been blocked from using the API, please contact support@example.ai."}}' }, 'server_error'],
    ['"no credits have been consumed" is no billing failure', { body: "Generation failed due to an internal error. Don't worry, no credits have been consumed." }, 'server_error'],
    ['daily credits consumed that reset at midnight are no billing failure', { status: 429, body: '{"error":"Daily credits in this account have been consumed. Credits reset at 00:00 UTC."}' }, 'rate_limit'],
    ["a tool name over a validator's max length is format, not an overflow", { status: 400, body: '{"error":{"message":"Invalid \'tools[0].function.name\': string exceeds max length (64).","type":"invalid_request_error"}}' }, 'format'],
    ['a name field under a character ceiling is no overflow', { status: 422, body: '{"error":"Input validation error: `name` must have less than 64 characters. Given: 80"}' }, 'format'],
    ['"the usage limit … was not reached" beside a server error is the server error', { body: 'The usage limit for your workspace was not reached; the call failed with an internal server error.' }, 'server_error'],
    ['"check whether the usage limit … has been reached" under a 500 is the server error', { status: 500, body: '{"error":{"message":"Internal server error. Please check whether the usage limit for your project has been reached and try again."}}' }, 'server_error'],
    ["a required Authorization header under a 401 is auth", { status: 401, body: '{"error":{"message":"You must provide the \'Authorization\' header with a valid bearer token."}}' }, 'auth'],
    ['an API no longer available in a region, under a 403, is auth', { status: 403, body: '{"error":{"message":"The API is no longer available in your country or region."}}' }, 'auth'],
    ['"if your account is under review" under a 500 is the server error', { status: 500, body: '{"error":"Job failed: internal worker error. If your account is under review, jobs may also be paused."}' }, 'server_error'],
    ['"no abuse alert was raised" is no auth failure', { body: 'Job failed: an internal error occurred while rendering. No abuse alert was raised for this job; please try again.' }, 'server_error'],
    ['a consensus that could not be reached is no transport failure', { body: 'EvaluationError: consensus could not be reached between the 3 judge models after 2 rounds' }, 'unclassified'],
    ['an upstream host that could not be reached behind a 502 is the transport failure', { status: 502, body: 'Bad Gateway: upstream api.example.com could not be reached' }, 'timeout'],
    ['"if the endpoint is paused" under a 500 is the server error', { status: 500, body: '{"error":"Internal error while generating. If the endpoint is paused, resume it from the console."}' }, 'server_error'],
    ['"no system instability was detected" beside an invalid input is format', { status: 400, body: '{"message":"Invalid input request: audio sample rate must be 16000 or 24000. (No system instability was detected.)"}' }, 'format'],
    ['enough kudos but no worker is capacity, not billing', { status: 503, body: '{"message":"Your account has enough kudos, but no worker is currently available to serve model \\"Test\\". Try again later.","rc":"NoValidWorkers"}' }, 'overloaded'],
    ['a .NET one-word status name above a .NET frame states its status', { message: 'System.Net.Http.HttpRequestException: Exception: ServiceUnavailable\n   at Example.Chat.ChatClient.CompleteChatAsync(IEnumerable`1 messages)\n   at Program.Main() in /src/Program.cs:line 12' }, 'overloaded'],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});

describe("a breaker's pass over native answers, the AI SDK's printed value and the thirty-first set's families", () => {
  it.each([
    ['a Titan answer cut short is the model\'s words, not a suspended account', { status: 200, body: '{"inputTextTokenCount":9,"results":[{"tokenCount":40,"outputText":"Your API key is invalid and the account was suspended because' }, 'unclassified'],
    ['a Llama answer cut short is no billing failure', { status: 200, body: '{"generation":"Insufficient credits remain on your account, so the request was rej' }, 'unclassified'],
    ['a chat completion cut short is no overload', { status: 200, body: '{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"The model is overloaded, so please try again lat' }, 'unclassified'],
    ['an error object cut short is still that error', { status: 200, body: '{"error":{"message":"Rate limit reached for requests","type":"requests"' }, 'rate_limit'],
    ["the AI SDK's printed chunk cut mid-string is the model's words", { message: 'AI_TypeValidationError: Type validation failed: Value: {"id":"gen-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"The API key is invalid because it was revok' }, 'unclassified'],
    ['an answer with placeholders in it is read whole (its brackets close)', { body: '{\n  "candidates": [\n    {\n      "finishReason": "MAX_TOKENS",\n      "index": 0,\n      "safetyRatings": [...]\n    }\n  ]\n}' }, 'empty_response'],
    ["Hugging Face's list of generations, all blank, is an empty answer", { status: 200, body: '[{"generated_text": ""}]' }, 'empty_response'],
    ["AI21's echoed prompt is no output", { status: 200, body: '{"id":"x","prompt":{"text":"Explain insufficient_quota"},"completions":[{"data":{"text":"","tokens":[]},"finishReason":{"reason":"endoftext"}}]}' }, 'empty_response'],
    ['a PaLM prediction its safety filter blocked is a refusal', { status: 200, body: '{"predictions":[{"content":"","safetyAttributes":{"blocked":true,"errors":[253],"categories":["Violent"],"scores":[0.9]}}]}' }, 'refusal'],
    ["Cohere's toxicity stop is a refusal", { status: 200, body: '{"id":"g1","generations":[{"id":"a","text":"","finish_reason":"ERROR_TOXIC"}]}' }, 'refusal'],
    ['a 500 that says it is not the brownout is the server error', { status: 500, body: '{"error":{"message":"The server had an error while processing your request. Sorry about that! (This is not related to the scheduled retirement brownout.)","type":"server_error"}}' }, 'server_error'],
    ['a 500 linking the brownout schedule is the server error', { status: 500, body: '{"error":{"message":"The server had an error processing your request. See https://platform.openai.com/docs/deprecations for the retirement brownout schedule.","type":"server_error"}}' }, 'server_error'],
    ["a 500's internal cache version that does not exist is the server error", { status: 500, body: '{"error":{"message":"Internal error: the specified version does not exist in the routing cache; please retry.","type":"server_error"}}' }, 'server_error'],
    ["Tencent's expired signature is auth", { status: 200, body: '{"Response":{"Error":{"Code":"AuthFailure.SignatureExpire","Message":"签名过期。Timestamp 和服务器时间相差不得超过五分钟。"},"RequestId":"r3"}}' }, 'auth'],
    ["Tencent's missing secret id is auth", { status: 200, body: '{"Response":{"Error":{"Code":"AuthFailure.SecretIdNotFound","Message":"密钥不存在。请在控制台检查密钥是否已被删除或者禁用。"},"RequestId":"r"}}' }, 'auth'],
    ["Tencent's billable resource used up is billing", { status: 200, body: '{"Response":{"Error":{"Code":"ResourceInsufficient.ChargeResourceExhaust","Message":"计费资源已耗尽。"},"RequestId":"r4"}}' }, 'billing'],
    ["Hunyuan's engine frequency limit is a rate limit", { status: 200, body: '{"Response":{"Error":{"Code":"FailedOperation.EngineServerLimitExceeded","Message":"引擎层内部超过限频；请稍后重试。"},"RequestId":"r"}}' }, 'rate_limit'],
    ['a quota limit exceeded, in Chinese, is a rate limit', { body: '请求失败：超过配额限制，请稍后再试' }, 'rate_limit'],
    ["curl's SSL connect error is a transport failure", { message: 'curl: (35) OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to api.anthropic.com:443' }, 'timeout'],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});

describe('guesses and conditions name no cause (docs/policy.md), in words no corpus row uses', () => {
  it.each([
    ['a list of guesses before a refused connection: the connection decides', { message: 'Sync failed. It might be caused by an expired token, a slow network or rate limiting. Error: connect ECONNREFUSED 127.0.0.1:11434' }, 'timeout'],
    ['Chinese guesses under a 403: the status decides, not the guessed quota', { status: 403, body: '请求失败，可能是网络问题，也可能是额度用完。' }, 'auth'],
    ['a header over a list of causes with nothing else said decides nothing', { message: 'Something went wrong. Possible reasons: invalid API key, quota exhausted, model unavailable.' }, 'unclassified'],
    ['a numbered list of causes, then the quoted error: the quoted error decides', { message: 'Request failed. Possible causes: 1) the API key is invalid 2) you are out of credits\nHere is the error: 429 Too Many Requests' }, 'rate_limit'],
    ['one hedged cause is the sender’s explanation and decides', { message: 'The upstream closed the stream, probably due to rate limiting.' }, 'rate_limit'],
    ['a notice conditioned on another status under a 503: the 503 decides', { status: 503, body: 'Service Unavailable\nTip: if the status code is 401, your key is wrong.' }, 'overloaded'],
    ['a status named only in a condition is no status of the failure', { message: 'Upload failed.\nNote: if you get HTTP 413, the file is larger than the model accepts.' }, 'unclassified'],
    ['nor is a status named in a condition on the response', { message: 'Upload failed. If the response is HTTP 429, wait a minute.' }, 'unclassified'],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});

describe("the thirty-third set's families and the terminal frame, in words no corpus row uses", () => {
  it.each([
    ["a Google request field named by its path is format, with no status", {"message": "* CountTokensRequest.contents[2].parts: must not be empty"}, "format"],
    ["a prompt that was too long, said after the fact, is an overflow", {"message": "Request failed: the prompt was too long for this assistant."}, "context_overflow"],
    ["a prompt too long to process is an overflow", { status: 400, body: 'The prompt is too long to process.' }, 'context_overflow'],
    ["a prompt too long offered as a condition under a 502 is the gateway's failure", {"status": 502, "body": "Bad gateway. Retrying may help if the prompt was too long."}, "server_error"],
    ["a service account without the required permission is auth", {"message": "Service account svc@example.com does not have the required permission to call the model endpoint."}, "auth"],
    ["a model open to selected organisations only is auth", {"message": "This model is available to selected organizations only."}, "auth"],
    ["a modality a model does not take is format", {"status": 400, "body": "Audio modality is not supported by gemini-1.0-pro."}, "format"],
    ["a model that does not take fine-tuning is format", {"message": "gpt-4o-audio-preview does not support fine-tuning"}, "format"],
    ["a structured-output option switched off for a model is format", {"status": 400, "body": "json_schema is not available for this model"}, "format"],
    ["GPUs that are overheating are capacity", {"message": "Our GPUs are overheating right now, come back in a bit."}, "overloaded"],
    ["an IndexError on the first candidate is an empty answer", {"message": "Traceback (most recent call last):\n    text = response.candidates[0].content\nIndexError: list index out of range"}, "empty_response"],
    ["the same words under a 500 are the server's failure", {"status": 500, "body": "{\"detail\":\"list index out of range\"}"}, "server_error"],
    ["a server that could not encode its answer is the server's failure", {"message": "failed to marshal response: json: unsupported value: +Inf"}, "server_error"],
    ["Go's decoder refusing an unknown request field stays format", {"message": "BadRequest: json: unknown field \"prompt_cache\""}, "format"],
    ["a request without an API key is auth", {"message": "Request rejected: you did not provide an API key."}, "auth"],
    ["a terminal's frame around the error JSON is taken off: the inner error decides", {"status": 400, "body": "│ {\n│   \"error\": {\n│     \"message\": \"Invalid value for temperature: 3\",\n│     \"type\": \"invalid_request_error\"\n│   }\n│ }"}, "format"],
    ["a framed relay error carries its inner 429", {"status": 502, "body": "  │ {\n  │   \"error\": {\n  │     \"message\": \"Provider returned error\",\n  │     \"code\": 429\n  │   }\n  │ }"}, "rate_limit"],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});

describe("a breaker's pass over guesses set aside, the terminal frame and the thirty-third set's families (2026-12-07)", () => {
  it.each([
    ["single hedge then \"; retry\" (no alternative)", {"message": "Request failed, possibly due to rate limiting; retry in 30 seconds."}, "rate_limit"],
    ["single hedge, \"or\" only in a parenthetical remedy", {"message": "Request failed, likely due to an invalid API key (check or rotate it in your settings)."}, "auth"],
    ["header over ONE cause with a comma", {"message": "Possible cause: your credit balance is too low, please top up your account."}, "billing"],
    ["\"likely reason:\" one cause with comma", {"message": "Likely reason: the API key was revoked, generate a new one in the console."}, "auth_permanent"],
    ["timed out, if-persists guess after", {"message": "Request timed out. If the error persists, your API key may be invalid or your quota exhausted."}, "timeout"],
    ["narrative \"when the response was 429\"", {"message": "Upload failed when the response was 429 Too Many Requests from upstream."}, "rate_limit"],
    ["and/or alternatives", {"message": "Request failed. This may be due to an invalid API key and/or usage limits."}, "unclassified"],
    ["comma list, no \"or\"", {"message": "Request failed. This may be due to a network issue, an invalid API key, usage limits, etc."}, "unclassified"],
    ["e.g. inside the hedge", {"message": "Request failed. This may be due to high demand (e.g. peak hours) or an invalid API key."}, "unclassified"],
    ["\"might be because\"", {"message": "Request failed. This might be because your API key is invalid or you have exceeded your quota."}, "unclassified"],
    ["\"may happen if\"", {"message": "Request failed. This may happen if your API key is invalid or your credit balance is too low."}, "unclassified"],
    ["\"the cause could be X or Y\"", {"message": "Request failed. The cause could be an invalid API key or a rate limit."}, "unclassified"],
    ["\"may be related to\"", {"message": "This error may be related to an invalid API key or to rate limiting."}, "unclassified"],
    ["header then \"Provider said:\" on next line", {"message": "Possible causes: invalid API key, rate limit, or network issue.\nProvider said: your credit balance is too low."}, "billing"],
    ["header list then status line, same paragraph", {"message": "Possible reasons:\n1. Rate limit exceeded\n2. Invalid API key\nHTTP status: 500"}, "server_error"],
    ["codes in a list of guesses", {"message": "Possible causes:\n- insufficient_quota\n- rate_limit_exceeded\n- invalid_api_key"}, "unclassified"],
    ["codes in a hedge", {"message": "Request failed. This may be due to insufficient_quota or rate_limit_exceeded."}, "unclassified"],
    ["hedge swallowing quoted error after colon", {"message": "Request failed, possibly due to network issues or rate limits: 402 Insufficient credits"}, "billing"],
    ["fact after the hedge in the same sentence", {"message": "Possibly due to maintenance or high load, the service is unavailable (503)."}, "overloaded"],
    ["zh header numbered list", {"message": "可能的原因：1. API密钥错误 2. 请求过快 3. 余额不足"}, "unclassified"],
    ["zh header then quoted error 错误信息", {"message": "可能的原因：密钥错误、请求过快。错误信息：余额不足"}, "billing"],
    ["zh 也许…也许", {"message": "请求失败，也许是密钥错误，也许是请求过快"}, "unclassified"],
    ["zh condition then English error line", {"message": "如果状态码为400，请检查请求参数\nError 429: Too many requests"}, "rate_limit"],
    ["ru hedge возможно … или", {"message": "Ошибка запроса. Возможно, неверный ключ API или слишком много запросов."}, "unclassified"],
    ["\"last message was too long ago\" is a session", {"message": "Session expired: your last message was too long ago. Please start a new conversation."}, "session_expired"],
    ["\"unless the prompt was too long\" under 502", {"status": 502, "body": "Bad gateway. Retrying may help unless the prompt was too long."}, "server_error"],
    ["\"in case the input was too long\" under 502", {"status": 502, "body": "Bad gateway. Retry; in case the input was too long, shorten it."}, "server_error"],
    ["Google field path under a 500 internal error", {"status": 500, "body": "Internal error encountered while reading GenerateContentRequest.contents[0].parts."}, "server_error"],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});

/**
 * The thirty-fourth set's families (a Korean phrase table, a Japanese filter notice, pydantic validation details, duck.ai's
 * limit codes, a value bound, an unsupported image, Node's socket closed under a response, a block by a server, a
 * failure report's section headings) in other words, and their look-alikes.
 */
describe("the thirty-fourth set's families, in other words", () => {
  it.each([
    ['Korean rate limit in a different wording', { message: '요청이 너무 많습니다. 잠시 후 다시 시도하세요.' }, 'rate_limit'],
    ['Korean usage limit exceeded', { message: '사용량 한도를 초과했습니다.' }, 'rate_limit'],
    ['Korean credit shortage', { message: '크레딧이 부족합니다. 결제 정보를 확인하세요.' }, 'billing'],
    ['Korean invalid API key', { message: 'API 키가 유효하지 않습니다.' }, 'auth'],
    ['Korean model not found', { message: '모델을 찾을 수 없습니다: gpt-5-foo' }, 'model_not_found'],
    ['Korean context window exceeded', { message: '컨텍스트 길이를 초과했습니다. 대화를 줄여 주세요.' }, 'context_overflow'],
    ['Korean timeout', { message: '요청 시간이 초과되었습니다.' }, 'timeout'],
    ['Korean overload', { message: '서버 과부하로 요청을 처리할 수 없습니다.' }, 'overloaded'],
    ['Korean internal server error', { message: '내부 서버 오류가 발생했습니다.' }, 'server_error'],
    ['Korean answer filtered by the content policy', { message: '콘텐츠 정책에 의해 응답이 차단되었습니다.' }, 'refusal'],
    ['Korean: a blocked request without a safety policy is no refusal', { status: 403, message: '요청이 차단되었습니다.' }, 'auth'],
    ['Japanese answer filtered', { message: 'この応答はコンテンツ フィルターによってフィルター処理されました。' }, 'refusal'],
    ['pydantic v1 validation detail from a FastAPI server', { body: '{"detail":[{"loc":["body","temperature"],"msg":"ensure this value is less than or equal to 2","type":"value_error.number.not_le"}]}' }, 'format'],
    ['pydantic v2 message in a repr', { message: "{'detail': [{'type': 'missing', 'loc': ('body', 'model'), 'msg': 'Field required'}]}" }, 'format'],
    ['"Input should be a valid integer"', { message: 'messages.0.content: Input should be a valid integer' }, 'format'],
    ['a FastAPI 404 detail is no validation', { status: 404, body: '{"detail":"Not Found"}' }, 'model_not_found'],
    ['duck.ai conversation limit without its status', { body: '{"action":"error","type":"ERR_CONVERSATION_LIMIT"}' }, 'rate_limit'],
    ['a value bound on a request field', { message: 'Invalid request: top_k must be positive' }, 'format'],
    ['"must be positive" under a 500 is the server\'s failure', { status: 500, body: 'internal error: batch_size must be positive' }, 'server_error'],
    ['an unsupported image format', { message: 'Unsupported image format: image/heic' }, 'format'],
    ["Node's aborted read from a plain socket", { message: 'Error: aborted\n    at Socket.socketCloseListener (node:_http_client:461:19)' }, 'timeout'],
    ['a user who aborted is still an abort', { message: 'Request aborted by the user' }, 'abort'],
    ['blocked by the host under a 403', { status: 403, body: 'Your request was blocked by the host.' }, 'auth'],
    ['blocked by the provider\'s safety system is still a refusal', { message: 'The response was blocked by the safety system.' }, 'refusal'],
    ['a formatted answer still reads as the model\'s words', { status: 200, body: '## Pricing\n\nYour credits are low.\n\n## Next steps\n\nBuy more credits.' }, 'unclassified'],
    ['an error report with section headings reads its error line', { body: 'RateLimitError: Rate limit reached for requests\n\n### Traceback\n```\nFile "x.py"\n```\n### Logs\nnone' }, 'rate_limit'],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});

/** A breaker's pass over the thirty-fourth set's families (2026-12-07): what it found wrong, fixed. */
describe("a breaker's pass over the thirty-fourth set's families", () => {
  it.each([
    ['Korean adjective before the key', { message: '잘못된 API 키입니다.' }, 'auth'],
    ['Korean "invalid API key" in the other order', { message: '유효하지 않은 API 키입니다.' }, 'auth'],
    ['Korean permission denied', { message: '이 리소스에 대한 권한이 거부되었습니다.' }, 'auth'],
    ['Korean access denied', { message: '액세스가 거부되었습니다' }, 'auth'],
    ['Korean quota exceeded', { message: '할당량을 초과했습니다' }, 'rate_limit'],
    ['Korean credits used up', { message: '크레딧이 모두 소진되었습니다' }, 'billing'],
    ['Japanese "filtering" form', { message: '回答がフィルタリングされました。' }, 'refusal'],
    ["Node's aborted with connResetException between", { message: 'Error: aborted\n    at connResetException (node:internal/errors:720:14)\n    at TLSSocket.socketCloseListener (node:_http_client:455:19)' }, 'timeout'],
    ['a balance that must be positive is billing', { status: 402, body: 'Your credit balance must be positive to make requests.' }, 'billing'],
    ['the same without a status', { message: 'Your credit balance must be positive to make requests.' }, 'billing'],
    ['a request model validation is format, not an empty answer', { message: '1 validation error for ChatCompletionRequest\nmessages.0.content\n  Input should be a valid string [type=string_type, input_value=None, input_type=NoneType]' }, 'format'],
    ['German "if the error persists" sets its guesses aside', { status: 504, body: 'Gateway Timeout. Falls der Fehler weiterhin besteht, ist der API key ungültig oder ein rate limit erreicht.' }, 'timeout'],
    ['French "si l\'erreur persiste" too', { status: 504, body: "Gateway Timeout. Si l'erreur persiste, la clé API est invalide ou le rate limit est atteint." }, 'timeout'],
    ['a Portuguese list of causes ends at "Erro:"', { message: 'Possíveis causas: chave inválida, limite de uso.\nErro: The model `gpt-9` does not exist' }, 'model_not_found'],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});

/** The thirty-fifth set's families in other words, and their look-alikes. */
describe("the thirty-fifth set's families, in other words", () => {
  it.each([
    ['a node that is unavailable', { message: 'Error: node is currently unavailable, try another one' }, 'overloaded'],
    ['"if the domain is unavailable" is a condition, not a report', { message: 'If the domain is unavailable, pick another node.' }, 'unclassified'],
    ['credits that are insufficient, under a 403', { status: 403, body: '{"error":{"message":"Your credits are insufficient"}}' }, 'billing'],
    ['the insufficient_credit type alone', { body: '{"error":{"type":"insufficient_credit","message":"denied"}}' }, 'billing'],
    ['a quoted structured-output type that is unavailable', { message: "response_format.type 'json_object' is unavailable now" }, 'format'],
    ["axum's body rejection", { status: 422, body: 'Failed to deserialize the JSON body into the target type: messages[0]: missing field `role`' }, 'format'],
    ['a hard content size cap', { message: 'Maximum content size limit (10485760) exceeded (10486000 bytes read)' }, 'context_overflow'],
    ['choices that are not iterable in a JavaScript client', { message: 'TypeError: data.choices is not iterable' }, 'empty_response'],
    ['the same under a 500 is the server\'s failure', { status: 500, message: 'TypeError: data.choices is not iterable' }, 'server_error'],
    ["Go's default 404 body after a logger's prefix", { message: 'ERROR:translator:404 page not found' }, 'model_not_found'],
    ['WinError 10049 is a connection that could not be made', { message: '[WinError 10049] The requested address is not valid in its context' }, 'timeout'],
    ['a prompt blocked for another reason', { message: 'This appears to be caused by a blocked prompt, see response.prompt_feedback: block_reason: OTHER' }, 'refusal'],
    ['an unspecified block reason is no refusal', { message: 'prompt_feedback: block_reason: BLOCK_REASON_UNSPECIFIED' }, 'unclassified'],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});

/** A breaker's pass over the thirty-fifth set's families (2026-12-07): look-alikes it found, fixed. */
describe("a breaker's pass over the thirty-fifth set's families", () => {
  it.each([
    ['a domain taken at a registrar', { status: 200, body: '{"domain":"mybot.ai","available":false,"message":"Domain is unavailable for purchase"}' }, 'unclassified'],
    ['a domain name to choose again', { message: 'This domain is unavailable, choose another name' }, 'unclassified'],
    ['a DNS answer', { message: 'DNS lookup: domain is unavailable (NXDOMAIN)' }, 'unclassified'],
    ['a named model unavailable for now', { message: 'The model `deepseek-reasoner` is unavailable now, please try again later' }, 'overloaded'],
    ['a named model unavailable in a region is a region refusal, no overload', { message: "The model 'gemini-x' is unavailable in your region" }, 'format'],
    ['block_reason none', { message: 'prompt_feedback: block_reason: none, finish_reason: STOP' }, 'unclassified'],
    ['block_reason null', { message: 'block_reason: null' }, 'unclassified'],
    ["Python's printed enum default", { message: 'prompt_feedback: block_reason: BlockReason.BLOCK_REASON_UNSPECIFIED' }, 'unclassified'],
    ['"block_reason:" repeated', { message: 'block_reason: '.repeat(2000) }, 'unclassified'],
    ['a named block reason in the printed enum', { message: 'prompt_feedback: block_reason: BlockReason.SAFETY' }, 'refusal'],
    ['a 200 answer whose feedback says the default block reason', { status: 200, body: '{"candidates":[{"content":{"parts":[{"text":"Sure, here it is."}]},"finishReason":"STOP"}],"promptFeedback":{"blockReason":"BLOCK_REASON_UNSPECIFIED"}}' }, 'unclassified'],
    ['Japanese output filtered for safety', { message: '安全上の理由により、出力がフィルタリングされました。' }, 'refusal'],
    ['Japanese content filtered', { message: 'コンテンツがフィルタリングされました' }, 'refusal'],
    ['Japanese logs filtered are no refusal', { message: 'ログはフィルタリングされました' }, 'unclassified'],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});

/** The thirty-sixth set's families in other words, and their look-alikes. */
describe("the thirty-sixth set's families, in other words", () => {
  it.each([
    ["a Python dict's timeout setting beside a missing model", { message: "config={'model': 'gemini-pro', 'timeout': 7} error=litellm.NotFoundError: VertexAIException" }, 'model_not_found'],
    ['a timeout setting of None', { message: "settings {'timeout': None, 'retries': 2}: Invalid API key provided" }, 'auth'],
    ['a timeout that happened is still one', { message: "request {'model': 'x'} failed: Request timed out." }, 'timeout'],
    ["google-api-core's 504 Deadline Exceeded before a server's own 400 access-log line", { message: "GoogleGenerativeAIError('Error embedding content: 504 Deadline Exceeded')\nINFO: 10.0.0.1:1 - \"PUT /embedder/settings HTTP/1.1\" 400 Bad Request" }, 'timeout'],
    ["Stability's engine that was not found", { message: 'Error: The specified engine (ID stable-diffusion-v1) was not found.' }, 'model_not_found'],
    ['an engine with an id that does not exist', { message: "Engine with id 'davinci-old' does not exist" }, 'model_not_found'],
    ['a search engine not found is no model', { message: 'search engine not found in settings' }, 'unclassified'],
    ["a model the account's plan does not include", { message: 'The model is not available for your account. Choose another model.' }, 'model_not_found'],
    ['a model that produced no usable output after reasoning', { message: 'The model hit its output limit while reasoning and produced no usable output.' }, 'empty_response'],
    ['no response data from a local runtime', { message: 'Error: No response data from Ollama API' }, 'empty_response'],
    ['a context that is too long', { message: 'ERROR - CONTEXT IS TOO LONG ERROR' }, 'context_overflow'],
    ['"if the context is too long" is a condition', { message: 'Hint: if the context is too long, trim the history.' }, 'unclassified'],
    ['a model that declines in its own words', { status: 200, body: '{"response": "I apologize, but I do not feel comfortable translating this content."}' }, 'refusal'],
    ['a user who does not feel comfortable is no refusal', { message: 'If you do not feel comfortable sharing your key, use an environment variable.' }, 'unclassified'],
    ["Ollama's runner lost under a request", { message: 'Error: POST predict: Post "http://127.0.0.1:41401/completion": EOF' }, 'server_error'],
    ["Ollama's runner socket reset on Windows", { message: 'POST predict: Post "http://127.0.0.1:5050/completion": read tcp 127.0.0.1:5051->127.0.0.1:5050: wsarecv: An existing connection was forcibly closed by the remote host.' }, 'server_error'],
    ['the same call cancelled by its caller is an abort', { message: 'POST predict: Post "http://127.0.0.1:41401/completion": context canceled' }, 'abort'],
    ["another Go client's EOF stays a transport failure", { message: 'Post "https://api.openai.com/v1/chat/completions": EOF' }, 'timeout'],
    ['a chat model called on the completions endpoint', { message: 'OpenAI error: This is a chat model and not supported in the v1/completions endpoint. Did you mean to use v1/chat/completions?' }, 'format'],
    ["Java's ConnectException", { message: '响应聊天信息时发生错误：java.net.ConnectException' }, 'timeout'],
    ["Java's NoRouteToHostException", { message: 'java.net.NoRouteToHostException: No route to host' }, 'timeout'],
    ['a class named after the exception is no transport failure', { message: 'ConnectExceptionHandler registered' }, 'unclassified'],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});

/**
 * A vocabulary pass (2026-12-07): a tester who had not read the rules wrote failures in the long tail of wordings for
 * every reason and look-alikes that name none; the wordings real systems print that nothing matched, fixed.
 */
describe('a vocabulary pass, in the long tail of wordings', () => {
  it.each([
    ['parallel requests over a key\'s cap', { message: 'Exceeded the maximum number of parallel requests (4) allowed for your API key' }, 'rate_limit'],
    ['messages sent too fast', { message: "You're sending messages too fast. Please wait a moment before trying again." }, 'rate_limit'],
    ['a call frequency that is too high', { message: 'API call frequency too high, please reduce your request rate' }, 'rate_limit'],
    ['more requests than the systems can handle', { message: 'Our systems are receiving more requests than they can handle right now.' }, 'overloaded'],
    ['an unexpected error on the provider\'s end', { message: 'An unexpected error occurred on our end. Please retry your request.' }, 'server_error'],
    ['a local server that segfaulted', { message: 'llama-server segfaulted; the model process died during decoding' }, 'server_error'],
    ['a monthly budget reached', { message: 'Your organization has reached its monthly budget. Raise the budget in billing settings to continue.' }, 'billing'],
    ['an overdue invoice', { message: 'Invoice overdue: API access is paused until the outstanding amount is settled.' }, 'billing'],
    ['an empty wallet', { message: 'Wallet balance is zero. Recharge to resume service.' }, 'billing'],
    ['a key the caller supplied that is not valid', { message: 'The API key you supplied is not valid.' }, 'auth'],
    ["Google IAM's permission denied on a resource", { message: "Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/projects/demo'" }, 'auth'],
    ['a suspension for a policy violation is the ban, no refusal', { message: 'Account suspended due to a violation of our usage policies' }, 'auth_permanent'],
    ['an archived workspace', { message: 'Your workspace has been archived; API keys in it no longer work.' }, 'auth_permanent'],
    ['an organisation that does not allow API keys', { message: 'This organization does not allow API key authentication; use SSO-issued credentials.' }, 'auth_permanent'],
    ['personal access tokens refused by an organisation', { message: "Personal access tokens are not permitted by your organization's policy." }, 'auth_permanent'],
    ['access terminated for good is no dropped connection', { message: 'Access to this API has been permanently terminated for your account' }, 'auth_permanent'],
    ['a stream terminated is still a dropped connection', { message: 'TypeError: terminated' }, 'timeout'],
    ['Ollama pulling a name the registry lacks', { message: 'Error: pull model manifest: file does not exist' }, 'model_not_found'],
    ['a model a server does not serve', { message: "Model 'qwen2.5-coder-32b' is not available on this server" }, 'model_not_found'],
    ['a model no lookup finds', { message: "Cannot find model with id 'deepseek-r2'" }, 'model_not_found'],
    ['a camel-case modelNotFound code and an unrecognised name', { message: 'modelNotFound: the specified model name is unrecognized' }, 'model_not_found'],
    ['a model identifier that is not valid, contracted', { message: "The model identifier you provided isn't valid." }, 'model_not_found'],
    ["Mistral's tool-call id rule", { message: 'Tool call id was call_abc123def but must be a-z, A-Z, 0-9, with a length of 9.' }, 'format'],
    ['a structured-output schema refused', { message: "'response_format.json_schema' is invalid: the schema must be of type object at the top level" }, 'format'],
    ["vLLM's prompt too long to fit", { message: 'ValueError: The prompt (total length 25938) is too long to fit into the model (context length 4096).' }, 'context_overflow'],
    ['a conversation that no longer fits', { message: "Too many tokens: the conversation no longer fits in the model's context" }, 'context_overflow'],
    ['a message history too long', { message: 'Message history is too long for this model; please start a new chat.' }, 'context_overflow'],
    ["a prompt's tokens over what the model supports", { message: 'Error: token limit exceeded - prompt contains 140k tokens, the model supports 128k' }, 'context_overflow'],
    ["Gemini's SPII stop in prose", { message: 'The token generation was stopped because the response was flagged for Sensitive Personally Identifiable Information (SPII).' }, 'refusal'],
    ['an AI that refused to respond', { message: 'The AI refused to respond because the request conflicts with its usage policies' }, 'refusal'],
    ['an empty assistant message', { message: 'Assistant message was empty' }, 'empty_response'],
    ["Go's nil content and no tool calls", { message: 'chat completion message has nil content and no tool calls' }, 'empty_response'],
    ['a conversation the server no longer knows', { message: 'conversation_id conv_9f2 is unknown or has been deleted' }, 'session_expired'],
    ['a session to resume that is gone', { message: 'Resume failed: session abc123 does not exist on the server' }, 'session_expired'],
    ['a stored response since purged', { message: 'Response resp_123 is no longer stored; it may have been purged' }, 'session_expired'],
    ['a session that has ended', { message: 'Session has ended. Create a new session to continue.' }, 'session_expired'],
    ['a settings dump names no limit that was hit', { message: 'rate_limit_per_minute: 60\nmax_concurrency: 4\ntimeout_seconds: 120' }, 'unclassified'],
    ["a KeyError's name is no rate limit", { message: "KeyError: 'rate_limit'" }, 'unclassified'],
    ['a rate_limited flag still is one', { body: '{"error":{"rate_limited":true,"message":"slow down"}}' }, 'rate_limit'],
    ['a command-line flag is no time-out', { message: '  --timeout <ms>        Abort the request if no response arrives within <ms> (default 60000)' }, 'unclassified'],
    ['a deprecated option in backticks is no time-out', { message: 'warning: the `timeout` option is deprecated, use `requestTimeoutMs` instead' }, 'unclassified'],
    ['a hint on a model that is not found', { message: 'If the model is not found, pull it first with `ollama pull <name>`.' }, 'unclassified'],
    ['a hint on hitting a rate limit', { message: 'Tip: when you hit a rate limit, wait a minute and try again.' }, 'unclassified'],
    ['a hint on a quoted message', { message: "If you see 'model not found', check the spelling of the model name in settings." }, 'unclassified'],
    ['a stated fact before such a hint still decides', { message: "Model 'x' not found. If the model is not found, pull it first." }, 'model_not_found'],
    ['a remedy in an if-sentence still names its cause', { status: 403, body: "{'error': {'message': 'The free tier of the model has been exhausted. If you wish to continue access the model on a paid basis, please disable the free-tier-only mode.'}}" }, 'billing'],
    ["the operating system's disk quota", { message: 'write /var/cache/app/blob-91a: disk quota exceeded' }, 'unclassified'],
    ['an enum member printed with its number is still a code', { message: "status=<AlternativeStatus.CONTENT_FILTER: 4>" }, 'refusal'],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});

/** A breaker's pass over the thirty-sixth set's families (2026-12-07): look-alikes and variants it found, fixed. */
describe("a breaker's pass over the thirty-sixth set's families", () => {
  it.each([
    ['a named model that produced no actionable output', { message: 'The model gemini-2.5-flash produced no actionable output.' }, 'empty_response'],
    ['a quoted model not available for an account', { status: 400, body: 'The model `gpt-4o-realtime` is not available for your account.' }, 'model_not_found'],
    ["Ollama's runner reset on Linux", { message: 'POST predict: Post "http://127.0.0.1:41401/completion": read tcp 127.0.0.1:41402->127.0.0.1:41401: read: connection reset by peer' }, 'server_error'],
    ["Ollama's runner gone with an unexpected EOF", { message: 'POST predict: Post "http://127.0.0.1:41401/completion": unexpected EOF' }, 'server_error'],
    ["Ollama's runner refusing the connection", { message: 'POST predict: Post "http://127.0.0.1:41401/completion": dial tcp 127.0.0.1:41401: connect: connection refused' }, 'server_error'],
    ["Ollama's runner lost while loading", { message: 'do load request: Post "http://127.0.0.1:41401/load": EOF' }, 'server_error'],
    ['an access log before the provider\'s 504', { message: 'INFO:     127.0.0.1:5000 - "POST /embed HTTP/1.1" 500 Internal Server Error\nGoogleGenerativeAIError(\'Error embedding content: 504 Deadline Exceeded\')' }, 'timeout'],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});

/** The thirty-seventh set's families in other words, and their look-alikes. */
describe("the thirty-seventh set's families, in other words", () => {
  it.each([
    ["an app's access-log 500 beside a connection it could not make", { message: 'INFO:     127.0.0.1:11643 - "GET /v1/ollama/tags HTTP/1.1" 500 Internal Server Error\nServer Error: All connection attempts failed' }, 'timeout'],
    ['an access log alone still states its status', { message: 'INFO: 127.0.0.1:5000 - "POST /chat/completions HTTP/1.1" 429 Too Many Requests' }, 'rate_limit'],
    ['a request over the token limit', { message: 'This request has exceeded your token limit.' }, 'context_overflow'],
    ['not allowed to sample from a model', { message: 'Error: You are not allowed to sample from this model' }, 'model_not_found'],
    ['an account not active pending billing details', { message: 'Your account is not active, please check your billing details on our website.' }, 'billing'],
    ["Go refusing a malformed Authorization header", { message: 'Post "https://api.openai.com/v1/chat/completions": net/http: invalid header field value for "Authorization"' }, 'auth'],
    ['a wrong API key', { message: '非OpenAI官方接口返回了错误:wrong api key' }, 'auth'],
    ['an input (or history) too long', { message: '[Local Message] Input (or history) is too long, please reduce input.' }, 'context_overflow'],
    ['"if the input (or history) is too long" is a condition', { message: 'Hint: if the input (or history) is too long, clear it.' }, 'unclassified'],
    ['a HEAD request\'s access-log reply is read like the others', { message: 'INFO: 10.0.0.1:1 - "HEAD /v1/models HTTP/1.1" 503 Service Unavailable\nServer Error: All connection attempts failed' }, 'timeout'],
    ['a text-only model sent images', { message: 'The model is not a VLM (Vision Language Model). Please use text-only prompts.' }, 'format'],
    ['no image found in an answer', { message: 'ValueError: No image found in API response. Response had 1 parts but none contained valid images.' }, 'empty_response'],
    ["Go's EOF after a failed call", { message: '[NodeRunError] failed to generate summary: failed to create chat completion: EOF' }, 'timeout'],
    ['an empty body read as JSON stays an empty answer', { message: 'Error: failed to parse response: EOF while parsing a value at line 1 column 0' }, 'empty_response'],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});

/** A breaker's pass over the vocabulary pass and the thirty-seventh set's families (2026-12-07): what it found, fixed. */
describe("a breaker's pass over the vocabulary pass", () => {
  it.each([
    ['a wallet that is empty', { message: 'Your wallet is empty. Please recharge.' }, 'billing'],
    ['a monthly budget reached, said the other way round', { message: 'Monthly budget reached for this workspace' }, 'billing'],
    ['an account that has been terminated', { message: 'Your account has been terminated for violating the terms.' }, 'auth_permanent'],
    ['an API key that has been terminated', { message: 'This API key has been terminated.' }, 'auth_permanent'],
    ['a connection that was terminated stays a dropped connection', { message: 'Error: the connection was terminated unexpectedly' }, 'timeout'],
    ["a KeyError's timeout is no time-out", { message: "KeyError: 'timeout'" }, 'unclassified'],
    ["a missing attribute named timeout is no time-out", { message: "AttributeError: 'Config' object has no attribute 'timeout'" }, 'unclassified'],
    ["Ollama's runner that stopped unexpectedly", { status: 500, body: '{"error":"model runner has unexpectedly stopped, this may be due to resource limitations or an internal error, check ollama server logs for details"}' }, 'server_error'],
    ['a storage quota is no provider limit', { message: 'upload failed: storage quota exceeded for bucket' }, 'unclassified'],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});

/** The phrases the thirty-eighth set found missing (2026-12-08), and the look-alikes they must leave alone. */
describe("the thirty-eighth set's phrases", () => {
  it.each([
    ['a service down for maintenance', { message: 'The API is down for scheduled maintenance.' }, 'overloaded'],
    ['maintenance offered as a condition decides nothing', { message: 'Check the status page if the server is down for maintenance.' }, 'unclassified'],
    ["an OS error's invalid argument is no bad request", { message: 'OSError: [Errno 22] Invalid argument' }, 'unclassified'],
    ["a provider's invalid argument stays a bad request", { status: 400, body: '{"error":{"message":"Invalid argument: temperature must be between 0 and 2"}}' }, 'format'],
    ['a Korean answer cut at the context limit', { message: '응답이 컨텍스트 한도에서 잘렸습니다. 설정에서 늘려 주세요.' }, 'context_overflow'],
    ['an embedded client that could not open a connection', { message: 'E (120) transport_base: Failed to open a new connection' }, 'timeout'],
    ['an API key not configured, in Chinese', { message: '配置错误: API key 未配置' }, 'auth'],
    ['an abort signal without a reason', { message: 'Request failed: signal is aborted without reason' }, 'abort'],
    ["a provider's server that met an error", { message: 'The server encountered an internal error. Please retry.' }, 'server_error'],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});

/** The phrases the thirty-ninth set found missing (2026-12-08), and the look-alikes they must leave alone. */
describe("the thirty-ninth set's phrases", () => {
  it.each([
    ['a text said to be too long', { message: 'The text you provided is too long. Please shorten it.' }, 'context_overflow'],
    ['a text too long offered as a condition decides nothing', { message: 'Tip: if the text you provided is too long, split it first.' }, 'unclassified'],
    ['an Ollama model without fill-in-the-middle', { status: 400, body: '{"error":"registry.ollama.ai/library/llama3:latest does not support insert"}' }, 'format'],
    ['a model without embeddings', { status: 400, body: '{"error":"\\"llama3\\" does not support embeddings"}' }, 'format'],
    ["Envoy's no healthy upstream", { message: 'no healthy upstream' }, 'overloaded'],
    ['a router that tried every pod, under a 404', { status: 404, body: 'request to all pods failed' }, 'overloaded'],
    ["llama.cpp's failed assertion", { message: 'GGML_ASSERT: /llama.cpp/ggml/src/ggml.c:4512: view_src == NULL' }, 'server_error'],
    ["a failed ggml assertion in a file and line", { message: 'llama.cpp/ggml.c:9067: assert(!isnan(x)) failed' }, 'server_error'],
    ['a request-body field missing, as a Python repr', { message: "{'type': 'missing', 'loc': ('body', 'messages'), 'msg': 'Field required'}" }, 'format'],
    ["a response's field missing is the client's parsing, no bad request", { message: "{'type': 'missing', 'loc': ('response', 'choices'), 'msg': 'x'}" }, 'unclassified'],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});

/** A breaker's pass over the thirty-eighth set's phrases (2026-12-08): what it found, fixed. */
describe("a breaker's pass over the thirty-eighth set's phrases", () => {
  it.each([
    ['maintenance announced for later is no outage now', { status: 429, body: 'Too many requests. The service will be down for maintenance at 02:00 UTC.' }, 'rate_limit'],
    ['maintenance announced beside an overflow leaves the overflow', { message: "This model's maximum context length is 8192 tokens. The API will be down for maintenance on Sunday." }, 'context_overflow'],
    ['maintenance that is over is no outage now', { message: 'Invalid API key. (The API was down for maintenance earlier today.)' }, 'auth'],
    ['maintenance denied is none', { message: 'Rate limit exceeded. The API is not down for maintenance.' }, 'rate_limit'],
    ['"will be under maintenance" is an announcement', { status: 401, body: 'Invalid API key. The platform will be under maintenance on Sunday.' }, 'auth'],
    ['"the server encountered an error" under a 429 leaves the rate limit', { status: 429, body: 'The server encountered an error.' }, 'rate_limit'],
    ['"the server encountered an error" under a 401 leaves the key', { status: 401, body: 'The server encountered an error.' }, 'auth'],
    ['an abort signal offered as a condition decides nothing', { message: 'Request failed. If the signal is aborted without reason, check your client.' }, 'unclassified'],
    ['a server error offered as a condition decides nothing', { message: 'Request failed. If the server encountered an error, retry later.' }, 'unclassified'],
    ['a connection offered as a condition decides nothing', { message: 'Request failed. If it failed to open a new connection, check your proxy.' }, 'unclassified'],
    ["an OS error's EINVAL in other spellings is no bad request", { message: "EINVAL: invalid argument, open '/tmp/x'" }, 'unclassified'],
    ["Python's OSError repr is no bad request", { message: "OSError(22, 'Invalid argument')" }, 'unclassified'],
    ['a hedge ends at a colon before "HTTP 401"', { message: 'This may be due to a network issue or rate limits: HTTP 401' }, 'auth'],
    ['every "Possible causes:" of a retry log is set aside', { message: 'Attempt 1 failed. Possible causes: invalid API key or network issue. Attempt 2 failed. Possible causes: invalid API key or rate limit exceeded.' }, 'unclassified'],
  ] satisfies RuleCase[])('%s', (...row) => expectRuleCase(row));
});
