import { describe, expect, it } from 'vitest';
import { HEAD_WINDOW_CHARS, TAIL_WINDOW_CHARS, boundedWindow, htmlToText, prepareText, unescapeAndCollapse, withoutTracebackFrames } from './normalize-text.js';
import { extractCodeTokens, extractFinishReasons } from './tokens.js';

describe('boundedWindow (linear time: scan a bounded window of huge bodies)', () => {
  it('keeps short texts whole', () => {
    expect(boundedWindow('abc')).toBe('abc');
  });
  it('keeps the head and the tail of long texts', () => {
    const text = `HEAD${'x'.repeat(200_000)}TAIL`;
    const window = boundedWindow(text);
    expect(window.length).toBe(HEAD_WINDOW_CHARS + TAIL_WINDOW_CHARS + 1);
    expect(window.startsWith('HEAD')).toBe(true);
    expect(window.endsWith('TAIL')).toBe(true);
  });
});

describe('unescapeAndCollapse (JSON nested or stringified inside messages)', () => {
  it('decodes escaped quotes at any depth', () => {
    expect(unescapeAndCollapse('{\\"a\\":\\\\\\"b\\\\\\"}')).toBe('{"a":"b"}');
  });
  it('turns escaped and real line breaks into single spaces', () => {
    expect(unescapeAndCollapse('a\\n  b\n\n\tc')).toBe('a b c');
  });
  it('decodes unicode escapes and straightens curly quotes', () => {
    expect(unescapeAndCollapse('\\u9519\\u8bef OpenAI\u2019s')).toBe("错误 OpenAI's");
  });
  it('drops soft hyphens and zero-width characters inside words, written or escaped', () => {
    expect(unescapeAndCollapse('rate\u00adlimit too\u200bmany re\u200dquests\ufeff')).toBe('ratelimit toomany requests');
    expect(unescapeAndCollapse('слишком мно\u00adго запросов')).toBe('слишком много запросов');
    expect(unescapeAndCollapse('zero\\u200bwidth')).toBe('zerowidth');
    expect(unescapeAndCollapse('a \u200b b')).toBe('a b');
  });
  it('keeps an unmatched trailing backslash harmless', () => {
    expect(unescapeAndCollapse('abc\\')).toBe('abc');
  });
});

describe('htmlToText (HTML error pages from proxies)', () => {
  it('keeps visible text, drops tags, scripts, styles and comments', () => {
    const page = '<html><head><title>502 Bad Gateway</title><style>h1{x:1}</style><script>var rate_limit=1</script></head><!-- overloaded --><body><h1>Bad&nbsp;Gateway</h1></body></html>';
    expect(unescapeAndCollapse(htmlToText(page))).toBe('502 Bad Gateway Bad Gateway');
  });
  it('prepareText detects a page after a prefix', () => {
    const prepared = prepareText('API Error (520 <!DOCTYPE html><html><title>520: Web server is returning an unknown error</title></html>');
    expect(prepared.html).toBe(true);
    expect(prepared.text).toBe('API Error (520 520: Web server is returning an unknown error');
  });
  it('does not treat a parse error that quotes "<!DOCTYPE" as a page', () => {
    expect(prepareText('Unexpected token \'<\', "<!DOCTYPE "... is not valid JSON').html).toBe(false);
  });
});

describe('code tokens', () => {
  it('reads type/code values in JSON, Python repr, Go maps and Rust debug prints', () => {
    const tokens = extractCodeTokens(
      `{"type":"overloaded_error"} {'code': 'rate_limit_exceeded'} map[code:model_not_found] error { code: "throttlingexception" }`,
    );
    for (const token of ['overloaded_error', 'rate_limit_exceeded', 'model_not_found', 'throttlingexception']) expect(tokens).toContain(token);
  });
  it('reads exception class names', () => {
    expect(extractCodeTokens('botocore.errorfactory.accessdeniedexception: x')).toContain('accessdeniedexception');
  });
  it('does not read a longer identifier as a shorter code', () => {
    expect(extractCodeTokens('"content_filter_results": {}')).not.toContain('content_filter');
  });
  it('reads finish reasons', () => {
    expect([...extractFinishReasons('provider finish_reason: network_error')]).toEqual(['network_error']);
    expect([...extractFinishReasons('"finishreason": "safety"')]).toEqual(['safety']);
  });
});

describe('withoutTracebackFrames (a traceback frame is code, not the failure)', () => {
  // (each frame removed leaves its line break: the text reads the same once white space is collapsed)
  it('drops each frame with the lines indented under it, and keeps the header and the exception line', () => {
    const trace = 'Traceback (most recent call last):\n  File "/app/bot.py", line 47, in reply\n    request_timeout=request_timeout,\n  File "/lib/api_core/timeout.py", line 120, in func_with_timeout\n    return func(*args, **kwargs)\n           ^^^^^^^^^^^^^^^^^^^^^\nopenai.error.APIError: The server had an error';
    expect(withoutTracebackFrames(trace)).toBe('Traceback (most recent call last):\n\n\nopenai.error.APIError: The server had an error');
  });
  it("drops Python 3.13's multi-line source and frames without source, with CRLF line breaks", () => {
    const trace = 'Traceback (most recent call last):\r\n  File "C:\\app\\main.py", line 9, in <module>\r\n    client.create(\r\n    ...<3 lines>...\r\n        timeout,\r\n    )\r\n  File "ssl.py", line 975, in do_handshake\r\nInternalServerError: 500 An internal error has occurred';
    expect(withoutTracebackFrames(trace)).toBe('Traceback (most recent call last):\r\n\r\n\r\nInternalServerError: 500 An internal error has occurred');
  });
  it('drops frames whose line breaks are escaped inside a JSON string', () => {
    const body = '{"detail":"Traceback (most recent call last):\\n  File \\"/srv/app.py\\", line 3, in handler\\n    raise_rate_limit_alarm()\\nRuntimeError: worker crashed"}';
    expect(withoutTracebackFrames(body)).toBe('{"detail":"Traceback (most recent call last):\\n\\nRuntimeError: worker crashed"}');
  });
  it('keeps chained-exception lines and leaves texts without a traceback alone', () => {
    const chained = '\n  File "a.py", line 1, in f\n    g()\nKeyError: x\n\nDuring handling of the above exception, another exception occurred:\n\n  File "b.py", line 2, in h\nTimeoutError: timed out';
    expect(withoutTracebackFrames(chained)).toBe('\n\nKeyError: x\n\nDuring handling of the above exception, another exception occurred:\n\n\nTimeoutError: timed out');
    expect(withoutTracebackFrames('File "x" not found')).toBe('File "x" not found');
  });
});
