/**
 * Reading one `understudy classify` input line (docs/contracts.md#classify): the timeout kinds it accepts are
 * those the providers report, the keys of `TIMEOUT_CODES` in contracts.
 */
import { TIMEOUT_CODES } from '@understudy/contracts';
import { describe, expect, it } from 'vitest';
import { parseClassifyLine } from './classify-input.js';

describe('timeoutKind', () => {
  it.each(Object.keys(TIMEOUT_CODES))('keeps %s, a kind the providers report', (kind) => {
    const input = parseClassifyLine(JSON.stringify({ message: 'timed out', timeoutKind: kind }), {});
    expect(input.kind === 'failure' && input.failure.timeoutKind).toBe(kind);
  });

  it('leaves out a kind no provider reports', () => {
    const input = parseClassifyLine(JSON.stringify({ message: 'timed out', timeoutKind: 'lunch' }), {});
    expect(input.kind === 'failure' && input.failure.timeoutKind).toBeUndefined();
  });
});
