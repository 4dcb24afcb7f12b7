import { describe, expect, it } from 'vitest';
import { explain } from '../test-support/classify.js';
import { looksLikeFormattedAnswer, withoutGeneratedText } from './completion-body.js';

describe('completion bodies: the model\'s own words are not the provider\'s error', () => {
  it('blanks generated text and keeps the structure', () => {
    expect(withoutGeneratedText('{"choices":[{"message":{"content":"rate limits explained"},"finish_reason":"stop"}]}')).toBe(
      '{"choices":[{"message":{"content":""},"finish_reason":"stop"}]}',
    );
  });

  it('an answer that holds only reasoning is empty: the caller sees no answer', () => {
    expect(explain({ status: 200, body: '{"choices":[{"message":{"role":"assistant","content":"","reasoning_content":"Let me think"},"finish_reason":"length"}]}' }).reason).toBe('empty_response');
    expect(explain({ status: 200, body: '{"type":"message","content":[{"type":"thinking","thinking":"hmm"}],"stop_reason":"end_turn"}' }).reason).toBe('empty_response');
    // reasoning beside an answer or a tool call is an answer
    expect(explain({ status: 200, body: '{"choices":[{"message":{"content":"42","reasoning_content":"think"},"finish_reason":"stop"}]}' }).reason).toBe('unclassified');
    expect(explain({ status: 200, body: '{"choices":[{"message":{"content":null,"reasoning":"x","tool_calls":[{"id":"c"}]},"finish_reason":"tool_calls"}]}' }).reason).toBe('unclassified');
  });

  it('leaves error objects, non-JSON and non-completion bodies alone', () => {
    for (const body of ['{"error":{"message":"rate limit"},"choices":[]}', 'event: error', '{"message":"Unauthorized"}', '[1]', '{bad']) {
      expect(withoutGeneratedText(body)).toBe(body);
    }
  });

  it('an answer that talks about rate limits inside a 200 is not a rate limit', () => {
    const body = '{"choices":[{"message":{"role":"assistant","content":"Here is how to handle a rate limit"},"finish_reason":"stop"}]}';
    expect(explain({ status: 200, body }).reason).toBe('unclassified');
  });

  it('still reads finish reasons and empty lists of a 200 completion', () => {
    expect(explain({ status: 200, body: '{"choices":[{"message":{"content":null},"finish_reason":"content_filter"}]}' }).reason).toBe('refusal');
    // No output beside the model's stated refusal (OpenAI structured outputs, Responses refusal items): a refusal, not an empty answer.
    expect(explain({ status: 200, body: '{"choices":[{"message":{"role":"assistant","content":null,"refusal":"Not something I can do."},"finish_reason":"stop"}]}' }).reason).toBe('refusal');
    expect(explain({ status: 200, body: '{"object":"response","status":"completed","output":[{"type":"message","content":[{"type":"refusal","refusal":"No."}]}]}' }).reason).toBe('refusal');
    // A refusal field that is null beside no output stays an empty answer.
    expect(explain({ status: 200, body: '{"choices":[{"message":{"content":"","refusal":null},"finish_reason":"stop"}]}' }).reason).toBe('empty_response');
    expect(explain({ status: 200, body: '{"choices":[],"usage":null}' }).reason).toBe('empty_response');
  });

  it('a plain text laid out as a formatted answer (Markdown headings) is the model\'s words, not billing', () => {
    const answer = 'Sure! Here is how billing works.\n\n## Payment\n\nManage credits and upgrade your plan.\n\n## Credits\n\nHandle insufficient balance cases.';
    expect(looksLikeFormattedAnswer(answer)).toBe(true);
    expect(explain({ message: answer }).reason).toBe('unclassified');
    expect(explain({ message: answer }).detail).toBe('completion.formatted_answer');
  });

  it("a failure report's or an issue template's section headings are no formatted answer", () => {
    const report = 'openai.error.RateLimitError: You exceeded your current quota.\n\n### App Versions\n{}\n### Route\nbot\n### Traceback\nFile "api.py"';
    expect(looksLikeFormattedAnswer(report)).toBe(false);
    expect(explain({ message: report }).reason).toBe('billing');
    const issue = '## Describe the bug\nThe chat stops.\n\n## To Reproduce\n1. send a message\n\n## Error\n429 Too Many Requests';
    expect(explain({ message: issue }).reason).toBe('rate_limit');
    // an answer's own section names still count
    expect(looksLikeFormattedAnswer('## Pricing tiers\n\ntext\n\n## Upgrading your plan\n\ntext')).toBe(true);
  });

  it('one heading, an error status, a code or an error object keep the text an error', () => {
    expect(looksLikeFormattedAnswer('## Error\n\ninsufficient credits')).toBe(false);
    const answer = '## Payment\n\ninsufficient credits\n\n## Credits\n\nbuy more credits';
    expect(explain({ status: 402, message: answer }).reason).toBe('billing');
    expect(explain({ code: 'insufficient_quota', message: answer }).reason).toBe('billing');
  });

  it('error statuses are read as they are', () => {
    expect(explain({ status: 429, body: '{"content":"Rate limit exceeded"}' }).reason).toBe('rate_limit');
  });
});

describe("Ollama's native answers", () => {
  it('a finished /api/chat answer with empty content is empty, one with content is an answer', () => {
    expect(explain({ status: 200, body: '{"model":"m","message":{"role":"assistant","content":""},"done":true}' }).reason).toBe('empty_response');
    expect(explain({ status: 200, body: '{"model":"m","response":"","done":true,"eval_count":1}' }).reason).toBe('empty_response');
    expect(explain({ status: 200, body: '{"model":"m","message":{"role":"assistant","content":"rate limits, explained"},"done":true}' }).reason).toBe('unclassified');
  });
});

describe("providers' native answers: their generated words are the model's", () => {
  // Each answer's text speaks of a failure; the body is a success all the same.
  const answers: readonly (readonly [string, string])[] = [
    ['Bedrock Titan', '{"inputTextTokenCount":5,"results":[{"tokenCount":9,"outputText":"Your quota is exceeded, upgrade your plan.","completionReason":"FINISH"}]}'],
    ['Bedrock Llama', '{"generation":"The server is overloaded right now.","prompt_token_count":5,"generation_token_count":9,"stop_reason":"stop"}'],
    ['legacy text completion', '{"type":"completion","completion":" The API key is invalid when it was revoked.","stop_reason":"stop_sequence"}'],
    ['Bedrock Mistral', '{"outputs":[{"text":"Too many requests means slow down.","stop_reason":"stop"}]}'],
    ['Hugging Face', '[{"generated_text":"Rate limit exceeded is an error you retry."}]'],
    ['Vertex PaLM', '{"predictions":[{"content":"insufficient credits: top up your account","safetyAttributes":{"blocked":false}}]}'],
    ['Vertex PaLM, strings', '{"predictions":["Access denied means the key lacks a role."]}'],
    ['Cohere generate', '{"id":"1","generations":[{"id":"g","text":"quota exceeded errors explained"}]}'],
    ['Cohere chat v2', '{"id":"a","message":{"role":"assistant","content":[{"type":"text","text":"Too many requests happen when"}]},"finish_reason":"COMPLETE"}'],
    ['AI21', '{"id":1,"completions":[{"data":{"text":"the model is overloaded, try later"},"finishReason":{"reason":"endoftext"}}]}'],
    ['Replicate', '{"id":"p1","status":"succeeded","output":["Too many ","requests, you were throttled."]}'],
    ['Cloudflare Workers AI', '{"result":{"response":"You hit the rate limit, sorry."},"success":true,"errors":[],"messages":[]}'],
    ['Hunyuan', '{"Response":{"Choices":[{"Message":{"Role":"assistant","Content":"余额不足 means insufficient balance"},"FinishReason":"stop"}],"RequestId":"r"}}'],
    ['ERNIE', '{"id":"as-1","object":"chat.completion","created":1,"result":"服务器内部错误 internal server error, explained","is_truncated":false}'],
  ];

  it.each(answers)('%s: an answer, not the failure its words name', (_name, body) => {
    expect(explain({ status: 200, body }).reason).toBe('unclassified');
  });

  it('the same shapes without output are empty, and a filtered Titan answer is a refusal', () => {
    expect(explain({ status: 200, body: '{"id":"p1","status":"succeeded","output":[]}' }).reason).toBe('empty_response');
    expect(explain({ status: 200, body: '{"results":[{"tokenCount":0,"outputText":"","completionReason":"FINISH"}]}' }).reason).toBe('empty_response');
    expect(explain({ status: 200, body: '{"results":[{"tokenCount":0,"outputText":"","completionReason":"CONTENT_FILTERED"}]}' }).reason).toBe('refusal');
  });

  it('their failures are still failures', () => {
    expect(explain({ status: 200, body: '{"id":"p1","status":"failed","error":"CUDA out of memory","output":null}' }).reason).toBe('server_error');
    expect(explain({ status: 200, body: '{"Response":{"Error":{"Code":"LimitExceeded","Message":"请求频率超限"},"RequestId":"r"}}' }).reason).toBe('rate_limit');
    expect(explain({ status: 200, body: '{"result":null,"success":false,"errors":[{"code":3040,"message":"Capacity temporarily exceeded, please try again."}]}' }).reason).toBe('overloaded');
  });

  it("a relay's printed choice whose string content is the error it wrapped is read as that error", () => {
    const body = '[{"index":0,"message":{"role":"assistant","content":"错误: API请求失败 (429): {\\"error\\":{\\"code\\":429,\\"status\\":\\"RESOURCE_EXHAUSTED\\"}}"},"finish_reason":"stop"}]';
    expect(explain({ status: 200, body }).reason).toBe('rate_limit');
  });
});
