/**
 * Time as people read it, written once for every package: ISO instants and short durations. Pure: the moment
 * to show is an argument, never the clock.
 */

/**
 * An epoch-ms instant as ISO 8601 UTC; `undefined` (or a non-finite number) gives `fallback`.
 *
 * @example isoTime(30_000) // '1970-01-01T00:00:30.000Z'
 * @example isoTime(undefined, '-') // '-'
 */
export function isoTime(epochMs: number | undefined): string | undefined;
export function isoTime(epochMs: number | undefined, fallback: string): string;
export function isoTime(epochMs: number | undefined, fallback?: string): string | undefined {
  return epochMs === undefined || !Number.isFinite(epochMs) ? fallback : new Date(epochMs).toISOString();
}

/**
 * A duration in ms as `30 s`, `2 min 5 s`, `1 h 10 min` (rounded up to whole seconds; negative counts as 0).
 *
 * @example formatDurationMs(125_000) // '2 min 5 s'
 */
export function formatDurationMs(durationMs: number): string {
  const seconds = Math.max(0, Math.ceil(durationMs / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}
