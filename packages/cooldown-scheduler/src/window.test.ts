import { describe, expect, it } from 'vitest';
import { profileUnavailability } from './availability.js';
import { isInlineKeyDisabled } from './inline-keys.js';
import { clearExpiredWindows } from './usage-transitions.js';
import { isWindowActive } from './window.js';

describe('isWindowActive (one predicate for every window, issue 13)', () => {
  it('is open strictly before its end and closed from its end on', () => {
    expect(isWindowActive(30_000, 29_999)).toBe(true);
    expect(isWindowActive(30_000, 30_000)).toBe(false);
    expect(isWindowActive(30_000, 30_001)).toBe(false);
    expect(isWindowActive(undefined, 0)).toBe(false);
  });

  it('treats a window that never ends as open and a NaN end as closed', () => {
    expect(isWindowActive(Number.POSITIVE_INFINITY, 1e15)).toBe(true);
    expect(isWindowActive(Number.NEGATIVE_INFINITY, 0)).toBe(false);
    expect(isWindowActive(Number.NaN, 0)).toBe(false);
  });

  it('gives availability and inline keys the same answer for an endless disable', () => {
    const endless = { disabledUntil: Number.POSITIVE_INFINITY, disabledReason: 'billing' as const };
    expect(profileUnavailability(endless, { nowMs: 0 })).toMatchObject({ lane: 'disable', reason: 'billing' });
    expect(isInlineKeyDisabled({ source: 'inline' }, endless, 0)).toBe(true);
    const corrupt = { disabledUntil: Number.NaN };
    expect(profileUnavailability(corrupt, { nowMs: 0 })).toBeUndefined();
    expect(isInlineKeyDisabled({ source: 'inline' }, corrupt, 0)).toBe(false);
  });

  it('clears exactly the windows it does not count as open: a NaN end is cleared, an endless one kept', () => {
    expect(clearExpiredWindows({ disabledUntil: Number.NaN, disabledReason: 'billing', cooldownUntil: Number.NaN }, 0)).toEqual({});
    const endless = { disabledUntil: Number.POSITIVE_INFINITY, disabledReason: 'billing' as const };
    expect(clearExpiredWindows(endless, 1e15)).toEqual(endless);
  });
});
