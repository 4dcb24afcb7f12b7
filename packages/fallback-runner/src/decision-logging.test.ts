/**
 * Decision logs (the model-failover doc "Observability"): the flat fallbackStep* fields are logged when a candidate fails, is
 * skipped, or a later fallback succeeds. A first-try success is routine: debug level, so a busy gateway does not
 * write a decision line for every healthy request.
 */
import type { Logger } from '@understudy/contracts';
import { describe, expect, it } from 'vitest';
import { FALLBACK_DECISION_MESSAGE } from './index.js';
import { world } from './test-support/harness.js';

function recordingLogger(): Logger & { readonly lines: { level: string; fields: Record<string, unknown> }[] } {
  const lines: { level: string; fields: Record<string, unknown> }[] = [];
  const at = (level: string) => (fields: Readonly<Record<string, unknown>>, message?: string) => {
    if (message === FALLBACK_DECISION_MESSAGE) lines.push({ level, fields: { ...fields } });
  };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

describe('model_fallback_decision log levels', () => {
  it('logs a first-try success at debug only', async () => {
    const logger = recordingLogger();
    await world().run({}, {}, { logger });
    expect(logger.lines.map((line) => [line.level, line.fields['decision']])).toEqual([['debug', 'candidate_succeeded']]);
  });

  it('logs the failure and the fallback that answered at info, with the flat step fields', async () => {
    const logger = recordingLogger();
    await world().run({ openai: [{ status: 400, body: '{"error":{"message":"bad","type":"invalid_request_error"}}' }] }, {}, { logger });
    const info = logger.lines.filter((line) => line.level === 'info');
    expect(info.map((line) => line.fields['decision'])).toEqual(['candidate_failed', 'candidate_succeeded']);
    expect(info[1]?.fields).toMatchObject({
      fallbackStepFromModel: 'openai/gpt-x',
      fallbackStepToModel: 'anthropic/claude-x',
      fallbackStepFinalOutcome: 'succeeded',
    });
  });
});

describe('lastUsedRefreshMs', () => {
  it('skips the success write of a healthy profile used moments ago, and writes once the window passed', async () => {
    const w = world();
    const firstProfile = (await w.run({}, {}, { lastUsedRefreshMs: 1_000 })).profile ?? '';
    const first = w.store.usageStats(firstProfile).lastUsed;
    expect(first).toBe(w.clock.nowMs());
    w.clock.advance(500);
    const profile = (await w.run({}, {}, { lastUsedRefreshMs: 1_000 })).profile ?? '';
    expect(w.store.usageStats(profile).lastUsed).toBe(first);
    w.clock.advance(600);
    await w.run({}, {}, { lastUsedRefreshMs: 1_000 });
    expect(w.store.usageStats(profile).lastUsed).toBe(w.clock.nowMs());
  });

  it('writes every success by default', async () => {
    const w = world();
    const profile = (await w.run({})).profile ?? '';
    w.clock.advance(10);
    await w.run({});
    expect(w.store.usageStats(profile).lastUsed).toBe(w.clock.nowMs());
  });
});

describe('attempt timing', () => {
  it('records when each request was sent and when it ended, from the run clock (a trace span per attempt spans them)', async () => {
    const w = world();
    const startMs = w.clock.nowMs();
    const result = await w.run({ openai: [{ status: 400, body: '{"error":{"message":"bad","type":"invalid_request_error"}}', latencyMs: 30 }], anthropic: [{ ok: true, latencyMs: 70 }] });
    const timings = result.attempts.map((record) => [record.provider, record.startedAtMs - startMs, record.atMs - startMs]);
    expect(timings).toEqual([
      ['openai', 0, 30],
      ['anthropic', 30, 100],
    ]);
  });
});
