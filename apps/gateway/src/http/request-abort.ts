/**
 * The abort signal of one proxied request (the client went away, or the shutdown's grace period ended) without an
 * `AbortController`: Node's `AbortController` builds an `EventTarget` per request, and adding and removing its
 * listeners goes through Node's event-target machinery, together about 3 % of a small request's CPU in the
 * issue-17 profile. The request path only needs the `AbortSignalLike` port (`@understudy/contracts`): the
 * fallback runner, the attempt deadline and the providers' `CallControl` listen to it; none hands it to a Node API.
 */
import type { AbortSignalLike } from '@understudy/contracts';

/**
 * A one-shot abort: {@link RequestAbort.abort} sets `aborted` and `reason` and calls each listener once, like
 * an `AbortSignal`'s `abort` event with `{ once: true }`; a listener added after that is never called, the same
 * listener added twice is called once. A listener that throws does not keep the others from running; the first
 * error is thrown from `abort` after all ran.
 *
 * @example
 * const abort = new RequestAbort();
 * abort.addEventListener('abort', () => console.log(abort.reason));
 * abort.abort(new Error('the client closed the connection'));
 */
export class RequestAbort implements AbortSignalLike {
  #aborted = false;
  #reason: unknown;
  readonly #listeners = new Set<() => void>();

  get aborted(): boolean {
    return this.#aborted;
  }

  /** What {@link RequestAbort.abort} was given; `undefined` before. */
  get reason(): unknown {
    return this.#reason;
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.#aborted) this.#listeners.add(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.#listeners.delete(listener);
  }

  /** Aborts (only the first call counts) and calls every listener. @throws the first error a listener threw */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    const listeners = [...this.#listeners];
    this.#listeners.clear();
    let failure: { readonly error: unknown } | undefined;
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure !== undefined) throw failure.error;
  }
}
