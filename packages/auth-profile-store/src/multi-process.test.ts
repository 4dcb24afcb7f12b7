import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAuthProfileStore, statePathsUnder } from './index.js';
import { buildChildScript } from './test-support/build-child.js';
import { makeTempStateRoot, removeTempStateRoot } from './test-support/temp-state.js';

let childScript: string;
const roots: string[] = [];
/** Every child spawned, so a test that fails or times out never leaves a writer looping on its own. */
const children: ChildProcess[] = [];

beforeAll(async () => {
  childScript = await buildChildScript(path.join(import.meta.dirname, 'test-support', 'mark-failures-child.ts'));
}, 60_000);

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const root of roots) removeTempStateRoot(root);
});

function freshRoot(): string {
  const root = makeTempStateRoot('understudy-multi-');
  roots.push(root);
  return root;
}

/** Runs one child to completion; resolves with its exit code and output. */
function runChild(root: string, profileId: string, count: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childScript, root, profileId, String(count)], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('several processes marking one profile (no lost update)', () => {
  it('4 processes x 500 failure marks end with exactly 2000 errors, on a store none of them had created', async () => {
    const root = freshRoot();
    const results = await Promise.all([0, 1, 2, 3].map(() => runChild(root, 'openai:shared', 500)));
    for (const result of results) {
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    }
    const store = await openAuthProfileStore({ stateDir: root, agentId: 'main' });
    const stats = await store.getUsageStats('openai:shared');
    await store.close();
    expect(stats.errorCount).toBe(2000);
    expect(stats.failureCounts).toEqual({ rate_limit: 2000 });
  }, 60_000);
});

describe('a writer killed with SIGKILL mid-loop', () => {
  it('leaves a database that passes integrity_check and keeps every committed mark', async () => {
    const root = freshRoot();
    const child = spawn(process.execPath, [childScript, root, 'openai:victim', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    // The child prints a mark's number only after its transaction committed (stdout to a pipe is synchronous
    // on Linux), so the last number read before EOF is a lower bound of what must be in the database.
    const lastPrinted = await new Promise<number>((resolve, reject) => {
      let buffered = '';
      let stderr = '';
      let last = 0;
      let ready = false;
      // Past this, say where the child stood instead of meeting the test's timeout with no word (it once did in CI).
      const stuck = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the child did not reach 100 marks in 45 s: ready ${String(ready)}, last mark ${last}, killed ${String(child.killed)}, stderr: ${stderr.slice(-500)}`));
      }, 45_000);
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) {
          if (line === 'ready') ready = true;
          else if (/^\d+$/.test(line)) last = Number(line);
        }
        if (last >= 100 && !child.killed) child.kill('SIGKILL');
      });
      child.on('error', reject);
      child.on('close', (code, signal) => {
        clearTimeout(stuck);
        if (signal === 'SIGKILL') resolve(last);
        else reject(new Error(`child ended before it was killed (code ${String(code)}, stderr: ${stderr.slice(-500)})`));
      });
    });
    expect(lastPrinted).toBeGreaterThanOrEqual(100);

    const databasePath = statePathsUnder(root, 'main').databasePath;
    const raw = new Database(databasePath);
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    raw.close();
    const store = await openAuthProfileStore({ stateDir: root, agentId: 'main' });
    const stats = await store.getUsageStats('openai:victim');
    await store.close();
    // Every printed mark was committed and kept. More may have committed whose numbers had not reached us yet
    // when the kill landed (on a loaded machine the reader lags the writer), so there is no upper bound; the
    // count and the last mark's timestamp must still agree, which a torn write would break.
    expect(stats.errorCount).toBeGreaterThanOrEqual(lastPrinted);
    expect(stats.lastFailureAt).toBe(stats.errorCount);
  }, 60_000);
});
