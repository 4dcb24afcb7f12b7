import { describe, expect, it } from 'vitest';
import { statedStatus } from './stated-status.js';

describe('statedStatus (docs/contracts.md#classify: a status the text states)', () => {
  it.each([
    ['429 rate limit reached for gpt-4.1', 429],
    ['http 402: payment required', 402],
    ['http/1.1 404 not found', 404],
    ['http/2 429 (no retry-after header)', 429],
    ['upstream failed with status code 503', 503],
    ["{'status_code': 400, 'headers': {}}", 400],
    ['"http_status": 403', 403],
    ['error code: 404 - {...}', 404],
    ['500: azureexception notfounderror - error code: 404 - {...}', 404],
    ['api error (520 <!doctype html>', 520],
    ['api.example.com | 524: a timeout occurred', 524],
    ['ollama api error 400: {"error":"x"}', 400],
    ['[400] bad request', 400],
    ['{"error":{"code":429,"message":"x"}}', 429],
    ['529 {"type":"error"}', 529],
    ['apicallerror [ai_apicallerror]: not found at /app/node_modules/x.js:1:1', 404],
    ['clientexception: bad gateway', 502],
    ['error: toomanyrequests', 429],
    ['exception: serviceunavailable', 503],
    ['pluginexception: test plugin[x] :: forbidden', 403],
    ['fields={"message":"invalid request:{\\"detail\\":\\"not found\\"}"}', 404],
    ['error: in openrouter api call (attempt 1/3): 400 provider returned error', 400],
    ['error: request failed with status code 429.', 429],
    ['the server responded with a status of 404 ().', 404],
    ['{"error":{"message":" (request id: 1)","type":"upstream_error","param":"502","code":"bad_response_status_code"}}', 502],
    ['[gin] 2024/05/25 - 02:20:27 | 2024052502202733503658994402104 | 429 |   94.35ms | 10.0.0.1 | post /v1/chat', 429],
    ['[gin] 2024/05/25 - 02:20:27 | 503 |   1.7ms | 10.0.0.1 | post /v1/chat', 503],
    ['http code 401 from api (<html> …', 401],
    ['<head><title>401 authorization required</title></head>', 401],
    ['127.0.0.1 - - [01/jan/2026 10:00:00] "post /v1/chat/completions http/1.1" 503 -', 503],
    ['10.0.0.2 - - "get /v1/models http/2" 429 12', 429],
    ['responsestatuserror: response 502: <html> <head>', 502],
    ['api error (429): too many requests · retrying in 4s', 429],
    ['openrouter request failed: 429', 429],
    ['模型 x 错误码: 429, 等待 40秒后重试', 429],
    ['connector: http error: not found', 404],
    ['org.springframework.ai.retry.nontransientaiexception: 404', 404],
    ['httpclienterrorexception: 401 - unauthorized', 401],
    ['not found: {"error":{"code":"api_not_supported"}}', 404],
    ['bad gateway', 502],
    ['too many requests: slow down', 429],
    ['error from the ai: not found\ndetails: {"detail":"not found"}', 404],
    ['{"detail": "method not allowed"}', 405],
    ["googlegenerativeaierror('error embedding content: 504 deadline exceeded') \"put /settings http/1.1\" 400 bad request", 504],
  ])('%s → %i', (text, status) => {
    expect(statedStatus(text)).toBe(status);
  });

  it.each([
    'limit: 100 requests per minute',
    'requested 400 tokens, limit 30000',
    'socket hang up',
    'in 174ms',
    'status: resource_exhausted',
    '"get /health http/1.1" 200 2',
    'the page was not found: check the url',
    'exception: 4096 tokens',
    'failed to connect to api.example.com port 443: connection timed out',
    '{"detail":"model not found in the registry"}',
    'batch 408 deadline exceeded',
    '',
  ])('%s → null', (text) => {
    expect(statedStatus(text)).toBeNull();
  });
});

describe('ports and operating-system error numbers are no status (a breaker\'s findings)', () => {
  it.each([
    'failed to connect to api.openai.com:443: connection timed out',
    'tcp connect error: 142.250.1.1:443: connection timed out (os error 110)',
    'dial 10.1.2.3:429: connection timed out',
  ])('%s → null', (text) => {
    expect(statedStatus(text)).toBeNull();
  });
  it('a leading reason phrase outranks a Starlette body after it', () => {
    expect(statedStatus('internal server error: {"detail":"not found"}')).toBe(500);
  });
});
