/**
 * Bundles a TypeScript child-process entry (and the store sources it imports) into one `.mjs` file that plain
 * Node 20 can run, using the workspace's Vite. Workspace packages are read from `src` through the
 * `@understudy/source` condition, so this works with or without a prior `pnpm build`; npm dependencies
 * (better-sqlite3, kysely) stay external and resolve from this package's `node_modules`.
 */
import path from 'node:path';
import { build, defaultServerConditions } from 'vite';

const packageRoot = path.resolve(import.meta.dirname, '../..');

/** Builds `entry` (absolute path) and returns the path of the bundled `.mjs`. */
export async function buildChildScript(entry: string): Promise<string> {
  const name = path.basename(entry, '.ts');
  const outDir = path.join(packageRoot, 'node_modules', '.cache', 'understudy-test-children', name);
  const conditions = ['@understudy/source', ...defaultServerConditions];
  await build({
    configFile: false,
    logLevel: 'silent',
    root: packageRoot,
    resolve: { conditions },
    ssr: { resolve: { conditions, externalConditions: conditions }, noExternal: [/^@understudy\//] },
    build: {
      ssr: entry,
      outDir,
      emptyOutDir: true,
      minify: false,
      target: 'node20',
      rollupOptions: { output: { format: 'es', entryFileNames: `${name}.mjs` } },
    },
  });
  return path.join(outDir, `${name}.mjs`);
}
