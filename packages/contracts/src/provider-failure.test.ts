import { describe, expect, it } from 'vitest';
import { TIMEOUT_CODES, isTimeoutCode } from './provider-failure.js';

describe('TIMEOUT_CODES / isTimeoutCode (one list of timeout codes, issue 13)', () => {
  it('names a code for every timeout kind: undici codes for connect, headers and body, ETIMEDOUT for ours', () => {
    expect(Object.keys(TIMEOUT_CODES).sort()).toEqual(['body', 'connect', 'first_token', 'headers', 'stall', 'turn']);
    for (const kind of ['connect', 'headers', 'body'] as const) expect(TIMEOUT_CODES[kind]).toBe(`UND_ERR_${kind.toUpperCase()}_TIMEOUT`);
    for (const kind of ['first_token', 'stall', 'turn'] as const) expect(TIMEOUT_CODES[kind]).toBe('ETIMEDOUT');
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
