#!/usr/bin/env node
// The README's test command: lint (module boundaries included), typecheck, build, then every project's
// tests and the release checks (scripts/check-packages.mjs, scripts/release-rehearsal.mjs), ending with one plain "N passed, N failed" line
// summed over all projects.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
process.chdir(root);
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };
const nx = (args) => spawnSync('pnpm', ['exec', 'nx', ...args], { stdio: 'inherit', env }).status ?? 1;

const projectDirs = ['packages', 'apps', 'tools', 'examples'].flatMap((dir) =>
  fs.existsSync(dir) ? fs.readdirSync(dir).map((name) => path.join(dir, name)) : [],
);
for (const dir of projectDirs) fs.rmSync(path.join(dir, 'test-results.json'), { force: true });

const checks = nx(['run-many', '-t', 'lint', 'typecheck', 'build', '--output-style=static']);
const tests = nx([
  'run-many', '-t', 'test', '--skip-nx-cache', '--output-style=static', '--',
  '--reporter=default', '--reporter=json', '--outputFile.json=test-results.json',
]);

// The published packages as a registry consumer gets them (pack, contents, publint, attw, built exports) and a
// whole release on a local registry (publish, install outside the workspace, example, CLI, gateway): each
// script is counted as one test. They need the build, so they run only when it passed.
const releaseChecks = [
  ['package checks', 'scripts/check-packages.mjs'],
  ['release rehearsal', 'scripts/release-rehearsal.mjs'],
];
const releaseResults = releaseChecks.map(([name, script]) => {
  if (checks !== 0) return { name, ok: false, why: 'not run: the build failed' };
  const status = spawnSync(process.execPath, [script], { stdio: 'inherit', env }).status;
  return { name, ok: status === 0, why: `exit ${status}` };
});

let passed = 0;
let failed = 0;
let skipped = 0;
for (const result of releaseResults) {
  if (result.ok) passed += 1;
  else {
    failed += 1;
    console.error(`${result.name} failed (${result.why}): see above`);
  }
}
// Each failed test again, by file and name with the first line of its failure, right above the summary: a long
// run's log is often read from its end only.
const failures = [];
for (const dir of projectDirs) {
  const file = path.join(dir, 'test-results.json');
  if (!fs.existsSync(file)) continue;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  for (const suite of report.testResults ?? []) {
    const where = path.relative(root, suite.name);
    for (const test of suite.assertionResults ?? []) {
      if (test.status !== 'failed') continue;
      const first = String(test.failureMessages?.[0] ?? '').split('\n')[0] ?? '';
      failures.push(`FAILED ${where} > ${test.fullName}: ${first.slice(0, 300)}`);
    }
    if (suite.status === 'failed' && (suite.assertionResults ?? []).length === 0) failures.push(`FAILED ${where}: ${String(suite.message ?? '').split('\n')[0]}`);
  }
}
for (const line of failures) console.log(line);
if (checks !== 0) console.error('lint, typecheck or build failed: see above');
if (tests !== 0 && failed === 0) failed += 1; // a suite that crashed before reporting counts as a failure
console.log(`${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ''));
process.exit(checks !== 0 || failed !== 0 || passed === 0 ? 1 : 0);
