import { describe, expect, it } from 'vitest';
import { RequestAbort } from './request-abort.js';

describe('RequestAbort', () => {
  it('calls each listener once with the reason set, only the first abort counts', () => {
    const abort = new RequestAbort();
    const calls: unknown[] = [];
    const listener = (): void => {
      calls.push(abort.reason);
    };
    abort.addEventListener('abort', listener);
    abort.addEventListener('abort', listener);
    abort.addEventListener('abort', () => calls.push('second'));
    expect(abort.aborted).toBe(false);
    expect(abort.reason).toBeUndefined();
    const reason = new Error('the client closed the connection');
    abort.abort(reason);
    abort.abort(new Error('later'));
    expect(abort.aborted).toBe(true);
    expect(abort.reason).toBe(reason);
    expect(calls).toEqual([reason, 'second']);
  });

  it('never calls a removed listener, nor one added after the abort', () => {
    const abort = new RequestAbort();
    const calls: string[] = [];
    const removed = (): void => {
      calls.push('removed');
    };
    abort.addEventListener('abort', removed);
    abort.removeEventListener('abort', removed);
    abort.abort('gone');
    abort.addEventListener('abort', () => calls.push('late'));
    abort.abort('again');
    expect(calls).toEqual([]);
  });

  it('runs every listener when one throws, then throws the first error', () => {
    const abort = new RequestAbort();
    const calls: string[] = [];
    abort.addEventListener('abort', () => {
      throw new Error('first');
    });
    abort.addEventListener('abort', () => {
      throw new Error('second');
    });
    abort.addEventListener('abort', () => calls.push('ran'));
    expect(() => abort.abort('x')).toThrow('first');
    expect(calls).toEqual(['ran']);
  });
});
