/**
 * The statistics behind every figure, on tiny hand-made inputs: nearest-rank percentiles, medians, and the
 * per-round differences whose median is the "added over direct" figure.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { median, medianOfRoundDifferences, medianOfRounds, percentile } from './stats.js';

describe('percentile (nearest rank)', () => {
  it.each([
    ['p50 of four samples is the second smallest', [4, 1, 3, 2], 50, 2],
    ['p50 of five samples is the middle one', [5, 1, 4, 2, 3], 50, 3],
    ['p99 of 100 samples is the 99th smallest', Array.from({ length: 100 }, (_, index) => 100 - index), 99, 99],
    ['p99 of 300 samples is the 297th smallest', Array.from({ length: 300 }, (_, index) => index + 1), 99, 297],
    ['p100 is the largest', [2, 9, 4], 100, 9],
    ['p0 is the smallest', [2, 9, 4], 0, 2],
    ['one sample is every percentile', [7], 99, 7],
  ])('%s', (_title, samples, p, expected) => {
    expect(percentile(samples, p)).toBe(expected);
  });

  it('is NaN without samples and leaves its input unsorted', () => {
    expect(percentile([], 50)).toBeNaN();
    const samples = [3, 1, 2];
    percentile(samples, 50);
    expect(samples).toEqual([3, 1, 2]);
  });

  it('always returns one of the samples, never below the minimum or above the maximum', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ noNaN: true, min: -1e6, max: 1e6 }), { minLength: 1, maxLength: 50 }), fc.integer({ min: 0, max: 100 }), (samples, p) => {
        const value = percentile(samples, p);
        expect(samples).toContain(value);
      }),
    );
  });
});

describe('median', () => {
  it.each([
    [[3, 1, 2], 2],
    [[3, 1, 2, 10], 2.5],
    [[5], 5],
  ])('median(%j) = %d', (samples, expected) => {
    expect(median(samples)).toBe(expected);
  });

  it('is NaN without samples', () => {
    expect(median([])).toBeNaN();
  });
});

describe('median over rounds', () => {
  it('takes the difference inside each round, then the median of the differences', () => {
    const rounds = [
      { x: [3, 3, 3], direct: [1, 1, 1] }, // +2
      { x: [9, 9, 9], direct: [1, 1, 1] }, // +8 (a noisy round)
      { x: [4, 4, 4], direct: [3, 3, 3] }, // +1
    ];
    expect(medianOfRoundDifferences(rounds, 'x', 'direct', median)).toBe(2);
  });

  it('is not the difference of the medians when the rounds drift (same-round pairing matters)', () => {
    const rounds = [
      { x: [2], direct: [1] },
      { x: [11], direct: [10] },
      { x: [21], direct: [20] },
      { x: [31], direct: [30] },
    ];
    expect(medianOfRoundDifferences(rounds, 'x', 'direct', median)).toBe(1);
  });

  it('is the median of the round medians', () => {
    expect(medianOfRounds([{ x: [1, 3] }, { x: [5, 7] }, { x: [2, 2] }], 'x', median)).toBe(2);
  });

  it('names the round and the target that has no samples', () => {
    expect(() => medianOfRoundDifferences([{ x: [1], direct: [1] }, { x: [1] }], 'x', 'direct', median)).toThrow('round 2 has no samples of direct');
    expect(() => medianOfRounds([{ x: [] }], 'x', median)).toThrow('round 1 has no samples of x');
  });
});
