/**
 * The real clock behind the contracts `Clock` port: wall time in epoch ms and an abortable sleep.
 */
import { setTimeout as sleepTimer } from 'node:timers/promises';
import type { AbortSignalLike, Clock } from '@understudy/contracts';

/**
 * The system clock. `sleep` rejects with the signal's reason when the signal aborts.
 *
 * @example await systemClock.sleep(250, controller.signal)
 */
export const systemClock: Clock = Object.freeze({
  nowMs: () => Date.now(),
  sleep: async (ms: number, signal?: AbortSignalLike): Promise<void> => {
    if (ms <= 0) return;
    await sleepTimer(ms, undefined, signal === undefined ? undefined : { signal: signal as AbortSignal });
  },
});

/** `Math.random`, as the contracts `RandomSource`. */
export const systemRandom = (): number => Math.random();
