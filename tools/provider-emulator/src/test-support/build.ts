/** Vitest global setup: the CLI tests run `dist/main.js`, so build it first (`tsc -b` is incremental). */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

export default function build(): void {
  const projectRoot = path.resolve(import.meta.dirname, '../..');
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-b', path.join(projectRoot, 'tsconfig.lib.json')], { cwd: projectRoot, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`building the provider emulator failed:\n${result.stdout}${result.stderr}`);
}
