/**
 * Failover and store figures from tiny inputs: the decision time read from the upstream's events, and the
 * names, baselines and ratios of the figures.
 */
import { describe, expect, it } from 'vitest';
import { BenchError } from '../errors.js';
import { decisionMs, failoverFigures } from './failover.js';
import { storeFigures } from './store.js';

describe('failover decision time', () => {
  it('is from the last 429 sent to the first fallback arrival after it', () => {
    expect(
      decisionMs([
        { kind: 'fallback-arrived', atMs: 1 },
        { kind: 'limited-sent', atMs: 10 },
        { kind: 'fallback-arrived', atMs: 12.5 },
        { kind: 'fallback-arrived', atMs: 20 },
      ]),
    ).toBeCloseTo(2.5);
  });

  it('fails with bad_answer when the primary was not tried or no fallback came', () => {
    for (const events of [[{ kind: 'fallback-arrived' as const, atMs: 3 }], [{ kind: 'limited-sent' as const, atMs: 3 }], []]) {
      let caught: unknown;
      try {
        decisionMs(events);
      } catch (error) {
        caught = error;
      }
      expect(BenchError.isInstance(caught) && caught.code === 'bad_answer').toBe(true);
    }
  });

  it('figures: median of round medians, Portkey as a separate .vs_portkey figure when measured', () => {
    expect(failoverFigures({ understudy: [1, 3, 2], portkey: [4, 4, 5] })).toEqual([
      { name: 'failover.decision_ms', unit: 'ms', value: 2 },
      { name: 'failover.decision_ms.vs_portkey', unit: 'ms', value: 2, baseline: { name: 'portkey', value: 4 }, ratio: 0.5 },
    ]);
    expect(failoverFigures({ understudy: [1] })).toEqual([{ name: 'failover.decision_ms', unit: 'ms', value: 1 }]);
  });
});

describe('store figures', () => {
  it('one-process marks/s, and the 4-process total compared with it', () => {
    expect(storeFigures({ single: [100, 300, 200], multi: [150, 100, 50] })).toEqual([
      { name: 'store.marks_per_s', unit: 'marks/s', value: 200 },
      { name: 'store.marks_per_s_4proc', unit: 'marks/s', value: 100, baseline: { name: 'store.marks_per_s', value: 200 }, ratio: 0.5 },
    ]);
  });
});
