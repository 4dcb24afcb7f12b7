/**
 * Builds the gateway (with its workspace dependencies) and the provider emulator before the end-to-end suites,
 * which spawn their built `dist/main.js`. `tsc -b` is incremental: a no-op when nothing changed. In CI
 * `pnpm test` has built everything already.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { EMULATOR_MAIN, GATEWAY_MAIN } from './processes.js';

function build(projectDir: string, entry: string): void {
  const result = spawnSync('pnpm', ['exec', 'tsc', '-b', 'tsconfig.lib.json'], { cwd: projectDir, encoding: 'utf8' });
  if (result.status === 0) return;
  if (fs.existsSync(entry)) {
    process.stderr.write(`warning: building ${projectDir} failed; testing the existing ${entry}\n${result.stdout}${result.stderr}\n`);
    return;
  }
  throw new Error(`building ${projectDir} failed:\n${result.stdout}${result.stderr}`);
}

export default function setup(): void {
  if (process.env['UNDERSTUDY_SKIP_E2E_BUILD'] === '1') return;
  build(path.resolve(import.meta.dirname, '../..'), GATEWAY_MAIN);
  build(path.resolve(import.meta.dirname, '../../../../tools/provider-emulator'), EMULATOR_MAIN);
}
