import { describe, expect, it } from 'vitest';
import {
  SdkRetryCapError,
  parseSdkRetryMaxWaitSeconds,
  resolveSdkRetryMaxWaitSeconds,
} from './sdk-retry-cap.js';

describe('parseSdkRetryMaxWaitSeconds', () => {
  // The cap defaults to 60 seconds; 0 or "off" turns it off.
  it.each([
    [undefined, 60],
    ['', 60],
    ['  ', 60],
    ['60', 60],
    ['15', 15],
    ['2.5', 2.5],
    [' 30 ', 30],
    ['0', null],
    ['off', null],
    ['OFF', null],
  ] as const)('%j → %j', (value, expected) => {
    expect(parseSdkRetryMaxWaitSeconds(value)).toBe(expected);
  });

  it.each(['-1', 'sixty', '1e3', '60s', 'true'])('rejects %j naming the variable', (value) => {
    const attempt = (): unknown => parseSdkRetryMaxWaitSeconds(value, 'OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS');
    expect(attempt).toThrow(SdkRetryCapError);
    expect(attempt).toThrow(/OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS.*0 \/ off/);
  });
});

describe('resolveSdkRetryMaxWaitSeconds', () => {
  it('prefers the UNDERSTUDY_ spelling, accepts the OPENCLAW_ alias, else defaults to 60', () => {
    expect(resolveSdkRetryMaxWaitSeconds({})).toBe(60);
    expect(resolveSdkRetryMaxWaitSeconds({ OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS: '30' })).toBe(30);
    expect(
      resolveSdkRetryMaxWaitSeconds({ UNDERSTUDY_SDK_RETRY_MAX_WAIT_SECONDS: 'off', OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS: '30' }),
    ).toBeNull();
    expect(resolveSdkRetryMaxWaitSeconds({ UNDERSTUDY_SDK_RETRY_MAX_WAIT_SECONDS: '', OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS: '5' })).toBe(5);
  });

  it('names the alias when the alias is the bad value', () => {
    expect(() => resolveSdkRetryMaxWaitSeconds({ OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS: 'x' })).toThrow(/^OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS/);
  });
});
