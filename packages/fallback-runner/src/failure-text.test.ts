import { describe, expect, it } from 'vitest';
import { skipSummary } from './failure-text.js';

describe('skipSummary window words (read from REASON_POLICY, issue 13)', () => {
  it('says disabled for the disable-lane reasons and cooling down for the others', () => {
    expect(skipSummary({ why: 'cooling_down', reason: 'billing' })).toBe('skipped: every auth profile is disabled (billing)');
    expect(skipSummary({ why: 'cooling_down', reason: 'auth_permanent' })).toBe('skipped: every auth profile is disabled (auth_permanent)');
    expect(skipSummary({ why: 'cooling_down', reason: 'rate_limit', untilMs: 30_000 })).toBe(
      'skipped: every auth profile is cooling down (rate_limit); usable again at 1970-01-01T00:00:30.000Z',
    );
    expect(skipSummary({ why: 'cooling_down', reason: 'auth' })).toBe('skipped: every auth profile is cooling down (auth)');
  });
});
