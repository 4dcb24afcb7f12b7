#!/usr/bin/env node
// `pnpm release:rehearsal` (also run by `pnpm test` after the build): the release as a user meets it, on this
// machine and on loopback only.
//   1. starts a local registry (Verdaccio, no uplinks: @understudy/* can only come from what is published here);
//   2. publishes every package with the real release command, `pnpm release` (build, then `changeset publish`;
//      `--no-git-tag` because a rehearsal tags nothing);
//   3. in a temporary folder outside the workspace, installs the packages from that registry (the @understudy
//      scope is mapped to it; third-party packages resolve from the usual registry and come out of the local pnpm
//      store, with the compiled better-sqlite3 from its side-effects cache), then compiles with strict `tsc` and
//      runs `examples/fallback-basics` (the emulator plays a rate-limited primary; it prints the fallback taken),
//      and compiles and runs the program of `@understudy/fallback-runner`'s README against the emulator's bin,
//      exactly as a newcomer following that README would;
//   4. installs `@understudy/cli` globally into a temporary PNPM_HOME and runs `understudy --version`,
//      `understudy classify`, and `understudy gateway --config …`, through which it serves one chat request.
// Bounded: every step has a timeout and the whole run gives up after REHEARSAL_TIMEOUT_MS (default 8 min).
// `KEEP_REHEARSAL=1` keeps the temporary folder for a look afterwards.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { publishedPackages, root } from './lib/workspace-packages.mjs';

const overallTimeoutMs = Number(process.env.REHEARSAL_TIMEOUT_MS ?? 8 * 60_000);
const started = Date.now();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-rehearsal-'));
const children = new Set();
const rootManifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const packages = publishedPackages();
const versionOf = new Map(packages.map((pkg) => [pkg.name, pkg.version]));

const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const log = (line) => console.log(`[rehearsal ${elapsed()}] ${line}`);

class RehearsalError extends Error {}

/** Runs a command to completion; throws with its output when it fails or passes `timeoutMs`. */
function runStep(command, args, options = {}) {
  const remaining = overallTimeoutMs - (Date.now() - started);
  const timeout = Math.max(1_000, Math.min(options.timeoutMs ?? 180_000, remaining));
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? work,
    env: options.env ?? process.env,
    input: options.input,
    encoding: 'utf8',
    timeout,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    const why = result.error?.code === 'ETIMEDOUT' ? `timed out after ${timeout} ms` : `exit ${result.status ?? result.signal}`;
    throw new RehearsalError(`${command} ${args.join(' ')} (${why}):\n${tail(result.stdout)}\n${tail(result.stderr)}`);
  }
  return result.stdout;
}

function tail(text, lines = 40) {
  return (text ?? '').split('\n').slice(-lines).join('\n');
}

/** Starts a long-running process; its output goes to `<work>/<name>.log`. */
function startProcess(name, command, args, options = {}) {
  const logFile = path.join(work, `${name}.log`);
  const out = fs.openSync(logFile, 'a');
  const child = spawn(command, args, {
    cwd: options.cwd ?? work,
    env: options.env ?? process.env,
    stdio: ['ignore', options.captureStdout ? 'pipe' : out, out],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return { child, logFile };
}

/** The first stdout line of a started process that parses as JSON with a `url`: what the emulator and the gateway print when ready. */
function readyUrl(processInfo, name, timeoutMs = 60_000) {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new RehearsalError(`${name} printed no {"url"} line in ${timeoutMs} ms:\n${tail(readLog(processInfo.logFile))}`)), timeoutMs);
    processInfo.child.stdout.setEncoding('utf8');
    processInfo.child.stdout.on('data', (chunk) => {
      buffer += chunk;
      for (const line of buffer.split('\n').slice(0, -1)) {
        try {
          const parsed = JSON.parse(line);
          if (typeof parsed.url === 'string') {
            clearTimeout(timer);
            resolve(parsed.url);
          }
        } catch {
          // not the ready line
        }
      }
    });
    processInfo.child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new RehearsalError(`${name} exited (${code ?? signal}) before it was ready:\n${tail(readLog(processInfo.logFile))}`));
    });
  });
}

function readLog(file) {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
}

async function stopProcess(processInfo, timeoutMs = 15_000) {
  const { child } = processInfo;
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const result = await exited;
  clearTimeout(timer);
  return result;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * `fetch` that survives a pooled keep-alive socket the server closed while this process sat in a synchronous
 * step (`spawnSync` blocks the event loop, so undici only sees the close on its next use: "other side closed").
 * One retry on a fresh socket; a second failure is real.
 */
async function fetchOnce(url, init) {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    await new Promise((resolve) => setTimeout(resolve, 100));
    return fetch(url, init);
  }
}

async function waitFor(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new RehearsalError(`${url} did not answer within ${timeoutMs} ms`);
}

function writeJson(file, value) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** The published version for a workspace range (`workspace:*` → the package's version). */
function publishedRange(name, range) {
  if (!String(range).startsWith('workspace:')) return range;
  const version = versionOf.get(name);
  if (version === undefined) throw new RehearsalError(`${name} is not a published package, so a consumer cannot install it`);
  return version;
}

/** A consumer's strict tsconfig: what `tsc --init` would be with ESM on Node, and the library checks on. */
const consumerTsconfig = {
  compilerOptions: {
    target: 'es2023',
    lib: ['es2023'],
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    exactOptionalPropertyTypes: true,
    verbatimModuleSyntax: true,
    skipLibCheck: false,
    types: ['node'],
    rootDir: 'src',
    outDir: 'dist',
  },
  include: ['src'],
};

/** The first ```ts block after `heading` in a README. */
function codeBlockAfter(readmeFile, heading) {
  const text = fs.readFileSync(readmeFile, 'utf8');
  const start = text.indexOf(heading);
  if (start === -1) throw new RehearsalError(`${readmeFile} has no "${heading}" section`);
  const match = /```ts\n([\s\S]*?)```/.exec(text.slice(start));
  if (match === null) throw new RehearsalError(`${readmeFile}: no \`\`\`ts block under "${heading}"`);
  return match[1];
}

/** The emulator script of the README section: its `echo '…' > script.json5` line. */
function emulatorScriptAfter(readmeFile, heading) {
  const text = fs.readFileSync(readmeFile, 'utf8');
  const section = text.slice(text.indexOf(heading));
  const match = /echo '([^']+)' > script\.json5/.exec(section);
  if (match === null) throw new RehearsalError(`${readmeFile}: no "echo '…' > script.json5" line under "${heading}"`);
  return match[1];
}

async function rehearse() {
  const storeDir = runStep('pnpm', ['store', 'path'], { cwd: root }).trim();
  const baseEnv = { ...process.env, CI: 'true', NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };
  delete baseEnv.npm_config_registry;
  if (fs.existsSync('/usr/include/node/node_version.h')) baseEnv.npm_config_nodedir = '/usr';

  // 1. the registry
  const port = await freePort();
  const registry = `http://127.0.0.1:${port}/`;
  fs.writeFileSync(
    path.join(work, 'verdaccio.yaml'),
    [
      `storage: ${path.join(work, 'storage')}`,
      'auth:',
      '  htpasswd:',
      `    file: ${path.join(work, 'htpasswd')}`,
      '    max_users: 10',
      'uplinks: {}', // nothing is proxied: an unpublished @understudy package is a 404, never the public one
      'packages:',
      "  '@understudy/*':",
      '    access: $all',
      '    publish: $authenticated',
      "  '**':",
      '    access: $all',
      '    publish: $authenticated',
      'web:',
      '  enable: false',
      'log: { type: stdout, format: pretty, level: warn }',
      '',
    ].join('\n'),
  );
  const verdaccio = startProcess('verdaccio', path.join(root, 'node_modules', '.bin', 'verdaccio'), ['--config', path.join(work, 'verdaccio.yaml'), '--listen', `127.0.0.1:${port}`], { env: baseEnv });
  await waitFor(`${registry}-/ping`, 60_000);
  log(`registry up at ${registry} (Verdaccio, no uplinks)`);

  const user = await fetchOnce(`${registry}-/user/org.couchdb.user:rehearsal`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'rehearsal', password: `pw-${process.pid}-${Date.now()}` }),
  });
  const { token } = await user.json();
  if (typeof token !== 'string') throw new RehearsalError(`the registry gave no token (HTTP ${user.status})`);
  const publisherRc = path.join(work, 'publisher.npmrc');
  fs.writeFileSync(publisherRc, `registry=${registry}\n//127.0.0.1:${port}/:_authToken=${token}\n`, { mode: 0o600 });

  // 2. publish with the real release command
  const publishEnv = { ...baseEnv, npm_config_userconfig: publisherRc, npm_config_registry: registry };
  const publishOut = runStep('pnpm', ['release', '--no-git-tag'], { cwd: root, env: publishEnv, timeoutMs: 300_000 });
  for (const pkg of packages) {
    const response = await fetchOnce(`${registry}${pkg.name.replace('/', '%2f')}`);
    const meta = response.ok ? await response.json() : {};
    if (meta.versions?.[pkg.version] === undefined) {
      throw new RehearsalError(`${pkg.name}@${pkg.version} is not in the registry after "pnpm release":\n${tail(publishOut)}`);
    }
    const deps = meta.versions[pkg.version].dependencies ?? {};
    const kept = Object.entries(deps).filter(([, range]) => String(range).startsWith('workspace:'));
    if (kept.length > 0) throw new RehearsalError(`${pkg.name} was published with workspace ranges: ${kept.map(([n, r]) => `${n}@${r}`).join(', ')}`);
  }
  log(`published ${packages.length} packages with "pnpm release": ${packages.map((pkg) => `${pkg.name}@${pkg.version}`).join(', ')}`);

  // 3. a consumer project outside the workspace
  const consumer = path.join(work, 'consumer');
  const consumerRc = path.join(work, 'consumer.npmrc');
  fs.writeFileSync(consumerRc, `@understudy:registry=${registry}\n`);
  const consumerEnv = { ...baseEnv, npm_config_userconfig: consumerRc, HOME: path.join(work, 'home') };
  fs.mkdirSync(consumerEnv.HOME, { recursive: true });
  const exampleDir = path.join(root, 'examples', 'fallback-basics');
  const example = JSON.parse(fs.readFileSync(path.join(exampleDir, 'package.json'), 'utf8'));
  const dependencies = Object.fromEntries(Object.entries(example.dependencies).map(([name, range]) => [name, publishedRange(name, range)]));
  writeJson(path.join(consumer, 'package.json'), {
    name: 'rehearsal-consumer',
    private: true,
    type: 'module',
    dependencies,
    devDependencies: { typescript: rootManifest.devDependencies.typescript, '@types/node': rootManifest.devDependencies['@types/node'] },
  });
  fs.writeFileSync(path.join(consumer, '.npmrc'), `@understudy:registry=${registry}\n`);
  // pnpm's own settings for this project: build better-sqlite3, and take versions published a moment ago
  fs.writeFileSync(path.join(consumer, 'pnpm-workspace.yaml'), 'allowBuilds:\n  better-sqlite3: true\nminimumReleaseAge: 0\nupdateNotifier: false\n');
  runStep('pnpm', ['install', '--no-frozen-lockfile', '--store-dir', storeDir], { cwd: consumer, env: consumerEnv, timeoutMs: 240_000 });
  for (const name of Object.keys(dependencies)) {
    const installed = fs.realpathSync(path.join(consumer, 'node_modules', ...name.split('/')));
    if (installed.startsWith(root)) throw new RehearsalError(`${name} resolved into the workspace (${installed}), not from the registry`);
  }
  log(`consumer installed ${Object.keys(dependencies).length} packages from the registry into ${consumer}`);

  fs.mkdirSync(path.join(consumer, 'src'), { recursive: true });
  for (const file of fs.readdirSync(path.join(exampleDir, 'src')).filter((name) => name.endsWith('.ts'))) {
    fs.copyFileSync(path.join(exampleDir, 'src', file), path.join(consumer, 'src', file));
  }
  const runnerReadme = path.join(root, 'packages', 'fallback-runner', 'README.md');
  const readmeHeading = '## A fallback in one file';
  fs.writeFileSync(path.join(consumer, 'src', 'readme-fallback.ts'), codeBlockAfter(runnerReadme, readmeHeading));
  writeJson(path.join(consumer, 'tsconfig.json'), consumerTsconfig);
  runStep(path.join(consumer, 'node_modules', '.bin', 'tsc'), ['-p', '.'], { cwd: consumer, env: consumerEnv });
  log('tsc (strict, nodenext, skipLibCheck off) compiled examples/fallback-basics and the fallback-runner README program against the published types');

  const exampleOut = runStep(process.execPath, ['dist/main.js'], { cwd: consumer, env: consumerEnv, timeoutMs: 60_000 }).trim().split('\n').pop();
  const fallback = JSON.parse(exampleOut);
  if (fallback.fallbackReason !== 'rate_limit' || fallback.answeredBy === fallback.selected) {
    throw new RehearsalError(`examples/fallback-basics did not fall back as expected: ${exampleOut}`);
  }
  log(`examples/fallback-basics: ${exampleOut}`);

  // the README program, against the emulator's bin, with the README's script
  fs.writeFileSync(path.join(consumer, 'script.json5'), emulatorScriptAfter(runnerReadme, readmeHeading));
  const readmeEmulator = startProcess('readme-emulator', path.join(consumer, 'node_modules', '.bin', 'understudy-emulator'), ['--port', '0', '--script', 'script.json5'], { cwd: consumer, env: consumerEnv, captureStdout: true });
  const readmeUpstream = await readyUrl(readmeEmulator, 'understudy-emulator');
  const readmeOut = runStep(process.execPath, ['dist/readme-fallback.js'], {
    cwd: consumer,
    env: { ...consumerEnv, OPENAI_BASE_URL: `${readmeUpstream}/v1`, ANTHROPIC_BASE_URL: readmeUpstream, OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'sk-ant-test' },
    timeoutMs: 60_000,
  }).trim();
  await stopProcess(readmeEmulator);
  if (!readmeOut.includes('fallback: rate_limit')) throw new RehearsalError(`the fallback-runner README program did not fall back: ${readmeOut}`);
  log(`fallback-runner README program: ${readmeOut}`);

  // 4. the CLI, installed globally into a temporary PNPM_HOME
  const pnpmHome = path.join(work, 'pnpm-home');
  const cliEnv = { ...consumerEnv, PNPM_HOME: pnpmHome, PATH: `${path.join(pnpmHome, 'bin')}${path.delimiter}${process.env.PATH}`, UNDERSTUDY_STATE_DIR: path.join(work, 'state') };
  const cliVersion = versionOf.get('@understudy/cli');
  runStep('pnpm', ['add', '--global', '--store-dir', storeDir, '--allow-build=better-sqlite3', `@understudy/cli@${cliVersion}`], { cwd: work, env: cliEnv, timeoutMs: 240_000 });
  const understudy = path.join(pnpmHome, 'bin', 'understudy');
  if (!fs.existsSync(understudy)) throw new RehearsalError(`pnpm add --global installed no ${understudy}`);
  log(`installed @understudy/cli@${cliVersion} globally into ${pnpmHome}`);

  const printed = runStep(understudy, ['--version'], { env: cliEnv, timeoutMs: 30_000 }).trim();
  if (printed !== cliVersion) throw new RehearsalError(`understudy --version printed "${printed}", expected ${cliVersion}`);
  log(`understudy --version: ${printed}`);

  const verdict = runStep(understudy, ['classify'], {
    env: cliEnv,
    input: `${JSON.stringify({ provider: 'openai', status: 429, headers: { 'retry-after': '20' }, body: 'Rate limit reached' })}\n`,
    timeoutMs: 30_000,
  }).trim();
  if (JSON.parse(verdict).reason !== 'rate_limit') throw new RehearsalError(`understudy classify: unexpected verdict ${verdict}`);
  log(`understudy classify: ${verdict}`);

  const upstreamScript = { routes: [{ name: 'primary is rate limited', match: { model: 'gpt-4o-mini' }, steps: [{ status: 429, body: 'Rate limit reached' }] }] };
  writeJson(path.join(work, 'gateway-emulator.json'), upstreamScript);
  const emulator = startProcess('gateway-emulator', path.join(consumer, 'node_modules', '.bin', 'understudy-emulator'), ['--port', '0', '--script', path.join(work, 'gateway-emulator.json')], { cwd: consumer, env: consumerEnv, captureStdout: true });
  const upstream = await readyUrl(emulator, 'understudy-emulator');
  const configFile = path.join(work, 'understudy.json');
  writeJson(configFile, {
    models: {
      providers: {
        openai: { baseUrl: `${upstream}/v1`, api: 'openai-completions', apiKey: 'sk-rehearsal-openai' },
        anthropic: { baseUrl: upstream, api: 'anthropic-messages', apiKey: 'sk-ant-rehearsal' },
      },
    },
    agents: { defaults: { model: { primary: 'openai/gpt-4o-mini', fallbacks: ['anthropic/claude-sonnet-4-5'] } } },
  });
  const gateway = startProcess('gateway', understudy, ['gateway', '--config', configFile, '--port', '0'], { env: cliEnv, captureStdout: true });
  const gatewayUrl = await readyUrl(gateway, 'understudy gateway');
  log(`understudy gateway --config ${configFile}: listening at ${gatewayUrl}`);
  const response = await fetchOnce(`${gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-understudy-session': 'rehearsal' },
    body: JSON.stringify({ model: 'default', messages: [{ role: 'user', content: 'Hello from the rehearsal' }] }),
    signal: AbortSignal.timeout(60_000),
  });
  const body = await response.json();
  const answered = response.headers.get('x-understudy-model');
  const reason = response.headers.get('x-understudy-fallback');
  if (response.status !== 200 || answered !== 'anthropic/claude-sonnet-4-5' || reason !== 'rate_limit') {
    throw new RehearsalError(`the chat request through the gateway: HTTP ${response.status}, x-understudy-model ${answered}, x-understudy-fallback ${reason}: ${JSON.stringify(body)}`);
  }
  log(`POST /v1/chat/completions through it: HTTP 200, x-understudy-model ${answered}, x-understudy-fallback ${reason}, reply ${JSON.stringify(body.choices?.[0]?.message?.content)}`);
  const gatewayExit = await stopProcess(gateway);
  await stopProcess(emulator);
  if (gatewayExit !== 0) throw new RehearsalError(`understudy gateway exited ${gatewayExit} after SIGTERM (expected 0):\n${tail(readLog(gateway.logFile))}`);
  log('understudy gateway stopped on SIGTERM with exit 0');
  await stopProcess(verdaccio);
}

const overall = setTimeout(() => {
  console.error(`[rehearsal] gave up after ${overallTimeoutMs} ms`);
  for (const child of children) child.kill('SIGKILL');
  process.exit(1);
}, overallTimeoutMs);

try {
  await rehearse();
  console.log(`release rehearsal: passed in ${elapsed()}`);
} catch (error) {
  process.exitCode = 1;
  console.error(`release rehearsal FAILED after ${elapsed()}: ${error instanceof RehearsalError ? error.message : error.stack}`);
  console.error(`logs: ${work}`);
} finally {
  clearTimeout(overall);
  for (const child of children) child.kill('SIGKILL');
  if (process.env.KEEP_REHEARSAL !== '1' && process.exitCode !== 1) fs.rmSync(work, { recursive: true, force: true });
}
