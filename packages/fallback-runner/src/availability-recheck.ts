/**
 * The availability re-check before a same-profile retry (docs/policy.md#retries-probes-and-rotation). A retry
 * waits its backoff first; meanwhile another request of this process or another one may have cooled or
 * disabled the profile. A retry into it would be a call the window forbids, so the store is read again (one
 * read, only when a retry is about to happen) and the retry is dropped when the profile is blocked for the
 * candidate's model.
 */
import { profileUnavailability } from '@understudy/cooldown-scheduler';
import type { Candidate, ResolvedProfile } from '@understudy/contracts';
import type { RunContext } from './run-context.js';

/**
 * True when `profile` may still be called for `candidate` now, by the store's current usage stats (which are
 * remembered for the rest of the run). A keyless call (`profile` null) is always available.
 */
export async function stillAvailable<T>(ctx: RunContext<T>, candidate: Candidate, profile: ResolvedProfile | null): Promise<boolean> {
  if (profile === null) return true;
  const profileId = profile.view.id;
  const state = await ctx.store.loadProviderAuthState(candidate.provider);
  const stats = state.usageStats[profileId];
  if (stats !== undefined) ctx.rememberStats(candidate.provider, { [profileId]: stats });
  return profileUnavailability(stats, { nowMs: ctx.nowMs(), model: candidate.model }) === undefined;
}
