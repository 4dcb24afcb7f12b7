/**
 * The statistics every side-by-side figure uses: percentiles of one round's samples, the per-round difference
 * to the direct path, and the median across rounds (so one noisy round cannot move a figure).
 */

/**
 * The `p`-th percentile (0 to 100) by nearest rank: the smallest sample with at least `p` % of the samples at
 * or below it. `NaN` for no samples.
 *
 * @example percentile([4, 1, 3, 2], 50) // 2
 */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

/**
 * The median (mean of the two middle samples for an even count). `NaN` for no samples.
 *
 * @example median([3, 1, 2, 10]) // 2.5
 */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/**
 * Per round, the statistic of `target`'s samples minus the same statistic of `reference`'s samples (both taken
 * in that round); then the median over rounds. This is how "added latency over direct" is computed: the
 * difference is taken inside one round, where both paths saw the same machine state.
 *
 * @param rounds - one entry per round, samples by target name.
 * @throws {Error} when a round lacks samples of `target` or `reference`.
 * @example medianOfRoundDifferences([{ x: [3], direct: [1] }, { x: [5], direct: [1] }, { x: [4], direct: [2] }], 'x', 'direct', median) // 2
 */
export function medianOfRoundDifferences(
  rounds: readonly Readonly<Record<string, readonly number[]>>[],
  target: string,
  reference: string,
  statistic: (samples: readonly number[]) => number,
): number {
  return median(
    rounds.map((round, index) => {
      const own = round[target];
      const base = round[reference];
      if (own === undefined || own.length === 0 || base === undefined || base.length === 0) {
        throw new Error(`round ${index + 1} has no samples of ${own === undefined || own.length === 0 ? target : reference}`);
      }
      return statistic(own) - statistic(base);
    }),
  );
}

/**
 * Per round, the statistic of `target`'s samples; then the median over rounds ("median of round medians"
 * when the statistic is the median).
 *
 * @throws {Error} when a round lacks samples of `target`.
 * @example medianOfRounds([{ x: [1, 3] }, { x: [5, 7] }, { x: [2, 2] }], 'x', median) // 2
 */
export function medianOfRounds(
  rounds: readonly Readonly<Record<string, readonly number[]>>[],
  target: string,
  statistic: (samples: readonly number[]) => number,
): number {
  return median(
    rounds.map((round, index) => {
      const own = round[target];
      if (own === undefined || own.length === 0) throw new Error(`round ${index + 1} has no samples of ${target}`);
      return statistic(own);
    }),
  );
}
