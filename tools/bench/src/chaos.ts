#!/usr/bin/env node
/**
 * `pnpm chaos [--requests N] [--concurrency C] [--out FILE]`: N chat requests (half streamed) at concurrency C
 * against a real gateway whose primary provider is a provider emulator injecting a fault mix (overloads, 500s,
 * rate limits with Retry-After, connection resets, streams cut or stalled after their first chunk, slow first
 * tokens), played round again for the whole run (`chaos-script.ts`), and whose fallback is a healthy emulator
 * route. It prints and writes to `bench/results/chaos.json`:
 *
 * - `answered`: whole answers and streams that ended with their end marker;
 * - `explicitStreamErrors`: streams that ended with an error event (a failure after output: allowed, visible);
 * - `silentTruncations`: streams that ended without an end marker or an error event, and 200 bodies that are
 *   not a complete answer (must be 0);
 * - `failed`: answers with an error status (with a healthy fallback: should be 0);
 * - `probes` and `probesBeyondAllowed`: attempts into a cooling profile the gateway counted (`/metrics`,
 *   kind `probe`) against what the probe throttle allows for the run's length (one per provider per 30 s);
 * - `rssMiB`: the gateway's resident memory after warm-up, at the end and at its peak.
 *
 * The processes come from the bench's helpers (`processes.ts`, `understudy-gateway.ts`) and the emulator is
 * `tools/provider-emulator`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ServerProcess } from './processes.js';
import { rssMiB, sampleRss, spawnServer } from './processes.js';
import { chaosScript } from './chaos-script.js';
import { findRepoRoot } from './repo-root.js';
import { startUnderstudy } from './understudy-gateway.js';

/** The probe throttle of the gateway's default policy, ms (docs/policy.md#retries-probes-and-rotation). */
const PROBE_THROTTLE_MS = 30_000;

/** What one request came back as. */
type Outcome = 'answered' | 'explicit_stream_error' | 'silent_truncation' | 'failed';

interface ChaosFigures {
  readonly requests: number;
  readonly concurrency: number;
  readonly seconds: number;
  readonly answered: number;
  readonly explicitStreamErrors: number;
  readonly silentTruncations: number;
  readonly failed: number;
  readonly failedStatuses: Readonly<Record<string, number>>;
  readonly upstreamCalls: { readonly primary: number; readonly fallback: number };
  readonly probes: number;
  readonly probesAllowed: number;
  readonly probesBeyondAllowed: number;
  readonly rssMiB: { readonly afterWarmup: number | null; readonly end: number | null; readonly peak: number };
}

/** Reads one answer to the end and says what it was. */
async function classify(response: Response, stream: boolean): Promise<Outcome> {
  const text = await response.text().catch(() => undefined);
  if (text === undefined) return stream && response.ok ? 'silent_truncation' : 'failed';
  if (!response.ok) return 'failed';
  if (!stream) {
    try {
      const body = JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] };
      return typeof body.choices?.[0]?.message?.content === 'string' ? 'answered' : 'silent_truncation';
    } catch {
      return 'silent_truncation';
    }
  }
  const events = text.split('\n\n').filter((event) => event.includes('data: '));
  const last = events[events.length - 1] ?? '';
  if (last.includes('data: [DONE]')) return 'answered';
  if (events.some((event) => event.includes('"error"'))) return 'explicit_stream_error';
  return 'silent_truncation';
}

async function metricValue(url: string, name: string, labels: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}{`) && labels.split(',').every((label) => line.includes(label))) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { requests: { type: 'string', default: '5000' }, concurrency: { type: 'string', default: '32' }, out: { type: 'string' } },
    strict: true,
  });
  const total = Number(values.requests);
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(total) || total < 1 || !Number.isInteger(concurrency) || concurrency < 1) {
    throw new Error('--requests and --concurrency: expected whole numbers of at least 1');
  }
  const repoRoot = findRepoRoot();
  const out = values.out === undefined ? path.join(repoRoot, 'bench/results/chaos.json') : path.resolve(values.out);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-chaos-'));
  const scriptFile = path.join(dir, 'script.json');
  fs.writeFileSync(scriptFile, JSON.stringify(chaosScript(total)));
  const servers: ServerProcess[] = [];
  try {
    const emulator = await spawnServer({
      name: 'emulator',
      command: process.execPath,
      args: [path.join(repoRoot, 'tools/provider-emulator/dist/main.js'), '--port', '0', '--script', scriptFile],
      logFile: path.join(dir, 'emulator.log'),
      ready: { kind: 'url-line' },
    });
    servers.push(emulator);
    const gateway = await startUnderstudy({
      name: 'understudy',
      repoRoot,
      dir,
      config: {
        models: {
          providers: {
            flaky: { baseUrl: `${emulator.url}/v1`, api: 'openai-completions', apiKey: 'sk-chaos-flaky-1111', models: ['flaky-a'] },
            steady: { baseUrl: `${emulator.url}/v1`, api: 'openai-completions', apiKey: 'sk-chaos-steady-2222', models: ['steady-a'] },
          },
          timeouts: { connectMs: 2000, headersMs: 2000, firstTokenMs: 1000, stallMs: 1000, requestMs: 10_000 },
        },
        agents: { defaults: { model: { primary: 'flaky/flaky-a', fallbacks: ['steady/steady-a'] } } },
        retry: { provider: { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 50 } },
        gateway: { port: 0, logLevel: 'warn', auth: { adminToken: 'chaos-admin-token' } },
      },
    });
    servers.push(gateway);

    const counts: Record<Outcome, number> = { answered: 0, explicit_stream_error: 0, silent_truncation: 0, failed: 0 };
    const failedStatuses: Record<string, number> = {};
    let next = 0;
    let afterWarmup: number | null = null;
    const rss = sampleRss(gateway.pid);
    const started = Date.now();
    const worker = async (): Promise<void> => {
      for (let index = next++; index < total; index = next++) {
        const stream = index % 2 === 1;
        let outcome: Outcome;
        try {
          const response = await fetch(`${gateway.url}/v1/chat/completions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ model: 'default', stream, messages: [{ role: 'user', content: `chaos ${index}` }] }),
          });
          outcome = await classify(response, stream);
          if (outcome === 'failed') failedStatuses[String(response.status)] = (failedStatuses[String(response.status)] ?? 0) + 1;
        } catch {
          outcome = 'failed';
          failedStatuses['connection'] = (failedStatuses['connection'] ?? 0) + 1;
        }
        counts[outcome] += 1;
        if (index === Math.min(total - 1, 500)) afterWarmup = rssMiB(gateway.pid) ?? null;
        if (index > 0 && index % 1000 === 0) process.stderr.write(`chaos: ${index}/${total}\n`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, () => worker()));
    const seconds = (Date.now() - started) / 1000;
    const peak = rss.stop();
    const probes = await metricValue(gateway.url, 'understudy_attempts_total', 'provider="flaky",kind="probe"');
    const primary = await metricValue(gateway.url, 'understudy_attempts_total', 'provider="flaky",kind="call"');
    const fallback = await metricValue(gateway.url, 'understudy_attempts_total', 'provider="steady",kind="call"');
    const probesAllowed = Math.ceil((seconds * 1000) / PROBE_THROTTLE_MS) + 1;
    const figures: ChaosFigures = {
      requests: total,
      concurrency,
      seconds: Math.round(seconds * 10) / 10,
      answered: counts.answered,
      explicitStreamErrors: counts.explicit_stream_error,
      silentTruncations: counts.silent_truncation,
      failed: counts.failed,
      failedStatuses,
      upstreamCalls: { primary: primary + probes, fallback },
      probes,
      probesAllowed,
      probesBeyondAllowed: Math.max(0, probes - probesAllowed),
      rssMiB: {
        afterWarmup: afterWarmup === null ? null : Math.round(afterWarmup * 10) / 10,
        end: (() => {
          const end = rssMiB(gateway.pid);
          return end === undefined ? null : Math.round(end * 10) / 10;
        })(),
        peak: Math.round(peak * 10) / 10,
      },
    };
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${JSON.stringify({ machine: { cpus: os.cpus().length, node: process.version }, at: new Date().toISOString(), figures }, null, 2)}\n`);
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\nwritten to ${path.relative(repoRoot, out)}\n`);
  } finally {
    for (const server of servers.reverse()) await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`chaos: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
