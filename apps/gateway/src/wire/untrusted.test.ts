/** The two guards for client JSON: the nesting bound and the safe description of a value. */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../gateway-error.js';
import { MAX_JSON_DEPTH, checkJsonDepth, describeValue } from './untrusted.js';

function nestedArrays(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

function caught(run: () => void): GatewayError {
  try {
    run();
  } catch (error) {
    if (GatewayError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('checkJsonDepth', () => {
  it('accepts exactly MAX_JSON_DEPTH levels and refuses one more, naming the path', () => {
    expect(() => checkJsonDepth({ a: nestedArrays(MAX_JSON_DEPTH - 1) })).not.toThrow();
    const error = caught(() => checkJsonDepth({ a: nestedArrays(MAX_JSON_DEPTH) }));
    expect(error).toMatchObject({ status: 400, code: 'nesting_too_deep' });
    expect(error.message).toMatch(/^a\[0\]\[0\]\[0\]\[0\]\[0\]\[0\]\[0\]…: nested deeper than 100 levels/);
    expect(error.param).toBe('a[0][0][0][0][0][0][0]…');
  });

  it('names no param when the body itself is too deep', () => {
    expect(caught(() => checkJsonDepth(nestedArrays(5), 0)).param).toBeUndefined();
  });

  it('walks 1,000,000 levels without overflowing the stack', () => {
    expect(caught(() => checkJsonDepth(nestedArrays(1_000_000))).code).toBe('nesting_too_deep');
  });

  it('quotes keys that are not plain names and cuts long ones', () => {
    const error = caught(() => checkJsonDepth({ 'a b': { [`${'k'.repeat(50)}`]: nestedArrays(200) } }, 3));
    expect(error.message).toContain(`["a b"]["${'k'.repeat(40)}…"]`);
  });
});

describe('describeValue', () => {
  it.each([
    ['tool', '"tool"'],
    ['x'.repeat(100), `"${'x'.repeat(60)}…"`],
    [3, '3'],
    [true, 'true'],
    [null, 'null'],
    [undefined, 'nothing'],
    [[1], 'an array'],
    [{ toString: null }, 'an object'],
    [{ toString: 1, valueOf: 1 }, 'an object'],
  ])('%j → %s', (value, text) => {
    expect(describeValue(value)).toBe(text);
  });
});
