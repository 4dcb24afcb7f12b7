/**
 * One call's abort plumbing: an internal AbortController that the caller's signal and our own timeouts both
 * abort, remembering which of them did it (a caller abort is `user`; a timeout, or a caller signal aborted with
 * a `TimeoutError` reason such as `AbortSignal.timeout()` gives, is `timeout`).
 */
import type { AbortCause, AbortSignalLike, ProviderFailure } from '@understudy/contracts';

/** Which of our timeouts fired (`ProviderFailure.timeoutKind`). */
export type TimeoutKind = NonNullable<ProviderFailure['timeoutKind']>;

/** Why the call's internal signal aborted. */
export interface AbortInfo {
  readonly cause: AbortCause;
  readonly timeoutKind?: TimeoutKind | undefined;
  /** Milliseconds of the timeout that fired, for the message. */
  readonly afterMs?: number | undefined;
}

/** The abort reason we hand undici: a plain error, so a stack never carries anything but our message. */
class CallAbortedError extends Error {
  constructor(readonly info: AbortInfo) {
    super(info.cause === 'user' ? 'request aborted by the caller' : `request timed out (${info.timeoutKind ?? 'unknown'})`);
    this.name = 'AbortError';
  }
}

type ArmableTimeout = Exclude<TimeoutKind, 'connect' | 'turn'>;

/** Internal abort controller plus the per-call timers. Call {@link CallControl.dispose} when the call ends. */
export class CallControl {
  readonly #controller = new AbortController();
  readonly #timers = new Map<ArmableTimeout, ReturnType<typeof setTimeout>>();
  readonly #callerSignal: AbortSignalLike | undefined;
  readonly #onCallerAbort = (): void => this.abort(callerAbortInfo(this.#callerSignal?.reason));
  #info: AbortInfo | undefined;

  constructor(callerSignal: AbortSignalLike | undefined) {
    this.#callerSignal = callerSignal;
    if (callerSignal === undefined) return;
    if (callerSignal.aborted) this.abort(callerAbortInfo(callerSignal.reason));
    else callerSignal.addEventListener('abort', this.#onCallerAbort, { once: true });
  }

  /** The signal to give undici. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Why the call aborted, once it has. */
  get abortInfo(): AbortInfo | undefined {
    return this.#info;
  }

  /** Aborts the call (first reason wins). */
  abort(info: AbortInfo): void {
    if (this.#info !== undefined) return;
    this.#info = info;
    this.#clearTimers();
    this.#controller.abort(new CallAbortedError(info));
  }

  /**
   * (Re)starts the `kind` timeout; `ms` of 0 or less leaves it off.
   *
   * When the timer fires, the abort waits one turn of the event loop (`setImmediate`, which runs after the
   * loop's I/O poll) and happens only if the timeout is still armed then. A gateway whose event loop is behind
   * (a busy or CPU-starved process) runs expired timers before it reads the sockets, so without this a provider
   * whose bytes had already arrived would be declared silent: each of these limits measures the provider's
   * silence, and bytes that wait unread on our side are not silence.
   */
  arm(kind: ArmableTimeout, ms: number): void {
    this.disarm(kind);
    if (!(ms > 0) || this.#info !== undefined) return;
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (this.#timers.get(kind) === timer) this.abort({ cause: 'timeout', timeoutKind: kind, afterMs: ms });
      });
    }, ms);
    this.#timers.set(kind, timer);
  }

  /** Stops the `kind` timeout. */
  disarm(kind: ArmableTimeout): void {
    const timer = this.#timers.get(kind);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.#timers.delete(kind);
  }

  /** Clears timers and stops listening to the caller's signal. */
  dispose(): void {
    this.#clearTimers();
    this.#callerSignal?.removeEventListener('abort', this.#onCallerAbort);
  }

  #clearTimers(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }
}

/**
 * A caller abort is `user`, unless its reason is a `TimeoutError` (as `AbortSignal.timeout()` produces, and
 * as the runner uses for its turn deadline): that is a `timeout` of kind `turn`.
 */
function callerAbortInfo(reason: unknown): AbortInfo {
  const name = typeof reason === 'object' && reason !== null ? (reason as { name?: unknown }).name : undefined;
  return name === 'TimeoutError' ? { cause: 'timeout', timeoutKind: 'turn' } : { cause: 'user' };
}
