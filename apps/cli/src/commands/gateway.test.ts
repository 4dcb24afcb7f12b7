import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../main.js';
import { GATEWAY_ENTRY_ENV, gatewayArguments, gatewayEntry } from './gateway.js';

function io(env: Record<string, string | undefined>) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let err = '';
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return { io: { stdin: new PassThrough(), stdout, stderr, env }, stderr: () => err };
}

describe('understudy gateway', () => {
  it('finds the gateway through its package dependency: the bin of @understudy/gateway (apps never import apps)', () => {
    const gatewayDir = fs.realpathSync(path.resolve(import.meta.dirname, '../../node_modules/@understudy/gateway'));
    const manifest = JSON.parse(fs.readFileSync(path.join(gatewayDir, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(fs.realpathSync(path.dirname(gatewayEntry({})))).toBe(fs.realpathSync(path.dirname(path.resolve(gatewayDir, manifest.bin['understudy-gateway'] ?? ''))));
    expect(path.basename(gatewayEntry({}))).toBe('main.js');
    expect(gatewayEntry({ [GATEWAY_ENTRY_ENV]: '/x/main.js' })).toBe('/x/main.js');
  });

  it('passes --config, --host and --port through to the gateway, in that order', () => {
    expect(gatewayArguments({ config: 'a.json5', host: '0.0.0.0', port: '0' })).toEqual(['--config', 'a.json5', '--host', '0.0.0.0', '--port', '0']);
    expect(gatewayArguments({})).toEqual([]);
  });

  it('runs the entry as a child process with the flags and returns its exit code', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-cli-gateway-'));
    const entry = path.join(dir, 'fake-gateway.mjs');
    const record = path.join(dir, 'args.json');
    fs.writeFileSync(entry, `import fs from 'node:fs'; fs.writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2))); process.exit(3);`);
    const { io: cliIo } = io({ ...process.env, [GATEWAY_ENTRY_ENV]: entry });
    try {
      const code = await runCli(['gateway', '--config', 'c.json5', '--port', '0'], cliIo);
      expect(code).toBe(3);
      expect(JSON.parse(fs.readFileSync(record, 'utf8'))).toEqual(['--config', 'c.json5', '--port', '0']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says how to build the gateway when its entry is missing', async () => {
    const { io: cliIo, stderr } = io({ [GATEWAY_ENTRY_ENV]: '/nonexistent/understudy/main.js' });
    const code = await runCli(['gateway'], cliIo);
    expect(code).toBe(1);
    expect(stderr()).toContain('pnpm build');
  });
});

describe('understudy --version', () => {
  it('prints the version of the CLI package', async () => {
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await runCli(['--version'], { stdin: new PassThrough(), stdout, stderr: new PassThrough(), env: {} });
    const manifest = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };
    expect(code).toBe(0);
    expect(out.trim()).toBe(manifest.version);
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});
