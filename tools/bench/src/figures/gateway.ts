/**
 * Gateway figures (docs/contracts.md#bench): added latency p50/p99, throughput at concurrency 32 (and the CPU time each
 * request costs the proxy process under that load), RSS under load and added time to first token, for understudy side by side with the direct path, a bare undici proxy and Portkey, all
 * in front of the same fixed upstream and all in this one run.
 *
 * Targets, each its own process: `direct` (the upstream itself), `bare-proxy`, `understudy` (one candidate),
 * `understudy-cooling` (a two-candidate chain whose primary is cooling down: every request skips it),
 * `understudy-traced` (the one-candidate gateway exporting an OpenTelemetry trace of every turn to a loopback
 * OTLP sink; `understudy` itself runs with tracing off, the default) and `portkey`. The cooling and traced
 * targets take part in the latency and c32 load rounds only. Each phase runs in interleaved rounds (A B C D E, A B C D E, …) so drift hits every target alike;
 * figures are medians over rounds (see `gateway-figures.ts`).
 */
import path from 'node:path';
import type { BenchSuite, Figure, SuiteOptions } from '../figure.js';
import { BenchError } from '../errors.js';
import { cpuTimeMs, rssMiB, sampleRss } from '../processes.js';
import type { ServerProcess } from '../processes.js';
import { connect, sendOnce, timeFirstContent, timeLongStreams, timeRequests } from '../load/sequential.js';
import type { TimedTarget } from '../load/sequential.js';
import type { HttpTarget } from '../load/target.js';
import { REQUEST_SIZES, sizedChatBody } from '../load/target.js';
import { measureThroughput } from '../load/throughput.js';
import { portkeySingleConfig } from '../baselines/portkey.js';
import { coolingPrimaryConfig, oneCandidateConfig, seedCoolingPrimary, startUnderstudy } from '../understudy-gateway.js';
import { TARGETS, gatewayFigures } from './gateway-figures.js';
import type { GatewayMeasurements } from './gateway-figures.js';
import { runFolder, spawnBareProxy, spawnUpstream, stopAll, tryStartPortkey } from './side-by-side.js';
import { startOtlpSink } from '../upstream/otlp-sink.js';
import type { OtlpSink } from '../upstream/otlp-sink.js';

/** Targets measured in the latency and c32 load rounds only (their figures compare with `understudy`). */
const VARIANTS: ReadonlySet<string> = new Set([TARGETS.cooling, TARGETS.traced]);

/** Knobs of the gateway measurements; the defaults depend on `quick`. */
export interface GatewayBenchSettings {
  /** Untimed requests per target before the first round (JIT warm-up). */
  readonly warmupRequests: number;
  readonly latencyRounds: number;
  /** Timed sequential requests per target per round. */
  readonly latencyRequests: number;
  readonly streamRounds: number;
  readonly streamRequests: number;
  readonly loadRounds: number;
  /** Seconds of load per target per round. */
  readonly loadSeconds: number;
  /**
   * Seconds of untimed load per target before the first load round: under load the processes take a few
   * seconds to reach their steady state (heap sizing, JIT), which would otherwise weigh on round 1 only.
   */
  readonly loadWarmupSeconds: number;
  /** Concurrent connections of the load runs. @default 32 */
  readonly connections: number;
  /** Streams of {@link LONG_STREAM_CHUNKS} chunks per target per stream round (`gateway.stream_chunks_per_s`). */
  readonly longStreams: number;
  /** Rounds of the sized-request phase (1 KB, 100 KB, 1 MB bodies). */
  readonly sizedRounds: number;
  /** Timed sequential requests per target per round at 1 KB; 100 KB sends half as many, 1 MB a fifth. */
  readonly sizedRequests: number;
}

/** Default settings for a full or a quick run. */
export function gatewaySettings(quick: boolean): GatewayBenchSettings {
  return quick
    ? { warmupRequests: 60, latencyRounds: 3, latencyRequests: 80, streamRounds: 3, streamRequests: 15, loadRounds: 1, loadSeconds: 2, loadWarmupSeconds: 1, connections: 32, sizedRounds: 2, sizedRequests: 20, longStreams: 2 }
    : { warmupRequests: 500, latencyRounds: 9, latencyRequests: 300, streamRounds: 7, streamRequests: 60, loadRounds: 3, loadSeconds: 5, loadWarmupSeconds: 3, connections: 32, sizedRounds: 5, sizedRequests: 400, longStreams: 5 };
}

/** Content chunks of the relayed long stream (`gateway.stream_chunks_per_s`). */
const LONG_STREAM_CHUNKS = 2_000;

const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * Checks each target answers like the upstream, and every understudy target (name starting `understudy`) answers
 * with `fixed/bench-model`.
 *
 * @throws {BenchError} `bad_answer` on the first answer that is not.
 */
export async function checkTargets(targets: readonly TimedTarget[]): Promise<void> {
  for (const timed of targets) {
    for (const stream of [false, true]) {
      const { headers, text } = await sendOnce(timed, stream);
      if (!text.includes('Hello')) throw new BenchError(`${timed.target.name} answered without the upstream's text: ${text.slice(0, 200)}`, 'bad_answer');
      if (timed.target.name.startsWith('understudy') && headers['x-understudy-model'] !== 'fixed/bench-model') {
        throw new BenchError(`${timed.target.name} answered with ${String(headers['x-understudy-model'])}, expected fixed/bench-model`, 'bad_answer');
      }
    }
  }
}

/** One latency round: `count` sequential requests (whole, or streams to their first content) per target, in order; ms by target name. */
export async function latencyRound(targets: readonly TimedTarget[], count: number, stream: boolean): Promise<Record<string, number[]>> {
  const round: Record<string, number[]> = {};
  for (const timed of targets) round[timed.target.name] = stream ? await timeFirstContent(timed, count, 3) : await timeRequests(timed, count, 5);
  return round;
}

/**
 * Sequential requests of each size in {@link REQUEST_SIZES}, interleaved by target within each round: latency per
 * request and the CPU each proxy process spent on them (`/proc/<pid>/stat`), per request.
 */
async function sizedPhase(
  targets: readonly TimedTarget[],
  settings: GatewayBenchSettings,
  log: (line: string) => void,
  skip: (figure: string, reason: string) => void,
): Promise<Record<string, { latency: Record<string, number[]>[]; cpuMsPerRequest: Record<string, number[]>[] }>> {
  const out: Record<string, { latency: Record<string, number[]>[]; cpuMsPerRequest: Record<string, number[]>[] }> = {};
  for (const size of REQUEST_SIZES) {
    const count = Math.max(5, Math.round(settings.sizedRequests / (size.bytes >= 1_000_000 ? 5 : size.bytes >= 100_000 ? 2 : 1)));
    const phase = { latency: [] as Record<string, number[]>[], cpuMsPerRequest: [] as Record<string, number[]>[] };
    for (let round = 1; round <= settings.sizedRounds; round += 1) {
      log(`gateway: ${size.suffix} round ${round}/${settings.sizedRounds} (${count} sequential ${size.bytes}-byte requests per target)`);
      const latency: Record<string, number[]> = {};
      const cpu: Record<string, number[]> = {};
      for (const timed of targets) {
        const body = sizedChatBody(timed.target, size.bytes);
        try {
          await timeRequests(timed, 0, 2, body);
        } catch (error) {
          // A baseline that refuses a body size is left out of that size's comparisons, named with its answer.
          if (timed.target.name !== TARGETS.portkey) throw error;
          for (const figure of ['added_p50_ms', 'cpu_ms_per_req']) skip(`gateway.${figure}.${size.suffix}.vs_portkey`, (error as Error).message);
          continue;
        }
        const pid = timed.target.name === TARGETS.direct ? undefined : timed.target.pid;
        const before = pid === undefined ? undefined : cpuTimeMs(pid);
        latency[timed.target.name] = await timeRequests(timed, count, 0, body);
        const after = pid === undefined ? undefined : cpuTimeMs(pid);
        if (before !== undefined && after !== undefined) cpu[timed.target.name] = [(after - before) / count];
      }
      phase.latency.push(latency);
      phase.cpuMsPerRequest.push(cpu);
    }
    out[size.suffix] = phase;
  }
  return out;
}

/** Measures everything with explicit settings. */
async function measureGateway(options: SuiteOptions, settings: GatewayBenchSettings): Promise<GatewayMeasurements> {
  const folder = runFolder('gateway');
  const servers: ServerProcess[] = [];
  const timed: TimedTarget[] = [];
  let sink: OtlpSink | undefined;
  let failed = true;
  try {
    const upstream = await spawnUpstream(options.repoRoot, folder.dir);
    servers.push(upstream);
    const bare = await spawnBareProxy(options.repoRoot, folder.dir, upstream.url);
    servers.push(bare);
    const one = await startUnderstudy({ name: 'understudy', repoRoot: options.repoRoot, dir: path.join(folder.dir, 'understudy'), config: oneCandidateConfig(upstream.url) });
    servers.push(one);
    const cooling = await startUnderstudy({
      name: 'understudy-cooling',
      repoRoot: options.repoRoot,
      dir: path.join(folder.dir, 'understudy-cooling'),
      config: coolingPrimaryConfig(upstream.url),
      prepare: (stateDir) => seedCoolingPrimary(stateDir, Date.now()),
    });
    servers.push(cooling);
    sink = await startOtlpSink();
    const traced = await startUnderstudy({
      name: 'understudy-traced',
      repoRoot: options.repoRoot,
      dir: path.join(folder.dir, 'understudy-traced'),
      config: { ...oneCandidateConfig(upstream.url), telemetry: { otlp: { endpoint: sink.url } } },
    });
    servers.push(traced);
    const portkey = await tryStartPortkey(folder.dir);

    const upstreamHeaders = { ...JSON_HEADERS, authorization: 'Bearer sk-bench-direct' };
    const targets: HttpTarget[] = [
      { name: TARGETS.direct, origin: upstream.url, path: '/v1/chat/completions', headers: upstreamHeaders, model: 'bench-model', pid: upstream.pid },
      { name: TARGETS.bareProxy, origin: bare.url, path: '/v1/chat/completions', headers: upstreamHeaders, model: 'bench-model', pid: bare.pid },
      { name: TARGETS.understudy, origin: one.url, path: '/v1/chat/completions', headers: JSON_HEADERS, model: 'default', pid: one.pid },
      { name: TARGETS.cooling, origin: cooling.url, path: '/v1/chat/completions', headers: JSON_HEADERS, model: 'default', pid: cooling.pid },
      { name: TARGETS.traced, origin: traced.url, path: '/v1/chat/completions', headers: JSON_HEADERS, model: 'default', pid: traced.pid },
    ];
    if (portkey.ok) {
      servers.push(portkey.server);
      targets.push({
        name: TARGETS.portkey,
        origin: portkey.server.url,
        path: '/v1/chat/completions',
        headers: { ...JSON_HEADERS, 'x-portkey-config': portkeySingleConfig(`${upstream.url}/v1`) },
        model: 'bench-model',
        pid: portkey.server.pid,
      });
      options.note?.(`Portkey ${portkey.version} (node build/start-server.js --headless); it binds all interfaces (*:port), not only loopback; configured per request through x-portkey-config against the same upstream.`);
    } else {
      for (const suffix of ['added_p50_ms', 'added_p99_ms', 'rps_c32', 'cpu_ms_per_req', 'rss_mib', 'rss_idle_mib', 'stream_added_ttft_ms', 'stream_chunks_per_s', ...REQUEST_SIZES.flatMap((size) => [`added_p50_ms.${size.suffix}`, `cpu_ms_per_req.${size.suffix}`]), 'cpu_ms_per_req.growth_100k', 'cpu_ms_per_req.growth_1m']) options.skip?.(`gateway.${suffix}.vs_portkey`, portkey.reason);
      options.log(`gateway: ${portkey.reason}`);
    }
    timed.push(...targets.map(connect));
    await checkTargets(timed);
    const idleRssMiB: Record<string, number> = {};
    for (const { target } of timed) {
      const rss = target.name === TARGETS.direct || target.pid === undefined ? undefined : rssMiB(target.pid);
      if (rss !== undefined) idleRssMiB[target.name] = rss;
    }

    options.log(`gateway: warm-up, ${settings.warmupRequests} requests per target`);
    for (const target of timed) await timeRequests(target, 0, settings.warmupRequests);

    const latency: Record<string, number[]>[] = [];
    for (let round = 1; round <= settings.latencyRounds; round += 1) {
      options.log(`gateway: latency round ${round}/${settings.latencyRounds} (${settings.latencyRequests} sequential requests per target)`);
      latency.push(await latencyRound(timed, settings.latencyRequests, false));
    }
    const sized = await sizedPhase(
      timed.filter((target) => !VARIANTS.has(target.target.name)),
      settings,
      options.log,
      (figure, reason) => options.skip?.(figure, reason),
    );
    const streamTargets = timed.filter((target) => !VARIANTS.has(target.target.name));
    const stream: Record<string, number[]>[] = [];
    for (let round = 1; round <= settings.streamRounds; round += 1) {
      options.log(`gateway: stream round ${round}/${settings.streamRounds} (${settings.streamRequests} streams per target)`);
      stream.push(await latencyRound(streamTargets, settings.streamRequests, true));
    }

    const longStream: Record<string, number[]>[] = [];
    for (let round = 1; round <= settings.streamRounds; round += 1) {
      options.log(`gateway: long-stream round ${round}/${settings.streamRounds} (${settings.longStreams} streams of ${LONG_STREAM_CHUNKS} chunks per target)`);
      const rates: Record<string, number[]> = {};
      for (const target of streamTargets) rates[target.target.name] = await timeLongStreams(target, settings.longStreams, LONG_STREAM_CHUNKS);
      longStream.push(rates);
    }

    const load: Record<string, number[]>[] = [];
    const peakRssMiB: Record<string, number> = {};
    options.log(`gateway: load warm-up, ${settings.loadWarmupSeconds} s per target`);
    for (const { target } of timed) await measureThroughput(target, settings.connections, settings.loadWarmupSeconds);
    const cpu: Record<string, number[]>[] = [];
    const p99c32: Record<string, number[]>[] = [];
    for (let round = 1; round <= settings.loadRounds; round += 1) {
      const results: Record<string, number[]> = {};
      const cpuRound: Record<string, number[]> = {};
      const p99Round: Record<string, number[]> = {};
      for (const { target } of timed) {
        const watch = target.name === TARGETS.direct || target.pid === undefined ? undefined : sampleRss(target.pid);
        const cpuBefore = target.pid === undefined ? undefined : cpuTimeMs(target.pid);
        const result = await measureThroughput(target, settings.connections, settings.loadSeconds);
        const cpuAfter = target.pid === undefined ? undefined : cpuTimeMs(target.pid);
        if (watch !== undefined) peakRssMiB[target.name] = Math.max(peakRssMiB[target.name] ?? 0, watch.stop());
        results[target.name] = [result.requestsPerSecond];
        p99Round[target.name] = [result.p99Ms];
        if (cpuBefore !== undefined && cpuAfter !== undefined && result.requests > 0) {
          cpuRound[target.name] = [(cpuAfter - cpuBefore) / result.requests];
        }
        options.log(
          `gateway: load round ${round}/${settings.loadRounds}: ${target.name} ${Math.round(result.requestsPerSecond)} req/s at c${settings.connections}, ${(cpuRound[target.name]?.[0] ?? Number.NaN).toFixed(3)} ms CPU per request`,
        );
      }
      load.push(results);
      p99c32.push(p99Round);
      if (Object.keys(cpuRound).length > 0) cpu.push(cpuRound);
    }
    const concurrency: Record<string, { rps: Record<string, number[]>[]; p99Ms: Record<string, number[]>[] }> = { c32: { rps: load, p99Ms: p99c32 } };
    for (const connections of [1, 256]) {
      const runs = { rps: [] as Record<string, number[]>[], p99Ms: [] as Record<string, number[]>[] };
      for (let round = 1; round <= settings.loadRounds; round += 1) {
        const rps: Record<string, number[]> = {};
        const p99: Record<string, number[]> = {};
        for (const { target } of timed) {
          if (VARIANTS.has(target.name)) continue;
          let result;
          try {
            result = await measureThroughput(target, connections, settings.loadSeconds);
          } catch (error) {
            // Portkey failing under a concurrency is left out of that level's comparisons, with its reason.
            if (target.name !== TARGETS.portkey) throw error;
            for (const figure of [`rps_c${connections}`, `p99_ms_c${connections}`]) options.skip?.(`gateway.${figure}.vs_portkey`, (error as Error).message);
            continue;
          }
          rps[target.name] = [result.requestsPerSecond];
          p99[target.name] = [result.p99Ms];
          options.log(`gateway: c${connections} round ${round}/${settings.loadRounds}: ${target.name} ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.p99Ms} ms`);
        }
        runs.rps.push(rps);
        runs.p99Ms.push(p99);
      }
      concurrency[`c${connections}`] = runs;
    }
    const counts = (await (await fetch(`${upstream.url}/__counts`)).json()) as Record<string, number>;
    const primaryCalls = counts['cool'] ?? 0;
    options.note?.(
      primaryCalls === 0
        ? 'gateway: the cooling primary was never called (every understudy-cooling request skipped it and the fallback answered).'
        : `gateway: the cooling primary was called ${primaryCalls} times during the run (probes?), so understudy-cooling figures include those calls.`,
    );
    options.note?.(
      `gateway: fixed node:http upstream on loopback; interleaved rounds: latency ${settings.latencyRounds} x ${settings.latencyRequests} sequential requests per target, streams ${settings.streamRounds} x ${settings.streamRequests}, load ${settings.loadRounds} x ${settings.loadSeconds} s at c${settings.connections} (autocannon) after ${settings.loadWarmupSeconds} s of untimed load per target; figures are medians over rounds; added = through the target minus direct, same round; RSS is the peak VmRSS sampled every 100 ms under load (idle RSS: right after start and one check request of each kind); CPU per request is the process's user+system time over a load run (/proc/<pid>/stat) divided by its 2xx answers, which other load on the machine barely moves.`,
    );
    options.note?.('gateway: understudy runs with its default config (log level info: one access-log line per request to a file; no telemetry endpoint, so tracing is off and no OpenTelemetry module is loaded).');
    const exported = sink.counts();
    options.note?.(
      `gateway: understudy-traced is the same one-candidate gateway with telemetry.otlp.endpoint set to a loopback OTLP/HTTP sink in the bench process; during the run it exported ${exported.spans} spans in ${exported.requests} requests (a turn span and an attempt span per request, batched about once a second); its figures are gateway.telemetry_on.*, each against understudy (tracing off).`,
    );
    failed = false;
    return { latency, stream, load, cpuMsPerRequest: cpu, peakRssMiB, idleRssMiB, sized, concurrency, longStream };
  } finally {
    await Promise.allSettled(timed.map((target) => target.client.close()));
    await stopAll(servers);
    await sink?.close();
    if (failed) options.log(`gateway: server logs kept in ${folder.dir}`);
    folder.remove(failed);
  }
}

/** The gateway suite. */
export const gatewaySuite: BenchSuite = {
  name: 'gateway',
  description: 'added latency p50/p99 (also at 1 KB, 100 KB and 1 MB bodies, with CPU per request), req/s and CPU per request at c32, req/s and p99 at c1/c32/c256, relayed chunks/s of a 2,000-chunk stream, RSS, added TTFT: understudy vs direct, a bare undici proxy and Portkey',
  async run(options: SuiteOptions): Promise<readonly Figure[]> {
    return gatewayFigures(await measureGateway(options, gatewaySettings(options.quick)));
  },
};
