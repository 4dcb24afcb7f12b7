/**
 * The session changes a user makes, as pure patches (the model-failover doc "Session overrides and live model
 * switching", "Session stickiness"; docs/policy.md#retries-probes-and-rotation "Rotation"): `/model <ref>[@profile]`,
 * `/model default` and `/new` / `/reset`. The one copy of these rules: the gateway's chat commands and admin API
 * write them with their compare-and-set loop, and `understudy simulate` writes the same `/model` for a live switch
 * scripted mid-call. Each function computes the patch from the entry it will be applied to, so a caller that lost
 * a compare-and-set race computes it again from the fresh entry.
 */
import type { ModelRef, ProfileId, SessionEntry, SessionPatch } from '@understudy/contracts';
import { CLEAR_AUTH_PIN_PATCH, CLEAR_MODEL_OVERRIDE_PATCH, parseProfileId } from '@understudy/contracts';
import { isUserPin } from './session-state.js';

/** What a user selected with `/model`: the model, and the auth profile given after `@`, when one was. */
export interface UserModelSelection {
  /** The model, already resolved (an alias read, the provider known to be configured). */
  readonly ref: ModelRef;
  /** A full profile id of `ref.provider` (see `qualifyProfileId`), already known to exist; absent: no `@profile`. */
  readonly profileId?: ProfileId | undefined;
}

/** The pin fields to clear when the stored pin belongs to another provider than `provider` (or there is none to keep it for). */
function incompatiblePinPatch(current: SessionEntry | undefined, provider: string | undefined): SessionPatch {
  const pinned = current?.authProfileOverride;
  if (pinned === undefined) return {};
  return provider !== undefined && parseProfileId(pinned)?.provider === provider ? {} : CLEAR_AUTH_PIN_PATCH;
}

/**
 * The patch of `/model <ref>[@profile]` (and of a `sessions.patch` user model change): a strict user model
 * override, a pending live switch that a turn in flight follows at its next candidate boundary (with the pinned
 * profile, when given), and the notice state cleared because the selection changed. With a profile, that profile
 * becomes the user pin (at the session's current compaction count); without one, a pin of the same provider is
 * kept and a pin of another provider is cleared.
 *
 * @param nowMs - when the switch was requested, epoch ms (`pendingLiveSwitch.requestedAt`).
 * @example userModelPatch(undefined, { ref: { provider: 'openai', model: 'gpt-4o' } }, 5_000)
 *   // { …cleared override fields, providerOverride: 'openai', modelOverride: 'gpt-4o', modelOverrideSource: 'user',
 *   //   fallbackNotice: null, pendingLiveSwitch: { provider: 'openai', model: 'gpt-4o', requestedAt: 5000 } }
 */
export function userModelPatch(current: SessionEntry | undefined, selection: UserModelSelection, nowMs: number): SessionPatch {
  const { ref, profileId } = selection;
  return {
    ...CLEAR_MODEL_OVERRIDE_PATCH,
    providerOverride: ref.provider,
    modelOverride: ref.model,
    modelOverrideSource: 'user',
    fallbackNotice: null,
    pendingLiveSwitch: { provider: ref.provider, model: ref.model, ...(profileId === undefined ? {} : { authProfile: profileId }), requestedAt: nowMs },
    ...(profileId === undefined
      ? incompatiblePinPatch(current, ref.provider)
      : { authProfileOverride: profileId, authProfileOverrideSource: 'user', authProfileOverrideCompactionCount: current?.compactionCount ?? null }),
  };
}

/**
 * The patch of `/model default` (and of a `sessions.patch` that clears the model): the model override removed,
 * the notice state cleared, the return to the agent's configured primary a pending live switch (none without a
 * primary), a pin of the primary's provider kept and any other pin cleared.
 *
 * @param primary - the agent's configured primary, `undefined` when none is configured.
 */
export function configuredModelPatch(current: SessionEntry | undefined, primary: ModelRef | undefined, nowMs: number): SessionPatch {
  return {
    ...CLEAR_MODEL_OVERRIDE_PATCH,
    fallbackNotice: null,
    pendingLiveSwitch: primary === undefined ? null : { provider: primary.provider, model: primary.model, requestedAt: nowMs },
    ...incompatiblePinPatch(current, primary?.provider),
  };
}

/**
 * The patch of `/new`, `/reset` and `sessions.reset`: automatic state cleared (a legacy automatic model override,
 * an automatic auth pin, the notice state, a pending switch, the origin probe stamp), what the user chose kept (a
 * user or legacy model override, a user pin), and the compaction count and chat type untouched.
 */
export function sessionResetPatch(current: SessionEntry | undefined): SessionPatch {
  return {
    ...(current?.modelOverrideSource === 'auto' ? CLEAR_MODEL_OVERRIDE_PATCH : { modelOverrideOrigin: null, lastOriginProbeAt: null }),
    ...(isUserPin(current) ? {} : CLEAR_AUTH_PIN_PATCH),
    fallbackNotice: null,
    pendingLiveSwitch: null,
  };
}
