/**
 * The one answer to "is this window still open?" for every cooldown and disable window of the scheduler
 * (docs/policy.md#windows). Shared by availability, usage transitions, provider state and inline keys.
 */

/**
 * True when a window ending at `untilMs` (epoch ms) is still open at `nowMs` (epoch ms): it ends strictly
 * after now. `undefined` (no window) is closed. A window that never ends (`Infinity`) is open, so it blocks;
 * `NaN` (a corrupt end) is closed, so it never blocks a profile forever.
 *
 * @example isWindowActive(30_000, 0) // true
 * @example isWindowActive(30_000, 30_000) // false (a window is over at its end)
 * @example isWindowActive(Number.POSITIVE_INFINITY, 0) // true
 * @example isWindowActive(Number.NaN, 0) // false
 */
export function isWindowActive(untilMs: number | undefined, nowMs: number): untilMs is number {
  return untilMs !== undefined && !Number.isNaN(untilMs) && untilMs > nowMs;
}
