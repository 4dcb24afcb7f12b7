/**
 * Bundles `hot-path.bench.ts` (and the store sources it imports, through the `@understudy/source` condition)
 * with the workspace's Vite, then runs it under plain Node so timings are those of ordinary compiled code.
 *
 * Usage: node scripts/run-hot-path-bench.mjs   (BENCH_CALLS, BENCH_ROUNDS tune the loop)
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { build, defaultServerConditions } from 'vite';

const packageRoot = path.resolve(import.meta.dirname, '..');
const outDir = path.join(packageRoot, 'node_modules', '.cache', 'understudy-bench');
const conditions = ['@understudy/source', ...defaultServerConditions];
await build({
  configFile: false,
  logLevel: 'silent',
  root: packageRoot,
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions }, noExternal: [/^@understudy\//] },
  build: {
    ssr: path.join(import.meta.dirname, 'hot-path.bench.ts'),
    outDir,
    emptyOutDir: true,
    minify: false,
    target: 'node20',
    rollupOptions: { output: { format: 'es', entryFileNames: 'hot-path.bench.mjs' } },
  },
});
const result = spawnSync(process.execPath, [path.join(outDir, 'hot-path.bench.mjs')], { stdio: 'inherit' });
process.exit(result.status ?? 1);
