/**
 * Store figures (docs/contracts.md#bench): `store.marks_per_s`, failure marks per second in one process (each mark is
 * `recordFailure` through `updateUsageStats`: one `BEGIN IMMEDIATE` transaction on the agent's SQLite file), and
 * `store.marks_per_s_4proc`, the total rate of 4 processes marking the same profile in one file at once (the
 * gateway replicas / CLI-beside-gateway case), compared with the one-process rate of the same rounds. After
 * each 4-process run the profile's `errorCount` must equal the marks reported (no lost update), or the run fails.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { BenchSuite, Figure, SuiteOptions } from '../figure.js';
import { compared } from '../figure.js';
import { BenchError } from '../errors.js';
import { median } from '../stats.js';
import { MARKED_PROFILE_ID, markFor, openMarkStore } from '../store-marks.js';
import type { MarkTarget } from '../store-marks.js';
import { benchEntry, runFolder } from './side-by-side.js';

/** Knobs of the store measurements. */
export interface StoreBenchSettings {
  readonly rounds: number;
  /** Marking time per run, ms. */
  readonly durationMs: number;
  readonly processes: number;
}

/** Default settings for a full or a quick run. */
export function storeSettings(quick: boolean): StoreBenchSettings {
  return quick ? { rounds: 1, durationMs: 700, processes: 4 } : { rounds: 3, durationMs: 2500, processes: 4 };
}

/** Marks per second of one process on a fresh store of `target`. */
async function oneProcess(target: MarkTarget, durationMs: number): Promise<number> {
  const opened = await openMarkStore(target);
  try {
    await markFor(opened.store, Math.min(200, durationMs)); // warm-up
    const { marks, elapsedMs } = await markFor(opened.store, durationMs);
    return marks / (elapsedMs / 1000);
  } finally {
    await opened.close();
  }
}

interface WorkerResult {
  readonly marks: number;
  readonly elapsedMs: number;
}

/** Total marks per second of `processes` workers started together on one fresh store; checks no mark was lost. */
async function manyProcesses(repoRoot: string, target: MarkTarget, processes: number, durationMs: number): Promise<number> {
  const created = await openMarkStore(target); // create and migrate before the workers race for it
  await created.close();
  const entry = benchEntry(repoRoot, 'store-worker.js');
  const postgresArgs = target.postgres === undefined ? [] : [target.postgres.url, target.postgres.schema];
  const workers = Array.from({ length: processes }, () => {
    const child = spawn(process.execPath, [entry, target.stateDir, String(durationMs), ...postgresArgs], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (piece: string) => (out += piece));
    child.stderr.setEncoding('utf8').on('data', (piece: string) => (err += piece));
    const ready = new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (out.includes('ready\n')) resolve();
      };
      child.stdout.on('data', check);
      child.once('exit', () => reject(new BenchError(`store worker exited before it was ready: ${err.trim()}`, 'server_failed')));
    });
    const result = new Promise<WorkerResult>((resolve, reject) => {
      child.once('exit', (code) => {
        const line = out.split('\n').find((candidate) => candidate.startsWith('{'));
        if (code !== 0 || line === undefined) reject(new BenchError(`store worker failed (exit ${String(code)}): ${err.trim()}`, 'server_failed'));
        else resolve(JSON.parse(line) as WorkerResult);
      });
    });
    result.catch(() => undefined);
    return { child, ready, result };
  });
  await Promise.all(workers.map((worker) => worker.ready));
  for (const worker of workers) worker.child.stdin.end('go\n');
  const results = await Promise.all(workers.map((worker) => worker.result));
  const marks = results.reduce((sum, result) => sum + result.marks, 0);
  const seconds = Math.max(...results.map((result) => result.elapsedMs)) / 1000;
  const opened = await openMarkStore(target);
  const stats = await opened.store.getUsageStats(MARKED_PROFILE_ID);
  await opened.close();
  if (stats.errorCount !== marks) {
    throw new BenchError(`${processes} processes reported ${marks} marks but the store holds errorCount ${String(stats.errorCount)}`, 'bad_answer');
  }
  return marks / seconds;
}

/**
 * A fresh store for one run: where its marks go, and what removes it afterwards (nothing for a SQLite file,
 * whose folder goes with the run's).
 */
export interface FreshMarkTarget {
  readonly target: MarkTarget;
  dispose(): Promise<void>;
}

/**
 * Measures both rates per round (one process, then several), each on a fresh store that `freshTarget` makes:
 * by default a new SQLite file under the run's folder.
 */
export async function measureStore(
  options: SuiteOptions,
  settings: StoreBenchSettings,
  freshTarget?: (label: string, folder: string) => Promise<FreshMarkTarget>,
): Promise<{ readonly single: number[]; readonly multi: number[] }> {
  const name = freshTarget === undefined ? 'store' : 'postgres';
  const folder = runFolder(name);
  const make = freshTarget ?? ((label: string, dir: string) => Promise.resolve({ target: { stateDir: path.join(dir, label) }, dispose: () => Promise.resolve() }));
  const measured = async (label: string, measure: (target: MarkTarget) => Promise<number>): Promise<number> => {
    const fresh = await make(label, folder.dir);
    try {
      return await measure(fresh.target);
    } finally {
      await fresh.dispose();
    }
  };
  const single: number[] = [];
  const multi: number[] = [];
  let failed = true;
  try {
    for (let round = 1; round <= settings.rounds; round += 1) {
      single.push(await measured(`single-${round}`, (target) => oneProcess(target, settings.durationMs)));
      multi.push(await measured(`multi-${round}`, (target) => manyProcesses(options.repoRoot, target, settings.processes, settings.durationMs)));
      options.log(`${name}: round ${round}/${settings.rounds}: ${Math.round(single.at(-1) ?? 0)} marks/s in 1 process, ${Math.round(multi.at(-1) ?? 0)} in ${settings.processes}`);
    }
    failed = false;
    return { single, multi };
  } finally {
    folder.remove(failed);
  }
}

/** The figures from the per-round rates. */
export function storeFigures(measured: { readonly single: readonly number[]; readonly multi: readonly number[] }): Figure[] {
  const single: Figure = { name: 'store.marks_per_s', unit: 'marks/s', value: median(measured.single) };
  return [single, compared({ name: 'store.marks_per_s_4proc', unit: 'marks/s', value: median(measured.multi) }, { name: single.name, value: single.value })];
}

/** The store suite. */
export const storeSuite: BenchSuite = {
  name: 'store',
  description: 'failure marks per second on one SQLite file, 1 process and 4 processes',
  async run(options: SuiteOptions): Promise<readonly Figure[]> {
    const settings = storeSettings(options.quick);
    const measured = await measureStore(options, settings);
    options.note?.(
      `store: each mark = recordFailure through updateUsageStats (one BEGIN IMMEDIATE transaction) on a temp SQLite file; ${settings.rounds} rounds x ${settings.durationMs} ms, 1 process then ${settings.processes} processes on one profile of one file; median over rounds; the ${settings.processes}-process errorCount is checked against the marks reported.`,
    );
    return storeFigures(measured);
  },
};
