/** The command line, as other projects use it: `node dist/main.js --port 0 --script FILE`. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const MAIN = path.resolve(import.meta.dirname, '../dist/main.js');
const DEMO = path.resolve(import.meta.dirname, '../examples/demo.json5');

interface Run {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
}

/** Starts the CLI; resolves with its first stdout line once it prints one (or with its exit when it fails). */
function start(args: string[]): Promise<{ firstLine: string | undefined; stop: () => Promise<Run> }> {
  const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  // 'close' (not 'exit') so that everything the process wrote has been read.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const stop = async (): Promise<Run> => {
    if (child.exitCode === null) child.kill('SIGTERM');
    const code = await exited;
    return { stdout, stderr, code };
  };
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return new Promise((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (stdout.includes('\n')) resolve({ firstLine: stdout.split('\n')[0], stop });
    });
    void exited.then(() => resolve({ firstLine: undefined, stop }));
  });
}

describe('emulator command line', () => {
  it('prints the bound URL as one JSON line, serves the script, and exits 0 on SIGTERM', async () => {
    const { firstLine, stop } = await start(['--port', '0', '--script', DEMO]);
    const { url } = JSON.parse(firstLine ?? '{}') as { url: string };
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
      body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(529);
    const run = await stop();
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${firstLine}\n`);
  });

  it('logs one line per request to stderr with --verbose, never the key', async () => {
    const { firstLine, stop } = await start(['--verbose']);
    const { url } = JSON.parse(firstLine ?? '{}') as { url: string };
    await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-cli-secret-4242' },
      body: JSON.stringify({ model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }] }),
    }).then((response) => response.text());
    const run = await stop();
    expect(run.stderr).toContain('POST /v1/chat/completions gpt-x key=…4242 -> ok');
    expect(run.stderr).not.toContain('sk-cli-secret');
  });

  it.each([
    [['--script', 'missing.json5'], /no such file missing\.json5/],
    [['--port', 'eighty'], /--port: expected 0 to 65535/],
    [['--bogus'], /Unknown option '--bogus'/],
  ])('exits 2 for %j', async (args, message) => {
    const { stop } = await start(args);
    const run = await stop();
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
  });

  it('exits 2 naming the bad field of a script', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'emulator-'));
    const file = path.join(dir, 'bad.json5');
    writeFileSync(file, '{ routes: [{ match: { api: "openai" }, steps: [{}] }] }');
    try {
      const run = await (await start(['--script', file])).stop();
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/routes\.0\.match\.api/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
