import { describe, expect, it } from 'vitest';
import { REASON_POLICY } from '../../policy.js';
import { expectRuleCase, explain } from '../../test-support/classify.js';
import type { RuleCase } from '../../test-support/classify.js';

describe('timeouts and transport (docs/policy.md#failover-reasons: time or transport is a timeout)', () => {
  const cases: RuleCase[] = [
    ['a 408 is a timeout', { status: 408, body: '' }, 'timeout', 'status.408'],
    ['a 504 is a timeout', { status: 504, body: 'Gateway Timeout' }, 'timeout'],
    ['a 524 is a timeout', { status: 524, body: 'error code: 524' }, 'timeout', 'status.524'],
    ['a reset connection is a timeout', { message: 'read ECONNRESET' }, 'timeout', 'text.transport'],
    ['a refused connection is a timeout', { code: 'ECONNREFUSED' }, 'timeout', 'transport.econnrefused'],
    ['undici connect timeouts are timeouts', { code: 'UND_ERR_CONNECT_TIMEOUT' }, 'timeout', 'undici.transport'],
    ['a stream that disconnected before completion is a timeout', { body: 'stream disconnected before completion' }, 'timeout', 'text.transport'],
    ['an SDK timeout error is a timeout', { body: 'openai.APITimeoutError: Request timed out.' }, 'timeout'],
    ['seed: "Provider finish_reason: abort" is transport-shaped: timeout', { message: 'Provider finish_reason: abort' }, 'timeout', 'finish_reason.abort'],
    ['seed: "Provider finish_reason: malformed_response" is timeout', { message: 'Provider finish_reason: malformed_response' }, 'timeout', 'finish_reason.malformed_response'],
    ['seed: the bare "An unknown error occurred" is failover-worthy', { message: 'An unknown error occurred' }, 'timeout', 'text.unknown_error_occurred'],
    ['"aborted due to timeout" is a timeout, not an abort', { message: 'The operation was aborted due to timeout' }, 'timeout', 'text.timeout'],
    ['Safari\'s "TypeError: Load failed" is a transport failure', { message: 'TypeError: Load failed' }, 'timeout', 'text.transport'],
    ['a "Failed to load model" is no fetch failure', { message: 'Failed to load model: out of memory' }, 'server_error'],
    ['errno names count as whole words only: ResourceNotFoundException holds no ENOTFOUND', { body: 'An error occurred (ResourceNotFoundException) when calling the InvokeModel operation' }, 'model_not_found'],
    ['a lone ENOTFOUND is still a transport failure', { message: 'getaddrinfo ENOTFOUND api.example.com' }, 'timeout', 'text.transport'],
    ['Russian words for an expired wait are a timeout', { message: 'Ошибка: превышено время ожидания ответа' }, 'timeout', 'text.timeout'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('timeouts cool down the model, not the whole profile', () => {
    expect(explain({ code: 'ETIMEDOUT' }).cooldownScope).toBe('model');
  });
});

describe('server errors (docs/policy.md#failover-reasons: the provider\'s own failure)', () => {
  const cases: RuleCase[] = [
    ['a 500 is a server error and its status is kept', { status: 500, body: '' }, 'server_error', 'status.500'],
    ['a 502 is a server error', { status: 502, body: '' }, 'server_error', 'status.502'],
    ['a 520 is a server error', { status: 520, body: '' }, 'server_error', 'status.520'],
    ['seed: "Unhandled stop reason: error" is a server error, not a timeout', { message: 'Unhandled stop reason: error' }, 'server_error', 'finish_reason.error'],
    ['seed: "stop reason: error" is a server error', { message: 'stop reason: error' }, 'server_error', 'finish_reason.error'],
    ['seed: "reason: error" is a server error', { message: 'reason: error' }, 'server_error', 'text.finish_reason_error'],
    ['seed: "Provider finish_reason: error" is a server error', { message: 'Provider finish_reason: error' }, 'server_error', 'finish_reason.error'],
    ['an api_error with "internal server error" text is a server error', { body: '{"type":"error","error":{"type":"api_error","message":"Internal server error"}}' }, 'server_error', 'text.server_error'],
    ['an api_error with "upstream error" text is a server error', { body: '{"type":"error","error":{"type":"api_error","message":"upstream error"}}' }, 'server_error', 'text.server_error'],
    ['an api_error in Anthropic\'s own words ("unexpected error … while processing") is a server error', { body: '{"type":"error","error":{"type":"api_error","message":"An unexpected error occurred while processing the response"}}' }, 'server_error', 'text.server_error'],
    ['a model\'s malformed tool call (Gemini MALFORMED_FUNCTION_CALL) is not a request refused again: not format', { message: 'Unhandled stop reason: MALFORMED_FUNCTION_CALL' }, 'unclassified', 'unclassified'],
    ['an api_error type alone names no cause: its text decides, here nothing', { body: '{"type":"error","error":{"type":"api_error","message":"invalid input format"}}' }, 'unclassified', 'unclassified'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('a 500 keeps status 500 even though recovery treats it as transient', () => {
    const result = explain({ status: 500, body: 'upstream connect error or disconnect/reset before headers' });
    expect(result.status).toBe(500);
    expect(REASON_POLICY[result.reason].advancesFallback).toBe(true);
  });
});

describe('aborts (seed: explicit aborts that are not timeout-shaped do not continue)', () => {
  const cases: RuleCase[] = [
    ['an SDK user abort is an abort', { body: 'Error: Request was aborted.' }, 'abort', 'text.abort'],
    ['an exception class that glues the phase to "timeout" is a timeout', { message: 'httpcore.ConnectTimeout: [Errno 110]' }, 'timeout', 'text.timeout'],
    ['a Java SocketTimeoutException is a timeout', { message: 'java.net.SocketTimeoutException: Read failed' }, 'timeout', 'text.timeout'],
    ['a Python KeyboardInterrupt is the user stopping the run', { message: 'Traceback (most recent call last):\n  ...\nKeyboardInterrupt' }, 'abort', 'text.abort'],
    ["a Go caller's cancelled context is an abort", { message: 'Post "http://localhost:11434/api/chat": context canceled' }, 'abort', 'text.abort'],
    ['a Go deadline is a timeout, not an abort', { message: 'Post "https://api.example.com/v1/chat": context deadline exceeded' }, 'timeout', 'text.timeout'],
    ['an AbortError behind a "stream error" wrapper is an abort', { body: 'LLM stream error {"error":"AbortError: This operation was aborted"}' }, 'abort', 'text.abort'],
    ['abortCause "user" is an abort whatever the text says', { abortCause: 'user', message: 'socket hang up' }, 'abort', 'abort.user'],
    ['abortCause "timeout" is a timeout', { abortCause: 'timeout', message: 'This operation was aborted' }, 'timeout', 'abort.timeout.request'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('an abort ends the turn', () => {
    expect(REASON_POLICY.abort.advancesFallback).toBe(false);
  });
});

describe('empty answers, missing details, unclassified (seed: "Model fallback")', () => {
  const cases: RuleCase[] = [
    ['an empty body without status is empty_response', { body: '' }, 'empty_response', 'empty.no_body'],
    ['a 200 completion with no choices is empty_response', { status: 200, body: '{"id":"x","choices":[],"usage":null}' }, 'empty_response', 'completion.empty'],
    ['a 200 completion whose only choice has no text is empty_response', { status: 200, body: '{"choices":[{"message":{"role":"assistant","content":""},"finish_reason":"stop"}]}' }, 'empty_response', 'completion.empty'],
    ['a Gemini response with neither candidates nor feedback is empty_response', { status: 200, body: '{"usageMetadata":{"promptTokenCount":9}}' }, 'empty_response', 'completion.empty'],
    ['a completion with a tool call is not empty', { status: 200, body: '{"choices":[{"message":{"content":null,"tool_calls":[{"id":"t"}]},"finish_reason":"tool_calls"}]}' }, 'unclassified', 'unclassified'],
    ['an SDK repr with empty text is empty_response', { status: 200, body: "CompletionOutput(index=0, text='', token_ids=[], finish_reason=length)" }, 'empty_response', 'text.empty_response'],
    ['zero generated text reported as a JSON parse failure is empty_response', { body: 'model=auto textLen=0 error=No JSON structure found in LLM response' }, 'empty_response', 'text.empty_response'],
    ['the literal "Unknown error (no error details in response)" is no_error_details', { message: 'Unknown error (no error details in response)' }, 'no_error_details', 'literal.no_error_details'],
    ['seed: "LLM request failed with an unknown error." stays conservative', { message: 'LLM request failed with an unknown error.' }, 'unclassified', 'text.generic_unknown'],
    ['a client parse crash names no cause: unclassified', { status: 200, body: "Cannot read properties of undefined (reading 'finish_reason')" }, 'unclassified', 'unclassified'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('"empty" wording with a usable status follows the status', () => {
    expect(explain({ status: 502, body: 'upstream returned an empty response' }).reason).toBe('server_error');
  });
});

describe('an answer that stopped without text (provider-errors-4, after the held-back fifth was opened)', () => {
  const cases: RuleCase[] = [
    ['"no response" with a stated stop reason is an empty answer, not unclassified', { body: "No reply from the model (stop_reason=end_turn, blocks=['thinking'])" }, 'empty_response', 'text.empty_response'],
    ['"no response from server" without a stop reason is not read as an empty answer', { body: 'No response from server' }, 'unclassified'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('shapes from the fifth public set (provider-errors-5, dev rows)', () => {
  const cases: RuleCase[] = [
    ['a hosted model process that crashed is a server error', { body: 'The model crashed without additional information' }, 'server_error', 'text.server_error'],
    ['a GPU failure inside the hosted model is a server error', { body: 'ModelError: CUDA out of memory. Tried to allocate 2.00 GiB' }, 'server_error', 'text.server_error'],
    ['a client saying the response had a null choices value is an empty answer', { body: 'TypeError: Received response with null value for `choices`.' }, 'empty_response', 'text.empty_response'],
    ['a 200 choice with null content that stopped normally is an empty answer (even as a broken paste)', { status: 200, body: '{"choices":[{"message":{"role":"assistant","content":null,"refusal":null},"finish_reason":"stop"}]}}' }, 'empty_response'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('shapes from the fifth public set (provider-errors-5, held-back rows, after the fifth was opened)', () => {
  const cases: RuleCase[] = [
    ['a client validation that the answer text is None is an empty answer, not a format error', { body: '1 validation error for Reply\ncontent\n  Input should be a valid string [type=string_type, input_value=None, input_type=NoneType]' }, 'empty_response', 'text.empty_response'],
    ['"response content was empty" is an empty answer', { body: 'error: the response content was empty' }, 'empty_response', 'text.empty_response'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('shapes from the sixth public set (provider-errors-6, dev rows)', () => {
  const cases: RuleCase[] = [
    ['a timeout option printed in a config dump is a setting, not a timeout: the stated 429 decides', { body: 'Error: Request failed with status code 429\n  config: { timeout: 0, transitional: { clarifyTimeoutError: false } }' }, 'rate_limit'],
    ['a real TimeoutError class name is still a timeout', { body: 'httpx.ReadTimeoutError: read operation took 30s' }, 'timeout', 'text.timeout'],
    ['a relay\'s "upstream error" label under an inner 404 yields to the status', { body: 'gateway said: upstream error\n{"status":404,"title":"Not Found","detail":"no such function"}' }, 'model_not_found'],
    ['"upstream error" with no client status is still a server error', { body: 'proxy: upstream error while reading the answer' }, 'server_error', 'text.server_error'],
    ['a local runner that failed to load the model is a server error, not capacity', { body: 'Failed to load the model\n\nError loading model. (Exit code: 1)' }, 'server_error', 'text.server_error'],
    ['"… but none was returned" from an SDK accessor is an empty answer', { body: 'ValueError: the quick accessor needs a Part, but none was returned.' }, 'empty_response', 'text.empty_response'],
    ['a 200 whose response body was empty is an empty answer, even when the client guesses a rate limit', { body: 'upstream returned 200 OK but the response body was empty (maybe rate limit?)' }, 'empty_response', 'text.empty_response'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('shapes from the seventh public set (provider-errors-7, dev rows)', () => {
  const cases: RuleCase[] = [
    ['a local runtime that failed to launch the model is a server error', { body: 'RuntimeError: Failed to launch model, detail: out of slots' }, 'server_error', 'text.server_error'],
    ['"no text generated" from a client is an empty answer', { body: 'NoTextGeneratedError: No text generated.' }, 'empty_response', 'text.empty_response'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('shapes from the seventh public set (provider-errors-7, held-back rows, after the fifth was opened)', () => {
  const cases: RuleCase[] = [
    ['a client\'s "Server error: 403" label in front of a permission error is the 403, not a server error', { body: '[warn] Server error: 403 {"error":{"message":"caller lacks a role"}}' }, 'auth'],
    ['"server error" with no client status is still a server error', { body: 'upstream said: server error, try later' }, 'server_error', 'text.server_error'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('streamed answers read as a whole (docs/policy.md: empty 200s are decided from the parsed success shape)', () => {
  const done = 'data: [DONE]\n\n';
  const cases: RuleCase[] = [
    ['an event stream whose chunks carry no text and that finished is an empty answer', { status: 200, body: `data: {"choices":[{"delta":{"role":"assistant","content":""}}]}\n\ndata: {"choices":[{"delta":{},"finish_reason":"length"}]}\n\n${done}` }, 'empty_response', 'completion.empty'],
    ['an Anthropic stream with no text block that stopped is an empty answer', { status: 200, body: 'event: message_start\ndata: {"type":"message_start","message":{"content":[]}}\n\nevent: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n' }, 'empty_response', 'completion.empty'],
    ["a stream's words are the model's, never an error", { status: 200, body: `data: {"choices":[{"delta":{"content":"Rate limit exceeded: that is what the docs call it"}}]}\n\ndata: {"choices":[{"delta":{},"finish_reason":"stop"}]}\n\n${done}` }, 'unclassified'],
    ["Gemini's JSON array of chunks without parts is an empty answer", { status: 200, body: '[{"candidates":[{"content":{"role":"model"},"index":0}]},{"candidates":[{"content":{"role":"model"},"finishReason":"STOP"}]}]' }, 'empty_response', 'completion.empty'],
    ['a stream blocked by prompt feedback is a refusal', { status: 200, body: 'data: {"promptFeedback":{"blockReason":"OTHER"}}\n\ndata: {"candidates":[],"promptFeedback":{"blockReason":"OTHER"}}\n\n' }, 'refusal'],
    ['a client saying no response was generated is an empty answer', { message: 'Error: no answer was generated by the model' }, 'empty_response', 'text.empty_response'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));

  it('a stream cut before it finished is not called empty', () => {
    expect(explain({ status: 200, body: 'data: {"choices":[{"delta":{"role":"assistant","content":""}}]}\n\n' }).reason).not.toBe('empty_response');
  });
});

describe('transport and server families from the tenth set (provider-errors-10, dev rows), in other words', () => {
  const cases: RuleCase[] = [
    ['a dropped network is a timeout', { message: 'Network disconnected. Check your connection.' }, 'timeout', 'text.transport'],
    ['a gateway that got no answer from upstream is a timeout', { status: 400, body: '{"error":[{"code":2005,"message":"Failed to get a response from the upstream"}]}' }, 'timeout', 'text.transport'],
    ['an unexpected error while processing is a server error', { message: 'An unexpected error occurred during processing. Please retry.' }, 'server_error', 'text.server_error'],
    ['a provider experiencing server issues is a server error', { message: 'We are experiencing technical difficulties right now.' }, 'server_error', 'text.server_error'],
    ['"The system encountered an unexpected error" alone stays conservative (the reference reads it as nothing)', { message: 'The system encountered an unexpected error. Try your request again.' }, 'unclassified'],
    ['no generations in a stream is an empty answer', { message: 'ValueError: No generation returned from stream' }, 'empty_response', 'text.empty_response'],
    ['a function named handleAbortError is no AbortError', { body: '[handleAbortError] response error: upstream said 500 internal server error' }, 'server_error'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('families found when the tenth set\'s held-back part was opened, in other words', () => {
  const cases: RuleCase[] = [
    ["a client's \"failed to connect\" around a stated 500 is the server's failure", { message: 'Could not connect to the model API: 500 Internal Server Error {"error":"runner crashed"}' }, 'server_error'],
    ["a client's \"failed to connect\" around a stated 400 is the request's fault", { message: 'Failed to connect to the API: 400 Bad Request {"error":"json: cannot unmarshal object into Go struct field .messages of type string"}' }, 'format'],
    ['a connection actively refused is a timeout', { message: 'tcp connect error: the target machine actively refused it (os error 10061)' }, 'timeout', 'text.transport'],
    ['a connection forcibly closed is a timeout', { message: 'read tcp 10.0.0.1:5000->10.0.0.2:8000: connection was forcibly closed by the remote host' }, 'timeout', 'text.transport'],
    ["Google's temporary-error page is a server error", { body: '502. That’s an error. The server encountered a temporary error and could not complete your request.' }, 'server_error'],
    ['a status in parentheses after "failed" is stated', { message: 'Compatible request failed (503)' }, 'overloaded', 'text_status.503'],
    ['no generation chunks is an empty answer', { message: 'No generation chunks were returned by the model' }, 'empty_response', 'text.empty_response'],
    ["a relay that could not decode the upstream's error lost the cause", { body: '{"message":"json: cannot unmarshal number into Go struct field Error.Response.Error.Message of type string"}' }, 'unclassified'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('a definite response status rules out time and transport words (docs/policy.md, "A response status rules out a broken connection")', () => {
  const cases: RuleCase[] = [
    ["a client's retry banner mentioning timeouts around a stated 401 is auth", { message: 'API Error: 401 {"error":{"message":"invalid x-api-key"}} · Retrying in 4s · check your timeout settings' }, 'auth'],
    ['a given 403 with a timeout hint is auth', { status: 403, body: 'Forbidden. If this persists, raise REQUEST_TIMEOUT or check the network.' }, 'auth'],
    ['a given 504 keeps its time words', { status: 504, body: 'upstream request timeout' }, 'timeout'],
    ['a given 502 wrapping a refused upstream keeps its transport words', { status: 502, body: 'upstream connect error or disconnect/reset before headers. reset reason: connection failure' }, 'timeout'],
    ['a 408 is time, whatever the words', { status: 408, body: 'Request Timeout' }, 'timeout'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('empty answers and handshakes from the eleventh set (provider-errors-11, dev rows), in other words', () => {
  const cases: RuleCase[] = [
    ['a stream that ended with an empty response is an empty answer, not a broken stream', { message: 'The stream finished with an empty reply.' }, 'empty_response', 'text.empty_response'],
    ['a provider that returned an empty stream is an empty answer, not the upstream guess after it', { message: 'Provider returned an empty response (possible upstream error).' }, 'empty_response', 'text.empty_response'],
    ['no response from the model is an empty answer', { message: 'ConnectError: No response from the model' }, 'empty_response', 'text.empty_response'],
    ["a Go print of a choice with empty content is an empty answer", { message: 'Choices:[{Index:0 Message:{Role:assistant Content: ToolCalls:[]} FinishReason:length}]' }, 'empty_response', 'text.empty_response'],
    ['a TLS handshake cut short is a timeout', { message: 'connect error: ssl handshake eof' }, 'timeout', 'text.transport'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("families found when the eleventh set's held-back part was opened, in other words", () => {
  const cases: RuleCase[] = [
    ['all connection attempts failing is a timeout', { message: 'httpcore.ConnectError: All connection attempts failed' }, 'timeout', 'text.transport'],
    ['a websocket closed before any content is a timeout', { message: 'error reading stream response: websocket: close 1006 (abnormal closure)' }, 'timeout', 'text.transport'],
    ['"no response was returned" is an empty answer', { message: 'Sorry, no answer was returned.' }, 'empty_response', 'text.empty_response'],
    ['a provider that failed without any error details is no_error_details', { message: 'The upstream reported a failure with no error details (event: error).' }, 'no_error_details', 'literal.no_error_details'],
    ['a number before another status\'s reason phrase states no status', { message: 'Server error: Batch ID 404 bad request in cache' }, 'server_error'],
    ['a stated 400 before a streamed chunk is the status speaking, not an empty answer', { message: 'Request failed with status code 429: data: {"choices":[{"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]' }, 'rate_limit'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('families from the twelfth set (provider-errors-12, dev rows), in other words', () => {
  const cases: RuleCase[] = [
    ['a Python connection-refused class is a timeout', { message: "aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host localhost:8080" }, 'timeout', 'text.transport'],
    ['Windows refusing the connection in Chinese is a timeout', { message: '[WinError 10061] 由于目标计算机积极拒绝，无法连接。' }, 'timeout', 'text.transport'],
    ['a relay that cannot reach the upstream, in Chinese, is a timeout', { message: '服务器未收到上游的响应，请稍后再试' }, 'timeout', 'text.transport'],
    ['a broken pipe is a timeout', { body: '{"error":"write tcp 10.0.0.1:1->10.0.0.2:2: write: broken pipe"}' }, 'timeout', 'text.transport'],
    ['a stream without its final event is a timeout', { message: 'did not receive the final chunk of the stream' }, 'timeout', 'text.transport'],
    ['a runner that is no longer running is a server error', { message: 'ResponseError: model runner process no longer running: -1' }, 'server_error', 'text.server_error'],
    ['an empty model response is an empty answer', { message: 'UnexpectedModelBehavior: Received empty LLM response' }, 'empty_response', 'text.empty_response'],
    ['no assistant messages provided is an empty answer', { message: 'The model did not provide any messages.' }, 'empty_response', 'text.empty_response'],
    ['a stream completed without output is an empty answer', { message: 'request completed without any output' }, 'empty_response', 'text.empty_response'],
    ['an empty answer field beside a normal stop is an empty answer', { message: '{"answer": "", "status": "completed", "turns": 2}' }, 'empty_response', 'text.empty_response'],
    ["a repr of a completed response with no output is an empty answer", { message: "Response(id='r1', output=[], parallel_tool_calls=True, status='completed', text=None)" }, 'empty_response', 'text.empty_response'],
    ['"<empty message>" is a placeholder, not an empty answer', { message: 'Completion failed. Reason: <empty message>' }, 'unclassified'],
    ['a ttft metric key is no timeout', { message: '{"ttft_ms":900,"result":"","stop_reason":"end_turn"}' }, 'empty_response'],
    ["a client's validation of finish_reason 'error' is a server error, not a format error", { message: "1 validation error for Chunk\nchoices.0.finish_reason\n  Input should be 'stop' [type=enum, input_value='error', input_type=str]" }, 'server_error', 'text.finish_reason_error'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("empty answers found when the twelfth set's held-back part was opened, in other words", () => {
  const cases: RuleCase[] = [
    ['a Python repr of a candidate with empty content that stopped is an empty answer', { message: "candidate: content=Content() finish_reason=<FinishReason.MAX_TOKENS: 'MAX_TOKENS'> index=0" }, 'empty_response', 'text.empty_response'],
    ['a Java toString with a null text that stopped is an empty answer', { message: 'ChatResponse { aiMessage = AiMessage { text = null, toolExecutionRequests = [] }, finishReason=LENGTH }' }, 'empty_response', 'text.empty_response'],
    ['a PHP dump with empty text and no tool calls is an empty answer', { message: '+text: ""\n+toolCalls: []\n+usage: …' }, 'empty_response', 'text.empty_response'],
    // (cut before it closes, so the words are read: a whole printed answer is read by its parsed shape, completion.empty)
    ['Gemini candidates that open with their finish reason carry no content', { message: '{"candidates": [{"finishReason": "STOP", "index": 0}, {"fin' }, 'empty_response', 'text.empty_response'],
    ['a whole printed Gemini answer without content is empty by its parsed shape', { message: '{"candidates": [{"finishReason": "STOP", "index": 0}]}x' }, 'empty_response', 'completion.empty'],
    ['a client saying the answer did not include content is an empty answer', { message: 'the response did not include any text' }, 'empty_response', 'text.empty_response'],
    ['expected at least one candidate is an empty answer', { message: 'UnexpectedModelBehavior: Expected at least one candidate' }, 'empty_response', 'text.empty_response'],
    ['a required parts field missing at the candidate content is an empty answer', { message: "Field 'parts' is required, but it was missing at path: $.candidates[0].content" }, 'empty_response', 'text.empty_response'],
    ['Chinese: the parts of the answer are empty', { message: '收到的回复为空' }, 'empty_response', 'text.empty_response'],
    ['a parsed answer with text is never read as empty by its blanked words', { status: 200, body: '{"choices":[{"message":{"content":"fine"},"finish_reason":"stop"}]}' }, 'unclassified'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('transport and engine failures in the words clients and runtimes print (a vocabulary pass before the thirteenth set)', () => {
  const cases: RuleCase[] = [
    ['Go: no such host is a timeout', { message: 'dial tcp: lookup api.example.com: no such host' }, 'timeout', 'text.transport'],
    ['Python: name or service not known is a timeout', { message: 'socket.gaierror: [Errno -2] Name or service not known' }, 'timeout', 'text.transport'],
    ['curl: could not resolve host is a timeout', { message: 'curl: (6) Could not resolve host: api.example.com' }, 'timeout', 'text.transport'],
    ['Java: UnknownHostException is a timeout', { message: 'java.net.UnknownHostException: api.example.com' }, 'timeout', 'text.transport'],
    ['a browser fetch failure is a timeout', { message: 'TypeError: Failed to fetch' }, 'timeout', 'text.transport'],
    ["Safari's fetch failure is a timeout", { message: 'TypeError: Load failed' }, 'timeout', 'text.transport'],
    ["Chromium's net error is a timeout", { message: 'net::ERR_CONNECTION_RESET' }, 'timeout'],
    ['an app that failed to fetch its model list with an HTML page named no transport failure', { message: 'Failed to fetch models: <html><title>Proxy page</title></html>' }, 'unclassified'],
    ['a server that disconnected without a response is a timeout', { message: 'httpx.RemoteProtocolError: Server disconnected without sending a response.' }, 'timeout', 'text.transport'],
    ['an SSL EOF is a timeout', { message: 'ssl.SSLEOFError: EOF occurred in violation of protocol' }, 'timeout', 'text.transport'],
    ["Go's bare EOF after the request line is a timeout", { message: 'Post "http://localhost:8080/v1/chat/completions": EOF' }, 'timeout', 'text.transport'],
    ['an operation cancelled is an abort', { message: 'The operation was canceled.' }, 'abort', 'text.abort'],
    ["vLLM's dead engine loop is a server error", { message: 'AsyncEngineDeadError: Background loop has errored already.' }, 'server_error', 'text.server_error'],
    ['a segfault of the runtime is a server error', { message: 'llama-server exited: Segmentation fault (core dumped)' }, 'server_error', 'text.server_error'],
    // the thirteenth set showed a client's own Go panic (indexing an empty Choices): a panic names no side
    ['a Go panic names no cause by itself', { message: 'panic: runtime error: invalid memory address or nil pointer dereference' }, 'unclassified'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('families from the thirteenth set (provider-errors-13, dev rows), in other words', () => {
  const cases: RuleCase[] = [
    ['a response that ended prematurely is a timeout', { message: 'IOException: The stream closed prematurely.' }, 'timeout', 'text.transport'],
    ['trouble connecting to the provider is a timeout', { message: 'We are having trouble reaching the model provider.' }, 'timeout', 'text.transport'],
    ['no tokens left for the answer is an empty answer', { message: 'The model spent its budget thinking, with nothing left for the answer.' }, 'empty_response', 'text.empty_response'],
    ['no images generated is an empty answer', { message: 'No images were returned for this prompt.' }, 'empty_response', 'text.empty_response'],
    ['a response that is none or empty is an empty answer', { message: 'LLM output was None or empty' }, 'empty_response', 'text.empty_response'],
    ['an empty content beside zero completion tokens is an empty answer', { message: '{"content":""} usage {"prompt_tokens":10,"completion_tokens":0}' }, 'empty_response', 'text.empty_response'],
    ['Chinese: no reply is an empty answer', { message: '（空回复）' }, 'empty_response', 'text.empty_response'],
    ['a stated status of 500 in a client exception is a server error', { message: 'ClientException: the response has a status code of 500' }, 'server_error'],
    ['a bare 400 behind "Execution failed:" and a request id names no cause', { message: 'Execution failed: ApiError: 400 400 Bad Request\n (Request ID: AB12:CD34:EF56)' }, 'unclassified'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("empty answers found when the thirteenth set's held-back part was opened, in other words", () => {
  it("a response missing its 'choices' key is an empty answer", () => {
    expect(explain({ message: "APIError: response is missing the 'candidates' field" }).reason).toBe('empty_response');
  });
});

describe('a second vocabulary pass: empty answers, server words', () => {
  const cases: RuleCase[] = [
    ['blank output is an empty answer', { message: 'the model produced a blank answer' }, 'empty_response', 'text.empty_response'],
    ['a message with no content is an empty answer', { message: 'Response message had no text.' }, 'empty_response', 'text.empty_response'],
    ['response.text is empty is an empty answer', { message: 'AssertionError: output.content is empty' }, 'empty_response', 'text.empty_response'],
    ['zero tokens received is an empty answer', { message: 'Generated 0 completion tokens' }, 'empty_response', 'text.empty_response'],
    ['a stream that ended without content is an empty answer, not a broken stream', { message: 'The stream finished without any output.' }, 'empty_response', 'text.empty_response'],
    ["a client that crashed reading choices[0] lost the answer: no cause (pe-171's label)", { message: "TypeError: Cannot read properties of undefined (reading 'text') at choices[0]" }, 'unclassified'],
    ['an internal failure is a server error', { message: 'InternalFailure: request processing failed' }, 'server_error', 'text.server_error'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('a third vocabulary pass: empty answers and transport', () => {
  const cases: RuleCase[] = [
    ['a provider that returned no candidates is an empty answer', { message: 'Error: the API returned no candidates' }, 'empty_response', 'text.empty_response'],
    ['a response that did not contain any text is an empty answer', { message: 'The reply did not contain any content.' }, 'empty_response', 'text.empty_response'],
    ['a TLS connection the socket dropped before is a timeout', { message: 'Client network socket disconnected before secure TLS connection was established' }, 'timeout', 'text.transport'],
    ['a network request that failed is a timeout', { message: 'TypeError: Network request failed' }, 'timeout', 'text.transport'],
    ['an upstream that is timing out is a timeout', { message: 'The upstream is timing out right now' }, 'timeout', 'text.timeout'],
    ['something went wrong on our side is a server error', { message: 'Something went wrong on our side.' }, 'server_error', 'text.server_error'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("time, transport, server, abort and empty-answer families from the fourteenth set's dev rows, in other words", () => {
  const cases: RuleCase[] = [
    ["curl's port is no status: a connection that timed out is a timeout", { message: 'Failed to connect to api.example.com port 8443: Connection timed out' }, 'timeout', 'text.timeout'],
    ["NSS's end-of-file error is a transport failure", { message: 'SSL read failed: PR_END_OF_FILE_ERROR' }, 'timeout', 'text.transport'],
    ["a Go dialer's failure is a transport failure", { message: 'Post "http://10.0.0.5/v1/chat/completions": dial tcp 10.0.0.5:80: connect: no route to host' }, 'timeout', 'text.transport'],
    ["LM Studio's prediction-error is the server's failure", { message: 'Error: received prediction-error' }, 'server_error', 'text.server_error'],
    ['a response in a malformed format is the server\'s failure (Chinese)', { message: 'Error: 返回数据异常' }, 'server_error', 'text.server_error'],
    ['a stream the client cancelled is an abort', { message: 'EventSource: Stream was canceled' }, 'abort', 'text.abort'],
    ['a cancel reason written as user_cancelled is an abort', { message: 'turn ended: reason=user_cancelled' }, 'abort', 'text.abort'],
    ['an API that did not return any data is an empty answer', { message: 'KernelException: the API did not return any data.' }, 'empty_response', 'text.empty_response'],
    ['a response with no candidates is an empty answer', { message: 'RuntimeError: response contains no candidates and no block reason' }, 'empty_response', 'text.empty_response'],
    ['a snake_case response_empty code is an empty answer', { message: 'error: model_response_empty' }, 'empty_response', 'text.empty_response'],
    ['a candidate repr that opens at its finish reason is an empty answer', { message: 'candidates=[Candidate(\n  finish_reason=<FinishReason.STOP: \'STOP\'>,\n  index=0\n)]' }, 'empty_response', 'text.empty_response'],
    ["pydantic's missing candidate content is an empty answer, not a bad request", { message: "1 validation error\ncandidates.0.content\n  Field required [type=missing, input_value={'finishReason': 'STOP'}, input_type=dict]" }, 'empty_response', 'text.empty_response'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("families found when the fourteenth set's held-back part was opened, in other words", () => {
  const cases: RuleCase[] = [
    ['a client that closed the request (499) in words that say so is an abort', { status: 499, message: 'client cancelled the request' }, 'abort', 'text.abort'],
    ['a client that cancelled, in Chinese, is an abort', { message: '客户端已取消' }, 'abort', 'text.abort'],
    ["Next.js's ResponseAborted is an abort", { message: 'unhandledRejection: [ResponseAborted: ]' }, 'abort', 'text.abort'],
    ["reqwest's failure to send is a transport failure", { message: 'error sending request for url (http://localhost:8080/v1/chat/completions)' }, 'timeout', 'text.transport'],
    ["a relay's failed upstream request is a transport failure", { message: 'upstream: do request failed' }, 'timeout', 'text.transport'],
    ["Replicate's ModelError is the model's failure", { message: 'replicate.exceptions.ModelError: prediction crashed' }, 'server_error', 'text.server_error'],
    ['a model that failed to call a function is the server side\'s failure', { message: 'Failed to call a function. Please adjust your prompt.' }, 'server_error', 'text.server_error'],
    ['a model that returned no final answer is an empty answer', { message: 'the model returned no final answer before the stream ended' }, 'empty_response', 'text.empty_response'],
    ['no parseable response is an empty answer', { message: 'got no parseable response from the provider' }, 'empty_response', 'text.empty_response'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("server families from the fifteenth set's dev rows, in other words", () => {
  it("a local runtime that failed loading the model is the server's failure", () => {
    expect(explain({ status: 500, message: 'Failed loading model phi-4 from the cache' }).reason).toBe('server_error');
  });
});

describe("families from the sixteenth set's dev rows, in other words", () => {
  const cases: RuleCase[] = [
    ['an incomplete JSON segment at the end of a stream is a transport failure', { message: 'API Error: Incomplete JSON segment at the end' }, 'timeout', 'text.transport'],
    ["aiohttp's ClientPayloadError is a transport failure", { message: 'ClientPayloadError: Response payload is not completed' }, 'timeout', 'text.transport'],
    ['an error while generating the response is the server\'s failure', { message: 'An error occurred while generating the response: index out of range' }, 'server_error', 'text.server_error'],
    ['a provider that ended before returning usable output is an empty answer', { message: 'the upstream ended the response before returning usable output' }, 'empty_response', 'text.empty_response'],
    ['a missing or empty choices array is an empty answer (Chinese)', { message: '响应格式无效 - 缺少 choices 字段' }, 'empty_response', 'text.empty_response'],
    ['a certificate error framed by a CLI panel is TLS', { message: '│ reason: self-signed     │\n│ certificate in certificate chain │' }, 'tls_certificate', 'text.tls_certificate'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('transport, server, abort and empty families from the eighteenth set, in other words', () => {
  it.each([
    ["an old OpenAI client's connection error", { message: 'APIConnectionError: Error communicating with OpenAI: connection pool is full' }, 'timeout'],
    ['a fetch body that broke while read', { message: 'TypeError: Error in input stream' }, 'timeout'],
    ["nginx's upstream that could not be reached", { message: 'connect() failed (111) while connecting to upstream, client: 10.0.0.2' }, 'timeout'],
    ["an actor's remote server gone", { message: 'xoscar.errors.ServerClosed: Remote server 127.0.0.1:31337 closed' }, 'server_error'],
    ['a Cloudflare Worker that threw', { message: 'Error 1101: Worker threw exception' }, 'server_error'],
    ["a server's own Python bug", { message: "{\"error\": \"local variable 'prompt' referenced before assignment\"}" }, 'server_error'],
    ['a system error named as such', { message: 'RaySystemError: System error: actor died' }, 'server_error'],
    ['a local server that is not running', { message: "{'error': {'code': 1, 'message': 'inference server is not running'}}" }, 'server_error'],
    ["an engine's log of a request it aborted", { message: 'INFO engine.py:301] Aborted request cmpl-42.' }, 'abort'],
    ['a provider that returned zero tokens', { message: 'The provider returned zero tokens for this turn.' }, 'empty_response'],
    ["OpenAI's parse helper that hit the length limit", { message: 'LengthFinishReasonError: Could not parse response content as the length limit was reached' }, 'empty_response'],
    ['a model that returned only reasoning', { message: 'WARNING - model returned only reasoning content with no text output' }, 'empty_response'],
    ['a completion printed with no choices', { status: 200, body: "ChatCompletion(id='', choices=[], created=None, model='m')" }, 'empty_response'],
  ] as const)('%s', (_name, failure, reason) => {
    expect(explain(failure).reason).toBe(reason);
  });

  it("gRPC's \"RPC that terminated with\" names the status it ended with, not a broken connection", () => {
    const message = 'AioRpcError: <AioRpcError of RPC that terminated with:\n\tstatus = StatusCode.NOT_FOUND\n\tdetails = "This model models/x-lite is no longer available to new users."';
    expect(explain({ message }).reason).toBe('model_not_found');
    expect(explain({ message: 'stream terminated by peer' }).reason).toBe('timeout');
  });

  it('an error object written after the events without a data: line decides a stream', () => {
    const body = 'data: {"candidates":[{"content":{"parts":[{"text":"Hi"}],"role":"model"}}]}\n\n{\n  "error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}\n}';
    expect(explain({ status: 200, body }).reason).toBe('overloaded');
  });
});

describe('families from the nineteenth set, in other words', () => {
  it.each([
    ['an SSE stream that broke while read', { message: 'Error while reading the SSE stream: socket closed' }, 'timeout'],
    ['a streamed answer that ended before any data', { message: 'The stream ended before any data arrived from the gateway.' }, 'timeout'],
    ["node-fetch's body that ended before its JSON closed", { message: 'FetchError: invalid json response body at http://localhost:8080/v1/chat reason: Unexpected end of JSON input' }, 'timeout'],
    ['a machine not connected to the internet', { message: 'Request failed: you are not connected to the internet.' }, 'timeout'],
    ["Chromium's generic network failure", { message: 'Error Code: net::ERR_FAILED' }, 'timeout'],
    ['a DNS lookup that failed', { message: '[Errno -3] getaddrinfo failed' }, 'timeout'],
    ["Go's resolver saying the DNS server misbehaved", { message: 'Post "https://api.example.com/v1/chat": dial tcp: lookup api.example.com on 10.0.0.2:53: server misbehaving' }, 'timeout'],
    ["Elixir Mint's transport error", { message: '** (Mint.TransportError) the connection was closed (reason: :closed)' }, 'timeout'],
    ['a batch that expired before it ran', { message: 'batch_abc: Batch has expired after 24h' }, 'timeout'],
    ["a client's \"Reason: Canceled\" line", { message: 'Your request failed. Reason: Cancelled' }, 'abort'],
    ["openai-node's runner whose stream ended without an answer", { message: 'OpenAIError: stream ended without producing a ChatCompletionMessage with role=assistant' }, 'empty_response'],
  ] as const)('%s', (_name, failure, reason) => {
    expect(explain(failure).reason).toBe(reason);
  });

  it("a backend error under a given 4xx is the client's label, not the provider's failure", () => {
    expect(explain({ status: 400, message: 'LLM backend error status: 400 Bad Request' }).reason).toBe('format');
    expect(explain({ message: 'LLM backend error, retry later' }).reason).toBe('server_error');
  });
});

describe("empty answers from the twenty-fifth set's dev rows, in other words", () => {
  const cases: RuleCase[] = [
    ['a reply that held only thinking content is empty', { body: 'error: the model returned only thinking content without any text' }, 'empty_response', 'text.empty_response'],
    ['reasoning but no response content is empty', { body: 'The endpoint produced 900 characters of reasoning, but no actual answer.' }, 'empty_response', 'text.empty_response'],
    ['a relay\'s "Empty provider response" is empty', { body: 'Upstream error: Empty provider response.' }, 'empty_response', 'text.empty_response'],
    ['an SDK class for an empty answer is empty', { body: 'errorName=APIEmptyResponseError attempt=2/3' }, 'empty_response', 'text.empty_response'],
    ["Vertex's printed malformed function call is an empty answer", { body: 'Finish reason: 9.\nFinish message: Malformed function call: print(1)' }, 'empty_response', 'text.empty_response'],
    ['a reasoning model\'s printed message with no content is empty', { body: '{"message":{"content":"","reasoning_content":"thinking about the rate limit"},"usage":{"completion_tokens":9}}' }, 'empty_response', 'completion.empty'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it("a relay's choice whose assistant content is the error it wrapped is still read as that error", () => {
    expect(explain({ status: 200, body: '[{"index":0,"message":{"role":"assistant","content":"API request failed (429): Resource has been exhausted"},"finish_reason":"stop"}]' }).reason).toBe('rate_limit');
  });
});

describe("families found when the twenty-fifth set's held-back part was opened, in other words", () => {
  const cases: RuleCase[] = [
    ['a provider that did not respond within a stated time is a timeout', { body: 'The model did not respond within 30s, please retry.' }, 'timeout', 'text.timeout'],
    ["Go's io.EOF after an error is a broken connection", { body: 'client.Do err=EOF' }, 'timeout'],
    ['a read on a TCP connection that hit EOF is a broken connection', { body: 'read tcp 10.0.0.2:51234->10.0.0.9:443: EOF' }, 'timeout'],
    ['an empty content beside reasoning, printed, is an empty answer', { body: '"message": {"content": "", "reasoning_content": "Let me think"' }, 'empty_response', 'text.empty_response'],
    ['a logged empty response at a length stop is an empty answer', { body: 'WARN agent: empty_response model=x finish_reason=length' }, 'empty_response', 'text.empty_response'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('a backend that closed while loading a model stays its server error', () => {
    expect(explain({ body: 'could not load model: rpc error: code = Unavailable desc = error reading from server: EOF' }).reason).toBe('server_error');
  });
});

describe("families from the twenty-sixth set's dev rows, in other words", () => {
  const cases: RuleCase[] = [
    ['a content field missing from a response is an empty answer', { body: 'ValueError: content is missing from the model response' }, 'empty_response', 'text.empty_response'],
    ['"Content has no parts" is an empty answer', { body: 'VertexAIException - Content has no parts.' }, 'empty_response', 'text.empty_response'],
    ['a server with no free slots is overloaded', { body: 'server busy: no free slots are available' }, 'overloaded', 'text.overloaded'],
    ["vLLM's dead engine is a server error", { body: 'vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue.' }, 'server_error', 'text.server_error'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it("a usage report's rate_limit_usage field is no rate limit", () => {
    expect(explain({ body: 'Unexpected JSON token at offset 0 JSON input: {"rate_limit_usage": {"remaining": 10}}' }).reason).toBe('unclassified');
  });
});

describe("families found when the twenty-sixth set's held-back part was opened, in other words", () => {
  const cases: RuleCase[] = [
    ['a body lost while reading it from the connection is a broken connection', { body: 'request or response body error: error reading a body from connection' }, 'timeout'],
    ["a TLS record that could not be decrypted mid-response is a broken connection", { body: "received fatal alert: cannot decrypt peer's message" }, 'timeout'],
    ['a stream that contained no tokens is an empty answer', { body: 'The stream contained no tokens.' }, 'empty_response', 'text.empty_response'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("families from the twenty-seventh set's dev rows, in other words", () => {
  const cases: RuleCase[] = [
    ["httpx's Server error label with a bare 529 is the status's overload", { body: "httpx.HTTPStatusError: Server error '529 ' for url 'https://api.example.com/v1/messages'" }, 'overloaded'],
    ["httpx's label around a 500 reason phrase stays a server error", { body: "httpx.HTTPStatusError: Server error '500 Internal Server Error' for url 'https://x'" }, 'server_error'],
    ['"HTTP code: 500" states the status', { body: 'Error raised by inference API HTTP code: 500, {"error":"could not embed"}' }, 'server_error'],
    ["a client's EMPTY_MESSAGE code is an empty answer", { body: 'Failed to generate the summary. Error: EMPTY_MESSAGE' }, 'empty_response', 'text.empty_response'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("families from the twenty-eighth set, in other words", () => {
  const cases: RuleCase[] = [
    ['a TLS record corrupted in transit is a transport failure, not a certificate', { body: 'read tcp 10.0.0.2:5555->203.0.113.9:443: local error: tls: bad record MAC' }, 'timeout', 'text.transport'],
    ['an error connecting to the remote server is a transport failure', { body: 'Error connecting to the remote host, please retry' }, 'timeout', 'text.transport'],
    ["a wrapper's stream-error label around an inner error with its own 502 lets that error speak", { body: 'Provider Mid-Stream Error: {"message":"Upstream error from TestCloud: bad token","code":502}' }, 'server_error'],
    ["a wrapper's stream-error label around an inner 429 is the rate limit", { body: 'stream error: {"error":{"message":"slow down please","code":429}}' }, 'rate_limit'],
    ['a stream error with no inner error stays a transport failure', { body: 'stream error: stream ID 5; INTERNAL_ERROR; received from peer' }, 'timeout', 'text.transport'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("FastChat's worker answer carrying an error code (twenty-eighth set), in other words", () => {
  it('a nonzero error_code beside the text makes the text the error', () => {
    expect(explain({ body: '{"text":"SERVER BUSY DUE TO HIGH TRAFFIC, TRY LATER","error_code":50002}' }).reason).toBe('overloaded');
  });
  it('error_code 0 is success: the text is the answer, its words are not read', () => {
    expect(explain({ body: '{"text":"Here is the answer about high traffic servers","error_code":0}' }).reason).toBe('unclassified');
  });
});

describe("families from the twenty-ninth set, in other words", () => {
  const cases: RuleCase[] = [
    ['a server that could not be reached is a transport failure', { body: 'LM server at http://127.0.0.1:8080 could not be reached; is it running?' }, 'timeout', 'text.transport'],
    ["Windows' unknown host, as one tool misspells it, is a transport failure", { body: 'Not such host is known (api.example.com:443)' }, 'timeout', 'text.transport'],
    ['a provider reporting its own instability is a server error, whatever the 400 says', { status: 400, body: 'ValidationException: System instability detected. Please retry your request.' }, 'server_error', 'text.server_error'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('"could not be reached by" a person is no transport failure', () => {
    expect(explain({ body: 'The owner could not be reached by email about the billing.' }).reason).toBe('unclassified');
  });
  it("a Realtime response that failed is read by its status_details error, not as an empty answer", () => {
    const body = JSON.stringify({ object: 'realtime.response', status: 'failed', status_details: { type: 'failed', error: { type: 'server_error', message: 'The server had an error processing the request.' } }, output: [] });
    expect(explain({ body }).reason).toBe('server_error');
  });
});

describe("families from the thirtieth set, in other words", () => {
  it("an on-device model service's \"Inference failed.\" is a server error", () => {
    expect(explain({ body: 'ModelService failed with error code 13-INTERNAL: Inference failed.' }).reason).toBe('server_error');
  });
  it("a retry wrapper's \"Failed to get response from the AI model\" is no gateway's statement: the inner 503 decides", () => {
    expect(explain({ status: 503, body: 'Execution failed: Error: Failed to get response from the AI model; retried 5 times. Last error: 503 {"error":{"message":"The model is overloaded","code":"model_degraded"}}' }).reason).toBe('overloaded');
  });
});

describe("transport families from the thirty-first set, in other words", () => {
  const cases: RuleCase[] = [
    ["Chromium's cut chunked body under a 200 is a stream that ended early", { status: 200, body: 'GET /api/chat/stream net::ERR_INCOMPLETE_CHUNKED_ENCODING 200 (OK)' }, 'timeout', 'text.transport'],
    ["Chromium's HTTP/2 protocol error is a transport failure", { body: 'Failed to load resource: net::ERR_HTTP2_PROTOCOL_ERROR' }, 'timeout', 'text.transport'],
    ["Go's HTTP/2 GOAWAY is a transport failure", { body: 'reading stream: http2: server sent GOAWAY and closed the connection; LastStreamID=7' }, 'timeout', 'text.transport'],
    ['a Responses stream that stopped before its closing event was cut, not empty', { body: 'Error: stream ended without a response.completed event' }, 'timeout', 'text.transport'],
    ["an Anthropic stream closed before message_stop was cut", { body: 'stream closed without the message_stop event' }, 'timeout', 'text.transport'],
    ["nginx's failed TLS handshake to its upstream is a transport failure", { body: '[error] SSL_do_handshake() failed (SSL: error:0A000410:SSL routines::sslv3 alert handshake failure) while SSL handshaking to upstream' }, 'timeout', 'text.transport'],
    ['curl\'s HTTP/2 stream reset is a transport failure', { body: 'curl: (92) HTTP/2 stream 3 was not closed cleanly: INTERNAL_ERROR (err 2)' }, 'timeout', 'text.transport'],
    ["curl's empty reply is a transport failure", { body: 'curl: (52) Empty reply from server' }, 'timeout', 'text.transport'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('a stream that completed without any content is still an empty answer', () => {
    expect(explain({ body: 'Stream completed without any content' }).reason).toBe('empty_response');
  });
  it('"curl: (22)" (an HTTP error status) and a 407 proxy challenge are no transport failures', () => {
    expect(explain({ body: 'curl: (22) The requested URL returned error: 429' }).reason).toBe('rate_limit');
    expect(explain({ body: 'Error: Request failed with status code 407' }).reason).toBe('auth');
  });
});

describe("families from the thirty-second set, in other words", () => {
  const cases: RuleCase[] = [
    ["a platform's limit on the initial response is a timeout", { body: 'Error: The function did not return an initial response within 30s' }, 'timeout', 'text.timeout'],
    ["a worker over its CPU time is a timeout", { body: 'Error: exceeded the CPU time limit for this request' }, 'timeout', 'text.timeout'],
    ['a runner that kept initialising is a timeout', { body: 'Runner failed: container has been starting up for too long (600 seconds)' }, 'timeout', 'text.timeout'],
    ['a function that crashed is a server error', { body: 'The serverless function has crashed while serving the request.' }, 'server_error', 'text.server_error'],
    ['a memory limit exceeded is a server error', { body: 'Error: memory limit of 512 MiB exceeded with 530 MiB used. Consider increasing the memory limit.' }, 'server_error', 'text.server_error'],
    ['a browser that withheld the answer for CORS is a transport failure', { body: "Access to fetch at 'https://api.example.com/v1/chat' from origin 'chrome-extension://abc' has been blocked by CORS policy" }, 'timeout', 'text.transport'],
    ["an app's interrupted response is a transport failure", { body: 'The response was interrupted. Check your connection and try again.' }, 'timeout', 'text.transport'],
    ["serde reading an empty body is an empty answer", { body: 'llm error: EOF while parsing a value at line 1 column 0' }, 'empty_response', 'text.empty_response'],
    ['Java calling into a null response is an empty answer', { body: 'java.lang.NullPointerException: Cannot invoke "Response.content()" because "response" is null' }, 'empty_response', 'text.empty_response'],
    ['an MCP client\'s user who declined a sampling request aborted it', { body: '{"jsonrpc":"2.0","id":7,"error":{"code":-1,"message":"User rejected sampling request"}}' }, 'abort', 'text.abort'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('an empty stream event is no empty answer: a stream event cut at its first byte is a stream that broke (set 30\'s row in a retry wrapper)', () => {
    expect(explain({ body: 'Failed to parse message stream event: EOF while parsing a value at line 1 column 0' }).reason).toBe('timeout');
  });
});
