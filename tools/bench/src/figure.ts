/**
 * The shape of a benchmark result (docs/contracts.md#bench) and of a benchmark suite. Suites are independent modules that
 * each return their figures; `main.ts` runs the selected suites and merges what they return, so later modules
 * (gateway, store, failover) add a suite without touching the others.
 */

/** One measured figure. `ratio` is `value / baseline.value`, both measured side by side in the same run. */
export interface Figure {
  readonly name: string;
  readonly unit: string;
  readonly value: number;
  readonly baseline?: { readonly name: string; readonly value: number };
  readonly ratio?: number;
}

/** Facts about the machine the figures were measured on. */
export interface MachineInfo {
  readonly cpu: string;
  readonly cores: number;
  readonly node: string;
  readonly os: string;
  readonly arch: string;
  readonly totalMemoryMiB: number;
  /** When the run started, ISO 8601. */
  readonly date: string;
  /**
   * The 1-, 5- and 15-minute load averages when the run started: other work on the machine (a busy CI runner, a
   * parallel build) shows here and explains noisy figures.
   */
  readonly loadAverage: readonly number[];
}

/** A figure that was not measured in this run, and why (e.g. Portkey could not start). Never a made-up value. */
export interface SkippedFigure {
  readonly name: string;
  readonly reason: string;
}

/**
 * The document written to `bench/results/latest.json` (docs/contracts.md#bench). `skipped` and `notes` are present only
 * when non-empty: figures left out with their reason, and how the figures were taken (upstream, rounds, versions).
 */
export interface BenchReport {
  readonly machine: MachineInfo;
  readonly figures: readonly Figure[];
  readonly skipped?: readonly SkippedFigure[];
  readonly notes?: readonly string[];
}

/** What every suite is given. */
export interface SuiteOptions {
  /** Short runs (CI smoke, tests): fewer iterations, shorter time budgets. */
  readonly quick: boolean;
  /** The repository root (fixtures are read from it). */
  readonly repoRoot: string;
  /** Progress and notes for people; never the figures themselves. */
  readonly log: (line: string) => void;
  /** Records a figure that could not be measured in this run, with the reason (written under `skipped`). */
  readonly skip?: (name: string, reason: string) => void;
  /** Records how figures were taken (written under `notes` and printed under the table). */
  readonly note?: (text: string) => void;
}

/** A group of figures measured together (`classifier`, later `gateway`, `store`, `failover`). */
export interface BenchSuite {
  readonly name: string;
  readonly description: string;
  run(options: SuiteOptions): Promise<readonly Figure[]>;
}

/**
 * A figure compared with a baseline measured in the same run; the ratio is `value / baseline.value`.
 *
 * @example compared({ name: 'x', unit: 'ms', value: 2 }, { name: 'bare-proxy', value: 1 }).ratio // 2
 */
export function compared(figure: Figure, baseline: { readonly name: string; readonly value: number }): Figure {
  const ratio = baseline.value === 0 ? Number.NaN : figure.value / baseline.value;
  return { ...figure, baseline, ...(Number.isFinite(ratio) ? { ratio } : {}) };
}
