/**
 * Child process of the store suite's multi-process figure: opens the store under `<stateDir>`, prints `ready`,
 * waits for `go` on stdin (so every worker starts together), marks failures for `<durationMs>`, and prints
 * `{"marks":N,"elapsedMs":T}`.
 *
 * Usage: node dist/store-worker.js <stateDir> <durationMs>
 */
import { once } from 'node:events';
import { markFor, openMarkStore } from './store-marks.js';

const [stateDir, durationText] = process.argv.slice(2);
const durationMs = Number(durationText);
if (stateDir === undefined || !Number.isFinite(durationMs) || durationMs <= 0) {
  process.stderr.write('usage: store-worker <stateDir> <durationMs>\n');
  process.exit(2);
}
const store = await openMarkStore(stateDir);
process.stdout.write('ready\n');
process.stdin.setEncoding('utf8');
let input = '';
while (!input.includes('go')) {
  const [piece] = (await once(process.stdin, 'data')) as [string];
  input += piece;
}
const result = await markFor(store, durationMs);
await store.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
process.stdin.destroy();
