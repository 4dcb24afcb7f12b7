#!/usr/bin/env node
// Runs one of the workspace's programs from its built output, building it first (quietly, to stderr) when
// its sources changed since the last build. Used by `pnpm understudy`, `pnpm start`, `pnpm emulator`,
// `pnpm demo`, `pnpm bench` and `pnpm chaos`, so they work right after `pnpm install` on a fresh clone.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const apps = {
  cli: { project: '@understudy/cli', entry: 'apps/cli/dist/bin.js', args: [] },
  gateway: { project: '@understudy/gateway', entry: 'apps/gateway/dist/main.js', args: [] },
  emulator: { project: '@understudy/provider-emulator', entry: 'tools/provider-emulator/dist/main.js', args: [] },
  demo: { project: '@understudy/gateway', entry: 'apps/gateway/dist/demo.js', args: [], also: ['@understudy/provider-emulator'] },
  bench: { project: '@understudy/bench', entry: 'tools/bench/dist/main.js', args: [], also: ['@understudy/gateway', '@understudy/provider-emulator'] },
  chaos: { project: '@understudy/bench', entry: 'tools/bench/dist/chaos.js', args: [], also: ['@understudy/gateway', '@understudy/provider-emulator'] },
};
const [name, ...args] = process.argv.slice(2);
const app = apps[name];
if (!app) {
  console.error(`run-app: unknown program "${name}"; expected one of ${Object.keys(apps).join(', ')}`);
  process.exit(2);
}

function newestSourceMtime() {
  let newest = 0;
  const walk = (dir) => {
    let entries;
    try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
    for (const entry of entries) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') || entry.name === 'package.json' || entry.name.startsWith('tsconfig')) {
        newest = Math.max(newest, fs.statSync(full).mtimeMs);
      }
    }
  };
  for (const group of ['packages', 'apps', 'tools']) walk(path.join(root, group));
  return newest;
}

const stampDir = path.join(root, 'node_modules', '.cache', 'understudy');
const stamp = path.join(stampDir, `${name}.stamp`);
const stampMtime = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
if (!fs.existsSync(path.join(root, app.entry)) || newestSourceMtime() > stampMtime) {
  const projects = [app.project, ...(app.also ?? [])].join(',');
  const build = spawnSync('pnpm', ['exec', 'nx', 'run-many', '-t', 'build', `--projects=${projects}`, '--output-style=static'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
  });
  if (build.status !== 0) {
    process.stderr.write(build.stdout ?? '');
    process.stderr.write(build.stderr ?? '');
    console.error(`run-app: building ${projects} failed`);
    process.exit(build.status ?? 1);
  }
  fs.mkdirSync(stampDir, { recursive: true });
  fs.writeFileSync(stamp, new Date().toISOString());
}

const child = spawn(process.execPath, [path.join(root, app.entry), ...app.args, ...args], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
// `kill <pnpm pid>` ends pnpm without passing the signal on, and this script is left to init: stop the app then
// too (Ctrl-C reaches the whole process group and needs none of this).
const launcher = process.ppid;
setInterval(() => {
  if (process.ppid !== launcher) child.kill('SIGTERM');
}, 1000).unref();
child.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
