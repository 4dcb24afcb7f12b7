/**
 * Live user model switches (the model-failover doc "Session overrides and live model switching"): only an explicit user
 * change (`/model`, `sessions.patch`) marks a pending live switch. Between candidates the run re-reads it: a
 * later candidate of the chain is jumped to directly; any other model hands the turn back to its owner with a
 * `LiveSessionModelSwitchError`. A consumed switch is cleared with a compare-and-set write.
 */
import type { Candidate, PendingLiveSwitch, SessionEntry } from '@understudy/contracts';
import { modelRefKey, normalizeProfileId, normalizeProviderId, sameModelRef } from '@understudy/contracts';
import { LiveSessionModelSwitchError } from './errors.js';
import type { RunContext } from './run-context.js';

function samePending(a: PendingLiveSwitch | undefined, b: PendingLiveSwitch): boolean {
  return a !== undefined && sameModelRef(a, b) && a.requestedAt === b.requestedAt;
}

async function clearPending<T>(ctx: RunContext<T>, pending: PendingLiveSwitch): Promise<void> {
  await ctx.session.update(
    (entry: SessionEntry | undefined) => (samePending(entry?.pendingLiveSwitch, pending) ? { pendingLiveSwitch: null } : undefined),
    ctx.nowMs(),
  );
}

/**
 * A pending switch to the model this run already starts with is honoured by the run itself: clear it so it is
 * not mistaken for a switch during the run.
 */
export async function consumeHonouredSwitch<T>(ctx: RunContext<T>, first: Candidate | undefined): Promise<void> {
  const pending = ctx.session.entry?.pendingLiveSwitch;
  if (pending !== undefined && first !== undefined && sameModelRef(pending, first)) await clearPending(ctx, pending);
}

/**
 * After candidate `index` did not answer: the index to continue with (`index + 1`, or the later candidate a
 * pending live switch names). A switch to the current or an earlier candidate is stale (that model already
 * failed in this run): it is consumed and the run goes on with the next candidate.
 *
 * @throws {LiveSessionModelSwitchError} when a pending switch names a model outside the chain.
 */
export async function nextCandidateIndex<T>(ctx: RunContext<T>, index: number): Promise<number> {
  if (ctx.session.key === undefined) return index + 1;
  const entry = await ctx.session.refresh();
  const pending = entry?.pendingLiveSwitch;
  if (pending === undefined) return index + 1;
  await clearPending(ctx, pending);
  const target = ctx.chain.findIndex((candidate, at) => at > index && sameModelRef(candidate, pending));
  if (target === -1 && ctx.chain.some((candidate, at) => at <= index && sameModelRef(candidate, pending))) return index + 1;
  if (target === -1) {
    throw new LiveSessionModelSwitchError(
      { provider: normalizeProviderId(pending.provider), model: pending.model.trim() },
      { authProfile: pending.authProfile, attempts: ctx.records },
    );
  }
  const candidate = ctx.chain[target];
  if (candidate !== undefined && pending.authProfile !== undefined) {
    ctx.switchProfiles.set(modelRefKey(candidate), normalizeProfileId(pending.authProfile));
  }
  return target;
}
