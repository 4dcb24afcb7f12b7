/**
 * The signal one attempt runs under: the caller's signal plus the attempt's own deadline, without a second
 * `AbortController` or an `AbortSignal.any` per attempt. The provider client only listens to it (its
 * `CallControl` owns the one real controller of the call), so a plain {@link AbortSignalLike} is enough.
 */
import type { AbortSignalLike } from '@understudy/contracts';

/**
 * The caller's signal, or, when `limitMs` passes first, an abort whose reason is a `TimeoutError` (which the
 * provider clients report as `timeoutKind: 'turn'`). {@link AttemptDeadline.clear} stops the deadline only:
 * afterwards the signal still follows the caller (a started stream keeps listening for the client going away).
 *
 * @example
 * const deadline = new AttemptDeadline(request.signal, 30_000, 'the provider request took too long');
 * try { await attempt(candidate, profile, deadline); } finally { deadline.clear(); }
 */
export class AttemptDeadline implements AbortSignalLike {
  readonly #caller: AbortSignalLike;
  readonly #listeners = new Set<() => void>();
  readonly #message: string;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timeoutReason: DOMException | undefined;

  /** @param limitMs ms until the deadline aborts (at least 1). */
  constructor(caller: AbortSignalLike, limitMs: number, message: string) {
    this.#caller = caller;
    this.#message = message;
    if (!caller.aborted) this.#timer = setTimeout(this.#expire, Math.max(1, limitMs));
  }

  get aborted(): boolean {
    return this.#timeoutReason !== undefined || this.#caller.aborted;
  }

  /** The reason of whichever aborted first. */
  get reason(): unknown {
    return this.#timeoutReason ?? this.#caller.reason;
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.#timeoutReason !== undefined) return;
    this.#listeners.add(listener);
    this.#caller.addEventListener('abort', listener, { once: true });
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.#listeners.delete(listener);
    this.#caller.removeEventListener('abort', listener);
  }

  /** Stops the deadline (the caller's signal still counts). */
  clear(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  readonly #expire = (): void => {
    this.#timer = undefined;
    if (this.#caller.aborted) return;
    this.#timeoutReason = new DOMException(this.#message, 'TimeoutError');
    const listeners = [...this.#listeners];
    this.#listeners.clear();
    for (const listener of listeners) {
      this.#caller.removeEventListener('abort', listener);
      listener();
    }
  };
}
