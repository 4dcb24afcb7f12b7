/**
 * The bench's shape, not its speed: tiny settings, and only the structure of what is written and printed is
 * checked (speed belongs to `pnpm bench`, never to unit tests).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BenchError } from './errors.js';
import { compared } from './figure.js';
import type { BenchSuite } from './figure.js';
import { classifierFigures } from './figures/classifier.js';
import { fixturePayloads, randomBody, syntheticPayloads } from './figures/classifier-corpus.js';
import { DEFAULT_BENCH_POSTGRES_URL, postgresSuite } from './figures/postgres.js';
import { parseBenchArguments, runBench } from './main.js';
import { markdownPath, renderMarkdownReport, renderMarkdownTable, writeReport } from './report.js';
import { findRepoRoot } from './repo-root.js';

const repoRoot = findRepoRoot(import.meta.dirname);
const silent = (): void => undefined;
const machine = { cpu: 'cpu', cores: 2, node: 'v20', os: 'Linux', arch: 'x64', totalMemoryMiB: 2048, date: '2026-01-01T00:00:00.000Z', loadAverage: [0.5, 0.25, 0] };

describe('classifier suite', () => {
  it('returns the two docs/contracts.md#bench figures with units and finite positive values', () => {
    const figures = classifierFigures(
      { quick: true, repoRoot, log: silent },
      { warmupMs: 0, throughputBudgetMs: 1, repeatsPerPayload: 1, largeBodyBytes: 4096 },
    );
    expect(figures.map((figure) => [figure.name, figure.unit])).toEqual([
      ['classifier.payloads_per_s', 'payloads/s'],
      ['classifier.slowest_ms', 'ms'],
    ]);
    for (const figure of figures) {
      expect(Number.isFinite(figure.value)).toBe(true);
      expect(figure.value).toBeGreaterThanOrEqual(0);
    }
  });

  it('reads the whole fixture corpus and builds 1 MiB synthetic bodies by default', () => {
    expect(fixturePayloads(repoRoot).length).toBeGreaterThanOrEqual(119 + 60);
    const synthetic = syntheticPayloads();
    expect(synthetic.map((payload) => payload.id)).toContain('synthetic:random-1MiB');
    expect(synthetic.every((payload) => (payload.failure.body ?? payload.failure.message ?? '').length === 1024 * 1024)).toBe(true);
    // Builds ten 1 MiB bodies: room for a loaded machine.
  }, 30_000);

  it('the random body is the same in every run (seeded)', () => {
    expect(randomBody(256)).toBe(randomBody(256));
    expect(randomBody(256, 2)).not.toBe(randomBody(256));
  });
});

describe('report', () => {
  it('runBench merges the figures of the selected suites under the machine facts', async () => {
    const fake: BenchSuite = { name: 'fake', description: 'a fake suite', run: async () => [{ name: 'fake.value', unit: 'x', value: 1 }] };
    const other: BenchSuite = { name: 'other', description: 'not selected', run: async () => [{ name: 'other.value', unit: 'x', value: 2 }] };
    const report = await runBench({
      args: { quick: true, only: ['fake'], out: null, list: false, postgres: 'postgres://unused@127.0.0.1:1/x' },
      repoRoot,
      suites: [fake, other],
      log: silent,
    });
    expect(report.figures).toEqual([{ name: 'fake.value', unit: 'x', value: 1 }]);
    expect(report.skipped).toBeUndefined();
    expect(Object.keys(report.machine).sort()).toEqual(['arch', 'cores', 'cpu', 'date', 'loadAverage', 'node', 'os', 'totalMemoryMiB']);
    expect(Number.isNaN(Date.parse(report.machine.date))).toBe(false);
    expect(report.machine.loadAverage).toHaveLength(3);
    expect(report.machine.cores).toBeGreaterThan(0);
    expect(report.machine.node).toBe(process.version);
  });

  it('collects the figures suites skip, with their reasons, and the notes on how figures were taken', async () => {
    const skipping: BenchSuite = {
      name: 'skipping',
      description: 'skips one figure',
      run: async (options) => {
        options.skip?.('x.vs_portkey', 'Portkey could not run here: exit 1');
        options.note?.('measured against a fake');
        return [{ name: 'x', unit: 'ms', value: 1 }];
      },
    };
    const report = await runBench({ args: { quick: false, only: null, out: null, list: false, postgres: 'postgres://unused@127.0.0.1:1/x' }, repoRoot, suites: [skipping], log: silent });
    expect(report.skipped).toEqual([{ name: 'x.vs_portkey', reason: 'Portkey could not run here: exit 1' }]);
    expect(report.notes).toEqual(['measured against a fake']);
    expect(report.figures.map((figure) => figure.name)).toEqual(['x']);
  });

  it('renders the whole report as markdown (table, machine, skipped, notes) and names the .md beside the .json', () => {
    const text = renderMarkdownReport({
      machine,
      figures: [{ name: 'a', unit: 'ms', value: 1 }],
      skipped: [{ name: 'a.vs_portkey', reason: 'no Portkey' }],
      notes: ['one note'],
    });
    expect(text.split('\n\n')).toEqual([
      '| figure | value | unit | baseline | ratio |\n|---|---:|---|---|---:|\n| a | 1 | ms |  |  |',
      'Machine: cpu × 2 cores, 2 GiB, Node v20, Linux x64, load 0.5/0.25/0, 2026-01-01T00:00:00.000Z',
      'Skipped:\n- a.vs_portkey: no Portkey',
      'Notes:\n- one note',
    ]);
    expect(markdownPath('/x/bench/results/latest.json')).toBe('/x/bench/results/latest.md');
    expect(markdownPath('out')).toBe('out.md');
  });

  it('writes the docs/contracts.md#bench JSON document', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-bench-'));
    try {
      const file = path.join(dir, 'results/latest.json');
      const figure = compared({ name: 'gateway.added_p50_ms.vs_bare_proxy', unit: 'ms', value: 3 }, { name: 'bare-proxy', value: 2 });
      writeReport(file, { machine, figures: [figure] });
      const written = JSON.parse(fs.readFileSync(file, 'utf8')) as { machine: object; figures: object[] };
      expect(Object.keys(written)).toEqual(['machine', 'figures']);
      expect(written.figures[0]).toEqual({ name: 'gateway.added_p50_ms.vs_bare_proxy', unit: 'ms', value: 3, baseline: { name: 'bare-proxy', value: 2 }, ratio: 1.5 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prints a markdown table with one row per figure', () => {
    const table = renderMarkdownTable([
      { name: 'classifier.payloads_per_s', unit: 'payloads/s', value: 123456.7 },
      { name: 'x.vs_y', unit: 'ms', value: 3, baseline: { name: 'y', value: 2 }, ratio: 1.5 },
    ]);
    expect(table.split('\n')).toEqual([
      '| figure | value | unit | baseline | ratio |',
      '|---|---:|---|---|---:|',
      '| classifier.payloads_per_s | 123,457 | payloads/s |  |  |',
      '| x.vs_y | 3 | ms | y 2 | 1.5× |',
    ]);
  });
});

describe('arguments', () => {
  it('parses --quick, --only, --out and --list', () => {
    expect(parseBenchArguments(['--quick', '--only', 'classifier', '--out', 'x.json'])).toEqual({ quick: true, only: ['classifier'], out: 'x.json', list: false, postgres: DEFAULT_BENCH_POSTGRES_URL });
    expect(parseBenchArguments([])).toEqual({ quick: false, only: null, out: null, list: false, postgres: DEFAULT_BENCH_POSTGRES_URL });
    expect(parseBenchArguments(['--only', 'postgres', '--postgres', 'postgres://u@db.example:5433/x'])).toMatchObject({ only: ['postgres'], postgres: 'postgres://u@db.example:5433/x' });
    expect(parseBenchArguments(['--only', 'gateway, failover,store'])).toMatchObject({ only: ['gateway', 'failover', 'store'] });
  });

  it('rejects unknown options and unknown suites with a bad_arguments BenchError', () => {
    for (const argv of [['--fast'], ['--only', 'gateway-nope'], ['--quick', 'extra']]) {
      let caught: unknown;
      try {
        parseBenchArguments(argv);
      } catch (error) {
        caught = error;
      }
      expect(BenchError.isInstance(caught) && caught.code === 'bad_arguments').toBe(true);
    }
  });
});

describe('the postgres suite', () => {
  it('skips every figure with the reason when no server answers, and measures nothing', async () => {
    const skipped: [string, string][] = [];
    const figures = await postgresSuite('postgres://nobody@127.0.0.1:1/none').run({
      quick: true,
      repoRoot: process.cwd(),
      log: () => undefined,
      skip: (name, reason) => skipped.push([name, reason]),
    });
    expect(figures).toEqual([]);
    expect(skipped.map(([name]) => name)).toEqual(['store.pg.marks_per_s', 'store.pg.marks_per_s_4proc', 'replicas.cooldown_visible_ms', 'gateway.pg.added_p50_ms']);
    for (const [, reason] of skipped) expect(reason).toContain('no PostgreSQL answers at 127.0.0.1:1');
  });
});
