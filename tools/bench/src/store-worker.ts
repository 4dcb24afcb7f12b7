/**
 * Child process of the store suites' multi-process figures: opens the store under `<stateDir>` (or in the
 * PostgreSQL schema when a URL and schema follow), prints `ready`, waits for `go` on stdin (so every worker
 * starts together), marks failures for `<durationMs>`, and prints `{"marks":N,"elapsedMs":T}`.
 *
 * Usage: node dist/store-worker.js <stateDir> <durationMs> [<postgresUrl> <schema>]
 */
import { once } from 'node:events';
import { markFor, openMarkStore } from './store-marks.js';

const [stateDir, durationText, postgresUrl, schema] = process.argv.slice(2);
const durationMs = Number(durationText);
if (stateDir === undefined || !Number.isFinite(durationMs) || durationMs <= 0) {
  process.stderr.write('usage: store-worker <stateDir> <durationMs> [<postgresUrl> <schema>]\n');
  process.exit(2);
}
const opened = await openMarkStore({ stateDir, postgres: postgresUrl === undefined || schema === undefined ? undefined : { url: postgresUrl, schema } });
process.stdout.write('ready\n');
process.stdin.setEncoding('utf8');
let input = '';
while (!input.includes('go')) {
  const [piece] = (await once(process.stdin, 'data')) as [string];
  input += piece;
}
const result = await markFor(opened.store, durationMs);
await opened.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
process.stdin.destroy();
