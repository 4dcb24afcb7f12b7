/**
 * Properties of the runner's conduct under faults, over random request timings, windows and outcomes
 * (docs/policy.md#retries-probes-and-rotation, docs/policy.md#what-each-reason-does):
 * - while the primary cools down, it gets at most one call per probe throttle window, and a recovered primary
 *   answers again within one throttle window (plus the gap to the next request) of its recovery;
 * - over a whole outage (ends of cooldowns and concurrent requests included), after the first requests' retry
 *   budget, the primary's calls are one throttle window apart;
 * - a cooldown the provider named (Retry-After) is never probed before the near-expiry margin;
 * - a context overflow is never resent to a model whose declared window is not larger.
 */
import type { AttemptFunction, Candidate } from '@understudy/contracts';
import { Secret } from '@understudy/contracts';
import { parseConfig } from '@understudy/config';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runWithModelFallback } from './index.js';
import { FakeClock, MemoryAuthStore, seededRandom } from './testing/index.js';

const NOW = 50_000_000;
const THROTTLE_MS = 30_000;
const NEAR_EXPIRY_MS = 120_000;

function twoProviders(config: Parameters<typeof parseConfig>[0]) {
  const store = new MemoryAuthStore();
  for (const id of ['openai:a', 'anthropic:a']) store.addProfile(id, { type: 'api_key', provider: id.slice(0, id.indexOf(':')), key: new Secret(`sk-${id}`) });
  return { config: parseConfig(config), store, clock: new FakeClock(NOW) };
}

const chainConfig = { agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['anthropic/claude-x'] } } } };

/** An attempt function where `openai` fails with 503 until `recoversAtMs`, and everything else answers. */
function outage(clock: FakeClock, recoversAtMs: number): AttemptFunction<string> & { readonly primaryCalls: { atMs: number; ok: boolean }[] } {
  const primaryCalls: { atMs: number; ok: boolean }[] = [];
  const attempt: AttemptFunction<string> = async (candidate: Candidate) => {
    await Promise.resolve();
    clock.advance(5);
    if (candidate.provider !== 'openai') return { ok: true, value: 'fallback' };
    const ok = clock.nowMs() >= recoversAtMs;
    primaryCalls.push({ atMs: clock.nowMs(), ok });
    return ok ? { ok: true, value: 'primary' } : { ok: false, failure: { status: 503, body: 'service unavailable' } };
  };
  return Object.assign(attempt, { primaryCalls });
}

describe('conduct properties', () => {
  it('a cooling primary gets at most one call per throttle window, and is back within one window of recovering', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 500, max: 12_000 }), { minLength: 5, maxLength: 40 }),
        fc.integer({ min: 0, max: 200_000 }),
        fc.integer({ min: 1, max: 3 }),
        async (gaps, recoversAfterMs, errorCount) => {
          const { config, store, clock } = twoProviders(chainConfig);
          const coolUntil = NOW + 300_000;
          store.setUsageStats('openai:a', { cooldownUntil: coolUntil, cooldownReason: 'overloaded', errorCount, failureCounts: { overloaded: errorCount }, lastFailureAt: NOW });
          const attempt = outage(clock, NOW + recoversAfterMs);
          const random = seededRandom(1);
          let answeredByPrimaryAt: number | undefined;
          for (const gap of gaps) {
            clock.advance(gap);
            if (clock.nowMs() >= coolUntil) break;
            const result = await runWithModelFallback({ request: { agentId: 'main' }, config, store, attempt, clock, random });
            if (result.candidate.provider === 'openai' && answeredByPrimaryAt === undefined) answeredByPrimaryAt = clock.nowMs();
          }
          const whileCooling = attempt.primaryCalls.filter((call, index) => index === 0 || attempt.primaryCalls[index - 1]?.ok !== true);
          for (let index = 1; index < whileCooling.length; index += 1) {
            expect((whileCooling[index]?.atMs ?? 0) - (whileCooling[index - 1]?.atMs ?? 0)).toBeGreaterThanOrEqual(THROTTLE_MS - 5);
          }
          const recoveredAt = NOW + recoversAfterMs;
          const lastRequestAt = NOW + gaps.reduce((sum, gap) => sum + gap, 0);
          if (answeredByPrimaryAt === undefined) {
            // Only allowed when the requests stopped before a throttle window (and the gap to a request) had passed.
            expect(Math.min(lastRequestAt, coolUntil) - recoveredAt).toBeLessThan(THROTTLE_MS + 12_000 + 20);
          } else {
            expect(answeredByPrimaryAt - recoveredAt).toBeLessThan(THROTTLE_MS + 12_000 + 20);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('over a whole outage, ends of cooldowns and concurrent bursts included, the primary gets one call per throttle window after the first failing requests', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 200, max: 45_000 }), fc.integer({ min: 1, max: 4 })), { minLength: 5, maxLength: 60 }),
        fc.integer({ min: 10_000, max: 600_000 }),
        async (arrivals, outageMs) => {
          const { config, store, clock } = twoProviders(chainConfig);
          const attempt = outage(clock, NOW + outageMs);
          const random = seededRandom(4);
          for (const [gap, together] of arrivals) {
            clock.advance(gap);
            await Promise.all(Array.from({ length: together }, () => runWithModelFallback({ request: { agentId: 'main' }, config, store, attempt, clock, random })));
          }
          const failing = attempt.primaryCalls.filter((call) => !call.ok);
          const first = failing[0];
          if (first === undefined) return;
          // The first requests to meet the outage spend at most their retry budget (backoff ≤ 1.75 s with the defaults);
          // from the failure that opened the cooldown on, calls are one throttle window apart.
          const later = failing.filter((call) => call.atMs > first.atMs + 5_000);
          const opening = failing.filter((call) => call.atMs <= first.atMs + 5_000).at(-1);
          const spaced = opening === undefined ? later : [opening, ...later];
          for (let index = 1; index < spaced.length; index += 1) {
            expect((spaced[index]?.atMs ?? 0) - (spaced[index - 1]?.atMs ?? 0)).toBeGreaterThanOrEqual(THROTTLE_MS - 10);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('a window the provider named is never probed before the near-expiry margin', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: NEAR_EXPIRY_MS + 1_000, max: 900_000 }),
        fc.array(fc.integer({ min: 200, max: 20_000 }), { minLength: 3, maxLength: 30 }),
        fc.constantFrom('rate_limit' as const, 'overloaded' as const),
        async (windowMs, gaps, reason) => {
          const { config, store, clock } = twoProviders(chainConfig);
          const until = NOW + windowMs;
          store.setUsageStats('openai:a', { cooldownUntil: until, cooldownReason: reason, cooldownNamed: true, errorCount: 1, failureCounts: { [reason]: 1 }, lastFailureAt: NOW });
          const attempt = outage(clock, Number.POSITIVE_INFINITY);
          const random = seededRandom(2);
          for (const gap of gaps) {
            clock.advance(gap);
            if (clock.nowMs() >= until) break;
            await runWithModelFallback({ request: { agentId: 'main' }, config, store, attempt, clock, random });
          }
          for (const call of attempt.primaryCalls) expect(call.atMs).toBeGreaterThanOrEqual(until - NEAR_EXPIRY_MS);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a context overflow is never resent to a model whose declared window is not larger', async () => {
    const windows = fc.option(fc.constantFrom(4_000, 8_000, 32_000, 128_000, 200_000), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(windows, fc.boolean()), { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(windows, fc.boolean()), { minLength: 0, maxLength: 2 }),
        async (chainSpec, extraSpec) => {
          const all = [...chainSpec, ...extraSpec];
          const models = all.map(([window], index) => (window === undefined ? `m${String(index)}` : { id: `m${String(index)}`, contextWindow: window }));
          const refs = all.map((_, index) => `openai/m${String(index)}`);
          const store = new MemoryAuthStore();
          store.addProfile('openai:a', { type: 'api_key', provider: 'openai', key: new Secret('sk-openai') });
          const config = parseConfig({
            models: { providers: { openai: { baseUrl: 'http://127.0.0.1:9/v1', api: 'openai-completions', models } } },
            agents: { defaults: { model: { primary: refs[0] ?? 'openai/m0', fallbacks: refs.slice(1, chainSpec.length), contextFallbacks: refs.slice(chainSpec.length) } } },
          });
          const clock = new FakeClock(NOW);
          const called: string[] = [];
          const attempt: AttemptFunction<string> = async (candidate) => {
            await Promise.resolve();
            called.push(candidate.model);
            const index = Number(candidate.model.slice(1));
            return all[index]?.[1] === true
              ? { ok: false, failure: { status: 400, body: '{"error":{"code":"context_length_exceeded","message":"maximum context length exceeded"}}' } }
              : { ok: true, value: candidate.model };
          };
          try {
            await runWithModelFallback({ request: { agentId: 'main' }, config, store, attempt, clock, random: seededRandom(3) });
          } catch {
            // The turn may end (no larger window left); the calls made are what the property is about.
          }
          expect(new Set(called).size).toBe(called.length);
          let floor: number | undefined;
          for (const model of called) {
            const window = all[Number(model.slice(1))]?.[0];
            if (floor !== undefined) {
              expect(window).toBeDefined();
              expect(window ?? 0).toBeGreaterThan(floor);
            }
            if (all[Number(model.slice(1))]?.[1] === true) floor = Math.max(floor ?? 0, window ?? 0);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
