/**
 * `pnpm bench`: runs the benchmark suites, writes `bench/results/latest.json` at the repository root (docs/contracts.md#bench:
 * `{ machine, figures: [{ name, unit, value, baseline?, ratio? }] }`, plus `skipped` and `notes` when
 * there are any) and the same as a markdown page beside it (`latest.md`), and prints the markdown table.
 *
 * Usage: `pnpm bench [--quick] [--only <suite>[,<suite>…]] [--out <file>] [--list]`
 * - `--quick`: short runs (smoke checks);
 * - `--only`: run only the named suites;
 * - `--out`: write the JSON elsewhere (the markdown goes beside it, `.md`);
 * - `--list`: print the suites and exit.
 *
 * A suite is a module exporting a {@link BenchSuite}; add it to `SUITES` below and its figures are merged in.
 * Progress goes to stderr; the table goes to stdout.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BenchError } from './errors.js';
import type { BenchReport, BenchSuite, Figure, SkippedFigure } from './figure.js';
import { classifierSuite } from './figures/classifier.js';
import { failoverSuite } from './figures/failover.js';
import { gatewaySuite } from './figures/gateway.js';
import { DEFAULT_BENCH_POSTGRES_URL, postgresSuite } from './figures/postgres.js';
import { storeSuite } from './figures/store.js';
import { machineInfo } from './machine.js';
import { markdownPath, renderMarkdownReport, writeMarkdownReport, writeReport } from './report.js';
import { findRepoRoot } from './repo-root.js';

/** Every suite, in the order they run. */
const SUITES: readonly BenchSuite[] = [classifierSuite, gatewaySuite, failoverSuite, storeSuite, postgresSuite()];

/** Parsed command line of the bench. */
export interface BenchArguments {
  readonly quick: boolean;
  readonly only: readonly string[] | null;
  readonly out: string | null;
  readonly list: boolean;
  /** The PostgreSQL server of the `postgres` suite. @default DEFAULT_BENCH_POSTGRES_URL (the local one) */
  readonly postgres: string;
}

/**
 * Parses the bench's arguments.
 *
 * @throws {BenchError} `bad_arguments` for unknown options or unknown suite names.
 */
export function parseBenchArguments(argv: readonly string[], suites: readonly BenchSuite[] = SUITES): BenchArguments {
  let values: { quick?: boolean; only?: string; out?: string; list?: boolean; postgres?: string };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { quick: { type: 'boolean' }, only: { type: 'string' }, out: { type: 'string' }, list: { type: 'boolean' }, postgres: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new BenchError(`${error instanceof Error ? error.message : String(error)} (usage: bench [--quick] [--only a,b] [--out file] [--list] [--postgres url])`, 'bad_arguments', { cause: error });
  }
  const only = values.only === undefined ? null : values.only.split(',').map((name) => name.trim()).filter((name) => name !== '');
  const known = new Set(suites.map((suite) => suite.name));
  const unknown = (only ?? []).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new BenchError(`unknown suite ${unknown.join(', ')}; known suites: ${[...known].join(', ')}`, 'bad_arguments');
  }
  return { quick: values.quick === true, only, out: values.out ?? null, list: values.list === true, postgres: values.postgres ?? DEFAULT_BENCH_POSTGRES_URL };
}

/** Runs the selected suites and merges their figures into one report. */
export async function runBench(options: {
  readonly args: BenchArguments;
  readonly repoRoot: string;
  readonly suites?: readonly BenchSuite[];
  readonly log: (line: string) => void;
}): Promise<BenchReport> {
  const machine = machineInfo(); // before the suites: the load average is the machine's, not the bench's
  const all = options.suites ?? SUITES.map((suite) => (suite.name === 'postgres' ? postgresSuite(options.args.postgres) : suite));
  const suites = all.filter((suite) => options.args.only === null || options.args.only.includes(suite.name));
  const figures: Figure[] = [];
  const skipped: SkippedFigure[] = [];
  const notes: string[] = [];
  for (const suite of suites) {
    options.log(`bench: ${suite.name}${options.args.quick ? ' (quick)' : ''}: ${suite.description}`);
    figures.push(
      ...(await suite.run({
        quick: options.args.quick,
        repoRoot: options.repoRoot,
        log: options.log,
        skip: (name, reason) => skipped.push({ name, reason }),
        note: (text) => notes.push(text),
      })),
    );
  }
  if (options.args.quick) notes.unshift('--quick run: fewer rounds and requests, for smoke checks; not for comparison.');
  return { machine, figures, ...(skipped.length === 0 ? {} : { skipped }), ...(notes.length === 0 ? {} : { notes }) };
}

async function main(argv: readonly string[]): Promise<number> {
  const log = (line: string): void => {
    process.stderr.write(`${line}\n`);
  };
  try {
    const args = parseBenchArguments(argv);
    if (args.list) {
      for (const suite of SUITES) process.stdout.write(`${suite.name}\t${suite.description}\n`);
      return 0;
    }
    const repoRoot = findRepoRoot();
    const report = await runBench({ args, repoRoot, log });
    const out = args.out === null ? path.join(repoRoot, 'bench/results/latest.json') : path.resolve(args.out);
    writeReport(out, report);
    writeMarkdownReport(markdownPath(out), report);
    process.stdout.write(`${renderMarkdownReport(report)}\n`);
    log(`bench: wrote ${path.relative(process.cwd(), out) || out} and ${path.relative(process.cwd(), markdownPath(out)) || markdownPath(out)}`);
    return 0;
  } catch (error) {
    log(`bench: ${error instanceof Error ? error.message : String(error)}`);
    return BenchError.isInstance(error) && error.code === 'bad_arguments' ? 2 : 1;
  }
}

const invokedDirectly = process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(import.meta.filename);
if (invokedDirectly) process.exitCode = await main(process.argv.slice(2));
