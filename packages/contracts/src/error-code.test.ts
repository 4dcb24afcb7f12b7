import { describe, expect, it } from 'vitest';
import { errorCode } from './error-code.js';

describe('errorCode (one reader of a thrown error code, issue 13)', () => {
  it('reads the code of the error itself first', () => {
    const error = Object.assign(new Error('reset', { cause: { code: 'ETIMEDOUT' } }), { code: 'ECONNRESET' });
    expect(errorCode(error)).toBe('ECONNRESET');
  });

  it('walks the cause chain for up to four links in all', () => {
    const chain = (depth: number): unknown => (depth === 0 ? { code: 'ETIMEDOUT' } : new Error(`wrap ${depth}`, { cause: chain(depth - 1) }));
    expect(errorCode(chain(1))).toBe('ETIMEDOUT');
    expect(errorCode(chain(3))).toBe('ETIMEDOUT');
    expect(errorCode(chain(4))).toBeUndefined();
  });

  it('skips empty and non-string codes and ends on a cycle or a non-object', () => {
    expect(errorCode({ code: '', cause: { code: 42, cause: { code: 'EPIPE' } } })).toBe('EPIPE');
    const loop: { code?: string; cause?: unknown } = {};
    loop.cause = loop;
    expect(errorCode(loop)).toBeUndefined();
    expect(errorCode('ECONNRESET')).toBeUndefined();
    expect(errorCode(null)).toBeUndefined();
    expect(errorCode(undefined)).toBeUndefined();
  });
});
