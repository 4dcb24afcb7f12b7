/**
 * From raw observations to the failover-conduct figures of docs/contracts.md#bench: `failover.recovery_s` and
 * `failover.silent_provider_s` (streamed) / `failover.silent_provider_s.non_stream`, each with a `.vs_portkey`
 * figure when Portkey was measured in the same run. Pure: `failover-conduct.ts` measures, this computes, and the
 * unit tests feed it hand-made observations. Every value here is in seconds.
 */
import type { Figure, SkippedFigure } from '../figure.js';
import { compared } from '../figure.js';
import { median } from '../stats.js';

/** One target's result for one figure: seconds, or why there is no value (never a made-up one). */
export type Measured = { readonly ok: true; readonly seconds: number } | { readonly ok: false; readonly reason: string };

/** Which upstream answered a request, as the answer's headers say. */
export type ServedBy = 'primary' | 'fallback' | 'unknown';

/** Target names of the conduct figures. */
export const CONDUCT_TARGETS = Object.freeze({ understudy: 'understudy', portkey: 'portkey' });

/** Response headers as undici returns them. */
export type AnswerHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * Which candidate answered, from the answer's headers: understudy names the model in `x-understudy-model`
 * (`primary/…` or `backup/…`, the provider ids of the bench's conduct configs), Portkey the target index in
 * `x-portkey-last-used-option-index` (`config.targets[0]` is the primary).
 *
 * @example servedBy('portkey', { 'x-portkey-last-used-option-index': 'config.targets[1]' }) // 'fallback'
 */
export function servedBy(target: string, headers: AnswerHeaders): ServedBy {
  if (target === CONDUCT_TARGETS.portkey) {
    const index = headers['x-portkey-last-used-option-index'];
    return index === 'config.targets[0]' ? 'primary' : index === 'config.targets[1]' ? 'fallback' : 'unknown';
  }
  const model = headers['x-understudy-model'];
  if (typeof model !== 'string') return 'unknown';
  return model.startsWith('primary/') ? 'primary' : model.startsWith('backup/') ? 'fallback' : 'unknown';
}

/** One request of the recovery run, on the bench's clock (`performance.now()`, ms). */
export interface RecoveryAnswer {
  readonly sentAtMs: number;
  readonly answeredAtMs: number;
  /** HTTP status; 0 when the request failed without an answer. */
  readonly status: number;
  readonly servedBy: ServedBy;
}

/**
 * `failover.recovery_s` of one run: seconds from `healthyAtMs` (the primary's script switched to healthy) to the
 * first 200 the primary served that arrived at or after it. `undefined` while the primary has not answered.
 *
 * @example recoverySeconds([{ sentAtMs: 9_000, answeredAtMs: 9_010, status: 200, servedBy: 'primary' }], 1_000) // 8.01
 */
export function recoverySeconds(answers: readonly RecoveryAnswer[], healthyAtMs: number): number | undefined {
  let first: number | undefined;
  for (const answer of answers) {
    if (answer.status !== 200 || answer.servedBy !== 'primary' || answer.answeredAtMs < healthyAtMs) continue;
    if (first === undefined || answer.answeredAtMs < first) first = answer.answeredAtMs;
  }
  return first === undefined ? undefined : (first - healthyAtMs) / 1000;
}

/**
 * Outage lengths of the recovery runs: `rounds` outages from `firstMs`, spread evenly over `spreadMs` (one probe
 * throttle), so the moment the primary recovers falls at different places of the gateway's probe schedule.
 *
 * @example staggeredOutagesMs(20_000, 3, 30_000) // [20000, 30000, 40000]
 */
export function staggeredOutagesMs(firstMs: number, rounds: number, spreadMs: number): number[] {
  return Array.from({ length: rounds }, (_, index) => firstMs + Math.round((index * spreadMs) / rounds));
}

/**
 * One figure value from several runs: the median of their seconds, or, when any run has no value, that run's
 * reason (a run where the primary never came back is not outvoted by the others).
 *
 * @example medianOfRuns([{ ok: true, seconds: 3 }, { ok: true, seconds: 1 }, { ok: true, seconds: 2 }]) // { ok: true, seconds: 2 }
 */
export function medianOfRuns(runs: readonly Measured[]): Measured {
  const values: number[] = [];
  for (const run of runs) {
    if (!run.ok) return run;
    values.push(run.seconds);
  }
  return values.length === 0 ? { ok: false, reason: 'no runs' } : { ok: true, seconds: median(values) };
}

/**
 * Whether a 200 body is a complete chat answer: a non-streamed body with `choices[0].message.content` text, or
 * an SSE stream with content that ends with `data: [DONE]`.
 *
 * @example answerComplete('data: {"choices":[{"delta":{"content":"hi"}}]}\n\ndata: [DONE]\n\n', true) // true
 */
export function answerComplete(text: string, stream: boolean): boolean {
  if (!stream) {
    try {
      const body = JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] };
      const content = body.choices?.[0]?.message?.content;
      return typeof content === 'string' && content !== '';
    } catch {
      return false;
    }
  }
  const events = text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim());
  const hasContent = events.some((data) => {
    try {
      const content = (JSON.parse(data) as { choices?: { delta?: { content?: unknown } }[] }).choices?.[0]?.delta?.content;
      return typeof content === 'string' && content !== '';
    } catch {
      return false;
    }
  });
  return hasContent && events.at(-1) === '[DONE]';
}

/** What the conduct measurements found, by figure and then by target (`understudy`, `portkey`). */
export interface ConductMeasurements {
  readonly recovery: Readonly<Record<string, Measured>>;
  readonly silentStream: Readonly<Record<string, Measured>>;
  readonly silentNonStream: Readonly<Record<string, Measured>>;
}

/**
 * The conduct figures and the ones left out. Per figure: understudy's value (else the figure and its
 * `.vs_portkey` are skipped with understudy's reason), then `.vs_portkey` with Portkey's value from the same run
 * as the baseline (else skipped with Portkey's reason). A figure no target was measured for is neither.
 */
export function conductFigures(measured: ConductMeasurements): { readonly figures: Figure[]; readonly skipped: SkippedFigure[] } {
  const figures: Figure[] = [];
  const skipped: SkippedFigure[] = [];
  for (const [name, results] of [
    ['failover.recovery_s', measured.recovery],
    ['failover.silent_provider_s', measured.silentStream],
    ['failover.silent_provider_s.non_stream', measured.silentNonStream],
  ] as const) {
    const own = results[CONDUCT_TARGETS.understudy];
    const portkey = results[CONDUCT_TARGETS.portkey];
    const vsPortkey = `${name}.vs_portkey`;
    if (own === undefined) continue;
    if (!own.ok) {
      skipped.push({ name, reason: own.reason });
      if (portkey !== undefined) skipped.push({ name: vsPortkey, reason: `understudy's figure is missing: ${own.reason}` });
      continue;
    }
    const figure: Figure = { name, unit: 's', value: own.seconds };
    figures.push(figure);
    if (portkey === undefined) continue;
    if (portkey.ok) figures.push(compared({ ...figure, name: vsPortkey }, { name: CONDUCT_TARGETS.portkey, value: portkey.seconds }));
    else skipped.push({ name: vsPortkey, reason: portkey.reason });
  }
  return { figures, skipped };
}
