/**
 * Inputs a breaker sent to the classifier (2026-12-07): generated text that must never be read as an error, relays'
 * error statuses around abort words, wrong lanes that would disable or spare a credential wrongly, and inputs that
 * used to throw. Each case is in other words than the breaker's, with the rule it protects.
 */
import { describe, expect, it } from 'vitest';
import { classifyFailure } from './index.js';
import { explain } from './test-support/classify.js';
import { MAX_UNWRAP_CHARS } from './text/unwrap.js';

function sse(events: readonly unknown[]): string {
  return events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('');
}

describe("generated text is never read as the provider's error (docs/policy.md, Empty 200s)", () => {
  it('a long stream is judged on its first and last events, its words blanked: thinking only, stopped, is empty', () => {
    const thinking = Array.from({ length: 30 }, (_, index) => ({ type: 'content_block_delta', delta: { type: 'thinking_delta', thinking: `step ${index}: the key was revoked and the account banned` } }));
    const body = sse([{ type: 'message_start', message: { content: [] } }, ...thinking, { type: 'message_delta', delta: { stop_reason: 'max_tokens' } }, { type: 'message_stop' }]);
    expect(explain({ status: 200, body }).reason).toBe('empty_response');
  });

  it("a long stream whose last events carry text is an answer, whatever its words", () => {
    const text = Array.from({ length: 30 }, () => ({ choices: [{ delta: { content: 'your credit balance is too low' } }] }));
    expect(explain({ status: 200, body: sse([...text, { choices: [{ delta: {}, finish_reason: 'stop' }] }]) }).reason).toBe('unclassified');
  });

  it('an answer too long to parse is still an answer: a 40 KiB completion, a 40 KiB stream, one 40 KiB stream event', () => {
    const words = 'the server is overloaded, too many requests, your credit balance is too low. '.repeat(520);
    const completion = JSON.stringify({ id: 'chatcmpl-9', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: words }, finish_reason: 'stop' }] });
    expect(completion.length).toBeGreaterThan(MAX_UNWRAP_CHARS);
    expect(explain({ status: 200, body: completion }).reason).toBe('unclassified');
    const pretty = JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: words }] }, finishReason: 'STOP' }] }, null, 2);
    expect(explain({ status: 200, body: pretty }).reason).toBe('unclassified');
    const chunks = Array.from({ length: 600 }, () => ({ choices: [{ delta: { content: 'rate limit exceeded, ' } }] }));
    const stream = sse([...chunks, { choices: [{ delta: {}, finish_reason: 'stop' }] }]);
    expect(stream.length).toBeGreaterThan(MAX_UNWRAP_CHARS);
    expect(explain({ status: 200, body: stream }).reason).toBe('unclassified');
    expect(explain({ status: 200, body: sse([{ choices: [{ delta: { content: words } }] }]) }).reason).toBe('unclassified');
  });

  it('a stream too long to parse whole still reports the error event that ended it', () => {
    const chunks = Array.from({ length: 900 }, () => ({ choices: [{ delta: { content: 'hello ' } }] }));
    const body = sse([...chunks, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]);
    expect(body.length).toBeGreaterThan(MAX_UNWRAP_CHARS);
    expect(explain({ status: 200, body }).reason).toBe('overloaded');
  });

  it('reads the ends of answers and streams too long to parse as the shapes providers send (a breaker\'s cases, 2026-12-07)', () => {
    const words = 'you exceeded your current quota; the server is overloaded; your credit balance is too low. ';
    const geminiChunk = (text: string) => ({ candidates: [{ content: { role: 'model', parts: [{ text }] } }] });
    // Gemini's JSON array of chunks: an answer; and with its 503 as the closing element, that error
    const chunks = Array.from({ length: 400 }, () => geminiChunk(words));
    expect(explain({ provider: 'google', status: 200, body: JSON.stringify(chunks) }).reason).toBe('unclassified');
    const broken = JSON.stringify([...chunks, { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } }]);
    expect(explain({ provider: 'google', status: 200, body: broken }).reason).toBe('overloaded');
    // a stream of more than sixteen events, then the error written without `data:`
    const events = sse(Array.from({ length: 20 }, () => geminiChunk('ok ')));
    expect(explain({ provider: 'google', status: 200, body: `${events}{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}` }).reason).toBe('overloaded');
    // keep-alive comment lines before the first event
    const keepAlive = ': OPENROUTER PROCESSING\n\n'.repeat(40);
    expect(explain({ status: 200, body: `${keepAlive}${sse([{ choices: [{ delta: { content: words } }] }, { choices: [{ delta: {}, finish_reason: 'stop' }] }])}` }).reason).toBe('unclassified');
    // a Responses stream whose closing events repeat a 40 KiB answer
    const long = words.repeat(450);
    const responses = sse([
      { type: 'response.created', response: { object: 'response', status: 'in_progress', error: null } },
      { type: 'response.output_text.delta', delta: words },
      { type: 'response.output_text.done', text: long },
      { type: 'response.completed', response: { object: 'response', status: 'completed', error: null, output: [{ type: 'message', content: [{ type: 'output_text', text: long }] }] } },
    ]);
    expect(explain({ status: 200, body: responses }).reason).toBe('unclassified');
    // large chunks that use up the first events' budget do not hide the error the stream ended with
    const heavy = Array.from({ length: 40 }, () => ({ choices: [{ delta: { content: words }, logprobs: { content: Array.from({ length: 40 }, (_, i) => ({ token: `t${i}`, logprob: -0.1 })) } }] }));
    expect(explain({ status: 200, body: sse([...heavy, { error: { message: 'The server had an error while processing your request.', type: 'server_error' } }]) }).reason).toBe('server_error');
    // Bedrock Converse puts the role after the content; a reasoning-only answer that hit its length limit is empty
    expect(explain({ status: 200, body: JSON.stringify({ output: { message: { content: [{ text: long }], role: 'assistant' } }, stopReason: 'end_turn' }) }).reason).toBe('unclassified');
    const reasoning = JSON.stringify({ object: 'chat.completion', choices: [{ message: { role: 'assistant', content: '', reasoning_content: long }, finish_reason: 'length' }] });
    expect(explain({ status: 200, body: reasoning }).reason).toBe('empty_response');
  });

  it('an error too long to parse is read as text, not as an answer', () => {
    const body = JSON.stringify({ error: { message: `Rate limit reached for requests. ${'x'.repeat(MAX_UNWRAP_CHARS)}`, type: 'requests' } });
    expect(explain({ status: 200, body }).reason).toBe('rate_limit');
  });

  it('a Responses object with "error": null is an answer, and its words are the model\'s', () => {
    const body = JSON.stringify({ object: 'response', status: 'completed', error: null, output: [{ type: 'message', content: [{ type: 'output_text', text: 'insufficient_quota means no credit' }] }] });
    expect(explain({ status: 200, body }).reason).toBe('unclassified');
  });

  it('a Responses stream delta is generated text', () => {
    const body = sse([{ type: 'response.output_text.delta', delta: 'your API key has been revoked' }, { type: 'response.completed', response: { status: 'completed' } }]);
    expect(explain({ status: 200, body }).reason).toBe('unclassified');
  });

  it("a client's MALFORMED_RESPONSE code around a cut answer is transport, not the answer's words", () => {
    expect(explain({ status: 200, code: 'MALFORMED_RESPONSE', message: 'cannot parse body', body: '{"choices":[{"message":{"content":"top up your credit balance, then' }).reason).toBe('timeout');
  });

  it('reasoning parts (Gemini thought, Responses reasoning items) are no answer', () => {
    expect(explain({ status: 200, body: '{"candidates":[{"content":{"parts":[{"text":"thinking about it","thought":true}]},"finishReason":"MAX_TOKENS"}]}' }).reason).toBe('empty_response');
    expect(explain({ status: 200, body: '{"object":"response","status":"incomplete","output":[{"type":"reasoning","summary":[{"type":"summary_text","text":"plan"}]}]}' }).reason).toBe('empty_response');
  });
});

describe('wrong lanes a breaker found', () => {
  it.each([
    ["an abort word behind a relay's 503 is no caller abort", { status: 503, body: 'upstream request aborted' }, 'overloaded'],
    ["Go's context canceled behind a relay's 502 is no caller abort", { status: 502, body: '{"error":{"message":"context canceled"}}' }, 'server_error'],
    ['"Not found the model X" is model_not_found, not the permission words beside it', { status: 404, body: 'Not found the model foo-8k or Permission denied' }, 'model_not_found'],
    ['max_tokens over the completion limit is format, not an overflow', { status: 400, body: 'max_tokens is too large: 9999. This model supports at most 4096 completion tokens' }, 'format'],
    ['a ban for violating the usage policy is permanent, not a refusal', { status: 403, body: 'This account has been suspended for violating our usage policy.' }, 'auth_permanent'],
    ['an expired login session under a 401 is auth', { status: 401, body: 'Your session has expired.' }, 'auth'],
    ['an expired session that asks to sign in again is auth', { body: 'Session expired. Please sign in again.' }, 'auth'],
    ["OpenAI's model_not_found code under a 403 (no access to the model) is auth", { status: 403, body: '{"error":{"message":"Project p1 does not have access to model m1","code":"model_not_found"}}' }, 'auth'],
    ["Bedrock's missing use-case details are auth", { status: 404, body: 'Model use case details have not been submitted for this account.' }, 'auth'],
    ['a credential only authorised for another product is permanent', { status: 400, body: 'This credential is only authorized for use with the desktop app.' }, 'auth_permanent'],
    ['a key reported as leaked is permanent', { status: 403, body: 'Your API key was reported as leaked. Please use another API key.' }, 'auth_permanent'],
    ["MiniMax's error in a 200 (base_resp) is read as an error", { status: 200, body: '{"choices":null,"base_resp":{"status_code":1008,"status_msg":"insufficient balance"}}' }, 'billing'],
    ["Tencent Cloud's Response.Error is read as an error", { status: 200, body: '{"Response":{"Error":{"Code":"LimitExceeded","Message":"Requests exceed the rate limit"},"RequestId":"r1"}}' }, 'rate_limit'],
    ["Volcengine's glued sensitive-content code is a refusal", { status: 400, body: '{"error":{"code":"InputTextSensitiveContentDetected"}}' }, 'refusal'],
    ["a Groq model's failed tool call is no request fault", { status: 400, body: '{"error":{"code":"tool_use_failed","message":"Failed to call a function."}}' }, 'server_error'],
  ])('%s', (_name, failure, reason) => {
    expect(explain(failure).reason).toBe(reason);
  });

  it('a negative Retry-After is ignored, not "retry now"', () => {
    expect(classifyFailure({ status: 429, headers: { 'retry-after': '-5' } }, { nowMs: Date.UTC(2026, 0, 1) }).retryAfterMs).toBeNull();
  });
});

describe('inputs that used to throw or cost too much never throw', () => {
  it('deeply nested brackets are unclassified, not a stack overflow', () => {
    const deep = `${'['.repeat(15000)}${']'.repeat(15000)}`;
    for (const failure of [{ body: deep }, { status: 200, body: deep }, { body: `data: ${deep}` }, { message: `Error: 500 ${deep}` }]) {
      expect(() => classifyFailure(failure)).not.toThrow();
    }
  });

  it('a hostile object is read by its status when it has one', () => {
    const hostile = { status: 429, get body(): string { throw new Error('getter'); } };
    const result = classifyFailure(hostile);
    expect(result.reason).toBe('rate_limit');
    expect(result.detail).toBe('unreadable_input.status.429');
  });

  it('thousands of headers are read (the first ones) and the Retry-After among them found', () => {
    const headers: Record<string, string> = { 'Retry-After': '7' };
    for (let index = 0; index < 20000; index += 1) headers[`x-h-${index}`] = 'v';
    expect(classifyFailure({ status: 429, headers }).retryAfterMs).toBe(7000);
  });

  it('a Python-literal bomb is read as text', () => {
    const bomb = `x {{{{'a': ${'None, '.repeat(6000)}} tail`;
    expect(() => classifyFailure({ body: bomb, message: bomb })).not.toThrow();
  });
});

describe('generated text in a stream printed cut short', () => {
  it('is no error: error words a model wrote inside an unfinished chunk array decide nothing', () => {
    const body = '[{"candidates":[{"content":{"role":"model","parts":[{"text":"If you see "}]}}]},{"candidates":[{"content":{"role":"model","parts":[{"text":"Your credit balance is too low to access the API, top up';
    expect(classifyFailure({ status: 200, body }).reason).toBe('unclassified');
  });
});
