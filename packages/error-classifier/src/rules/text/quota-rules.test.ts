import { describe, expect, it } from 'vitest';
import { expectRuleCase, explain } from '../../test-support/classify.js';
import type { RuleCase } from '../../test-support/classify.js';

describe('billing (seed: credit exhaustion is billing whatever the status)', () => {
  const cases: RuleCase[] = [
    ['an Anthropic out-of-credit message under 400 is billing', { status: 400, body: '{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the API."}}' }, 'billing', 'text.billing'],
    ['a spend cap at its "maximum allowed" that a payment lifts is billing (Together 402), not a window', { status: 402, body: 'The account associated with this API key has reached its maximum allowed monthly spending limit.' }, 'billing', 'text.billing'],
    ['an OpenAI quota message under 429 is billing, not a rate limit', { provider: 'openai', status: 429, body: '429 You exceeded your current quota, please check your plan and billing details.' }, 'billing', 'text.billing'],
    ['explicit billing text under 401 stays billing', { status: 401, body: 'Your subscription has expired. Please renew.' }, 'billing', 'text.billing'],
    ['explicit billing text under 403 stays billing', { status: 403, message: 'Access denied due to overdue account' }, 'billing', 'text.billing'],
    ['"suspended due to insufficient balance" is billing, not a ban', { status: 429, body: 'Your account is suspended due to insufficient balance, please recharge' }, 'billing', 'text.billing'],
    ['Chinese "balance insufficient, please recharge" is billing', { status: 429, body: '余额不足或无可用资源包,请充值。' }, 'billing', 'text.billing'],
    ['a bare 402 without text is billing', { status: 402, body: '' }, 'billing', 'status.402'],
    ['credits exhaustion wins over a mention of a monthly spending limit', { status: 403, body: 'Your team has either used all available credits or reached its monthly spending limit.' }, 'billing', 'text.billing'],
    ['"add 10 credits to unlock" a daily free-model window is not a billing failure', { status: 429, body: 'Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model requests per day' }, 'rate_limit'],
  ];
  it.each(cases)('%s', (_sentence, failure, reason, rule) => {
    const result = explain(failure);
    expect(result.reason).toBe(reason);
    if (rule !== undefined) expect(result.detail).toBe(rule);
  });
});

describe('periodic usage windows (seed: temporary 402 usage-window and spend limits are rate limits)', () => {
  const cases: RuleCase[] = [
    ['"weekly usage limit exhausted" under 402 is a rate limit', { status: 402, body: 'Weekly usage limit exhausted for this workspace.' }, 'rate_limit', 'text.usage_window'],
    ['"daily limit reached, resets tomorrow" under 402 is a rate limit', { status: 402, body: 'Daily limit reached, resets tomorrow.' }, 'rate_limit', 'text.usage_window'],
    ['"organization spending limit exceeded" under 402 is a rate limit', { status: 402, body: 'Organization spending limit exceeded.' }, 'rate_limit', 'text.usage_window'],
    ['"monthly limit exhausted" without a status is a rate limit', { body: 'Monthly limit exhausted for your plan.' }, 'rate_limit', 'text.usage_window'],
    ['a 5-hour usage window with a reset time is a rate limit', { status: 429, body: 'Usage limit reached for 5 hour. Your limit will reset at 2026-09-09 05:38:28' }, 'rate_limit', 'text.usage_window'],
    ['a monthly spend cap the user set is a window, not billing', { body: "You've hit your monthly spend limit · raise it in settings" }, 'rate_limit', 'text.usage_window'],
  ];
  it.each(cases)('%s', (_sentence, failure, reason, rule) => {
    const result = explain(failure);
    expect(result.reason).toBe(reason);
    expect(result.detail).toBe(rule);
    expect(result.cooldownScope).toBe('model');
  });
});

describe('rate limits (seed: the bucket is broader than plain 429)', () => {
  const cases: RuleCase[] = [
    ['"Too many concurrent requests" is a rate limit', { body: 'Too many concurrent requests' }, 'rate_limit', 'text.rate_limit'],
    ['"ThrottlingException" is a rate limit', { message: 'ThrottlingException: Rate exceeded' }, 'rate_limit', 'bedrock.throttling_exception'],
    ['"concurrency limit reached" is a rate limit', { body: 'concurrency limit reached for this key' }, 'rate_limit', 'text.rate_limit'],
    ['"workers_ai ... quota limit exceeded" is a rate limit', { body: 'workers_ai: quota limit exceeded' }, 'rate_limit', 'text.rate_limit'],
    ['"throttled" is a rate limit', { body: 'Request throttled, retry later' }, 'rate_limit', 'text.rate_limit'],
    ['"resource exhausted" is a rate limit', { body: 'Resource has been exhausted (e.g. check quota).' }, 'rate_limit', 'text.rate_limit'],
    ['a tokens-per-minute "request too large" is a rate limit, not a context overflow', { status: 429, body: 'Request too large for gpt-4o on tokens per min (TPM): Limit 30000, Requested 31538.' }, 'rate_limit', 'text.rate_limit'],
    ['a bare 429 is a rate limit', { status: 429, body: '429 status code (no body)' }, 'rate_limit', 'status.429'],
  ];
  it.each(cases)('%s', (_sentence, failure, reason, rule) => {
    const result = explain(failure);
    expect(result.reason).toBe(reason);
    if (rule !== undefined) expect(result.detail).toBe(rule);
  });
});

describe('overloaded (docs/policy.md#failover-reasons: capacity)', () => {
  const cases: RuleCase[] = [
    ['503 "service unavailable" is capacity', { status: 503, body: 'Service Unavailable' }, 'overloaded'],
    ['529 is capacity', { status: 529, body: '' }, 'overloaded', 'status.529'],
    ['"at capacity" is capacity even typed invalid_request_error', { status: 200, body: '{"error":{"message":"Selected model is at capacity.","type":"invalid_request_error"}}' }, 'overloaded', 'text.overloaded'],
    ['"high demand" is capacity', { body: 'This model is currently experiencing high demand.' }, 'overloaded', 'text.overloaded'],
    ['overload wording on a 400 is still capacity', { status: 400, body: 'Our servers are currently overloaded. Please try again later.' }, 'overloaded', 'text.overloaded'],
    ['a bare "model is not ready" without the Bedrock exception or "for inference" names no capacity fact', { body: 'model is not ready' }, 'unclassified', 'unclassified'],
    ['a model that is not ready (ModelNotReadyException) is capacity, not a rate limit', { status: 429, body: 'Model is not ready for inference. Wait and try your request again' }, 'overloaded', 'text.overloaded'],
    ['capacity wording inside a "Rate limit exceeded" wrapper is capacity', { body: 'Rate limit exceeded: The engine is currently overloaded, please try again later' }, 'overloaded', 'text.overloaded'],
  ];
  it.each(cases)('%s', (_sentence, failure, reason, rule) => {
    const result = explain(failure);
    expect(result.reason).toBe(reason);
    if (rule !== undefined) expect(result.detail).toBe(rule);
    expect(result.cooldownScope).toBe('profile');
  });
});

describe('shapes from the fourth public set (provider-errors-4, dev rows)', () => {
  const cases: RuleCase[] = [
    ['a model "<name> is currently loading" is capacity, not unclassified', { body: "{'error': 'Model acme/tiny-1 is currently loading', 'estimated_time': 20.0}" }, 'overloaded', 'text.overloaded'],
    ['a glued RequestLimitExceeded code is a rate limit', { body: 'code:RequestLimitExceeded message: per-second cap reached' }, 'rate_limit', 'tencent.request_limit_exceeded'],
    ['Chinese "requests too fast" is a rate limit', { body: '请求速度过快，请稍后再试' }, 'rate_limit', 'text.rate_limit'],
    ['Chinese "per-second frequency ceiling" is a rate limit', { body: '超过了每秒频率上限' }, 'rate_limit', 'text.rate_limit'],
  ];
  it.each(cases)('%s', (_sentence, failure, reason, rule) => {
    const result = explain(failure);
    expect(result.reason).toBe(reason);
    if (rule !== undefined) expect(result.detail).toBe(rule);
  });
});

describe('shapes from the fifth public set (provider-errors-5, dev rows)', () => {
  const cases: RuleCase[] = [
    ['a used-up resource pack is billing', { body: 'code:UnsupportedOperation.PkgExhausted message:The resource package has been exhausted' }, 'billing', 'text.billing'],
    ['a glued overdue-account code under a 403 is billing', { body: 'AccountOverdueError: 403 Forbidden' }, 'billing', 'text.billing'],
    ['an inner "unexpected status code 429" under a wrapper 400 is a rate limit', { body: 'failed with 400 Bad Request: upstream check failed: unexpected status code 429' }, 'rate_limit', 'text.rate_limit'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('shapes from the sixth public set (provider-errors-6, dev rows)', () => {
  const cases: RuleCase[] = [
    ['a relay\'s user quota that is not enough is billing (prepaid), also under a stated 403', { body: 'pre-consume failed: {Message:user quota is not enough Code:insufficient_user_quota} StatusCode:403' }, 'billing', 'text.billing'],
    ['a failed quota pre-consumption is billing', { body: 'chat pre-consumed quota failed, user quota: 10, need quota: 20' }, 'billing', 'text.billing'],
    ['DashScope "exceeded your current requests list" is a rate limit', { body: 'Throttling: You exceeded your current requests list.' }, 'rate_limit', 'text.rate_limit'],
    ['a Chinese N-hour usage ceiling with a spaced digit is a window', { body: '[1308][已达到 3 小时的使用上限]' }, 'rate_limit', 'text.usage_window'],
    ['Chinese "load saturated" under a 429 is a rate limit', { status: 429, body: '上游负载已饱和，请稍后再试' }, 'rate_limit'],
    ['Chinese "load saturated" without a status stays capacity', { body: '上游负载已饱和，请稍后再试' }, 'overloaded', 'text.overloaded'],
    ['"model X is still loading" stays capacity; "the model. error loading model" does not', { body: 'model acme-7b is still loading' }, 'overloaded', 'text.overloaded'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('shapes from the seventh public set (provider-errors-7, dev rows)', () => {
  const cases: RuleCase[] = [
    ['a limiter\'s "N per M minute" is a rate limit', { body: 'Error: 10 per 1 minute' }, 'rate_limit', 'text.rate_limit'],
    ['"N per hour" without a count of units is a rate limit too', { body: 'limit exceeded: 200 per hour' }, 'rate_limit', 'text.rate_limit'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('"exceeded your current quota" decides by provider (reference vectors; provider-errors-8 pass)', () => {
  const cases: RuleCase[] = [
    ['the bare words with no provider are a quota window', { body: 'you have exceeded your current quota' }, 'rate_limit', 'text.rate_limit'],
    ['the words from OpenAI are its insufficient_quota: billing', { provider: 'openai', body: 'You exceeded your current quota, please check your plan.' }, 'billing', 'text.billing'],
    ['the words relayed with OpenAI named in the text are billing', { provider: 'my-relay', body: 'OpenAIException - You exceeded your current quota.' }, 'billing', 'text.billing'],
    ['the words from another provider are a quota window', { provider: 'acme-cloud', body: 'Error: you exceeded your current quota for today' }, 'rate_limit'],
    ['the insufficient_quota code still decides billing whoever sends it', { provider: 'acme-cloud', body: '{"error":{"message":"You exceeded your current quota.","code":"insufficient_quota"}}' }, 'billing'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('capacity offered as a guess (provider-errors-9, provider documentation, dev rows)', () => {
  it('a timeout "possibly due to server overload" is the stated timeout', () => {
    expect(explain({ status: 408, body: 'The call took too long, probably due to server overload.' }).reason).toBe('timeout');
  });
  it('a plain overload is still capacity', () => {
    expect(explain({ status: 503, body: 'The server is overloaded right now.' }).reason).toBe('overloaded');
  });
});

describe('quota and capacity families from the tenth set (provider-errors-10, dev rows), in other words', () => {
  const cases: RuleCase[] = [
    ["a relay token's quota that cannot cover the request is billing, even under a stated 403", { message: 'API Error: 403 {"error":{"message":"token quota is not enough, need quota: $0.20"}}' }, 'billing', 'text.billing'],
    ['Chinese: a failed pre-charge of the remaining allowance is billing', { message: '预扣费失败, 剩余额度不够' }, 'billing', 'text.billing'],
    ['keeping a positive balance / buying credits is billing', { body: 'This model needs tier 3. Make sure you have a positive balance.' }, 'billing', 'text.billing'],
    ['included credits exceeded is billing', { body: 'You have exceeded your included credits for this month.' }, 'billing', 'text.billing'],
    ['used all your tokens is billing', { status: 403, body: 'You have used all your 1000000 tokens.' }, 'billing', 'text.billing'],
    ['paused trials are billing', { body: 'Free trials have been paused. Upgrade to continue.' }, 'billing', 'text.billing'],
    ['a high volume of traffic is capacity', { message: 'This model is experiencing a high volume of requests right now.' }, 'overloaded', 'text.overloaded'],
    ['backpressure is capacity', { message: 'request rejected: backpressure (queue length 64)' }, 'overloaded', 'text.overloaded'],
    ["a server's full queue is capacity", { status: 503, body: 'The inference queue is full, try later.' }, 'overloaded'],
    ["a per-client queue that is full is the caller's limit", { body: 'Queue full for user 42: 2 requests already queued (max: 2)' }, 'unclassified'],
    ['a hosted function in a degraded state is capacity even under a 400', { status: 400, body: '{"detail":"Function abc: DEGRADED function cannot be invoked"}' }, 'overloaded', 'text.overloaded'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('quota families found when the tenth set\'s held-back part was opened, in other words', () => {
  const cases: RuleCase[] = [
    ['an organisation max RPM is a rate limit', { message: 'your org reached max TPM: 60000, retry after 2s' }, 'rate_limit', 'text.rate_limit'],
    ["a gateway's exceeded budget is billing", { body: '{"error":{"message":"Budget has been exceeded for key sk-test-1","type":"budget_exceeded"}}' }, 'billing', 'text.billing'],
    ["LiteLLM's router with every deployment cooling down is a rate limit", { message: 'No deployments available for selected model. Passed model=x' }, 'rate_limit', 'text.rate_limit'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('quota and billing families from the eleventh set (provider-errors-11, dev rows), in other words', () => {
  const cases: RuleCase[] = [
    ['unpaid past invoices are billing, not the monthly window beside them', { body: 'Account acme is suspended due to failure to pay outstanding invoices or the monthly spending limit.' }, 'billing', 'text.billing'],
    ['a missing payment instrument is billing, not the access denial around it', { body: 'Access denied due to INVALID_PAYMENT_INSTRUMENT: add a payment method' }, 'billing', 'text.billing'],
    ['a free tier that needs a billing account linked is billing', { status: 400, body: 'This API is not available without a billing account linked.' }, 'billing', 'text.billing'],
    ['no credits remaining is billing', { message: 'No credits left on this key. Add credits to continue.' }, 'billing', 'text.billing'],
    ['out of usage credits is billing', { message: "You're out of API credits for this workspace." }, 'billing', 'text.billing'],
    ["OpenAI's credit_balance_exhausted code is billing whatever the client calls it", { message: 'Rate limit exceeded (code: credit_balance_exhausted)' }, 'billing', 'openai.credit_balance_exhausted'],
    ['an upgrade to a paid plan as the only way named is billing', { body: 'This feature needs a subscription. Please upgrade to a paid plan.' }, 'billing', 'text.billing'],
    ['a rate limit that suggests upgrading stays a rate limit', { status: 429, body: 'Rate limit reached for requests. Upgrade to Pro for higher limits.' }, 'rate_limit'],
    ['free usage exceeded is a window', { message: 'Free tier quota exhausted for today' }, 'rate_limit'],
    ['"you have reached the limit" is a window', { message: 'You have reached the request limit for this month.' }, 'rate_limit'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("billing families found when the eleventh set's held-back part was opened, in other words", () => {
  it('a service not available for personal accounts is billing, whatever status it comes with', () => {
    expect(explain({ status: 429, body: 'This service is not available to free accounts.' }).reason).toBe('billing');
  });
});

describe('quota and capacity families from the twelfth set (provider-errors-12, dev rows), in other words', () => {
  const cases: RuleCase[] = [
    ['too many messages is a rate limit', { message: 'You have sent too many messages, try later.' }, 'rate_limit', 'text.rate_limit'],
    ['too many tokens, please wait is a rate limit', { message: 'Too many tokens, please wait before trying again.' }, 'rate_limit', 'text.rate_limit'],
    ['Chinese: too many API requests is a rate limit, not the 500 around it', { message: '500: 当前调用过多，请稍后重试' }, 'rate_limit', 'text.rate_limit'],
    ['Chinese: a daily limit, try tomorrow, is a window', { message: '你已达到每日限制，请明天再试' }, 'rate_limit', 'text.usage_window'],
    ['"may indicate the origin is overloaded" is a guess beside a timeout', { message: 'Error 522: Connection timed out. This may indicate the server is overloaded.' }, 'timeout'],
    ["a front door's services not available right now is capacity", { body: "<h2>Our services aren't available right now</h2>" }, 'overloaded', 'text.overloaded'],
    ['Japanese: an insufficient balance is billing', { message: 'クレジットが不足しています' }, 'billing', 'text.billing'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("windows found when the twelfth set's held-back part was opened, in other words", () => {
  it('Chinese: a usage count that reached its ceiling is a window', () => {
    expect(explain({ message: '今日使用量已达上限，请稍后再试' }).reason).toBe('rate_limit');
  });
});

describe('quota and billing words in a vocabulary pass before the thirteenth set', () => {
  const cases: RuleCase[] = [
    ["AWS's bare 'Rate exceeded' is a rate limit", { message: 'ThrottledException: Rate exceeded.' }, 'rate_limit', 'text.rate_limit'],
    ['a maximum number of requests per hour is a rate limit', { message: 'You reached the maximum number of requests allowed per minute' }, 'rate_limit', 'text.rate_limit'],
    ['too many parallel requests is a rate limit', { message: 'Too many simultaneous requests from this key' }, 'rate_limit', 'text.rate_limit'],
    ['expired free credits are billing', { message: 'Your promotional credits have expired.' }, 'billing', 'text.billing'],
    ['a declined payment is billing', { message: 'Payment was declined for the last invoice' }, 'billing', 'text.billing'],
    ['a negative balance is billing', { message: 'Account balance is negative (-3.20 USD)' }, 'billing', 'text.billing'],
    ['add a payment method, with nothing else, is billing', { message: 'Add a payment method to keep using the API.' }, 'billing', 'text.billing'],
    ['a rate limit that suggests a payment method stays a rate limit', { status: 429, body: 'Rate limit reached on requests per day. Please add a payment method to your account to increase your rate limit.' }, 'rate_limit'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('families from the thirteenth set (provider-errors-13, dev rows), in other words', () => {
  const cases: RuleCase[] = [
    ['a model provider currently unavailable is capacity', { message: 'The model provider is temporarily unavailable.' }, 'overloaded', 'text.overloaded'],
    ['payment details to complete is billing, even under a 403', { status: 403, body: 'Free tier used up. Please complete your payment information to continue.' }, 'billing', 'text.billing'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("families found when the thirteenth set's held-back part was opened, in other words", () => {
  const cases: RuleCase[] = [
    ['a glued QuotaLimit code in a client message is a rate limit', { message: 'Request failed with error: QuotaLimitExceeded' }, 'rate_limit', 'text.rate_limit'],
    ["gRPC's Unavailable printed in a chain yields to a model that could not load", { message: 'could not load model: rpc error: code = Unavailable desc = error reading from server: EOF' }, 'server_error'],
    ["gRPC's Unavailable alone in a chain is still capacity", { message: 'rpc error: code = Unavailable desc = try later' }, 'overloaded'],
    ["the failure's own Unavailable code decides", { code: 'UNAVAILABLE', message: 'failed to load model' }, 'overloaded'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('a second vocabulary pass: money and capacity', () => {
  const cases: RuleCase[] = [
    ['a service unable to handle the request is capacity', { message: 'The server is temporarily unable to handle the request.' }, 'overloaded', 'text.overloaded'],
    ['a balance too low is billing', { message: 'Balance too low for this request.' }, 'billing', 'text.billing'],
    ['an account out of tokens is billing', { message: "You've run out of tokens on this plan. Top up your account." }, 'billing', 'text.billing'],
    ['an inactive subscription is billing', { message: 'Subscription is not active.' }, 'billing', 'text.billing'],
    ['a missing billing account is billing', { message: 'No billing account is linked to this project.' }, 'billing', 'text.billing'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('a third vocabulary pass: limits and money', () => {
  const cases: RuleCase[] = [
    ['requests sent too quickly is a rate limit', { message: 'You are sending requests too quickly.' }, 'rate_limit', 'text.rate_limit'],
    ['the number of concurrent requests is a rate limit', { message: 'Exceeded the maximum number of concurrent requests (4).' }, 'rate_limit', 'text.rate_limit'],
    ['a limit reached with a wait is a rate limit', { message: 'Limit reached. Try again in 5 minutes.' }, 'rate_limit', 'text.rate_limit'],
    ['usage capped for today is a window', { message: 'Your usage has been capped for today.' }, 'rate_limit', 'text.usage_window'],
    ['a credit limit exceeded is billing', { message: 'Credit limit exceeded for this organization.' }, 'billing', 'text.billing'],
    ['insufficient tokens in the account is billing', { message: 'Insufficient tokens in your account.' }, 'billing', 'text.billing'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("quota families from the fourteenth set's dev rows, in other words", () => {
  const cases: RuleCase[] = [
    ['a plan that does not support the model is billing', { message: 'your subscription plan not support model X-Pro' }, 'billing', 'text.billing'],
    ['capacity that is short is overloaded (Chinese)', { message: '服务容量不足，请稍后再试' }, 'overloaded', 'text.overloaded'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("quota families from the fifteenth set's dev rows, in other words", () => {
  const cases: RuleCase[] = [
    ["OpenAI's short quota text from a Codex job is billing", { provider: 'openai-codex', message: 'error=Quota exceeded. Check your plan and billing details.' }, 'billing', 'text.billing'],
    ['not-enough-credits beside a rate-limit label is billing', { status: 402, body: '{"error":"Rate limited","reasons":["not-enough-credits"]}' }, 'billing', 'text.billing'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("quota families found when the fifteenth set's held-back part was opened, in other words", () => {
  const cases: RuleCase[] = [
    ['credits that cannot cover the request are billing', { message: 'Your credits cannot cover this request.' }, 'billing', 'text.billing'],
    ['a request frequency that was limited is a rate limit', { message: 'your request frequency has been limited' }, 'rate_limit', 'text.rate_limit'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("quota families from the sixteenth set's dev rows, in other words", () => {
  const cases: RuleCase[] = [
    ['a gateway user over budget is billing', { status: 400, message: "{'error': {'message': 'ExceededBudget: key over budget'}}" }, 'billing', 'text.billing'],
    ['an API for premium users only is billing', { message: 'You must be a paid subscriber to use the API.' }, 'billing', 'text.billing'],
    ['a five-hour limit reached, with its reset, is a window (Japanese)', { message: '5時間の制限に達しました。まもなくリセットされます' }, 'rate_limit', 'text.usage_window'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('"over budget" alone is no money (a breaker\'s finding): a gateway\'s ExceededBudget is', () => {
  it('reads a prompt, an image or reasoning tokens over budget as no cause, and ExceededBudget as billing', () => {
    expect(explain({ message: 'warning: reasoning tokens over budget, answer truncated' }).reason).toBe('unclassified');
    expect(explain({ message: 'Prompt is over budget of 4096 tokens' }).reason).toBe('unclassified');
    expect(explain({ message: 'ExceededBudget: User=u-1 over budget' }).reason).toBe('billing');
  });
});

describe('quota families from the eighteenth set, in other words', () => {
  it.each([
    ['a pool without an account that still has quota is a rate limit', { message: 'pool error: no account available with quota for claude-x' }, 'rate_limit'],
    ['a model too busy to answer in time is capacity', { message: 'Model too busy, try again later' }, 'overloaded'],
  ] as const)('%s', (_name, failure, reason) => {
    expect(explain(failure).reason).toBe(reason);
  });

  it("rate-limit headers printed in a dump are no rate limit: a bodiless 422 is decided by its status", () => {
    const body = JSON.stringify({ error: { headers: { 'x-ratelimit-remaining-requests': '99', 'ratelimitbysize-limit': '500000' }, stack: 'Error: 422 status code (no body)' } });
    expect(explain({ status: 422, body })).toMatchObject({ reason: 'format', detail: 'status.422' });
    expect(explain({ status: 429, body }).reason).toBe('rate_limit');
  });

  it('a condition ("if the model is busy …") is no report of capacity', () => {
    expect(explain({ message: 'Client disconnected. Stopping generation (if the model is busy, it finishes first)' }).reason).toBe('abort');
  });
});

describe('quota families from the nineteenth set, in other words', () => {
  it.each([
    ['an LLM that is unavailable is capacity', { message: 'Sorry, the LLM is temporarily unavailable.' }, 'overloaded'],
    ['an endpoint that is unavailable is capacity', { message: 'Upstream request failed: endpoint is currently unavailable.' }, 'overloaded'],
    ['too many current requests in a queue', { message: 'Too many current requests, queue position 12.' }, 'rate_limit'],
    ['generations requested too quickly', { message: "You're requesting images too quickly." }, 'rate_limit'],
    ['a batch queue over its enqueued tokens', { message: 'Enqueued token limit reached for model m.' }, 'rate_limit'],
  ] as const)('%s', (_name, failure, reason) => {
    expect(explain(failure).reason).toBe(reason);
  });
});

describe('quota families from the twentieth set, in other words', () => {
  it('a balance code written with underscores is billing', () => {
    expect(explain({ message: "{'error': 'err.not_enough_credits'}" }).reason).toBe('billing');
  });
});

describe('Russian phrase tables (read without the CJK gate: the trigram pre-test refuses a text without Cyrillic)', () => {
  const cases: RuleCase[] = [
    ['"слишком много запросов" is a rate limit', { message: 'Ошибка API: слишком много запросов, повторите позже' }, 'rate_limit', 'text.rate_limit'],
    ['a soft hyphen or a zero-width space inside the words hides nothing', { message: 'слишком мно\u00adго за\u200bпросов' }, 'rate_limit', 'text.rate_limit'],
    ['"недостаточно средств" is billing', { message: 'Недостаточно средств на балансе. Пополните баланс' }, 'billing', 'text.billing'],
    ['"сервер перегружен" is overloaded', { message: 'Сервер перегружен, попробуйте позже' }, 'overloaded', 'text.overloaded'],
    ['a Russian context overflow under a 400 is context_overflow', { status: 400, body: '{"error":{"message":"Количество запрашиваемых токенов превышает контекст модели.","type":"invalid_request_error"}}' }, 'context_overflow', 'text.context_overflow'],
    ['a Russian inactive key is auth', { status: 401, body: 'Предоставленный API-ключ неактивен' }, 'auth'],
    ['"модель … не существует" is a missing model', { message: 'Модель: gpt-test не существует' }, 'model_not_found', 'text.model_not_found'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('says the phrase matched in Russian', () => {
    expect(explain({ message: 'Слишком много запросов' }).trace.language).toBe('ru');
  });
});

describe('Korean phrases (docs/policy.md, "Other languages")', () => {
  const cases: RuleCase[] = [
    ["GitHub Copilot Chat's localized rate limit", { message: '죄송합니다. 요청 속도가 제한되었습니다. 다시 시도하기 전에 5 minutes 기다려 주세요.' }, 'rate_limit', 'text.rate_limit'],
    ['a filtered answer is a refusal', { message: '죄송합니다. 책임 있는 AI 서비스에서 응답을 필터링했습니다.' }, 'refusal', 'text.refusal'],
    ['"credits are short" is billing', { message: '크레딧이 부족합니다' }, 'billing', 'text.billing'],
    ['a 429 with a Korean "try again shortly" is the status\'s limit', { status: 429, message: '잠시 후 다시 시도하세요' }, 'rate_limit'],
    ['a Korean sentence without a cause stays unclassified', { message: '알 수 없는 문제가 생겼습니다' }, 'unclassified'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('says the phrase matched in Korean', () => {
    expect(explain({ message: '요청 속도가 제한되었습니다' }).trace.language).toBe('ko');
  });
});

describe("billing and window families from the twenty-fifth set's dev rows, in other words", () => {
  const cases: RuleCase[] = [
    ['an organisation without enough balance is billing, even under PERMISSION_DENIED', { body: 'status = StatusCode.PERMISSION_DENIED details = "Your team does not have enough balance for this request"' }, 'billing', 'text.billing'],
    ['a budget limit exceeded is billing', { status: 403, body: 'Budget limit exceeded (daily limit). Ask an administrator.' }, 'billing', 'text.billing'],
    ['credits counted out are billing', { body: 'You have 0 credits left; 40 credits are required.' }, 'billing', 'text.billing'],
    ['an account locked until a top-up is billing', { body: '{"detail":"Account is locked. Reason: top_up"}' }, 'billing', 'text.billing'],
    ['a numbered usage window that resets is a rate limit, even under a 402', { status: 402, body: "{\"detail\":\"You've reached your 24-hour usage limit (resets in 5h)\",\"title\":\"Payment Required\"}" }, 'rate_limit', 'text.usage_window'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("families found when the twenty-seventh set's held-back part was opened, in other words", () => {
  const cases: RuleCase[] = [
    ["an account's limit exceeded, as a bot words it, is a usage window", { body: "Your account's usage limit was exceeded, update your key." }, 'rate_limit', 'text.usage_window'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("window and billing families from the twenty-eighth set, in other words", () => {
  const cases: RuleCase[] = [
    ['a batch queue whose enqueued tokens passed the limit is a rate limit', { body: 'Enqueued tokens have exceeded the limit set for deployment test-batch; wait for running jobs.' }, 'rate_limit', 'text.rate_limit'],
    ["LiteLLM's router log finding no deployment for a model group is a rate limit", { body: 'Router: get_available_deployment for model: openai/test-model, No deployment available' }, 'rate_limit', 'text.rate_limit'],
    ['a product used excessively is a rate limit', { body: 'It looks like you are using the priority queue excessively; please wait a while.' }, 'rate_limit', 'text.rate_limit'],
    ['credits depleted, with adjectives between, are billing', { body: 'You have depleted all your prepaid monthly credits for this workspace.' }, 'billing', 'text.billing'],
    ['trial credits depleted are billing', { status: 403, body: 'You have depleted your trial credits. Buy credits to continue.' }, 'billing', 'text.billing'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('Werkzeug\'s stock 500 page ("either the server is overloaded or there is an error") names no overload: the 500 decides', () => {
    const page = '<!doctype html><title>500 Internal Server Error</title><h1>Internal Server Error</h1><p>The server hit an internal error. Either the server is overloaded or there is an error in the application.</p>';
    expect(explain({ status: 500, body: page }).reason).toBe('server_error');
  });
  it('excessive use of context is no rate limit', () => {
    expect(explain({ body: 'Excessive use of context tokens in this prompt' }).reason).toBe('unclassified');
  });
  it('"excessive requests" alone, without the provider telling this caller, names no cause', () => {
    expect(explain({ body: 'Blocked for excessive requests from this key.' }).reason).toBe('unclassified');
  });
});

describe("window and billing families from the twenty-ninth set, in other words", () => {
  const cases: RuleCase[] = [
    ['an IP put into a timeout for a number of seconds is a rate limit, not a transport timeout', { body: 'Your address has been put into timeout for 120 more seconds due to abuse prevention.' }, 'rate_limit', 'text.rate_limit'],
    ["AI Horde's kudos, its credit, are billing", { body: 'This request requires 12.5 kudos; the client needs enough kudos for large images.' }, 'billing', 'text.billing'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("window and billing families from the thirtieth set, in other words", () => {
  const cases: RuleCase[] = [
    ['a usage limit for a named feature, reached, is a window', { body: 'The usage limit for image generation has been reached. Please try again later.' }, 'rate_limit', 'text.usage_window'],
    ['credits in an environment that have been consumed are billing', { body: 'All credits in this tenant have been consumed' }, 'billing', 'text.billing'],
    ['missing credit capacity is billing', { body: 'Missing prepaid credit capacity for this environment' }, 'billing', 'text.billing'],
    ['credit usage over its allocation, stated on its own, is billing', { body: 'Credit usage exceeds the allocation.' }, 'billing', 'text.billing'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
  it('"no credits consumed" on a failed step is no billing failure', () => {
    expect(explain({ body: 'The assistant hit an internal error in this step. No credits consumed on this call.' }).reason).toBe('server_error');
  });
});
