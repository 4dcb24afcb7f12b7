/**
 * `pnpm demo` (the README's tour) as a newcomer runs it: the built `dist/demo.js` as its own process, against the
 * real emulator. It must tell its whole story — rotation, cooldown, fallback and recovery — and exit 0; a change
 * of the runner's conduct that breaks the story fails here, not in front of a newcomer.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const DEMO = path.resolve(import.meta.dirname, '../dist/demo.js');

it('pnpm demo shows a rotation, a cooldown, a fallback and a recovery, and exits 0', async () => {
  const child = spawn(process.execPath, [DEMO], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  expect({ code, stderr: stderr.slice(-2000), missing: stdout.includes('!!') ? stdout : '' }).toEqual({ code: 0, stderr: '', missing: '' });
  expect(stdout).toContain('1. Rotation');
  expect(stdout).toContain('4. Recovery');
  expect(stdout).toMatch(/4\. Recovery[\s\S]*answer {4}200 from openai\/gpt-demo/);
  expect(stdout).toContain('Done: rotation, cooldown, fallback and recovery, all on real HTTP.');
}, 60_000);
