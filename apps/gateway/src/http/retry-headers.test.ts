import { describe, expect, it } from 'vitest';
import { GatewayError } from '../gateway-error.js';
import { retryHeaders } from './router.js';

describe('retryHeaders (docs/wire-mapping.md#retries)', () => {
  const exhausted = (retryAfterSeconds?: number) =>
    new GatewayError(429, 'rate_limit', 'all models are rate-limited', { exhausted: true, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) });

  it('tells SDKs not to retry a request on which understudy exhausted its recovery', () => {
    expect(retryHeaders(exhausted(), 60_000)).toEqual({ 'x-should-retry': 'false' });
    expect(retryHeaders(exhausted(300), 60_000)).toEqual({ 'retry-after': 300, 'x-should-retry': 'false' });
  });

  it('leaves the retry to the SDK when the soonest recovery is within its wait cap', () => {
    expect(retryHeaders(exhausted(20), 60_000)).toEqual({ 'retry-after': 20 });
    expect(retryHeaders(exhausted(20), 10_000)).toEqual({ 'retry-after': 20, 'x-should-retry': 'false' });
  });

  it('says nothing more for an error that was not a failover (a bad request)', () => {
    expect(retryHeaders(new GatewayError(400, 'invalid_request', 'bad'), 60_000)).toEqual({});
  });
});
