/**
 * One candidate of the chain (the model-failover doc "Try the current provider", "Rotation order", "Cooldown skip vs probe
 * behavior"; docs/policy.md#what-each-reason-does, docs/policy.md#retries-probes-and-rotation): read the provider's auth state once, order its profiles (session pin first while
 * eligible), then either try the available profiles with rotation as the failure reason allows, or — when every
 * profile is unavailable — skip, probe (throttled) or try the same-provider sibling as the scheduler decides.
 */
import { configuredOrder } from '@understudy/config';
import type { Candidate, FailoverReason, FailureClassification, ProfileId, ProviderAuthState } from '@understudy/contracts';
import { formatModelRef, modelRefKey } from '@understudy/contracts';
import type { OrderedProfile, ProfileOrder } from '@understudy/cooldown-scheduler';
import {
  computedCooldownIndex,
  decideUnavailableCandidate,
  isInlineKeyDisabled,
  maxProfileRotations,
  probeThrottleKey,
  profileProbeKey,
  profileUnavailability,
  providerUnavailableReason,
  resolveProfileOrder,
  soonestExpiry,
  windowRanOut,
} from '@understudy/cooldown-scheduler';
import { REASON_POLICY } from '@understudy/error-classifier';
import type { AttemptRecord } from './attempt-record.js';
import { CONTEXT_WINDOW_SKIP, fitsContext } from './context-window.js';
import { skipSummary } from './failure-text.js';
import type { ProfileAttemptOutcome } from './retry.js';
import { attemptProfile } from './retry.js';
import type { RunContext } from './run-context.js';
import { sessionPin } from './session-state.js';

/** How a candidate ended (terminal failures throw). */
export type CandidateOutcome<T> =
  | { readonly kind: 'success'; readonly value: T; readonly profile: ProfileId | null }
  | {
      readonly kind: 'failed';
      readonly reason: FailoverReason;
      readonly classification: FailureClassification;
      readonly record: AttemptRecord;
      readonly thrown?: unknown;
    }
  | { readonly kind: 'skipped'; readonly reason: FailoverReason; readonly why: string; readonly record: AttemptRecord };

/**
 * Runs one candidate.
 *
 * @throws {FailoverError} for terminal failures, a caller abort or the turn deadline.
 */
export async function runCandidate<T>(ctx: RunContext<T>, candidate: Candidate, index: number): Promise<CandidateOutcome<T>> {
  ctx.checkContinue(candidate);
  if (!fitsContext(ctx, candidate)) {
    return skip(ctx, candidate, index, { why: CONTEXT_WINDOW_SKIP, reason: 'context_overflow', skipReason: CONTEXT_WINDOW_SKIP });
  }
  const unfit = ctx.canServe?.(candidate);
  if (unfit !== undefined) return skip(ctx, candidate, index, { why: unfit, reason: 'format' });
  const provider = candidate.provider;
  if (ctx.tlsFailedProviders.has(provider)) return skip(ctx, candidate, index, { why: 'tls_certificate', reason: 'tls_certificate' });

  const candidateStartMs = ctx.nowMs();
  const state = await ctx.store.loadProviderAuthState(provider);
  ctx.rememberStats(provider, state.usageStats);
  if (isKeyless(ctx, state)) {
    const outcome = await attemptProfile(ctx, {
      candidate,
      profile: null,
      kind: 'call',
      candidateStartMs,
      alternatives: { rotationLeft: () => false, laterCandidate: index < ctx.chain.length - 1 },
    });
    return settle(ctx, candidate, index, null, outcome);
  }

  const order = orderProfiles(ctx, candidate, state);
  ctx.eligibleByProvider.set(provider, new Set(order.profiles.map((entry) => entry.profileId)));
  if (order.profiles.length === 0) return skip(ctx, candidate, index, { why: 'no_eligible_profile', reason: 'auth' });
  const available = order.profiles.filter((profile) => profile.available);
  const first = available[0] ?? order.profiles[0];

  const sessionKey = ctx.session.key;
  if (ctx.skipCache !== undefined && sessionKey !== undefined && !ctx.isPrimary(index) && first !== undefined) {
    const cached = ctx.skipCache.get(
      { sessionKey, provider, model: candidate.model, profile: first.profileId },
      ctx.nowMs(),
    );
    if (cached !== undefined) {
      return skip(ctx, candidate, index, { why: 'auth_failure_cached', reason: cached, profile: first.profileId });
    }
  }

  if (available.length === 0) return runUnavailable(ctx, candidate, index, order, candidateStartMs);
  return rotate(ctx, candidate, index, available, candidateStartMs);
}

/**
 * A keyless provider (a local server): no stored or inline profile at all, and none configured for it in
 * `auth.profiles` or `auth.order` (a configured profile without a credential is a missing credential instead).
 */
export function isKeyless<T>(ctx: RunContext<T>, state: ProviderAuthState): boolean {
  if (state.profiles.length > 0) return false;
  if ((configuredOrder(ctx.config, state.provider)?.length ?? 0) > 0) return false;
  return !Object.values(ctx.config.auth.profiles).some((profile) => profile.provider === state.provider);
}

/** The candidate's profiles in the order they are tried (the session's pin first while eligible). */
export function orderProfiles<T>(ctx: RunContext<T>, candidate: Candidate, state: ProviderAuthState): ProfileOrder {
  const explicit = ctx.switchProfiles.get(modelRefKey(candidate)) ?? ctx.explicitProfile;
  const pinned = sessionPin(ctx.session.entry, candidate.provider, explicit);
  return resolveProfileOrder({
    state,
    configOrder: configuredOrder(ctx.config, candidate.provider),
    configProfiles: ctx.config.auth.profiles,
    ...(pinned === undefined ? {} : { pinned }),
    model: candidate.model,
    nowMs: ctx.nowMs(),
  });
}

/** Tries the available profiles in order; after each failure, rotates only as far as its reason allows. */
async function rotate<T>(
  ctx: RunContext<T>,
  candidate: Candidate,
  index: number,
  available: readonly OrderedProfile[],
  candidateStartMs: number,
): Promise<CandidateOutcome<T>> {
  let rotations = 0;
  let last: CandidateOutcome<T> | undefined;
  let probeTaken: OrderedProfile | undefined;
  const laterCandidate = index < ctx.chain.length - 1;
  for (const [position, entry] of available.entries()) {
    if (last?.kind === 'failed') {
      if (rotations >= maxProfileRotations(last.reason, ctx.policy)) break;
      rotations += 1;
    }
    const onlyChance = !laterCandidate && position === available.length - 1;
    if (!(await mayCallReturning(ctx, candidate, entry.profileId, onlyChance))) {
      probeTaken ??= entry;
      continue;
    }
    const alternatives = {
      rotationLeft: (reason: FailoverReason) => position < available.length - 1 && rotations < maxProfileRotations(reason, ctx.policy),
      laterCandidate,
    };
    const credential = await ctx.store.resolveCredential(entry.profileId);
    if (credential === undefined) continue;
    const outcome = await attemptProfile(ctx, {
      candidate,
      profile: { view: entry.profile, credential },
      kind: 'call',
      candidateStartMs,
      alternatives,
    });
    last = settle(ctx, candidate, index, entry.profileId, outcome);
    if (last.kind === 'success' || last.reason === 'tls_certificate') return last;
  }
  if (last !== undefined) return last;
  if (probeTaken !== undefined) {
    const reason = ctx.knownStats(candidate.provider, probeTaken.profileId)?.cooldownReason ?? 'unknown';
    // The slot is free again one throttle from now at the latest.
    const untilMs = ctx.nowMs() + ctx.policy.probeThrottleMs;
    return skip(ctx, candidate, index, { why: 'probe_throttled', reason, profile: probeTaken.profileId, untilMs });
  }
  return skip(ctx, candidate, index, { why: 'no_eligible_profile', reason: 'auth' });
}

/**
 * Whether a profile may be called now as far as its return from a window goes. A profile whose last cooldown for
 * this model (or last disable) ran out with nothing recorded since ({@link windowRanOut}) was last seen failing:
 * its first call takes the profile's probe slot ({@link profileProbeKey}; it stamps the provider's too) and gets
 * no retry in place, so concurrent requests (of any replica) at the end of a window send it one call between
 * them, and that call never follows the profile's last probe by less than one throttle
 * (docs/policy.md#retries-probes-and-rotation "Probes"). It stays an ordinary `call` in the attempt records: the
 * profile is no longer cooling down. A request that finds the slot taken reads the profile again (one read): when
 * a call answered since, the profile is simply available; otherwise it is passed over. The turn's last chance (no
 * later profile or candidate), which an error would leave without an answer, is always called, with its retries.
 */
async function mayCallReturning<T>(ctx: RunContext<T>, candidate: Candidate, profileId: ProfileId, onlyChance: boolean): Promise<boolean> {
  const query = { nowMs: ctx.nowMs(), model: candidate.model };
  if (onlyChance || !windowRanOut(ctx.knownStats(candidate.provider, profileId), query)) return true;
  if (await ctx.store.tryAcquireProbe(profileProbeKey(profileId), query.nowMs, ctx.policy.probeThrottleMs)) {
    // A test of the provider as well: the next probe of a cooling profile of it waits one throttle.
    await ctx.store.tryAcquireProbe(probeThrottleKey(candidate.provider), query.nowMs, ctx.policy.probeThrottleMs);
    return true;
  }
  const fresh = (await ctx.store.loadProviderAuthState(candidate.provider)).usageStats[profileId];
  if (fresh !== undefined) ctx.rememberStats(candidate.provider, { [profileId]: fresh });
  return fresh === undefined || (!windowRanOut(fresh, query) && profileUnavailability(fresh, query) === undefined);
}

/** Every profile is unavailable: the scheduler decides skip, probe (throttled in the store) or sibling try. */
async function runUnavailable<T>(
  ctx: RunContext<T>,
  candidate: Candidate,
  index: number,
  order: ProfileOrder,
  candidateStartMs: number,
): Promise<CandidateOutcome<T>> {
  const nowMs = ctx.nowMs();
  const known = ctx.statsByProvider.get(candidate.provider);
  const stats = order.profiles.map((entry) => known?.get(entry.profileId));
  const query = { nowMs, model: candidate.model };
  const soonestMs = soonestExpiry(stats, query);
  const computedIndex = computedCooldownIndex(stats, query);
  const decision = decideUnavailableCandidate(
    {
      provider: candidate.provider,
      isPrimary: ctx.isPrimary(index),
      onlyCandidate: ctx.chain.length === 1,
      isSameProviderSibling: ctx.chain.slice(0, index).some((earlier) => earlier.provider === candidate.provider),
      reason: providerUnavailableReason(stats, query),
      soonestExpiryMs: soonestMs,
      nowMs,
      transientProbeUsed: ctx.transientProbeUsed.has(candidate.provider),
      computedCooldown: computedIndex >= 0,
    },
    ctx.policy,
  );
  if (decision.kind === 'skip') return skip(ctx, candidate, index, { why: decision.why, reason: decision.reason, untilMs: soonestMs });
  // An inline config key in its disable window is never probed (docs/policy.md#windows): only stored profiles are.
  const targets = order.profiles.filter((entry) => !isInlineKeyDisabled(entry.profile, known?.get(entry.profileId), nowMs));
  if (targets.length === 0) return skip(ctx, candidate, index, { why: 'inline_key_disabled', reason: decision.reason, untilMs: soonestMs });
  if (decision.kind === 'probe' && !(await ctx.store.tryAcquireProbe(decision.throttleKey, nowMs, decision.throttleMs))) {
    return skip(ctx, candidate, index, { why: 'probe_throttled', reason: decision.reason, untilMs: soonestMs });
  }
  // A probe tests a profile whose window understudy computed when there is one (a provider-named window is honoured).
  const computedTarget = computedIndex >= 0 ? order.profiles[computedIndex] : undefined;
  const target = computedTarget !== undefined && targets.includes(computedTarget) ? computedTarget : targets[0];
  if (target === undefined) return skip(ctx, candidate, index, { why: 'no_eligible_profile', reason: 'auth' });
  // The probe is also the profile's latest test: its first call after the window waits one throttle from here.
  if (decision.kind === 'probe') await ctx.store.tryAcquireProbe(profileProbeKey(target.profileId), nowMs, decision.throttleMs);
  ctx.emit({
    event: 'model_fallback_decision',
    decision: 'probe_cooldown_candidate',
    provider: candidate.provider,
    model: candidate.model,
    profile: target.profileId,
    reason: decision.reason,
    candidateIndex: index,
    candidateCount: ctx.chain.length,
    fallbackStepFromModel: formatModelRef(candidate),
    fallbackStepFromFailureReason: decision.reason,
    fallbackStepFromFailureDetail: decision.kind === 'probe' ? 'cooldown_probe' : 'sibling_despite_cooldown',
    fallbackStepFinalOutcome: 'probing',
    atMs: nowMs,
  });
  const credential = await ctx.store.resolveCredential(target.profileId);
  if (credential === undefined) return skip(ctx, candidate, index, { why: 'no_eligible_profile', reason: 'auth' });
  const outcome = await attemptProfile(ctx, {
    candidate,
    profile: { view: target.profile, credential },
    kind: 'probe',
    candidateStartMs,
  });
  const settled = settle(ctx, candidate, index, target.profileId, outcome);
  if (settled.kind === 'failed' && REASON_POLICY[settled.reason].transient) ctx.transientProbeUsed.add(candidate.provider);
  return settled;
}

/** Turns a profile's outcome into the candidate's, remembering auth failures and TLS failures of the run. */
function settle<T>(
  ctx: RunContext<T>,
  candidate: Candidate,
  index: number,
  profile: ProfileId | null,
  outcome: ProfileAttemptOutcome<T>,
): CandidateOutcome<T> {
  if (outcome.ok) return { kind: 'success', value: outcome.value, profile };
  const reason = outcome.classification.reason;
  if (reason === 'tls_certificate') ctx.tlsFailedProviders.add(candidate.provider);
  const sessionKey = ctx.session.key;
  if (ctx.skipCache !== undefined && sessionKey !== undefined && !ctx.isPrimary(index)) {
    ctx.skipCache.remember({ sessionKey, provider: candidate.provider, model: candidate.model, profile }, reason, ctx.nowMs());
  }
  return {
    kind: 'failed',
    reason,
    classification: outcome.classification,
    record: outcome.record,
    ...(outcome.thrown === undefined ? {} : { thrown: outcome.thrown }),
  };
}

/** Records a candidate passed over without a request (one `skip` attempt record). */
export function skip<T>(
  ctx: RunContext<T>,
  candidate: Candidate,
  index: number,
  input: {
    readonly why: string;
    readonly reason: FailoverReason;
    readonly untilMs?: number | undefined;
    readonly profile?: ProfileId | undefined;
    readonly skipReason?: AttemptRecord['skipReason'];
  },
): CandidateOutcome<T> {
  const nowMs = ctx.nowMs();
  const record = ctx.record({
    provider: candidate.provider,
    model: candidate.model,
    profile: input.profile ?? null,
    kind: 'skip',
    ok: false,
    reason: input.reason,
    detail: input.why,
    ...(input.skipReason === undefined ? {} : { skipReason: input.skipReason }),
    summary: skipSummary(input),
    startedAtMs: nowMs,
    atMs: nowMs,
  });
  return { kind: 'skipped', reason: input.reason, why: input.why, record };
}
