/**
 * The gateway figures' names, units, baselines and ratios from tiny hand-made samples (docs/contracts.md#bench: baselines
 * as separate figures suffixed `.vs_bare_proxy` / `.vs_portkey`, ratio = value / baseline.value).
 */
import { describe, expect, it } from 'vitest';
import type { Figure } from '../figure.js';
import { gatewayFigures, postgresGatewayFigures } from './gateway-figures.js';
import type { GatewayMeasurements } from './gateway-figures.js';
import { sizedChatBody } from '../load/target.js';
import { streamedContentLength } from '../load/sequential.js';

const sample = (value: number): number[] => [value, value, value];

/** Three rounds; understudy adds 0.4 ms, bare proxy 0.2, Portkey 4, the cooling chain 0.5; direct drifts. */
function measurements(withPortkey = true): GatewayMeasurements {
  const latency = [1, 2, 3].map((direct) => ({
    direct: sample(direct),
    'bare-proxy': sample(direct + 0.2),
    understudy: sample(direct + 0.4),
    'understudy-cooling': sample(direct + 0.5),
    'understudy-traced': sample(direct + 0.44),
    ...(withPortkey ? { portkey: sample(direct + 4) } : {}),
  }));
  const stream = [1, 2, 3].map((direct) => ({
    direct: sample(direct),
    'bare-proxy': sample(direct + 0.25),
    understudy: sample(direct + 0.5),
    ...(withPortkey ? { portkey: sample(direct + 10) } : {}),
  }));
  const load = [
    { direct: [9000], 'bare-proxy': [3000], understudy: [2400], 'understudy-cooling': [2000], 'understudy-traced': [2200], ...(withPortkey ? { portkey: [600] } : {}) },
    { direct: [9100], 'bare-proxy': [3100], understudy: [2500], 'understudy-cooling': [2100], 'understudy-traced': [2300], ...(withPortkey ? { portkey: [700] } : {}) },
    { direct: [8900], 'bare-proxy': [2900], understudy: [2300], 'understudy-cooling': [1900], 'understudy-traced': [2100], ...(withPortkey ? { portkey: [500] } : {}) },
  ];
  const cpuMsPerRequest = [
    { direct: [0.1], 'bare-proxy': [0.2], understudy: [0.5], 'understudy-cooling': [0.6], 'understudy-traced': [0.55], ...(withPortkey ? { portkey: [2] } : {}) },
    { direct: [0.1], 'bare-proxy': [0.2], understudy: [0.4], 'understudy-cooling': [0.6], 'understudy-traced': [0.55], ...(withPortkey ? { portkey: [2] } : {}) },
    { direct: [0.1], 'bare-proxy': [0.2], understudy: [0.6], 'understudy-cooling': [0.6], 'understudy-traced': [0.55], ...(withPortkey ? { portkey: [2] } : {}) },
  ];
  return {
    latency,
    stream,
    load,
    cpuMsPerRequest,
    peakRssMiB: { understudy: 70, 'bare-proxy': 50, ...(withPortkey ? { portkey: 140 } : {}) },
    idleRssMiB: { understudy: 60, 'bare-proxy': 45, ...(withPortkey ? { portkey: 90 } : {}) },
  };
}

const byName = (figures: readonly Figure[]): Record<string, Figure> => Object.fromEntries(figures.map((figure) => [figure.name, figure]));

describe('gateway figures', () => {
  it('has every docs/contracts.md#bench gateway figure with its unit', () => {
    const figures = gatewayFigures(measurements());
    expect(figures.map((figure) => [figure.name, figure.unit])).toEqual([
      ['gateway.direct_p50_ms', 'ms'],
      ['gateway.added_p50_ms', 'ms'],
      ['gateway.added_p50_ms.vs_bare_proxy', 'ms'],
      ['gateway.added_p50_ms.vs_portkey', 'ms'],
      ['gateway.cooling_primary.added_p50_ms', 'ms'],
      ['gateway.telemetry_on.added_p50_ms', 'ms'],
      ['gateway.added_p99_ms', 'ms'],
      ['gateway.added_p99_ms.vs_bare_proxy', 'ms'],
      ['gateway.added_p99_ms.vs_portkey', 'ms'],
      ['gateway.cooling_primary.added_p99_ms', 'ms'],
      ['gateway.telemetry_on.added_p99_ms', 'ms'],
      ['gateway.rps_c32', 'req/s'],
      ['gateway.rps_c32.vs_bare_proxy', 'req/s'],
      ['gateway.rps_c32.vs_portkey', 'req/s'],
      ['gateway.rps_c32.vs_direct', 'req/s'],
      ['gateway.cooling_primary.rps_c32', 'req/s'],
      ['gateway.telemetry_on.rps_c32', 'req/s'],
      ['gateway.cpu_ms_per_req', 'ms'],
      ['gateway.cpu_ms_per_req.vs_bare_proxy', 'ms'],
      ['gateway.cpu_ms_per_req.vs_portkey', 'ms'],
      ['gateway.cooling_primary.cpu_ms_per_req', 'ms'],
      ['gateway.telemetry_on.cpu_ms_per_req', 'ms'],
      ['gateway.rss_mib', 'MiB'],
      ['gateway.rss_mib.vs_bare_proxy', 'MiB'],
      ['gateway.rss_mib.vs_portkey', 'MiB'],
      ['gateway.rss_idle_mib', 'MiB'],
      ['gateway.rss_idle_mib.vs_bare_proxy', 'MiB'],
      ['gateway.rss_idle_mib.vs_portkey', 'MiB'],
      ['gateway.stream_added_ttft_ms', 'ms'],
      ['gateway.stream_added_ttft_ms.vs_bare_proxy', 'ms'],
      ['gateway.stream_added_ttft_ms.vs_portkey', 'ms'],
    ]);
  });

  it('added latency is over direct in the same round, and each baseline is the same statistic of the baseline', () => {
    const figures = byName(gatewayFigures(measurements()));
    expect(figures['gateway.direct_p50_ms']?.value).toBe(2);
    expect(figures['gateway.added_p50_ms']?.value).toBeCloseTo(0.4);
    expect(figures['gateway.added_p50_ms.vs_bare_proxy']?.baseline?.name).toBe('bare-proxy');
    expect(figures['gateway.added_p50_ms.vs_bare_proxy']?.baseline?.value).toBeCloseTo(0.2);
    expect(figures['gateway.added_p50_ms.vs_bare_proxy']?.ratio).toBeCloseTo(2);
    expect(figures['gateway.added_p50_ms.vs_portkey']?.ratio).toBeCloseTo(0.1);
    expect(figures['gateway.cooling_primary.added_p50_ms']).toMatchObject({ baseline: { name: 'understudy' } });
    expect(figures['gateway.cooling_primary.added_p50_ms']?.ratio).toBeCloseTo(1.25);
    expect(figures['gateway.stream_added_ttft_ms']?.value).toBeCloseTo(0.5);
    expect(figures['gateway.stream_added_ttft_ms.vs_portkey']?.ratio).toBeCloseTo(0.05);
  });

  it('throughput and CPU per request are medians of the rounds, RSS the peak, each with its ratio', () => {
    const figures = byName(gatewayFigures(measurements()));
    expect(figures['gateway.rps_c32']?.value).toBe(2400);
    expect(figures['gateway.rps_c32.vs_portkey']).toEqual({ name: 'gateway.rps_c32.vs_portkey', unit: 'req/s', value: 2400, baseline: { name: 'portkey', value: 600 }, ratio: 4 });
    expect(figures['gateway.rps_c32.vs_bare_proxy']?.ratio).toBeCloseTo(0.8);
    expect(figures['gateway.cpu_ms_per_req']?.value).toBe(0.5);
    expect(figures['gateway.cpu_ms_per_req.vs_portkey']?.ratio).toBeCloseTo(0.25);
    expect(figures['gateway.telemetry_on.cpu_ms_per_req']).toMatchObject({ value: 0.55, baseline: { name: 'understudy', value: 0.5 } });
    expect(figures['gateway.telemetry_on.cpu_ms_per_req']?.ratio).toBeCloseTo(1.1);
    expect(figures['gateway.telemetry_on.added_p50_ms']?.ratio).toBeCloseTo(1.1);
    expect(figures['gateway.rss_idle_mib.vs_bare_proxy']).toMatchObject({ value: 60, baseline: { name: 'bare-proxy', value: 45 } });
    expect(figures['gateway.rss_mib.vs_portkey']).toEqual({ name: 'gateway.rss_mib.vs_portkey', unit: 'MiB', value: 70, baseline: { name: 'portkey', value: 140 }, ratio: 0.5 });
  });

  it('leaves out every Portkey comparison when Portkey was not measured (never a made-up baseline)', () => {
    const names = gatewayFigures(measurements(false)).map((figure) => figure.name);
    expect(names.filter((name) => name.includes('portkey'))).toEqual([]);
    expect(names).toContain('gateway.added_p50_ms.vs_bare_proxy');
  });

  it('growth figures: the extra CPU per request of 100 KB and 1 MB over 1 KB, against the baselines\' own growth', () => {
    const base = measurements(false);
    const latency = [1, 2].map((direct) => ({ direct: sample(direct), 'bare-proxy': sample(direct + 1), understudy: sample(direct + 2) }));
    const cpu = (bare: number, own: number) => [{ 'bare-proxy': [bare], understudy: [own] }];
    const sized = {
      size_1k: { latency, cpuMsPerRequest: cpu(0.2, 0.4) },
      size_100k: { latency, cpuMsPerRequest: cpu(0.4, 1.4) },
      size_1m: { latency, cpuMsPerRequest: cpu(2.2, 4.4) },
    };
    const figures = byName(gatewayFigures({ ...base, sized }));
    expect(figures['gateway.cpu_ms_per_req.growth_100k']?.value).toBeCloseTo(1);
    expect(figures['gateway.cpu_ms_per_req.growth_100k.vs_bare_proxy']?.baseline?.value).toBeCloseTo(0.2);
    expect(figures['gateway.cpu_ms_per_req.growth_100k.vs_bare_proxy']?.ratio).toBeCloseTo(5);
    expect(figures['gateway.cpu_ms_per_req.growth_1m.vs_bare_proxy']?.ratio).toBeCloseTo(2);
    expect(Object.keys(figures).filter((name) => name.includes('growth') && name.includes('portkey'))).toEqual([]);
    // Without the 1 KB run there is nothing to grow from.
    const without = byName(gatewayFigures({ ...base, sized: { size_100k: sized.size_100k, size_1m: sized.size_1m } }));
    expect(Object.keys(without).filter((name) => name.includes('growth'))).toEqual([]);
  });

  it('sized figures: added p50 over direct and CPU per request at each body size, with the bare proxy as baseline', () => {
    const base = measurements(false);
    const latency = [1, 2].map((direct) => ({ direct: sample(direct), 'bare-proxy': sample(direct + 1), understudy: sample(direct + 3) }));
    const cpuMsPerRequest = [
      { 'bare-proxy': [1], understudy: [2] },
      { 'bare-proxy': [1], understudy: [4] },
      { 'bare-proxy': [1], understudy: [3] },
    ];
    const figures = byName(gatewayFigures({ ...base, sized: { size_100k: { latency, cpuMsPerRequest } } }));
    expect(figures['gateway.added_p50_ms.size_100k']?.value).toBeCloseTo(3);
    expect(figures['gateway.added_p50_ms.size_100k.vs_bare_proxy']?.ratio).toBeCloseTo(3);
    expect(figures['gateway.cpu_ms_per_req.size_100k.vs_bare_proxy']).toEqual({
      name: 'gateway.cpu_ms_per_req.size_100k.vs_bare_proxy',
      unit: 'ms',
      value: 3,
      baseline: { name: 'bare-proxy', value: 1 },
      ratio: 3,
    });
    expect(Object.keys(figures).filter((name) => name.includes('size_1m'))).toEqual([]);
  });

  it('a sized body has the requested byte length and stays a valid chat request', () => {
    const target = { name: 'direct', origin: 'http://127.0.0.1:1', path: '/v1/chat/completions', headers: {}, model: 'bench-model' };
    for (const bytes of [1_024, 102_400, 1_000_000]) {
      const body = sizedChatBody(target, bytes);
      expect(Buffer.byteLength(body)).toBe(bytes);
      expect(JSON.parse(body)).toMatchObject({ model: 'bench-model', stream: false });
    }
  });

  it('throughput and p99 at each concurrency, with baselines; rps_c32 is not repeated from the concurrency runs', () => {
    const base = measurements(false);
    const rps = [{ 'bare-proxy': [1000], understudy: [500] }, { 'bare-proxy': [1200], understudy: [600] }, { 'bare-proxy': [800], understudy: [400] }];
    const p99Ms = [{ 'bare-proxy': [2], understudy: [3] }, { 'bare-proxy': [2], understudy: [5] }, { 'bare-proxy': [2], understudy: [4] }];
    const figures = byName(gatewayFigures({ ...base, concurrency: { c256: { rps, p99Ms }, c32: { rps, p99Ms } } }));
    expect(figures['gateway.rps_c256.vs_bare_proxy']).toMatchObject({ value: 500, baseline: { name: 'bare-proxy', value: 1000 }, ratio: 0.5 });
    expect(figures['gateway.p99_ms_c256.vs_bare_proxy']?.ratio).toBeCloseTo(2);
    expect(figures['gateway.p99_ms_c32']?.value).toBe(4);
    expect(figures['gateway.rps_c32']?.value).toBe(2400);
  });

  it('relayed stream throughput is the median chunks/s, compared with the bare proxy and direct', () => {
    const longStream = [{ direct: [40_000], 'bare-proxy': [20_000], understudy: [10_000] }, { direct: [40_000], 'bare-proxy': [20_000], understudy: [12_000] }];
    const figures = byName(gatewayFigures({ ...measurements(false), longStream }));
    expect(figures['gateway.stream_chunks_per_s']).toEqual({ name: 'gateway.stream_chunks_per_s', unit: 'chunks/s', value: 11_000 });
    expect(figures['gateway.stream_chunks_per_s.vs_bare_proxy']?.ratio).toBeCloseTo(0.55);
    expect(figures['gateway.stream_chunks_per_s.vs_direct']?.baseline).toEqual({ name: 'direct', value: 40_000 });
  });

  it('counts streamed content across events, ignoring [DONE] and incomplete lines', () => {
    const event = (content: string): string => `data: ${JSON.stringify({ choices: [{ delta: { content } }] })}\n\n`;
    expect(streamedContentLength(`${event('')}${event('x')}${event('xy')}data: [DONE]\n\ndata: {"choi`)).toBe(3);
  });
});

describe('gateway on PostgreSQL', () => {
  it('added p50 over direct in the same round, with the SQLite gateway of the same rounds as its baseline', () => {
    const rounds = [
      { direct: [1, 1, 1], understudy: [2, 2, 3], 'understudy-pg': [3, 3, 4] },
      { direct: [2, 2, 2], understudy: [3, 4, 4], 'understudy-pg': [5, 5, 5] },
      { direct: [1, 1, 1], understudy: [2, 2, 2], 'understudy-pg': [2, 3, 3] },
    ];
    // Per round: pg 2, 3, 2 → median 2; SQLite 1, 2, 1 → median 1.
    expect(postgresGatewayFigures(rounds)).toEqual([{ name: 'gateway.pg.added_p50_ms', unit: 'ms', value: 2, baseline: { name: 'understudy', value: 1 }, ratio: 2 }]);
  });

  it('refuses rounds without the PostgreSQL gateway rather than making a figure up', () => {
    expect(() => postgresGatewayFigures([{ direct: [1], understudy: [2] }])).toThrow(/understudy-pg/);
  });
});
