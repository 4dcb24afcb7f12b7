#!/usr/bin/env node
/**
 * Prints the classifier's scores on every fixture file, the reference agreement and the provider split
 * (src/test-support/score-report.ts). Loads the TypeScript sources through Vite's module runner, so no build is
 * needed. Usage, from the repository root: `node packages/error-classifier/tools/score.mjs [--misses] [--dev]`
 * (`--dev`: no count of held-back rows, for runs while rules change).
 */
import { fileURLToPath } from 'node:url';
import { defaultServerConditions, runnerImport } from 'vite';

const conditions = ['@understudy/source', ...defaultServerConditions];
const entry = fileURLToPath(new URL('../src/test-support/score-report.ts', import.meta.url));
const { module } = await runnerImport(entry, {
  configFile: false,
  logLevel: 'error',
  resolve: { conditions },
  ssr: { resolve: { conditions } },
});
const unknown = process.argv.slice(2).filter((arg) => arg !== '--misses' && arg !== '--dev');
if (unknown.length > 0) {
  console.error(`score: unknown argument ${unknown.join(' ')}; usage: score.mjs [--misses] [--dev]`);
  process.exit(2);
}
console.log(module.scoreReport({ misses: process.argv.includes('--misses'), devOnly: process.argv.includes('--dev') }).join('\n'));
