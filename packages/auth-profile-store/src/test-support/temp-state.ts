/**
 * Temporary state roots for tests: a fresh folder per test, removed afterwards.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Creates a fresh temporary state root. */
export function makeTempStateRoot(prefix = 'understudy-store-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Removes a temporary state root. */
export function removeTempStateRoot(root: string): void {
  fs.rmSync(root, { recursive: true, force: true });
}

/** Permission bits of a path (e.g. `0o600`). */
export function modeOf(file: string): number {
  return fs.statSync(file).mode & 0o777;
}

/** Every byte of the database and its WAL, as latin1 text, to grep for secrets. */
export function rawDatabaseText(databasePath: string): string {
  return ['', '-wal']
    .map((suffix) => databasePath + suffix)
    .filter((file) => fs.existsSync(file))
    .map((file) => fs.readFileSync(file).toString('latin1'))
    .join('\n');
}
