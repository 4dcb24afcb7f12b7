/**
 * Failover decision time (docs/contracts.md#bench `failover.decision_ms`): the primary answers 429, and the figure is the
 * time from the upstream finishing that 429 to the fallback request arriving at the upstream — both instants
 * taken by the upstream process's own clock (`performance.now()`), so the client's timing plays no part. What it
 * covers: the 429 travelling back, classification, the failure mark in the store, the fallback decision and the
 * new request reaching the upstream.
 *
 * Before each understudy sample the primary's cooldown is cleared through the admin API, so every sample is a
 * fresh 429 → fallback (otherwise the primary would be skipped as cooling down). Portkey, configured with a
 * fallback strategy on 429 against the same upstream, is measured in the same rounds as the baseline.
 */
import path from 'node:path';
import { Client } from 'undici';
import type { BenchSuite, Figure, SuiteOptions } from '../figure.js';
import { compared } from '../figure.js';
import { BenchError } from '../errors.js';
import type { ServerProcess } from '../processes.js';
import type { HttpTarget } from '../load/target.js';
import { chatBody } from '../load/target.js';
import { portkeyFallbackConfig } from '../baselines/portkey.js';
import { median } from '../stats.js';
import type { UpstreamEvent } from '../upstream/fixed-upstream.js';
import { BENCH_ADMIN_TOKEN, LIMITED_PROFILE_ID, failoverConfig, startUnderstudy } from '../understudy-gateway.js';
import { runFolder, spawnUpstream, stopAll, tryStartPortkey } from './side-by-side.js';
import { conductFigures } from './conduct-figures.js';
import { conductSettings, measureConduct } from './failover-conduct.js';

/** Knobs of the failover measurement. */
export interface FailoverBenchSettings {
  readonly warmupSamples: number;
  readonly rounds: number;
  readonly samplesPerRound: number;
}

/** Default settings for a full or a quick run. */
function failoverSettings(quick: boolean): FailoverBenchSettings {
  return quick ? { warmupSamples: 5, rounds: 3, samplesPerRound: 5 } : { warmupSamples: 20, rounds: 5, samplesPerRound: 20 };
}

/**
 * The decision time in one sample's upstream events: the last `limited-sent` to the first `fallback-arrived`
 * after it, ms.
 *
 * @throws {BenchError} `bad_answer` when either is missing (the primary was not tried, or no fallback came).
 * @example decisionMs([{ kind: 'limited-sent', atMs: 10 }, { kind: 'fallback-arrived', atMs: 10.4 }]) // ≈ 0.4
 */
export function decisionMs(events: readonly UpstreamEvent[]): number {
  const sent = events.filter((event) => event.kind === 'limited-sent').at(-1);
  const arrived = sent === undefined ? undefined : events.find((event) => event.kind === 'fallback-arrived' && event.atMs >= sent.atMs);
  if (sent === undefined || arrived === undefined) {
    throw new BenchError(`expected a 429 from the primary and then a fallback request, the upstream saw ${JSON.stringify(events)}`, 'bad_answer');
  }
  return arrived.atMs - sent.atMs;
}

interface Sampler {
  readonly name: string;
  sample(): Promise<number>;
  close(): Promise<void>;
}

async function takeEvents(upstreamUrl: string): Promise<UpstreamEvent[]> {
  return (await (await fetch(`${upstreamUrl}/__events`)).json()) as UpstreamEvent[];
}

function sampler(target: HttpTarget, upstreamUrl: string, before: () => Promise<void>, check: (headers: Record<string, unknown>) => string | undefined): Sampler {
  const client = new Client(target.origin, { pipelining: 1 });
  const body = chatBody(target, false);
  return {
    name: target.name,
    async sample() {
      await before();
      await takeEvents(upstreamUrl);
      const answer = await client.request({ method: 'POST', path: target.path, headers: target.headers, body });
      const text = await answer.body.text();
      if (answer.statusCode !== 200) throw new BenchError(`${target.name} answered ${answer.statusCode} after the 429: ${text.slice(0, 300)}`, 'bad_answer');
      const problem = check(answer.headers);
      if (problem !== undefined) throw new BenchError(`${target.name}: ${problem}`, 'bad_answer');
      return decisionMs(await takeEvents(upstreamUrl));
    },
    close: () => client.close(),
  };
}

/** Measures the decision times by target (per round, the median of its samples). */
async function measureFailover(options: SuiteOptions, settings: FailoverBenchSettings): Promise<Record<string, number[]>> {
  const folder = runFolder('failover');
  const servers: ServerProcess[] = [];
  const samplers: Sampler[] = [];
  let failed = true;
  try {
    const upstream = await spawnUpstream(options.repoRoot, folder.dir);
    servers.push(upstream);
    const gateway = await startUnderstudy({ name: 'understudy', repoRoot: options.repoRoot, dir: path.join(folder.dir, 'understudy'), config: failoverConfig(upstream.url) });
    servers.push(gateway);
    const clearUrl = `${gateway.url}/admin/profiles/${encodeURIComponent(LIMITED_PROFILE_ID)}/clear-cooldown`;
    samplers.push(
      sampler(
        { name: 'understudy', origin: gateway.url, path: '/v1/chat/completions', headers: { 'content-type': 'application/json' }, model: 'default' },
        upstream.url,
        async () => {
          const cleared = await fetch(clearUrl, { method: 'POST', headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` } });
          await cleared.arrayBuffer();
          if (cleared.status !== 200) throw new BenchError(`clearing the primary's cooldown answered ${cleared.status}`, 'bad_answer');
        },
        (headers) =>
          headers['x-understudy-model'] === 'backup/bench-model' && headers['x-understudy-fallback'] === 'rate_limit'
            ? undefined
            : `expected the fallback backup/bench-model after rate_limit, got model ${String(headers['x-understudy-model'])}, fallback ${String(headers['x-understudy-fallback'])}`,
      ),
    );
    const portkey = await tryStartPortkey(folder.dir);
    if (portkey.ok) {
      servers.push(portkey.server);
      const config = portkeyFallbackConfig(`${upstream.url}/limited/v1`, `${upstream.url}/fallback/v1`);
      samplers.push(
        sampler(
          { name: 'portkey', origin: portkey.server.url, path: '/v1/chat/completions', headers: { 'content-type': 'application/json', 'x-portkey-config': config }, model: 'bench-model' },
          upstream.url,
          async () => undefined,
          (headers) =>
            headers['x-portkey-last-used-option-index'] === 'config.targets[1]'
              ? undefined
              : `expected the answer of config.targets[1], got ${String(headers['x-portkey-last-used-option-index'])}`,
        ),
      );
    } else {
      options.skip?.('failover.decision_ms.vs_portkey', portkey.reason);
      options.log(`failover: ${portkey.reason}`);
    }

    for (const each of samplers) for (let index = 0; index < settings.warmupSamples; index += 1) await each.sample();
    const rounds: Record<string, number[]> = {};
    for (let round = 1; round <= settings.rounds; round += 1) {
      options.log(`failover: round ${round}/${settings.rounds} (${settings.samplesPerRound} samples per target)`);
      for (const each of samplers) {
        const samples: number[] = [];
        for (let index = 0; index < settings.samplesPerRound; index += 1) samples.push(await each.sample());
        (rounds[each.name] ??= []).push(median(samples));
      }
    }
    options.note?.(
      `failover: primary answers 429 (fixed upstream under /limited/), fallback under /fallback/; decision = fallback arrival minus the 429's finish, both on the upstream's clock; ${settings.rounds} interleaved rounds x ${settings.samplesPerRound} samples per target, median of round medians; understudy's primary cooldown is cleared through the admin API before each sample.`,
    );
    failed = false;
    return rounds;
  } finally {
    await Promise.allSettled(samplers.map((each) => each.close()));
    await stopAll(servers);
    if (failed) options.log(`failover: server logs kept in ${folder.dir}`);
    folder.remove(failed);
  }
}

/** The figures from the per-round medians by target. */
export function failoverFigures(roundMedians: Readonly<Record<string, readonly number[]>>): Figure[] {
  const own = roundMedians['understudy'];
  if (own === undefined || own.length === 0) throw new Error('no understudy failover samples');
  const figure: Figure = { name: 'failover.decision_ms', unit: 'ms', value: median(own) };
  const portkey = roundMedians['portkey'];
  return portkey === undefined || portkey.length === 0
    ? [figure]
    : [figure, compared({ ...figure, name: 'failover.decision_ms.vs_portkey' }, { name: 'portkey', value: median(portkey) })];
}

/**
 * The failover suite: `failover.decision_ms` first (alone, it is a millisecond figure), then the conduct figures
 * `failover.recovery_s` and `failover.silent_provider_s` (`.non_stream`), see `failover-conduct.ts`.
 */
export const failoverSuite: BenchSuite = {
  name: 'failover',
  description: 'primary 429 → fallback request seen by the upstream; seconds back on a recovered primary; seconds to an answer past a silent primary (streamed, non-streamed): understudy vs Portkey',
  async run(options: SuiteOptions): Promise<readonly Figure[]> {
    const decision = failoverFigures(await measureFailover(options, failoverSettings(options.quick)));
    const conduct = conductFigures(await measureConduct(options, conductSettings(options.quick)));
    for (const each of conduct.skipped) options.skip?.(each.name, each.reason);
    return [...decision, ...conduct.figures];
  },
};
