/**
 * Properties of the runner over random chains, profiles, initial usage stats and scripted outcomes:
 * - a user abort never reaches a second candidate (the model-failover doc "Does not continue on": explicit aborts);
 * - no profile is called while it is unavailable except as a counted probe (docs/policy.md#retries-probes-and-rotation);
 * - fallback never writes the session's model selection (the model-failover doc "Runtime fallback" is turn-local);
 * - every request is one attempt record (docs/contracts.md#simulate).
 */
import type { AttemptFunction, Candidate, ProfileUsageStats, ProviderFailure, ResolvedProfile } from '@understudy/contracts';
import { Secret } from '@understudy/contracts';
import { parseConfig } from '@understudy/config';
import { isProfileAvailable } from '@understudy/cooldown-scheduler';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FailoverError, runWithModelFallback } from './index.js';
import { FakeClock, MemoryAuthStore, seededRandom } from './testing/index.js';

const NOW = 10_000_000;
const PROVIDERS = ['p0', 'p1', 'p2'] as const;
const MODELS = ['m0', 'm1'] as const;

type Step = { readonly ok: true } | { readonly failure: ProviderFailure };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ ok: true }),
  ...[
    { status: 429 },
    { status: 503 },
    { status: 500 },
    { status: 401 },
    { status: 402 },
    { status: 400 },
    { status: 404, body: '{"error":{"code":"model_not_found","message":"no such model"}}' },
    { code: 'ECONNRESET', message: 'ECONNRESET' },
    { status: 503, headers: { 'retry-after': '120' } },
  ].map((failure) => fc.constant<Step>({ failure })),
);

const stats: fc.Arbitrary<ProfileUsageStats> = fc.oneof(
  { arbitrary: fc.constant<ProfileUsageStats>({}), weight: 1 },
  {
    weight: 3,
    arbitrary: fc.record({
    cooldownUntil: fc.integer({ min: NOW - 60_000, max: NOW + 300_000 }),
    cooldownReason: fc.constantFrom('rate_limit' as const, 'overloaded' as const, 'auth' as const, 'timeout' as const),
    cooldownModel: fc.option(fc.constantFrom(...MODELS), { nil: undefined }),
    errorCount: fc.integer({ min: 1, max: 3 }),
  }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      disabledUntil: fc.integer({ min: NOW - 60_000, max: NOW + 7_200_000 }),
      disabledReason: fc.constantFrom('billing' as const, 'auth_permanent' as const),
    }),
  },
);

const world = fc.record({
  chain: fc.uniqueArray(fc.tuple(fc.constantFrom(...PROVIDERS), fc.constantFrom(...MODELS)), {
    minLength: 1,
    maxLength: 4,
    selector: ([provider, model]) => `${provider}/${model}`,
  }),
  profileCounts: fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 2 })),
  initial: fc.array(stats, { minLength: 6, maxLength: 6 }),
  script: fc.array(step, { minLength: 0, maxLength: 24 }),
  seed: fc.integer(),
  /** Per provider: every profile cooling down for a transient reason, ending within this many ms (or not). */
  coolAll: fc.tuple(...PROVIDERS.map(() => fc.option(fc.integer({ min: 1, max: 150_000 }), { nil: undefined }))),
});

type WorldInput = typeof world extends fc.Arbitrary<infer T> ? T : never;

function setup(input: WorldInput) {
  const [first, ...rest] = input.chain.map(([provider, model]) => `${provider}/${model}`);
  const config = parseConfig({ agents: { defaults: { model: { primary: first ?? 'p0/m0', fallbacks: rest } } } });
  const store = new MemoryAuthStore();
  PROVIDERS.forEach((provider, providerIndex) => {
    for (let index = 0; index < (input.profileCounts[providerIndex] ?? 0); index += 1) {
      const id = `${provider}:k${index}`;
      store.addProfile(id, { type: 'api_key', provider, key: new Secret(`key-${id}`) });
      const coolFor = input.coolAll[providerIndex];
      store.setUsageStats(
        id,
        coolFor === undefined
          ? (input.initial[providerIndex * 2 + index] ?? {})
          : { cooldownUntil: NOW + coolFor + index, cooldownReason: coolFor % 2 === 0 ? 'rate_limit' : 'overloaded', errorCount: 1 },
      );
    }
  });
  return { config, store, clock: new FakeClock(NOW), random: seededRandom(input.seed) };
}

/** A scripted attempt that also reports, per call, whether the profile was available at call time. */
function observedAttempt(
  script: readonly Step[],
  store: MemoryAuthStore,
  clock: FakeClock,
  onCall?: (index: number) => void,
): AttemptFunction<string> & { readonly calls: { readonly ref: string; readonly available: boolean }[] } {
  const calls: { ref: string; available: boolean }[] = [];
  const attempt = async (candidate: Candidate, profile: ResolvedProfile | null) => {
    const available = profile === null || isProfileAvailable(store.usageStats(profile.view.id), { nowMs: clock.nowMs(), model: candidate.model });
    calls.push({ ref: `${candidate.provider}/${candidate.model}`, available });
    onCall?.(calls.length - 1);
    const next = script[calls.length - 1] ?? { ok: true as const };
    clock.advance(7);
    return 'ok' in next ? { ok: true as const, value: 'answer' } : { ok: false as const, failure: next.failure };
  };
  return Object.assign(attempt, { calls });
}

async function settle<T>(run: Promise<T>): Promise<{ readonly result?: T; readonly error?: unknown }> {
  try {
    return { result: await run };
  } catch (error) {
    return { error };
  }
}

describe('runner properties', () => {
  it('a user abort (scripted abort failure) never reaches a second candidate or a second request', async () => {
    await fc.assert(
      fc.asyncProperty(world, fc.nat({ max: 8 }), async (input, abortAt) => {
        const { config, store, clock, random } = setup(input);
        const script: Step[] = [...input.script.slice(0, abortAt), { failure: { abortCause: 'user', message: 'aborted' } }, ...input.script.slice(abortAt)];
        const attempt = observedAttempt(script, store, clock);
        const outcome = await settle(runWithModelFallback({ request: { agentId: 'main', sessionKey: 's' }, config, store, attempt, clock, random }));
        if (attempt.calls.length <= abortAt) return; // answered (or ran out of candidates) before the abort
        expect(attempt.calls).toHaveLength(abortAt + 1);
        expect(FailoverError.isInstance(outcome.error) && outcome.error.reason === 'abort' && outcome.error.endedTurn).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it("the caller's signal aborted during a request: that request is the last one", async () => {
    await fc.assert(
      fc.asyncProperty(world, fc.nat({ max: 6 }), async (input, abortAt) => {
        const { config, store, clock, random } = setup(input);
        const controller = new AbortController();
        const attempt = observedAttempt(input.script, store, clock, (index) => {
          if (index === abortAt) controller.abort();
        });
        const outcome = await settle(
          runWithModelFallback({ request: { agentId: 'main', sessionKey: 's' }, config, store, attempt, clock, random, signal: controller.signal }),
        );
        if (!controller.signal.aborted) return;
        expect(attempt.calls).toHaveLength(abortAt + 1);
        if (outcome.error !== undefined) expect(FailoverError.isInstance(outcome.error) && outcome.error.reason === 'abort').toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('no profile is called while unavailable except as a probe, at most one such probe per candidate; every request is one record', async () => {
    await fc.assert(
      fc.asyncProperty(world, async (input) => {
        const { config, store, clock, random } = setup(input);
        const attempt = observedAttempt(input.script, store, clock);
        const outcome = await settle(runWithModelFallback({ request: { agentId: 'main', sessionKey: 's' }, config, store, attempt, clock, random }));
        const records = outcome.result?.attempts ?? (outcome.error as { attempts?: readonly { kind: string; provider: string; model: string }[] }).attempts ?? [];
        const requests = records.filter((record) => record.kind !== 'skip');
        expect(requests).toHaveLength(attempt.calls.length);
        requests.forEach((record, index) => {
          const call = attempt.calls[index];
          expect(`${record.provider}/${record.model}`).toBe(call?.ref);
          if (call?.available === false) expect(record.kind).toBe('probe');
        });
        // Probes of an unavailable profile: at most one per candidate. (A profile whose window ran out is available;
        // its first call is a probe of that profile alone, one per profile.)
        const probesPerCandidate = new Map<string, number>();
        for (const record of requests.filter((entry, index) => entry.kind === 'probe' && attempt.calls[index]?.available === false)) {
          const key = `${record.provider}/${record.model}`;
          probesPerCandidate.set(key, (probesPerCandidate.get(key) ?? 0) + 1);
        }
        for (const count of probesPerCandidate.values()) expect(count).toBe(1);
      }),
      { numRuns: 200 },
    );
  });

  it('a run never writes the model selection of the session', async () => {
    await fc.assert(
      fc.asyncProperty(world, async (input) => {
        const { config, store, clock, random } = setup(input);
        await settle(runWithModelFallback({ request: { agentId: 'main', sessionKey: 's' }, config, store, attempt: observedAttempt(input.script, store, clock), clock, random }));
        const entry = store.session('s');
        expect([entry?.modelOverride, entry?.providerOverride, entry?.modelOverrideSource]).toEqual([undefined, undefined, undefined]);
      }),
      { numRuns: 100 },
    );
  });
});
