import { describe, expect, it } from 'vitest';
import { parseDurationMs, parseRetryAfter, parseRetryAfterHeader, retryAfterFromText } from './retry-after.js';

const NOW = Date.UTC(2026, 0, 1); // 2026-01-01T00:00:00Z

describe('parseRetryAfter: headers (one parser for retry-after-ms, seconds and HTTP-dates)', () => {
  it('reads retry-after-ms in milliseconds, before retry-after', () => {
    expect(parseRetryAfter({ headers: { 'retry-after-ms': '1250', 'retry-after': '2' } })).toBe(1250);
  });
  it('reads retry-after seconds, header names case-insensitive', () => {
    expect(parseRetryAfter({ headers: { 'Retry-After': '20' } })).toBe(20_000);
    expect(parseRetryAfter({ headers: { 'RETRY-AFTER': '1.5' } })).toBe(1500);
  });
  it('reads an HTTP-date relative to nowMs', () => {
    expect(parseRetryAfter({ headers: { 'retry-after': 'Thu, 01 Jan 2026 00:01:30 GMT' }, nowMs: NOW })).toBe(90_000);
  });
  it('a date in the past means no wait', () => {
    expect(parseRetryAfterHeader('Wed, 31 Dec 2025 23:00:00 GMT', NOW)).toBe(0);
  });
  it('an HTTP-date without nowMs cannot be placed in time', () => {
    expect(parseRetryAfterHeader('Thu, 01 Jan 2026 00:01:30 GMT')).toBeNull();
  });
  it('ignores garbage headers and falls back to the body', () => {
    expect(parseRetryAfter({ headers: { 'retry-after': 'soon', 'retry-after-ms': '-5' }, texts: ['retry after 3s'] })).toBe(3000);
  });
  it('is null when nothing is said', () => {
    expect(parseRetryAfter({ headers: {}, texts: ['Too Many Requests'] })).toBeNull();
    expect(parseRetryAfter({})).toBeNull();
  });
});

describe('parseRetryAfter: body hints', () => {
  it.each([
    ['Please try again in 174ms.', 174],
    ['Please try again in 1.5s.', 1500],
    ['Please try again in 1m30s.', 90_000],
    ['Please try again in 6m0s.', 360_000],
    ['Please try again in 2m55.9s.', 175_900],
    ['retry after 20s', 20_000],
    ['Please retry after 86400 seconds.', 86_400_000],
    ['please try again after 1 seconds', 1000],
    ['Please wait 2 minutes before retrying', 120_000],
    ['Your quota resets in 3h 12m', 11_520_000],
    ['"retryDelay": "20s"', 20_000],
    ['{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"34.5s"}', 34_500],
    ['{"error":{"retry_after":12}}', 12_000],
    ['{"resets_in_seconds": 4521}', 4_521_000],
    ['Retry-After: 30', 30_000],
  ])('%s → %i ms', (text, ms) => {
    expect(retryAfterFromText(text, NOW)).toBe(ms);
  });

  it('reads a reset time with a zone relative to nowMs', () => {
    expect(retryAfterFromText('Your limit resets at 2026-01-01T05:00:00Z.', NOW)).toBe(5 * 3_600_000);
    expect(retryAfterFromText('Limit will reset at 2026-01-01 08:00:00 +08:00', NOW)).toBe(0);
    expect(retryAfterFromText('resets at 2026-01-01 01:00 UTC', NOW)).toBe(3_600_000);
  });

  it('reads a time of day with a zone as its next occurrence', () => {
    // 22:57 at GMT-3 is 01:57Z the next day; now is 00:00Z.
    expect(retryAfterFromText('Access resets at 10:57 PM GMT-3.', NOW)).toBe(((1 * 60 + 57) * 60) * 1000);
  });

  it('a reset time without a zone gives null (the model-failover doc / docs/contracts.md#classify)', () => {
    expect(retryAfterFromText('Your limit will reset at 2026-09-09 05:38:28', NOW)).toBeNull();
    expect(retryAfterFromText('Access resets at 10:57 PM.', NOW)).toBeNull();
  });

  it('an epoch reset (Codex resets_at) is relative to nowMs', () => {
    expect(retryAfterFromText(`{"resets_at": ${NOW / 1000 + 600}}`, NOW)).toBe(600_000);
  });

  it('timestamps that are not reset hints are ignored', () => {
    expect(retryAfterFromText('[2025-08-13 21:13:57.016] [error] Error streaming text', NOW)).toBeNull();
  });
});

describe('parseDurationMs', () => {
  it.each([
    ['174ms', 174],
    ['1m30s', 90_000],
    ['1 hour and 30 minutes', 5_400_000],
    ['2 days', 172_800_000],
    ['500 milliseconds', 500],
  ])('%s → %i', (text, ms) => {
    expect(parseDurationMs(text)).toBe(ms);
  });
  it('is null without a unit', () => {
    expect(parseDurationMs('soon')).toBeNull();
  });
});
