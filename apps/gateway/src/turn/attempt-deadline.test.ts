import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AttemptDeadline } from './attempt-deadline.js';

describe('AttemptDeadline', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('aborts with a TimeoutError once the attempt deadline passes', () => {
    const caller = new AbortController();
    const deadline = new AttemptDeadline(caller.signal, 500, 'too long');
    const listener = vi.fn();
    deadline.addEventListener('abort', listener);
    vi.advanceTimersByTime(499);
    expect(deadline.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(deadline.aborted).toBe(true);
    expect((deadline.reason as DOMException).name).toBe('TimeoutError');
    expect((deadline.reason as DOMException).message).toBe('too long');
    expect(listener).toHaveBeenCalledTimes(1);
    // A later client abort does not call the listener a second time, and the reason stays the timeout.
    caller.abort(new Error('client gone'));
    expect(listener).toHaveBeenCalledTimes(1);
    expect((deadline.reason as DOMException).name).toBe('TimeoutError');
  });

  it('follows the caller: its abort reaches the listener with the caller reason, and the deadline no longer fires', () => {
    const caller = new AbortController();
    const deadline = new AttemptDeadline(caller.signal, 500, 'too long');
    const listener = vi.fn();
    deadline.addEventListener('abort', listener);
    const reason = new Error('client gone');
    caller.abort(reason);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(deadline.reason).toBe(reason);
    vi.advanceTimersByTime(1_000);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(deadline.reason).toBe(reason);
  });

  it('after clear() the deadline never fires, but a caller abort still does (a started stream is not cut)', () => {
    const caller = new AbortController();
    const deadline = new AttemptDeadline(caller.signal, 500, 'too long');
    const listener = vi.fn();
    deadline.addEventListener('abort', listener);
    deadline.clear();
    vi.advanceTimersByTime(10_000);
    expect(deadline.aborted).toBe(false);
    expect(listener).not.toHaveBeenCalled();
    caller.abort(new Error('client gone'));
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('a removed listener is not called by either source', () => {
    const caller = new AbortController();
    const deadline = new AttemptDeadline(caller.signal, 500, 'too long');
    const listener = vi.fn();
    deadline.addEventListener('abort', listener);
    deadline.removeEventListener('abort', listener);
    vi.advanceTimersByTime(500);
    caller.abort();
    expect(listener).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('an already aborted caller arms no timer and reports its reason', () => {
    const caller = new AbortController();
    caller.abort(new Error('gone early'));
    const deadline = new AttemptDeadline(caller.signal, 500, 'too long');
    expect(deadline.aborted).toBe(true);
    expect((deadline.reason as Error).message).toBe('gone early');
    expect(vi.getTimerCount()).toBe(0);
  });
});
