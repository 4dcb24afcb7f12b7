/**
 * The failover-conduct figures from hand-made observations: who served an answer, the recovery time of a run,
 * the outage lengths, the median over runs, complete answers, and the names, baselines and skips of the figures.
 * Nothing here is timed.
 */
import { describe, expect, it } from 'vitest';
import type { RecoveryAnswer } from './conduct-figures.js';
import { answerComplete, conductFigures, medianOfRuns, recoverySeconds, servedBy, staggeredOutagesMs } from './conduct-figures.js';

describe('servedBy', () => {
  it('reads understudy\'s model header and Portkey\'s target index', () => {
    expect(servedBy('understudy', { 'x-understudy-model': 'primary/bench-model' })).toBe('primary');
    expect(servedBy('understudy', { 'x-understudy-model': 'backup/bench-model' })).toBe('fallback');
    expect(servedBy('understudy', {})).toBe('unknown');
    expect(servedBy('portkey', { 'x-portkey-last-used-option-index': 'config.targets[0]' })).toBe('primary');
    expect(servedBy('portkey', { 'x-portkey-last-used-option-index': 'config.targets[1]' })).toBe('fallback');
    expect(servedBy('portkey', { 'x-understudy-model': 'primary/bench-model' })).toBe('unknown');
  });
});

describe('recoverySeconds', () => {
  const answer = (answeredAtMs: number, by: RecoveryAnswer['servedBy'], status = 200): RecoveryAnswer => ({ sentAtMs: answeredAtMs - 5, answeredAtMs, status, servedBy: by });

  it('is from the switch to the earliest 200 of the primary answered at or after it, in seconds', () => {
    const answers = [answer(500, 'primary'), answer(1_200, 'fallback'), answer(4_500, 'primary'), answer(3_000, 'primary'), answer(2_000, 'primary', 500)];
    expect(recoverySeconds(answers, 1_000)).toBeCloseTo(2);
  });

  it('is undefined while the primary has not answered since the switch', () => {
    expect(recoverySeconds([answer(500, 'primary'), answer(1_500, 'fallback'), answer(1_600, 'unknown', 0)], 1_000)).toBeUndefined();
    expect(recoverySeconds([], 0)).toBeUndefined();
  });
});

describe('recovery runs', () => {
  it('spreads the outages evenly over one throttle from the first', () => {
    expect(staggeredOutagesMs(20_000, 3, 30_000)).toEqual([20_000, 30_000, 40_000]);
    expect(staggeredOutagesMs(5_000, 1, 30_000)).toEqual([5_000]);
  });

  it('takes the median of the runs, or the reason of a run without a value', () => {
    expect(medianOfRuns([{ ok: true, seconds: 30 }, { ok: true, seconds: 1 }, { ok: true, seconds: 12 }])).toEqual({ ok: true, seconds: 12 });
    expect(medianOfRuns([{ ok: true, seconds: 1 }, { ok: false, reason: 'not back' }, { ok: true, seconds: 2 }])).toEqual({ ok: false, reason: 'not back' });
    expect(medianOfRuns([])).toEqual({ ok: false, reason: 'no runs' });
  });
});

describe('answerComplete', () => {
  it('wants content in a whole body, and content then [DONE] in a stream', () => {
    expect(answerComplete(JSON.stringify({ choices: [{ message: { content: 'Hello' } }] }), false)).toBe(true);
    expect(answerComplete(JSON.stringify({ choices: [{ message: { content: '' } }] }), false)).toBe(false);
    expect(answerComplete('{"choices":', false)).toBe(false);
    const chunk = `data: ${JSON.stringify({ choices: [{ delta: { content: 'Hello' } }] })}\n\n`;
    expect(answerComplete(`data: {"choices":[{"delta":{"role":"assistant"}}]}\n\n${chunk}data: [DONE]\n\n`, true)).toBe(true);
    expect(answerComplete(chunk, true)).toBe(false);
    expect(answerComplete('data: {"choices":[{"delta":{"role":"assistant"}}]}\n\ndata: [DONE]\n\n', true)).toBe(false);
  });
});

describe('conductFigures', () => {
  it('names each figure in seconds with Portkey as a separate .vs_portkey figure', () => {
    const { figures, skipped } = conductFigures({
      recovery: { understudy: { ok: true, seconds: 12 }, portkey: { ok: true, seconds: 1.5 } },
      silentStream: { understudy: { ok: true, seconds: 10 }, portkey: { ok: false, reason: 'no answer within 330 s' } },
      silentNonStream: { understudy: { ok: true, seconds: 300 }, portkey: { ok: true, seconds: 300 } },
    });
    expect(figures).toEqual([
      { name: 'failover.recovery_s', unit: 's', value: 12 },
      { name: 'failover.recovery_s.vs_portkey', unit: 's', value: 12, baseline: { name: 'portkey', value: 1.5 }, ratio: 8 },
      { name: 'failover.silent_provider_s', unit: 's', value: 10 },
      { name: 'failover.silent_provider_s.non_stream', unit: 's', value: 300 },
      { name: 'failover.silent_provider_s.non_stream.vs_portkey', unit: 's', value: 300, baseline: { name: 'portkey', value: 300 }, ratio: 1 },
    ]);
    expect(skipped).toEqual([{ name: 'failover.silent_provider_s.vs_portkey', reason: 'no answer within 330 s' }]);
  });

  it('skips a figure understudy has no value for, with its comparison, and leaves out what was not measured', () => {
    const { figures, skipped } = conductFigures({
      recovery: { understudy: { ok: false, reason: 'not back within 40 s' }, portkey: { ok: true, seconds: 1 } },
      silentStream: { understudy: { ok: true, seconds: 11 } },
      silentNonStream: {},
    });
    expect(figures).toEqual([{ name: 'failover.silent_provider_s', unit: 's', value: 11 }]);
    expect(skipped).toEqual([
      { name: 'failover.recovery_s', reason: 'not back within 40 s' },
      { name: 'failover.recovery_s.vs_portkey', reason: "understudy's figure is missing: not back within 40 s" },
    ]);
  });
});
