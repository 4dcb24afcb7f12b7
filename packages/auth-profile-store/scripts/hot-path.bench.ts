/**
 * Times the request-path calls of the store (the ones the gateway makes on every proxied request) on a temp
 * database holding four profiles of one provider plus an inline key, an order override, usage stats and a
 * session. Not a test: run it with `node scripts/run-hot-path-bench.mjs` (it bundles this file with Vite and
 * runs it under plain Node). Prints µs per call: the median and best round means, and p50/p99/max of single
 * timed calls.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Secret } from '@understudy/contracts';
import type { ProfileUsageStats } from '@understudy/contracts';
import { openAuthProfileStore } from '../src/index.js';

const CALLS = Number(process.env['BENCH_CALLS'] ?? 3000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 7);

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-bench-'));
const store = await openAuthProfileStore({
  stateDir: root,
  agentId: 'main',
  inlineProfiles: [{ provider: 'openai', key: new Secret('sk-bench-inline') }],
});

await store.upsertProfile({ id: 'a', credential: { type: 'api_key', provider: 'openai', key: new Secret('sk-bench-a') } });
await store.upsertProfile({ id: 'b', credential: { type: 'token', provider: 'openai', token: new Secret('tok-bench-b'), expires: 9e12 } });
await store.upsertProfile({
  credential: { type: 'oauth', provider: 'openai', access: new Secret('at-bench'), refresh: new Secret('rt-bench'), expires: 9e12, email: 'ada@example.com' },
});
await store.upsertProfile({ id: 'd', credential: { type: 'api_key', provider: 'openai', key: new Secret('sk-bench-d') } });
await store.upsertProfile({ id: 'x', credential: { type: 'api_key', provider: 'anthropic', key: new Secret('sk-bench-x') } });
await store.setOrderOverride('openai', ['d', 'a', 'b', 'openai:ada@example.com']);
const now = Date.now();
for (const id of ['openai:a', 'openai:b', 'openai:ada@example.com', 'openai:d', 'openai:inline', 'anthropic:x']) {
  await store.updateUsageStats(id, () => ({
    lastUsed: now,
    errorCount: 2,
    failureCounts: { rate_limit: 2, timeout: 1 },
    cooldownUntil: now - 1000,
    cooldownReason: 'rate_limit',
    lastFailureAt: now - 60_000,
  }));
}
await store.writeSession('bench', null, { modelOverride: 'gpt-x', providerOverride: 'openai', modelOverrideSource: 'user', compactionCount: 1 }, now);

const markSuccess = (stats: ProfileUsageStats): ProfileUsageStats => ({ ...stats, lastUsed: Date.now(), errorCount: 0 });

let revision = (await store.getSession('bench'))?.revision ?? 0;
let probeClock = 0;
const cases: Record<string, () => Promise<unknown>> = {
  getSession: () => store.getSession('bench'),
  loadProviderAuthState: () => store.loadProviderAuthState('openai'),
  resolveCredential: () => store.resolveCredential('openai:ada@example.com'),
  updateUsageStats: () => store.updateUsageStats('openai:a', markSuccess),
  writeSession: async () => {
    const result = await store.writeSession('bench', revision, { compactionCount: revision }, Date.now());
    if (!result.ok) throw new Error('bench session write lost its revision');
    revision = result.entry.revision;
  },
  tryAcquireProbe: () => store.tryAcquireProbe('openai', (probeClock += 10), 15),
};

const rows: string[] = [];
for (const [name, call] of Object.entries(cases)) {
  for (let warm = 0; warm < 500; warm += 1) await call();
  const roundMeans: number[] = [];
  const single: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const start = process.hrtime.bigint();
    for (let index = 0; index < CALLS; index += 1) await call();
    roundMeans.push(Number(process.hrtime.bigint() - start) / 1000 / CALLS);
  }
  for (let index = 0; index < CALLS; index += 1) {
    const start = process.hrtime.bigint();
    await call();
    single.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  roundMeans.sort((x, y) => x - y);
  single.sort((x, y) => x - y);
  const at = (values: readonly number[], share: number): string => (values[Math.min(values.length - 1, Math.floor(values.length * share))] ?? 0).toFixed(1).padStart(7);
  rows.push(`${name.padEnd(22)} mean ${at(roundMeans, 0.5)} µs (best round ${at(roundMeans, 0)})   one call: p50 ${at(single, 0.5)}  p99 ${at(single, 0.99)}  max ${at(single, 1)} µs`);
}
await store.close();
fs.rmSync(root, { recursive: true, force: true });
process.stdout.write(`${CALLS} calls x ${ROUNDS} rounds, then ${CALLS} timed calls, per method (node ${process.version})\n${rows.join('\n')}\n`);
