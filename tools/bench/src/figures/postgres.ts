/**
 * PostgreSQL figures (docs/contracts.md#bench), on the server `--postgres` names (default the local one), each run
 * in a schema of its own that is dropped afterwards:
 * - `store.pg.marks_per_s`: failure marks per second in one process, each one row-locked transaction in the shared
 *   state (the same mark as `store.marks_per_s` takes on SQLite);
 * - `store.pg.marks_per_s_4proc`: the total rate of 4 processes marking one profile at once (the replicas case),
 *   compared with the one-process rate; the profile's `errorCount` must equal the marks reported;
 * - `replicas.cooldown_visible_ms`: a cooldown written through one replica's state until another replica, whose
 *   provider state is cached, reads it (the change notification's trip: LISTEN/NOTIFY); median over samples;
 * - `gateway.pg.added_p50_ms`: the added p50 of the one-candidate gateway with `state.postgres`, with the same
 *   gateway on SQLite, measured in the same interleaved rounds, as its baseline (goal: ratio ≤ 1.5).
 * Without a server that answers, every figure is skipped with the reason.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { connectPostgresState, openAuthProfileStore } from '@understudy/auth-profile-store';
import { BenchError } from '../errors.js';
import type { BenchSuite, Figure, SuiteOptions } from '../figure.js';
import { compared } from '../figure.js';
import { median } from '../stats.js';
import type { ServerProcess } from '../processes.js';
import { connect, timeRequests } from '../load/sequential.js';
import type { TimedTarget } from '../load/sequential.js';
import { oneCandidateConfig, startUnderstudy } from '../understudy-gateway.js';
import { checkTargets, gatewaySettings, latencyRound } from './gateway.js';
import { TARGETS, postgresGatewayFigures } from './gateway-figures.js';
import type { Rounds } from './gateway-figures.js';
import { measureStore, storeSettings } from './store.js';
import { runFolder, spawnUpstream, stopAll } from './side-by-side.js';

/** The server the bench uses when `--postgres` is not given. */
export const DEFAULT_BENCH_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

const FIGURES = ['store.pg.marks_per_s', 'store.pg.marks_per_s_4proc', 'replicas.cooldown_visible_ms', 'gateway.pg.added_p50_ms'] as const;

/** A fresh schema name for one measurement. */
function schemaName(label: string): string {
  return `bench_${label}_${crypto.randomBytes(4).toString('hex')}`;
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const state = await connectPostgresState({ url, schema, migrations: 'none' });
  try {
    await state.kysely.schema.dropSchema(schema).ifExists().cascade().execute();
  } finally {
    await state.close();
  }
}

/** Why the server cannot be used, or `undefined` when it answers. */
async function unreachable(url: string): Promise<string | undefined> {
  const schema = schemaName('probe');
  try {
    const state = await connectPostgresState({ url, schema, connectTimeoutMs: 3000, migrations: 'none' });
    try {
      await state.query({ text: 'select 1' });
    } finally {
      await state.close();
    }
    return undefined;
  } catch (error) {
    return `no PostgreSQL answers at ${new URL(url).host} (${error instanceof Error ? error.message : String(error)})`;
  }
}

/**
 * Ms from a cooldown written through replica A until replica B (its provider state cached) reads it, `samples`
 * times, each write with a new cooldown value.
 */
async function cooldownVisibleMs(url: string, stateDir: string, samples: number): Promise<number[]> {
  const schema = schemaName('replicas');
  const stateA = await connectPostgresState({ url, schema, poolSize: 2 });
  const stateB = await connectPostgresState({ url, schema, poolSize: 2 });
  const a = await openAuthProfileStore({ stateDir: path.join(stateDir, 'a'), agentId: 'main', postgres: stateA, legacyFiles: 'ignore' });
  const b = await openAuthProfileStore({ stateDir: path.join(stateDir, 'b'), agentId: 'main', postgres: stateB, legacyFiles: 'ignore' });
  const times: number[] = [];
  try {
    for (let sample = 1; sample <= samples; sample += 1) {
      const cooldownUntil = 1_000_000 + sample;
      await b.loadProviderAuthState('bench'); // B's state is cached again before each write
      const written = performance.now();
      await a.updateUsageStats('bench:replica', (stats) => ({ ...stats, cooldownUntil, cooldownReason: 'rate_limit' }));
      for (;;) {
        if ((await b.loadProviderAuthState('bench')).usageStats['bench:replica']?.cooldownUntil === cooldownUntil) break;
        if (performance.now() - written > 5000) throw new Error('replica B did not see the cooldown within 5 s');
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      times.push(performance.now() - written);
    }
    return times;
  } finally {
    await a.close();
    await b.close();
    await stateA.close();
    await stateB.close();
    await dropSchema(url, schema);
  }
}

/**
 * Latency rounds of `direct`, the SQLite gateway and the same one-candidate gateway with its state in PostgreSQL
 * (`state.postgres`, a fresh schema dropped afterwards), interleaved, with the gateway suite's settings
 * (warm-up, rounds, sequential requests per round: {@link gatewaySettings}); ms per request by target.
 */
async function gatewayLatencyRounds(options: SuiteOptions, url: string): Promise<{ latency: Rounds; rounds: number; requests: number }> {
  const settings = gatewaySettings(options.quick);
  const schema = schemaName('gateway');
  const folder = runFolder('postgres-gateway');
  const servers: ServerProcess[] = [];
  const timed: TimedTarget[] = [];
  let failed = true;
  try {
    const upstream = await spawnUpstream(options.repoRoot, folder.dir);
    servers.push(upstream);
    const sqlite = await startUnderstudy({ name: TARGETS.understudy, repoRoot: options.repoRoot, dir: path.join(folder.dir, 'sqlite'), config: oneCandidateConfig(upstream.url) });
    servers.push(sqlite);
    const postgres = await startUnderstudy({
      name: TARGETS.postgres,
      repoRoot: options.repoRoot,
      dir: path.join(folder.dir, 'pg'),
      config: { ...oneCandidateConfig(upstream.url), state: { postgres: { url, schema } } },
    });
    servers.push(postgres);
    const json = { 'content-type': 'application/json' };
    timed.push(
      ...[
        { name: TARGETS.direct, origin: upstream.url, path: '/v1/chat/completions', headers: { ...json, authorization: 'Bearer sk-bench-direct' }, model: 'bench-model', pid: upstream.pid },
        { name: TARGETS.understudy, origin: sqlite.url, path: '/v1/chat/completions', headers: json, model: 'default', pid: sqlite.pid },
        { name: TARGETS.postgres, origin: postgres.url, path: '/v1/chat/completions', headers: json, model: 'default', pid: postgres.pid },
      ].map(connect),
    );
    await checkTargets(timed);
    // The figure is only what it says when that gateway's state really is the shared one.
    const health = (await (await fetch(`${postgres.url}/healthz`)).json()) as { state?: { backend?: unknown; up?: unknown } };
    if (health.state?.backend !== 'postgres' || health.state.up !== true) {
      throw new BenchError(`${TARGETS.postgres} does not report an up PostgreSQL state on /healthz: ${JSON.stringify(health).slice(0, 300)}`, 'bad_answer');
    }
    options.log(`postgres: gateway warm-up, ${settings.warmupRequests} requests per target`);
    for (const target of timed) await timeRequests(target, 0, settings.warmupRequests);
    const latency: Record<string, number[]>[] = [];
    for (let round = 1; round <= settings.latencyRounds; round += 1) {
      options.log(`postgres: gateway latency round ${round}/${settings.latencyRounds} (${settings.latencyRequests} sequential requests per target)`);
      latency.push(await latencyRound(timed, settings.latencyRequests, false));
    }
    failed = false;
    return { latency, rounds: settings.latencyRounds, requests: settings.latencyRequests };
  } finally {
    await Promise.allSettled(timed.map((target) => target.client.close()));
    await stopAll(servers);
    if (failed) options.log(`postgres: gateway logs kept in ${folder.dir}`);
    folder.remove(failed);
    await dropSchema(url, schema).catch(() => undefined);
  }
}

/** The PostgreSQL suite over the server at `url`. */
export function postgresSuite(url: string = DEFAULT_BENCH_POSTGRES_URL): BenchSuite {
  return {
    name: 'postgres',
    description: 'failure marks per second in the shared PostgreSQL state (1 and 4 processes), a cooldown\'s trip between replicas, and the added p50 of a gateway on PostgreSQL beside one on SQLite',
    async run(options: SuiteOptions): Promise<readonly Figure[]> {
      const why = await unreachable(url);
      if (why !== undefined) {
        for (const name of FIGURES) options.skip?.(name, why);
        return [];
      }
      const settings = storeSettings(options.quick);
      // Each run in a schema of its own, dropped afterwards.
      const measured = await measureStore(options, settings, (label, dir) => {
        const schema = schemaName(label.replace(/-/g, '_'));
        return Promise.resolve({ target: { stateDir: dir, postgres: { url, schema } }, dispose: () => dropSchema(url, schema) });
      });
      const folder = runFolder('postgres-replicas');
      let visible: number[];
      try {
        visible = await cooldownVisibleMs(url, folder.dir, options.quick ? 5 : 30);
      } finally {
        folder.remove(false);
      }
      options.note?.(
        `postgres: marks as in the store suite, each a row-locked transaction in a fresh schema on ${new URL(url).host}; ${settings.rounds} rounds x ${settings.durationMs} ms, 1 then ${settings.processes} processes, median over rounds; replicas.cooldown_visible_ms: median of ${visible.length} writes through one state until another, whose provider state was cached, read them (max ${Math.round(Math.max(...visible) * 100) / 100} ms).`,
      );
      const gateway = await gatewayLatencyRounds(options, url);
      options.note?.(
        `postgres: gateway.pg.added_p50_ms: the one-candidate gateway with state.postgres on ${new URL(url).host} (fresh schema) beside the same gateway on SQLite and direct, interleaved, ${gateway.rounds} rounds x ${gateway.requests} sequential requests per target on one keep-alive connection each; added = through the gateway minus direct, same round; median over rounds.`,
      );
      const perSecond: Figure = { name: 'store.pg.marks_per_s', unit: 'marks/s', value: median(measured.single) };
      return [
        ...postgresGatewayFigures(gateway.latency),
        perSecond,
        compared({ name: 'store.pg.marks_per_s_4proc', unit: 'marks/s', value: median(measured.multi) }, { name: perSecond.name, value: perSecond.value }),
        { name: 'replicas.cooldown_visible_ms', unit: 'ms', value: median(visible) },
      ];
    },
  };
}
