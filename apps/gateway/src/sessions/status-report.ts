/**
 * `/status` (and the admin API's view of a session): the selected model, the active fallback and its reason
 * when they differ, the pinned auth profile, and the cooldowns that block the candidate chain (the model-failover doc
 * "Session overrides and live model switching": "/status shows the selected model and, when fallback state
 * differs, the active fallback model and reason").
 */
import type { AuthProfileStore } from '@understudy/auth-profile-store';
import { CandidateChainError, resolveCandidateChain } from '@understudy/candidate-chain';
import type { UnderstudyConfig } from '@understudy/config';
import { configuredOrder } from '@understudy/config';
import type { FailoverReason, SessionEntry } from '@understudy/contracts';
import { formatModelRef } from '@understudy/contracts';
import { resolveProfileOrder } from '@understudy/cooldown-scheduler';
import { isUserPin } from '@understudy/fallback-runner';

/** A profile that cannot take the candidate's model right now. */
export interface BlockedProfile {
  readonly profileId: string;
  readonly reason: FailoverReason;
  readonly lane: 'cooldown' | 'disable';
  /** When it is usable again, epoch ms. */
  readonly untilMs: number;
}

/** The cooldowns touching one candidate of the chain. */
export interface CandidateBlock {
  /** `provider/model`. */
  readonly candidate: string;
  readonly profiles: readonly BlockedProfile[];
  /** No eligible profile is available: the candidate is skipped (or probed) until one is. */
  readonly blocked: boolean;
}

/** What `/status` reports. */
export interface SessionStatus {
  readonly agentId: string;
  readonly sessionKey?: string | undefined;
  /** The selected `provider/model`, or `undefined` when nothing is configured. */
  readonly selected?: string | undefined;
  /** The selection source (`default`, `agent`, `user`, `legacy`, `auto`). */
  readonly source?: string | undefined;
  readonly strict: boolean;
  /** The candidate chain, `provider/model`, requested first. */
  readonly chain: readonly string[];
  /** Set when the last turn was answered by a fallback. */
  readonly activeFallback?: { readonly model: string; readonly reason: string; readonly sinceMs: number } | undefined;
  readonly pinnedProfile?: { readonly profileId: string; readonly source: string } | undefined;
  readonly pendingSwitch?: string | undefined;
  readonly compactionCount?: number | undefined;
  readonly cooldowns: readonly CandidateBlock[];
  /** Why no chain could be built, when it could not. */
  readonly problem?: string | undefined;
}

/**
 * Builds the status of a session (or of the agent's configured selection when there is no session).
 *
 * @example const status = await sessionStatus({ store, config, agentId: 'main', nowMs: Date.now() }, 'chat-1', entry)
 */
export async function sessionStatus(
  context: { readonly store: AuthProfileStore; readonly config: UnderstudyConfig; readonly agentId: string; readonly nowMs: number },
  sessionKey: string | undefined,
  session: SessionEntry | undefined,
): Promise<SessionStatus> {
  const { store, config, agentId, nowMs } = context;
  // A pin naming a profile that no longer exists (removed, or never stored nor configured) is not shown.
  const stored = session?.authProfileOverride;
  const pinned =
    stored !== undefined && ((await store.getProfile(stored)) !== undefined || Object.hasOwn(config.auth.profiles, stored)) ? stored : undefined;
  const base = {
    agentId,
    ...(sessionKey === undefined ? {} : { sessionKey }),
    ...(session?.compactionCount === undefined ? {} : { compactionCount: session.compactionCount }),
    ...(pinned === undefined ? {} : { pinnedProfile: { profileId: pinned, source: isUserPin(session) ? 'user' : 'auto' } }),
    ...(session?.pendingLiveSwitch === undefined
      ? {}
      : { pendingSwitch: formatModelRef(session.pendingLiveSwitch) }),
  };
  let plan;
  try {
    plan = resolveCandidateChain({ agents: config.agents, agentId, session });
  } catch (error) {
    if (!CandidateChainError.isInstance(error)) throw error;
    return { ...base, strict: true, chain: [], cooldowns: [], problem: error.message };
  }
  const selected = formatModelRef(plan.requested);
  const notice = session?.fallbackNotice;
  const activeFallback =
    notice !== undefined && notice.active !== selected && notice.selected === selected
      ? { model: notice.active, reason: notice.reason, sinceMs: notice.since }
      : undefined;
  const cooldowns: CandidateBlock[] = [];
  const states = new Map<string, Awaited<ReturnType<AuthProfileStore['loadProviderAuthState']>>>();
  for (const candidate of plan.candidates) {
    let state = states.get(candidate.provider);
    if (state === undefined) {
      state = await store.loadProviderAuthState(candidate.provider);
      states.set(candidate.provider, state);
    }
    if (state.profiles.length === 0) continue; // keyless: always runnable
    const order = resolveProfileOrder({
      state,
      configOrder: configuredOrder(config, candidate.provider),
      configProfiles: config.auth.profiles,
      model: candidate.model,
      nowMs,
    });
    const profiles: BlockedProfile[] = order.profiles
      .filter((entry) => !entry.available)
      .map((entry) => ({
        profileId: entry.profileId,
        reason: entry.unavailableReason ?? 'unknown',
        lane: entry.unavailableLane ?? 'cooldown',
        untilMs: entry.unavailableUntilMs ?? nowMs,
      }));
    const blocked = order.profiles.every((entry) => !entry.available);
    if (profiles.length > 0 || blocked) cooldowns.push({ candidate: formatModelRef(candidate), profiles, blocked });
  }
  return {
    ...base,
    selected,
    source: plan.source,
    strict: plan.strict,
    chain: plan.candidates.map((candidate) => formatModelRef(candidate)),
    ...(activeFallback === undefined ? {} : { activeFallback }),
    cooldowns,
  };
}

function inSeconds(untilMs: number, nowMs: number): string {
  const seconds = Math.max(0, Math.ceil((untilMs - nowMs) / 1000));
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.ceil(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

const SOURCE_WORDS: Readonly<Record<string, string>> = {
  default: 'configured default',
  agent: 'agent model',
  user: 'your selection, strict',
  legacy: 'stored selection, strict',
  auto: 'automatic fallback override',
};

/**
 * The status as the assistant message of `/status`.
 *
 * @example formatStatus(status, Date.now()) // 'Model: openai/gpt-4o (configured default)\n…'
 */
export function formatStatus(status: SessionStatus, nowMs: number): string {
  const lines: string[] = [];
  if (status.selected === undefined) {
    lines.push(`Model: none configured (${status.problem ?? 'set agents.defaults.model'})`);
  } else {
    lines.push(`Model: ${status.selected} (${SOURCE_WORDS[status.source ?? ''] ?? status.source ?? ''})`);
    if (status.activeFallback !== undefined) {
      lines.push(`Active fallback: ${status.activeFallback.model} (${status.activeFallback.reason})`);
    }
    lines.push(status.chain.length > 1 ? `Fallback chain: ${status.chain.slice(1).join(' → ')}` : 'Fallback chain: none (strict)');
  }
  if (status.pinnedProfile !== undefined) {
    lines.push(`Auth profile: ${status.pinnedProfile.profileId} (pinned by ${status.pinnedProfile.source === 'user' ? 'you' : 'session stickiness'})`);
  }
  if (status.cooldowns.length === 0) lines.push('Cooldowns: none block the chain');
  else {
    lines.push('Cooldowns:');
    for (const block of status.cooldowns) {
      const profiles = block.profiles.map(
        (profile) =>
          `${profile.profileId} ${profile.lane === 'disable' ? 'disabled' : 'cooling down'} (${profile.reason}) for ${inSeconds(profile.untilMs, nowMs)}`,
      );
      lines.push(`- ${block.candidate}${block.blocked ? ' [blocked]' : ''}: ${profiles.length === 0 ? 'no eligible auth profile' : profiles.join('; ')}`);
    }
  }
  lines.push(`Agent: ${status.agentId}${status.sessionKey === undefined ? ' (no session: send x-understudy-session to keep one)' : `, session ${status.sessionKey}`}`);
  return lines.join('\n');
}
