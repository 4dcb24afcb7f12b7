/**
 * Reading a process's memory and CPU time (shape only), and a server that never becomes ready failing with its
 * log's tail instead of hanging.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BenchError } from './errors.js';
import { cpuTimeMs, freePort, rssMiB, spawnServer } from './processes.js';

describe('process readings', () => {
  it('reads this process: RSS in MiB and CPU time in ms, both positive', () => {
    expect(rssMiB(process.pid)).toBeGreaterThan(1);
    expect(cpuTimeMs(process.pid)).toBeGreaterThan(0);
  });

  it('gives undefined for a process that does not exist', () => {
    expect(rssMiB(2 ** 22 + 12345)).toBeUndefined();
    expect(cpuTimeMs(2 ** 22 + 12345)).toBeUndefined();
  });

  it('finds a free loopback port', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    expect(port).toBeLessThan(65536);
  });
});

describe('spawnServer', () => {
  it('reports a server that exits before it is ready as server_failed with its output', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-bench-spawn-'));
    try {
      let caught: unknown;
      try {
        await spawnServer({
          name: 'broken',
          command: process.execPath,
          args: ['-e', 'console.error("cannot bind: port taken"); process.exit(3)'],
          logFile: path.join(dir, 'broken.log'),
          ready: { kind: 'url-line' },
          timeoutMs: 5000,
        });
      } catch (error) {
        caught = error;
      }
      expect(BenchError.isInstance(caught) && caught.code === 'server_failed').toBe(true);
      expect((caught as Error).message).toMatch(/broken did not start: exited with 3[\s\S]*cannot bind: port taken/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('returns the URL a server prints as a JSON line', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-bench-spawn-'));
    try {
      const server = await spawnServer({
        name: 'printer',
        command: process.execPath,
        args: ['-e', 'console.log(JSON.stringify({ url: "http://127.0.0.1:1" })); setInterval(() => {}, 1000)'],
        logFile: path.join(dir, 'printer.log'),
        ready: { kind: 'url-line' },
      });
      expect(server.url).toBe('http://127.0.0.1:1');
      await server.stop();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
