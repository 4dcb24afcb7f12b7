#!/usr/bin/env node
// `pnpm check:packages` (also run by `pnpm test` after the build): checks every published package the way a
// consumer of the registry gets it. Each package is packed with `pnpm pack` (so workspace ranges are rewritten
// exactly as on publish), then
//   1. the tarball holds LICENSE, README.md and the built entry points, and no tests, test-support or build info;
//   2. publint (strict: warnings fail too) lints the tarball's package.json against its files;
//   3. @arethetypeswrong/cli checks the types of every `exports` entry for ESM consumers (node16 and bundler;
//      the packages are ESM only, so the CommonJS and node10 resolutions are not a goal: `--profile esm-only`);
//   3b. every package that the shipped .d.ts files import is a dependency (or its @types/ package is), so a
//      consumer's `tsc` without skipLibCheck finds them (a devDependency is not installed for consumers);
//   4. every `exports` entry is imported through its built file by a plain `node` (no `@understudy/source`
//      condition, which only the workspace's tests and typecheck use), so an entry that points at a missing or
//      broken file fails here even though vitest, which resolves `src`, would pass.
// Needs `pnpm build` first. Prints one line per package and exits 1 on any problem. Arguments: package names
// to check only those (default: every published package).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { publishedPackages, root, runLimited } from './lib/workspace-packages.mjs';

const run = promisify(execFile);
const forbidden = [
  [/\.test\.[cm]?[jt]s$/, 'a test file'],
  [/(^|\/)test-support\//, 'test-support code'],
  [/\.tsbuildinfo$/, 'TypeScript build info'],
  [/(^|\/)vitest\.config\./, 'a vitest config'],
  [/(^|\/)tsconfig(\.[a-z]+)?\.json$/, 'a tsconfig'],
];

/** `[subpath, target]` of every exports entry that is code (not `./package.json`). */
function codeEntries(manifest) {
  const exportsMap = manifest.exports ?? {};
  return Object.entries(exportsMap).filter(([subpath]) => !subpath.endsWith('.json'));
}

/** Whether dependency `name`, as installed for the package in `packageDir`, ships its own type declarations. */
function shipsTypes(packageDir, name) {
  if (name === undefined) return false;
  const manifestFile = path.join(packageDir, 'node_modules', ...name.split('/'), 'package.json');
  if (!fs.existsSync(manifestFile)) return true; // a workspace sibling or a peer: its own check covers it
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  if (manifest.types ?? manifest.typings) return true;
  if (JSON.stringify(manifest.exports ?? {}).includes('"types"')) return true;
  // declarations beside the entry's JavaScript (kysely, …)
  const dot = typeof manifest.exports === 'string' ? manifest.exports : manifest.exports?.['.'];
  const entries = [manifest.main, 'index.js', ...[dot, dot?.import, dot?.default, dot?.node].filter((entry) => typeof entry === 'string')];
  return entries.some((entry) => typeof entry === 'string' && fs.existsSync(path.join(path.dirname(manifestFile), entry.replace(/\.[cm]?js$/, '').concat('.d.ts'))));
}

async function listTarball(tarball) {
  const { stdout } = await run('tar', ['-tzf', tarball], { maxBuffer: 16 * 1024 * 1024 });
  return stdout.split('\n').filter(Boolean).map((entry) => entry.replace(/^package\//, ''));
}

async function checkPackage(pkg, packDir) {
  const problems = [];
  const cwd = path.join(root, pkg.dir);
  const { stdout } = await run('pnpm', ['pack', '--pack-destination', packDir], { cwd, maxBuffer: 16 * 1024 * 1024 });
  const tarball = stdout.split('\n').map((line) => line.trim()).find((line) => line.endsWith('.tgz'));
  if (tarball === undefined || !fs.existsSync(tarball)) return [`pnpm pack printed no tarball:\n${stdout}`];

  // 1. contents
  const files = await listTarball(tarball);
  for (const required of ['package.json', 'LICENSE', 'README.md']) {
    if (!files.includes(required)) problems.push(`the tarball has no ${required}`);
  }
  for (const file of files) {
    const hit = forbidden.find(([pattern]) => pattern.test(file));
    if (hit !== undefined) problems.push(`the tarball ships ${hit[1]}: ${file} (fix "files" in package.json)`);
  }
  const packed = JSON.parse((await run('tar', ['-xzOf', tarball, 'package/package.json'])).stdout);
  for (const [name, range] of Object.entries({ ...packed.dependencies, ...packed.peerDependencies, ...packed.optionalDependencies })) {
    if (String(range).startsWith('workspace:')) problems.push(`dependency ${name} keeps its workspace range ${range}`);
  }
  if (packed.publishConfig?.access !== 'public') problems.push('publishConfig.access is not "public"');
  for (const field of ['license', 'repository', 'engines']) if (packed[field] === undefined) problems.push(`package.json has no "${field}"`);

  // 3b. the types' imports are dependencies
  const unpacked = path.join(packDir, `${pkg.dir.replace(/\//g, '-')}-unpacked`);
  fs.mkdirSync(unpacked, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', unpacked]);
  const installed = new Set([pkg.name, ...Object.keys({ ...packed.dependencies, ...packed.peerDependencies, ...packed.optionalDependencies })]);
  const missingTypes = new Map();
  for (const file of files.filter((name) => name.endsWith('.d.ts'))) {
    const text = fs.readFileSync(path.join(unpacked, 'package', file), 'utf8');
    for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)) {
      const specifier = match[1];
      if (specifier.startsWith('.') || specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0])) continue;
      const parts = specifier.split('/');
      const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
      const typesName = `@types/${name.startsWith('@') ? name.slice(1).replace('/', '__') : name}`;
      if (installed.has(typesName)) continue;
      if (!installed.has(name) || !shipsTypes(cwd, name)) missingTypes.set(name, file);
    }
  }
  for (const [name, file] of missingTypes) {
    problems.push(`${file} imports "${name}", whose types are not a dependency: consumers' tsc cannot resolve them (add ${name}, or its @types package when it has no types of its own, to "dependencies")`);
  }

  // 2. publint
  const bytes = fs.readFileSync(tarball);
  const lint = await publint({ pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) }, level: 'warning', strict: true });
  for (const message of lint.messages) problems.push(`publint ${message.type}: ${formatMessage(message, lint.pkg)}`);

  // 3. attw, for packages with an import surface (the CLI and the gateway are programs: bin only, nothing to import)
  const entries = codeEntries(pkg.manifest);
  if (entries.length > 0) {
    try {
      await run(path.join(root, 'node_modules', '.bin', 'attw'), [tarball, '--profile', 'esm-only', '--format', 'table-flipped', '--no-color'], {
        cwd: root,
        maxBuffer: 16 * 1024 * 1024,
      });
    } catch (error) {
      problems.push(`attw found problems:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    }
  }

  // 4. import each entry through its built file (a package can import itself by name from its own folder)
  if (entries.length > 0) {
    const specifiers = entries.map(([subpath]) => (subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`));
    const probe = `
      const out = [];
      for (const specifier of ${JSON.stringify(specifiers)}) {
        const url = import.meta.resolve(specifier);
        const names = Object.keys(await import(specifier));
        out.push({ specifier, url, names: names.length });
      }
      console.log(JSON.stringify(out));`;
    try {
      const result = await run(process.execPath, ['--input-type=module', '-e', probe], { cwd, maxBuffer: 16 * 1024 * 1024 });
      for (const entry of JSON.parse(result.stdout)) {
        if (!entry.url.includes('/dist/')) problems.push(`${entry.specifier} resolves outside dist/: ${entry.url}`);
        if (entry.names === 0) problems.push(`${entry.specifier} exports nothing`);
      }
    } catch (error) {
      problems.push(`importing its exports failed:\n${(error.stderr ?? String(error)).split('\n').slice(0, 8).join('\n')}`);
    }
  }
  for (const [name, target] of Object.entries(pkg.manifest.bin ?? {})) {
    if (!files.includes(path.posix.normalize(target))) problems.push(`bin ${name} (${target}) is not in the tarball`);
  }
  return problems;
}

const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-pack-'));
const started = Date.now();
try {
  const only = process.argv.slice(2); // `pnpm check:packages @understudy/config …` checks only those
  const packages = publishedPackages().filter((pkg) => only.length === 0 || only.includes(pkg.name));
  if (packages.length === 0) throw new Error(`no published package matches ${only.join(', ')}`);
  const results = await runLimited(
    packages.map((pkg) => async () => {
      const problems = await checkPackage(pkg, packDir).catch((error) => [`check crashed: ${error.stack ?? error}`]);
      console.log(`${problems.length === 0 ? 'ok  ' : 'FAIL'} ${pkg.name}@${pkg.version}${problems.map((problem) => `\n     - ${problem}`).join('')}`);
      return problems.length;
    }),
    Math.max(1, Math.min(4, os.availableParallelism())),
  );
  const failed = results.filter((count) => count > 0).length;
  console.log(`package checks: ${packages.length - failed} of ${packages.length} packages clean (pack, contents, publint, attw, built exports) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exitCode = failed === 0 ? 0 : 1;
} finally {
  fs.rmSync(packDir, { recursive: true, force: true });
}
