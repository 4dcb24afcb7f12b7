import { describe, expect, it } from 'vitest';
import { TIMEOUT_CODES, isTimeoutCode } from './provider-failure.js';

describe('TIMEOUT_CODES / isTimeoutCode (one list of timeout codes, issue 13)', () => {
  it('names a code for every timeout kind: undici codes for connect, headers and body, ETIMEDOUT for ours', () => {
    expect(TIMEOUT_CODES).toEqual({
      connect: 'UND_ERR_CONNECT_TIMEOUT',
      headers: 'UND_ERR_HEADERS_TIMEOUT',
      body: 'UND_ERR_BODY_TIMEOUT',
      first_token: 'ETIMEDOUT',
      stall: 'ETIMEDOUT',
      turn: 'ETIMEDOUT',
    });
    expect(Object.isFrozen(TIMEOUT_CODES)).toBe(true);
  });

  it('recognises exactly those codes, in any case', () => {
    for (const code of Object.values(TIMEOUT_CODES)) {
      expect(isTimeoutCode(code)).toBe(true);
      expect(isTimeoutCode(code.toLowerCase())).toBe(true);
    }
    expect(isTimeoutCode('ECONNRESET')).toBe(false);
    expect(isTimeoutCode('UND_ERR_SOCKET')).toBe(false);
    expect(isTimeoutCode('')).toBe(false);
  });
});
