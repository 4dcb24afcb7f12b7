/**
 * Inline config keys (`models.providers.<id>.apiKey`, the profile `<provider>:inline`) during a disable window
 * (docs/policy.md#windows, the model-failover doc "Billing disables"): unlike stored profiles they are never
 * retried or probed until the window ends; the next billing failure after it starts a fresh first window.
 */
import type { AuthProfileView, ProfileUsageStats } from '@understudy/contracts';
import { isWindowActive } from './window.js';

/**
 * True when `profile` is an inline config key whose disable window (billing or permanent auth) is still
 * active at `nowMs` (epoch ms): it must not be sent a request, not even a probe.
 *
 * @example isInlineKeyDisabled({ source: 'inline' }, { disabledUntil: 600_000 }, 31_000) // true
 */
export function isInlineKeyDisabled(
  profile: Pick<AuthProfileView, 'source'>,
  stats: ProfileUsageStats | undefined,
  nowMs: number,
): boolean {
  return profile.source === 'inline' && isWindowActive(stats?.disabledUntil, nowMs);
}
