import { describe, expect, it } from 'vitest';
import type { AttemptRecord, FallbackDecisionEvent } from '@understudy/fallback-runner';
import { RecentOutcomes, STATS_WINDOW_MS } from './recent-outcomes.js';

function attempt(provider: string, ok: boolean, latencyMs: number, atMs: number, kind: AttemptRecord['kind'] = 'call'): AttemptRecord {
  return { provider, model: 'm', profile: `${provider}:a`, kind, ok, ...(ok ? {} : { reason: 'rate_limit' as const }), startedAtMs: atMs - latencyMs, atMs };
}

function decision(provider: string, atMs: number, overrides: Partial<FallbackDecisionEvent> = {}): FallbackDecisionEvent {
  return {
    event: 'model_fallback_decision',
    decision: 'candidate_failed',
    provider,
    model: 'm',
    profile: null,
    reason: 'rate_limit',
    candidateIndex: 0,
    candidateCount: 2,
    fallbackStepFinalOutcome: 'next_candidate',
    atMs,
    ...overrides,
  };
}

describe('RecentOutcomes', () => {
  it('gives per-provider success rate, nearest-rank p50/p95 and failovers of the last hour', () => {
    const recent = new RecentOutcomes();
    const now = 10 * STATS_WINDOW_MS;
    // 20 requests of 10, 20, …, 200 ms; the first 4 failed.
    recent.recordAttempts('main', Array.from({ length: 20 }, (_, index) => attempt('openai', index >= 4, (index + 1) * 10, now - 1000)));
    recent.recordAttempts('main', [attempt('openai', true, 5, now - STATS_WINDOW_MS - 1), attempt('openai', false, 0, now, 'skip')]);
    recent.recordDecision('main', decision('openai', now - 500));
    recent.recordDecision('main', decision('openai', now - 400, { fallbackStepFinalOutcome: 'exhausted' }));
    expect(recent.providerFigures(now)).toEqual([
      { provider: 'openai', attempts: 20, succeeded: 16, successRate: 0.8, p50Ms: 100, p95Ms: 190, failovers: 1 },
    ]);
  });

  it('keeps at most its capacity, newest first, and leaves first-try successes out of the decisions', () => {
    const recent = new RecentOutcomes({ attempts: 3, decisions: 2 });
    recent.recordAttempts(undefined, [1, 2, 3, 4, 5].map((ms) => attempt('a', true, ms, 1000)));
    expect(recent.providerFigures(1000)[0]).toMatchObject({ attempts: 3, p50Ms: 4, p95Ms: 5 });
    recent.recordDecision('main', decision('a', 1));
    recent.recordDecision('main', decision('a', 2));
    recent.recordDecision('main', decision('a', 3, { decision: 'candidate_succeeded', fallbackStepFinalOutcome: 'succeeded' }));
    recent.recordDecision('main', decision('b', 4, { decision: 'candidate_succeeded', fallbackStepFromModel: 'a/m', fallbackStepFinalOutcome: 'succeeded' }));
    expect(recent.decisions().map((event) => event.atMs)).toEqual([4, 2]);
    expect(recent.decisions()[0]).toMatchObject({ agent: 'main', provider: 'b' });
  });

  it('answers, per agent, the model of its last successful attempt', () => {
    const recent = new RecentOutcomes();
    recent.recordAttempts('main', [attempt('openai', true, 1, 10)]);
    recent.recordAttempts('main', [attempt('openai', false, 1, 20), attempt('backup', true, 1, 21)]);
    recent.recordAttempts(undefined, [attempt('other', true, 1, 30)]);
    expect(recent.answeringNow()).toEqual([{ agent: 'main', provider: 'backup', model: 'm', profile: 'backup:a', atMs: 21 }]);
  });
});
