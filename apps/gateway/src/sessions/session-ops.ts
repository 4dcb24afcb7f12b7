/**
 * The session changes a user or a host makes (the model-failover doc "Session overrides and live model switching",
 * "Session stickiness"; docs/policy.md#failover-reasons, docs/contracts.md#gateway): `/model` (a user override, an optional user auth pin, a pending live
 * switch), `/model default`, `/new` / `/reset` / `sessions.reset`, and `sessions.patch` from the admin API.
 * Every write is a compare-and-set on the session's revision, retried on conflict, so a concurrent turn never
 * loses a user's selection and a stale writer never overwrites a newer one.
 */
import type { AuthProfileStore } from '@understudy/auth-profile-store';
import { configuredSelection, lookupModelRef } from '@understudy/candidate-chain';
import type { UnderstudyConfig } from '@understudy/config';
import { isConfiguredProvider } from '@understudy/config';
import type { ModelRef, ProfileId, SessionEntry, SessionPatch } from '@understudy/contracts';
import { formatModelRef, normalizeProfileId, parseProfileId } from '@understudy/contracts';
import { isUserPin } from '@understudy/fallback-runner';
import { GatewayError, invalidRequest } from '../gateway-error.js';

/** What the session operations work with. */
export interface SessionContext {
  readonly store: AuthProfileStore;
  readonly config: UnderstudyConfig;
  readonly agentId: string;
  /** Current time, epoch ms. */
  readonly nowMs: number;
}

const MAX_WRITE_ATTEMPTS = 8;

/**
 * Compare-and-set update: `compute` sees the current entry and returns the patch to apply (or `undefined` to
 * write nothing); a conflicting write re-reads and recomputes.
 *
 * @returns the entry after the write, or the unchanged current entry when `compute` wrote nothing.
 */
export async function updateSession(
  context: SessionContext,
  key: string,
  compute: (current: SessionEntry | undefined) => Promise<SessionPatch | undefined> | SessionPatch | undefined,
): Promise<SessionEntry | undefined> {
  for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt += 1) {
    const current = await context.store.getSession(key);
    const patch = await compute(current);
    if (patch === undefined) return current;
    const written = await context.store.writeSession(key, current?.revision ?? null, patch, context.nowMs);
    if (written.ok) return written.entry;
  }
  throw new GatewayError(503, 'unavailable', `session "${key}" is being changed by others too often; try again`, { code: 'session_busy' });
}

/**
 * Reads a model reference the way a user types it: a configured alias, else `provider/model` of a configured
 * provider.
 *
 * @throws {GatewayError} 400 naming what is wrong.
 */
export function resolveUserModel(text: string, config: UnderstudyConfig, field = 'model'): ModelRef {
  const trimmed = text.trim();
  const ref = lookupModelRef(trimmed, config.agents);
  if (ref === undefined) {
    throw invalidRequest(`${field}: "${trimmed}" is neither "provider/model" nor a configured alias (e.g. "openai/gpt-4o")`, 'invalid_model');
  }
  if (!isConfiguredProvider(config, ref.provider)) {
    const known = Object.keys(config.models.providers);
    throw invalidRequest(
      `${field}: provider "${ref.provider}" is not configured (configured: ${known.length === 0 ? 'none' : known.join(', ')})`,
      'provider_not_configured',
    );
  }
  return ref;
}

/**
 * Resolves a profile given with `@profile` for a model of `provider`: a full id (`provider:name`) or a bare
 * name (`name` → `provider:name`). The profile must exist and belong to the provider.
 *
 * @throws {GatewayError} 400 listing the provider's profiles.
 */
export async function resolveUserProfile(store: AuthProfileStore, provider: string, text: string): Promise<ProfileId> {
  const trimmed = text.trim();
  const id = parseProfileId(trimmed) === undefined ? `${provider}:${trimmed}` : normalizeProfileId(trimmed);
  const profile = await store.getProfile(id);
  if (profile !== undefined && profile.provider === provider) return id;
  const available = (await store.listProfiles({ provider })).map((entry) => entry.id);
  const why = profile === undefined ? 'does not exist' : `belongs to provider "${profile.provider}"`;
  throw invalidRequest(
    `auth profile "${id}" ${why}; profiles of ${provider}: ${available.length === 0 ? 'none' : available.join(', ')}`,
    'profile_not_found',
  );
}

const CLEAR_MODEL: SessionPatch = {
  providerOverride: null,
  modelOverride: null,
  modelOverrideSource: null,
  modelOverrideOrigin: null,
  lastOriginProbeAt: null,
};

const CLEAR_PIN: SessionPatch = {
  authProfileOverride: null,
  authProfileOverrideSource: null,
  authProfileOverrideCompactionCount: null,
};

/** The pin fields to clear when the pin belongs to another provider than `provider` (an incompatible pin). */
function pinPatchFor(current: SessionEntry | undefined, provider: string | undefined): SessionPatch {
  const pinned = current?.authProfileOverride;
  if (pinned === undefined) return {};
  return provider !== undefined && parseProfileId(pinned)?.provider === provider ? {} : CLEAR_PIN;
}

/**
 * `/model <ref>[@profile]` and a `sessions.patch` model change: a user model override (strict), an optional
 * user auth pin, and a pending live switch. Without a profile, a pin of another provider is cleared and a pin
 * of the same provider kept. The notice state is cleared: the selection changed.
 */
export async function selectUserModel(
  context: SessionContext,
  key: string,
  ref: ModelRef,
  profileId?: ProfileId,
): Promise<SessionEntry | undefined> {
  return updateSession(context, key, (current) => ({
    ...CLEAR_MODEL,
    providerOverride: ref.provider,
    modelOverride: ref.model,
    modelOverrideSource: 'user',
    fallbackNotice: null,
    pendingLiveSwitch: { provider: ref.provider, model: ref.model, ...(profileId === undefined ? {} : { authProfile: profileId }), requestedAt: context.nowMs },
    ...(profileId === undefined
      ? pinPatchFor(current, ref.provider)
      : { authProfileOverride: profileId, authProfileOverrideSource: 'user', authProfileOverrideCompactionCount: current?.compactionCount ?? null }),
  }));
}

/** The agent's configured primary (what the session runs once its override is gone). */
export function configuredPrimary(config: UnderstudyConfig, agentId: string): ModelRef | undefined {
  return configuredSelection(config.agents, agentId, false).primary;
}

/**
 * `/model default`: clears the model override; keeps an auth pin of the configured primary's provider and
 * clears one of another provider; the return to the configured model is a pending live switch.
 */
export async function clearUserModel(context: SessionContext, key: string): Promise<SessionEntry | undefined> {
  const primary = configuredPrimary(context.config, context.agentId);
  return updateSession(context, key, (current) => {
    if (current === undefined) return undefined;
    return {
      ...CLEAR_MODEL,
      fallbackNotice: null,
      pendingLiveSwitch: primary === undefined ? null : { provider: primary.provider, model: primary.model, requestedAt: context.nowMs },
      ...pinPatchFor(current, primary?.provider),
    };
  });
}

/**
 * `/new`, `/reset`, `sessions.reset`: clears automatic state (a legacy auto model override, an automatic auth
 * pin, the notice state, the pending switch and probe stamps) and keeps what the user chose (a user or legacy
 * model override, a user auth pin), the compaction count and the chat type. The revision is bumped, so a turn
 * that read the session before the reset cannot write over it.
 */
export async function resetSessionState(context: SessionContext, key: string): Promise<SessionEntry | undefined> {
  return updateSession(context, key, (current) => {
    if (current === undefined) return undefined;
    return {
      ...(current.modelOverrideSource === 'auto' ? CLEAR_MODEL : { modelOverrideOrigin: null, lastOriginProbeAt: null }),
      ...(isUserPin(current) ? {} : CLEAR_PIN),
      fallbackNotice: null,
      pendingLiveSwitch: null,
    };
  });
}

/** `provider/model` of a session's model override, or `undefined`. */
export function sessionModelOverride(entry: SessionEntry | undefined): string | undefined {
  if (entry?.modelOverride === undefined) return undefined;
  return entry.providerOverride === undefined ? entry.modelOverride : formatModelRef({ provider: entry.providerOverride, model: entry.modelOverride });
}
