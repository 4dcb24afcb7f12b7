/**
 * A manual clock for tests and simulations: `sleep` advances the time at once instead of waiting, so
 * runs with retries and backoff finish instantly and deterministically.
 */
import type { AbortSignalLike, Clock } from '@understudy/contracts';

/** A {@link Clock} whose time moves only when told to (or when something sleeps). */
export class FakeClock implements Clock {
  #nowMs: number;
  /** Every sleep, in ms, in order. */
  readonly sleeps: number[] = [];

  /** @param startMs - the initial time, epoch ms. @default 0 */
  constructor(startMs = 0) {
    this.#nowMs = startMs;
  }

  nowMs(): number {
    return this.#nowMs;
  }

  /** Advances the time by `ms` at once; rejects with the signal's reason when it is already aborted. */
  async sleep(ms: number, signal?: AbortSignalLike): Promise<void> {
    if (signal?.aborted === true) throw signal.reason ?? new Error('aborted');
    this.sleeps.push(ms);
    this.#nowMs += Math.max(0, ms);
  }

  /** Moves the time forward by `ms`. */
  advance(ms: number): void {
    this.#nowMs += Math.max(0, ms);
  }

  /** Sets the time (epoch ms); never moves it backwards. */
  setTime(epochMs: number): void {
    this.#nowMs = Math.max(this.#nowMs, epochMs);
  }
}

/**
 * A deterministic random source in `[0, 1)` (mulberry32) for reproducible jitter.
 *
 * @example const random = seededRandom(1); random() // same sequence on every run
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}
