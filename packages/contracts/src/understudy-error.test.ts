import { describe, expect, it } from 'vitest';
import { UnderstudyError } from './understudy-error.js';

class ShelfError extends UnderstudyError<'shelf_full' | 'shelf_missing'> {
  readonly shelf: string;
  constructor(code: 'shelf_full' | 'shelf_missing', shelf: string, options: { readonly cause?: unknown } = {}) {
    super(code, `shelf ${shelf}: ${code}`, options);
    this.shelf = shelf;
  }
}

class TopShelfError extends ShelfError {}

/** The same class as a second installed copy of its package would define it: same name, another identity. */
function otherCopyOfShelfError(): new (code: 'shelf_full', shelf: string) => Error {
  return class ShelfError extends UnderstudyError<'shelf_full'> {
    constructor(code: 'shelf_full', shelf: string) {
      super(code, `shelf ${shelf}: ${code}`);
    }
  };
}

describe('UnderstudyError', () => {
  it('sets name, code, message and cause once for every subclass', () => {
    const cause = new Error('disk');
    const error = new ShelfError('shelf_full', 'a', { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'ShelfError', code: 'shelf_full', message: 'shelf a: shelf_full', shelf: 'a' });
    expect(error.cause).toBe(cause);
    expect('cause' in new ShelfError('shelf_missing', 'b')).toBe(false);
  });

  it('recognises instances of another copy of the class (duplicate installs), not unrelated errors', () => {
    const Other = otherCopyOfShelfError();
    const foreign = new Other('shelf_full', 'c');
    expect(foreign instanceof ShelfError).toBe(false);
    expect(ShelfError.isInstance(foreign)).toBe(true);
    expect(ShelfError.isInstance(new Error('shelf'))).toBe(false);
    expect(ShelfError.isInstance({ code: 'shelf_full', name: 'ShelfError' })).toBe(false);
    expect(ShelfError.isInstance(null)).toBe(false);
  });

  it('brands every class of the chain: a subclass instance is an instance of its parents, not the reverse', () => {
    const top = new TopShelfError('shelf_full', 'd');
    expect(top.name).toBe('TopShelfError');
    expect(TopShelfError.isInstance(top)).toBe(true);
    expect(ShelfError.isInstance(top)).toBe(true);
    expect(UnderstudyError.isInstance(top)).toBe(true);
    expect(TopShelfError.isInstance(new ShelfError('shelf_full', 'e'))).toBe(false);
  });

  it('keeps the brand out of enumeration and JSON', () => {
    const error = new ShelfError('shelf_missing', 'f');
    const brands = Object.getOwnPropertySymbols(error);
    expect(brands.map((symbol) => symbol.description)).toEqual(['understudy.error.ShelfError', 'understudy.error.UnderstudyError']);
    expect(brands.every((symbol) => Object.getOwnPropertyDescriptor(error, symbol)?.enumerable === false)).toBe(true);
    expect(Object.getOwnPropertySymbols({ ...error })).toEqual([]);
    expect(JSON.stringify(error)).toBe('{"code":"shelf_missing","name":"ShelfError","shelf":"f"}');
  });
});
