/**
 * Vitest global setup: the provider tests run the emulator as a separate process (`spawnEmulator` of
 * `@understudy/provider-emulator/client`, as the gateway's end-to-end tests and the demo do), so its `dist/`
 * must be current. `tsc -b` is incremental: when nothing changed it only checks timestamps.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

export default function buildEmulator(): void {
  const workspaceRoot = path.resolve(import.meta.dirname, '../../../..');
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-b', path.join(workspaceRoot, 'tools/provider-emulator/tsconfig.lib.json')], {
    cwd: workspaceRoot,
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(`building the provider emulator failed:\n${result.stdout}${result.stderr}`);
  }
}
