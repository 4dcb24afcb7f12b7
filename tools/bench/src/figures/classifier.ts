/**
 * Classifier figures (docs/contracts.md#bench): `classifier.payloads_per_s`, classifications per second over the fixture
 * corpora (captured payloads, extra cases, the second captured corpus, the public-payload corpus), and
 * `classifier.slowest_ms`, the slowest single payload
 * (median of repeated runs) among the corpus and the synthetic 1 MiB worst cases.
 */
import { performance } from 'node:perf_hooks';
import { classifyFailure } from '@understudy/error-classifier';
import type { BenchSuite, Figure, SuiteOptions } from '../figure.js';
import { LARGE_BODY_BYTES, fixturePayloads, syntheticPayloads } from './classifier-corpus.js';
import type { BenchPayload } from './classifier-corpus.js';

/** Knobs of the classifier measurements; the defaults depend on `quick`. */
export interface ClassifierBenchSettings {
  /**
   * Time spent classifying the corpus over and over before the throughput is timed, so the figure is the steady state a
   * long-lived gateway runs at, not the engine's tiering up of the code and the patterns (one pass is far too short
   * for it). @default 1000 (quick: 100)
   */
  readonly warmupMs: number;
  /** Time spent classifying the corpus over and over for the throughput figure. @default 3000 (quick: 300) */
  readonly throughputBudgetMs: number;
  /** Runs per payload for the slowest-payload figure (the median counts). @default 7 (quick: 3) */
  readonly repeatsPerPayload: number;
  /** Size of each synthetic worst-case body. @default 1 MiB */
  readonly largeBodyBytes: number;
}

/** Default settings for a full or a quick run. */
function classifierSettings(quick: boolean): ClassifierBenchSettings {
  return quick
    ? { warmupMs: 100, throughputBudgetMs: 300, repeatsPerPayload: 3, largeBodyBytes: LARGE_BODY_BYTES }
    : { warmupMs: 1000, throughputBudgetMs: 3000, repeatsPerPayload: 7, largeBodyBytes: LARGE_BODY_BYTES };
}

/** A fixed `nowMs`, so date-based hints take the same path in every run. */
const NOW_MS = Date.UTC(2026, 0, 1);

/** Sink that keeps the optimiser from dropping classifications whose result is unused. */
let sink = 0;

function classifyOnce(payload: BenchPayload): void {
  sink += classifyFailure(payload.failure, { nowMs: NOW_MS }).detail.length;
}

/**
 * Classifications per second over `payloads`, repeated until `budgetMs` has passed (at least one pass), after passes
 * repeated for `warmupMs` (at least one) that are not counted.
 */
export function measureThroughput(payloads: readonly BenchPayload[], budgetMs: number, warmupMs = 0): number {
  const warmupStart = performance.now();
  do {
    for (const payload of payloads) classifyOnce(payload);
  } while (performance.now() - warmupStart < warmupMs);
  let count = 0;
  const start = performance.now();
  let elapsed: number;
  do {
    for (const payload of payloads) classifyOnce(payload);
    count += payloads.length;
    elapsed = performance.now() - start;
  } while (elapsed < budgetMs);
  return count / (elapsed / 1000);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The payload whose median classification time is the longest, with that time in ms. */
function measureSlowest(payloads: readonly BenchPayload[], repeats: number): { readonly id: string; readonly ms: number } {
  let slowest = { id: '', ms: 0 };
  for (const payload of payloads) {
    classifyOnce(payload); // warm-up
    const times: number[] = [];
    for (let run = 0; run < Math.max(1, repeats); run += 1) {
      const start = performance.now();
      classifyOnce(payload);
      times.push(performance.now() - start);
    }
    const ms = median(times);
    if (ms > slowest.ms || slowest.id === '') slowest = { id: payload.id, ms };
  }
  return slowest;
}

/** Measures the classifier figures with explicit settings (tests use tiny ones). */
export function classifierFigures(options: SuiteOptions, settings: ClassifierBenchSettings): Figure[] {
  const corpus = fixturePayloads(options.repoRoot);
  const synthetic = syntheticPayloads(settings.largeBodyBytes);
  options.log(`classifier: ${corpus.length} fixture payloads, ${synthetic.length} synthetic ${settings.largeBodyBytes}-byte payloads`);
  const payloadsPerSecond = measureThroughput(corpus, settings.throughputBudgetMs, settings.warmupMs);
  const slowest = measureSlowest([...corpus, ...synthetic], settings.repeatsPerPayload);
  options.log(`classifier: slowest payload ${slowest.id} (${slowest.ms.toFixed(2)} ms, median of ${settings.repeatsPerPayload})`);
  if (sink < 0) options.log('unreachable');
  return [
    { name: 'classifier.payloads_per_s', unit: 'payloads/s', value: Math.round(payloadsPerSecond) },
    { name: 'classifier.slowest_ms', unit: 'ms', value: Number(slowest.ms.toFixed(3)) },
  ];
}

/** The classifier suite. */
export const classifierSuite: BenchSuite = {
  name: 'classifier',
  description: 'error classifier throughput over the fixture corpus and its slowest payload (1 MiB worst cases included)',
  run: async (options) => classifierFigures(options, classifierSettings(options.quick)),
};
