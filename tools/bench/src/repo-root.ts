/**
 * The repository root, found from this module's location (`tools/bench/src` or `tools/bench/dist`), so the
 * bench reads fixtures and writes results in the same place whatever the working directory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BenchError } from './errors.js';

/** The nearest folder above `from` that holds `pnpm-workspace.yaml`. */
export function findRepoRoot(from: string = import.meta.dirname): string {
  let dir = path.resolve(from);
  for (;;) {
    if (fs.existsSync(path.join(dir, 'pnpm-workspace.yaml'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new BenchError(`no pnpm-workspace.yaml above ${from}: run the bench inside the repository`, 'missing_input');
    dir = parent;
  }
}
