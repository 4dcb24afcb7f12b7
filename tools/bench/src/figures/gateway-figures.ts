/**
 * From raw samples to the gateway figures of docs/contracts.md#bench. Pure: the suite measures, this computes, and the unit
 * tests feed it tiny hand-made samples.
 *
 * Every latency figure is "added over direct": inside each round, the target's percentile minus the direct
 * path's percentile; then the median over rounds. Throughput and CPU per request are medians of the rounds' values. Baselines
 * (`bare-proxy`, `portkey`) are the same statistic of the baseline in the same rounds, as separate figures
 * suffixed `.vs_bare_proxy` / `.vs_portkey` whose `ratio` is `value / baseline.value`.
 */
import type { Figure } from '../figure.js';
import { compared } from '../figure.js';
import { median, medianOfRoundDifferences, medianOfRounds, percentile } from '../stats.js';

/** Target names as they appear in rounds. */
export const TARGETS = Object.freeze({
  direct: 'direct',
  bareProxy: 'bare-proxy',
  understudy: 'understudy',
  cooling: 'understudy-cooling',
  traced: 'understudy-traced',
  /** The one-candidate gateway with its state in PostgreSQL (the `postgres` suite). */
  postgres: 'understudy-pg',
  portkey: 'portkey',
});

/** Samples by target name, one record per round. */
export type Rounds = readonly Readonly<Record<string, readonly number[]>>[];

/** Everything the gateway suite measured. */
export interface GatewayMeasurements {
  /** Sequential whole requests: ms per request. */
  readonly latency: Rounds;
  /** Sequential streams: ms to the first content chunk. */
  readonly stream: Rounds;
  /** Concurrency-32 load: one requests/s value per target per round. */
  readonly load: Rounds;
  /** CPU time of each process per answered request during those load runs, ms, one value per target per round. */
  readonly cpuMsPerRequest: Rounds;
  /** Peak RSS under load, MiB, by target (proxies only). */
  readonly peakRssMiB: Readonly<Record<string, number>>;
  /** RSS right after start (and one check request of each kind), MiB, by target (proxies only). */
  readonly idleRssMiB: Readonly<Record<string, number>>;
  /**
   * Load runs at each concurrency, by `c1`, `c32`, `c256`: requests/s and autocannon's p99 latency (ms), one value
   * per target per round. `gateway.rps_c32` itself comes from `load`. Absent when not measured.
   */
  readonly concurrency?: Readonly<Record<string, { readonly rps: Rounds; readonly p99Ms: Rounds }>>;
  /** Relayed long streams (2,000 content chunks written back to back): content chunks/s, per stream. Absent when not measured. */
  readonly longStream?: Rounds;
  /**
   * Sequential whole requests of a given body size, by size suffix (`size_1k`, `size_100k`, `size_1m`): ms per
   * request, and CPU ms per request of each proxy process over the same requests. Absent when not measured.
   */
  readonly sized?: Readonly<Record<string, { readonly latency: Rounds; readonly cpuMsPerRequest: Rounds }>>;
}

const has = (rounds: Rounds, target: string): boolean => rounds.length > 0 && rounds.every((round) => (round[target]?.length ?? 0) > 0);

function withBaselines(figure: Figure, baselines: readonly { readonly suffix: string; readonly name: string; readonly value: number | undefined }[]): Figure[] {
  const out: Figure[] = [figure];
  for (const baseline of baselines) {
    if (baseline.value === undefined) continue;
    out.push(compared({ ...figure, name: `${figure.name}.${baseline.suffix}` }, { name: baseline.name, value: baseline.value }));
  }
  return out;
}

/** The usual two baselines of a statistic, each present only when measured. */
function baselinesOf(rounds: Rounds, statistic: (target: string) => number): { suffix: string; name: string; value: number | undefined }[] {
  return [
    { suffix: 'vs_bare_proxy', name: TARGETS.bareProxy, value: has(rounds, TARGETS.bareProxy) ? statistic(TARGETS.bareProxy) : undefined },
    { suffix: 'vs_portkey', name: TARGETS.portkey, value: has(rounds, TARGETS.portkey) ? statistic(TARGETS.portkey) : undefined },
  ];
}

const p50 = (samples: readonly number[]): number => percentile(samples, 50);
const p99 = (samples: readonly number[]): number => percentile(samples, 99);

/**
 * The gateway figures from the measurements (figures of targets that were not measured are left out).
 *
 * @throws {Error} when the direct or understudy samples are missing from a round.
 */
export function gatewayFigures(measured: GatewayMeasurements): Figure[] {
  const figures: Figure[] = [];
  const { latency, stream, load } = measured;
  const added = (rounds: Rounds, statistic: (samples: readonly number[]) => number) => (target: string) =>
    medianOfRoundDifferences(rounds, target, TARGETS.direct, statistic);

  if (latency.length > 0) {
    figures.push({ name: 'gateway.direct_p50_ms', unit: 'ms', value: medianOfRounds(latency, TARGETS.direct, p50) });
    for (const [label, statistic] of [
      ['p50', p50],
      ['p99', p99],
    ] as const) {
      const of = added(latency, statistic);
      const own = of(TARGETS.understudy);
      figures.push(...withBaselines({ name: `gateway.added_${label}_ms`, unit: 'ms', value: own }, baselinesOf(latency, of)));
      if (has(latency, TARGETS.cooling)) {
        figures.push(compared({ name: `gateway.cooling_primary.added_${label}_ms`, unit: 'ms', value: of(TARGETS.cooling) }, { name: TARGETS.understudy, value: own }));
      }
      if (has(latency, TARGETS.traced)) {
        figures.push(compared({ name: `gateway.telemetry_on.added_${label}_ms`, unit: 'ms', value: of(TARGETS.traced) }, { name: TARGETS.understudy, value: own }));
      }
    }
  }

  if (load.length > 0) {
    const rps = (target: string): number => medianOfRounds(load, target, median);
    const own = rps(TARGETS.understudy);
    figures.push(
      ...withBaselines({ name: 'gateway.rps_c32', unit: 'req/s', value: own }, [
        ...baselinesOf(load, rps),
        { suffix: 'vs_direct', name: TARGETS.direct, value: has(load, TARGETS.direct) ? rps(TARGETS.direct) : undefined },
      ]),
    );
    if (has(load, TARGETS.cooling)) {
      figures.push(compared({ name: 'gateway.cooling_primary.rps_c32', unit: 'req/s', value: rps(TARGETS.cooling) }, { name: TARGETS.understudy, value: own }));
    }
    if (has(load, TARGETS.traced)) {
      figures.push(compared({ name: 'gateway.telemetry_on.rps_c32', unit: 'req/s', value: rps(TARGETS.traced) }, { name: TARGETS.understudy, value: own }));
    }
  }

  const cpu = measured.cpuMsPerRequest;
  if (has(cpu, TARGETS.understudy)) {
    const perRequest = (target: string): number => medianOfRounds(cpu, target, median);
    const own = perRequest(TARGETS.understudy);
    figures.push(...withBaselines({ name: 'gateway.cpu_ms_per_req', unit: 'ms', value: own }, baselinesOf(cpu, perRequest)));
    if (has(cpu, TARGETS.cooling)) {
      figures.push(compared({ name: 'gateway.cooling_primary.cpu_ms_per_req', unit: 'ms', value: perRequest(TARGETS.cooling) }, { name: TARGETS.understudy, value: own }));
    }
    // The same one-candidate gateway exporting a trace of every turn, against `understudy` with tracing off.
    if (has(cpu, TARGETS.traced)) {
      figures.push(compared({ name: 'gateway.telemetry_on.cpu_ms_per_req', unit: 'ms', value: perRequest(TARGETS.traced) }, { name: TARGETS.understudy, value: own }));
    }
  }

  for (const [name, rss] of [
    ['gateway.rss_mib', measured.peakRssMiB],
    ['gateway.rss_idle_mib', measured.idleRssMiB],
  ] as const) {
    const ownRss = rss[TARGETS.understudy];
    if (ownRss === undefined) continue;
    figures.push(
      ...withBaselines({ name, unit: 'MiB', value: ownRss }, [
        { suffix: 'vs_bare_proxy', name: TARGETS.bareProxy, value: rss[TARGETS.bareProxy] },
        { suffix: 'vs_portkey', name: TARGETS.portkey, value: rss[TARGETS.portkey] },
      ]),
    );
  }

  for (const [level, runs] of Object.entries(measured.concurrency ?? {})) {
    const of = (rounds: Rounds) => (target: string): number => medianOfRounds(rounds, target, median);
    if (level !== 'c32' && has(runs.rps, TARGETS.understudy)) {
      figures.push(...withBaselines({ name: `gateway.rps_${level}`, unit: 'req/s', value: of(runs.rps)(TARGETS.understudy) }, baselinesOf(runs.rps, of(runs.rps))));
    }
    if (has(runs.p99Ms, TARGETS.understudy)) {
      figures.push(...withBaselines({ name: `gateway.p99_ms_${level}`, unit: 'ms', value: of(runs.p99Ms)(TARGETS.understudy) }, baselinesOf(runs.p99Ms, of(runs.p99Ms))));
    }
  }

  for (const [suffix, sized] of Object.entries(measured.sized ?? {})) {
    if (has(sized.latency, TARGETS.understudy) && has(sized.latency, TARGETS.direct)) {
      const of = added(sized.latency, p50);
      figures.push(...withBaselines({ name: `gateway.added_p50_ms.${suffix}`, unit: 'ms', value: of(TARGETS.understudy) }, baselinesOf(sized.latency, of)));
    }
    if (has(sized.cpuMsPerRequest, TARGETS.understudy)) {
      const perRequest = (target: string): number => medianOfRounds(sized.cpuMsPerRequest, target, median);
      figures.push(...withBaselines({ name: `gateway.cpu_ms_per_req.${suffix}`, unit: 'ms', value: perRequest(TARGETS.understudy) }, baselinesOf(sized.cpuMsPerRequest, perRequest)));
    }
  }

  figures.push(...growthFigures(measured.sized ?? {}));

  const longStream = measured.longStream ?? [];
  if (has(longStream, TARGETS.understudy)) {
    const rate = (target: string): number => medianOfRounds(longStream, target, median);
    figures.push(
      ...withBaselines({ name: 'gateway.stream_chunks_per_s', unit: 'chunks/s', value: rate(TARGETS.understudy) }, [
        ...baselinesOf(longStream, rate),
        { suffix: 'vs_direct', name: TARGETS.direct, value: has(longStream, TARGETS.direct) ? rate(TARGETS.direct) : undefined },
      ]),
    );
  }

  if (stream.length > 0) {
    const of = added(stream, p50);
    figures.push(...withBaselines({ name: 'gateway.stream_added_ttft_ms', unit: 'ms', value: of(TARGETS.understudy) }, baselinesOf(stream, of)));
  }
  return figures;
}

/** The size whose CPU per request the growth figures start from, and the sizes they measure to. */
const GROWTH_FROM = 'size_1k';
const GROWTH_TO = { size_100k: 'growth_100k', size_1m: 'growth_1m' } as const;

/**
 * `gateway.cpu_ms_per_req.growth_100k` / `.growth_1m`: how much more CPU a request of 100 KB / 1 MB costs than
 * one of 1 KB (ms, the medians of the sized figures subtracted), each also against the bare proxy's and Portkey's
 * own growth in the same rounds, so "cost grows no faster than the bare proxy's" is a ratio ≤ 1. A target without
 * both sizes measured has no growth figure.
 */
function growthFigures(sized: NonNullable<GatewayMeasurements['sized']>): Figure[] {
  const from = sized[GROWTH_FROM]?.cpuMsPerRequest;
  if (from === undefined || !has(from, TARGETS.understudy)) return [];
  const figures: Figure[] = [];
  for (const [size, name] of Object.entries(GROWTH_TO)) {
    const to = sized[size]?.cpuMsPerRequest;
    if (to === undefined || !has(to, TARGETS.understudy)) continue;
    const growth = (target: string): number => medianOfRounds(to, target, median) - medianOfRounds(from, target, median);
    const baseline = (target: string): number | undefined => (has(from, target) && has(to, target) ? growth(target) : undefined);
    figures.push(
      ...withBaselines({ name: `gateway.cpu_ms_per_req.${name}`, unit: 'ms', value: growth(TARGETS.understudy) }, [
        { suffix: 'vs_bare_proxy', name: TARGETS.bareProxy, value: baseline(TARGETS.bareProxy) },
        { suffix: 'vs_portkey', name: TARGETS.portkey, value: baseline(TARGETS.portkey) },
      ]),
    );
  }
  return figures;
}

/**
 * `gateway.pg.added_p50_ms`: the added p50 of the one-candidate gateway on PostgreSQL ({@link TARGETS.postgres}),
 * compared with the SQLite gateway ({@link TARGETS.understudy}) measured in the same interleaved rounds; both
 * "added over direct" as in {@link gatewayFigures}. The goal of the replicas work is a ratio ≤ 1.5.
 *
 * @throws {Error} when a round lacks samples of direct, understudy or understudy-pg.
 */
export function postgresGatewayFigures(latency: Rounds): Figure[] {
  const of = (target: string): number => medianOfRoundDifferences(latency, target, TARGETS.direct, p50);
  return [compared({ name: 'gateway.pg.added_p50_ms', unit: 'ms', value: of(TARGETS.postgres) }, { name: TARGETS.understudy, value: of(TARGETS.understudy) })];
}
