#!/usr/bin/env node
/**
 * Golden output of the classifier, for changes that must not change any output (a cost pass): `explainFailure`
 * (full output, trace included) at two `nowMs` values and without one, over every fixture row and reference
 * vector, the bench's synthetic 1 MiB worst cases and seeded random failures built from fixture fragments
 * (src/test-support/golden-corpus.ts). Loads the TypeScript sources through Vite's module runner, so no build is
 * needed.
 *
 * Usage, from the repository root:
 *   node packages/error-classifier/tools/golden.mjs write /tmp/golden.jsonl [--random N]   # before the change
 *   node packages/error-classifier/tools/golden.mjs check /tmp/golden.jsonl [--random N]   # after: exit 1 on any difference
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultServerConditions, runnerImport } from 'vite';

const conditions = ['@understudy/source', ...defaultServerConditions];
const load = async (relative) =>
  (
    await runnerImport(fileURLToPath(new URL(relative, import.meta.url)), {
      configFile: false,
      logLevel: 'error',
      resolve: { conditions },
      ssr: { resolve: { conditions } },
    })
  ).module;

const [mode, file, ...rest] = process.argv.slice(2);
const randomAt = rest.indexOf('--random');
const randomCount = randomAt === -1 ? 25_000 : Number(rest[randomAt + 1]);
if ((mode !== 'write' && mode !== 'check') || file === undefined || !Number.isInteger(randomCount)) {
  console.error('golden: usage: golden.mjs write|check FILE [--random N]');
  process.exit(2);
}

const { explainFailure, classifyFailure } = await load('../src/index.ts');
const { fixtureCases, randomCases } = await load('../src/test-support/golden-corpus.ts');
// The bench's own worst cases (tools/bench), so the slowest-payload figure's inputs are checked too.
const { seededRandom, syntheticPayloads } = await load('../../../tools/bench/src/figures/classifier-corpus.ts');

const fixtures = fixtureCases();
const cases = [...fixtures, ...syntheticPayloads().map(({ id, failure }) => ({ id, failure })), ...randomCases(fixtures, randomCount, seededRandom(12))];
const NOW_VALUES = [Date.UTC(2026, 0, 1), Date.UTC(2024, 5, 15, 12, 30, 7), undefined];

const lines = [];
for (const { id, failure } of cases) {
  for (const nowMs of NOW_VALUES) {
    const options = nowMs === undefined ? undefined : { nowMs };
    const explained = explainFailure(failure, options);
    const classified = classifyFailure(failure, options);
    lines.push(`${id}\t${nowMs ?? '-'}\t${JSON.stringify(explained)}\t${JSON.stringify(classified)}`);
  }
}
const text = `${lines.join('\n')}\n`;
const digest = crypto.createHash('sha256').update(text).digest('hex');

if (mode === 'write') {
  fs.writeFileSync(file, text);
  console.log(`golden: ${cases.length} cases, ${lines.length} outputs written to ${file} (sha256 ${digest.slice(0, 16)})`);
  process.exit(0);
}
const expected = fs.readFileSync(file, 'utf8').split('\n');
let differences = 0;
lines.forEach((line, index) => {
  if (expected[index] === line) return;
  differences += 1;
  if (differences <= 5) console.error(`golden: differs at line ${index + 1}\n  expected ${expected[index]?.slice(0, 600)}\n  actual   ${line.slice(0, 600)}`);
});
if (expected.length - 1 !== lines.length) console.error(`golden: ${expected.length - 1} expected lines, ${lines.length} actual`);
if (differences > 0 || expected.length - 1 !== lines.length) {
  console.error(`golden: ${differences} of ${lines.length} outputs differ`);
  process.exit(1);
}
console.log(`golden: ${cases.length} cases, ${lines.length} outputs identical (sha256 ${digest.slice(0, 16)})`);
