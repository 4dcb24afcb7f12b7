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
import { formatModelRef, qualifyProfileId } from '@understudy/contracts';
import { configuredModelPatch, sessionResetPatch, userModelPatch } from '@understudy/fallback-runner';
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
  const id = qualifyProfileId(provider, text);
  const profile = await store.getProfile(id);
  if (profile !== undefined && profile.provider === provider) return id;
  const available = (await store.listProfiles({ provider })).map((entry) => entry.id);
  const why = profile === undefined ? 'does not exist' : `belongs to provider "${profile.provider}"`;
  throw invalidRequest(
    `auth profile "${id}" ${why}; profiles of ${provider}: ${available.length === 0 ? 'none' : available.join(', ')}`,
    'profile_not_found',
  );
}

/**
 * `/model <ref>[@profile]` and a `sessions.patch` model change: the runner's {@link userModelPatch} (a strict user
 * override, an optional user auth pin, a pending live switch, the notice state cleared), written with
 * compare-and-set.
 */
export async function selectUserModel(
  context: SessionContext,
  key: string,
  ref: ModelRef,
  profileId?: ProfileId,
): Promise<SessionEntry | undefined> {
  return updateSession(context, key, (current) => userModelPatch(current, { ref, ...(profileId === undefined ? {} : { profileId }) }, context.nowMs));
}

/** The agent's configured primary (what the session runs once its override is gone). */
export function configuredPrimary(config: UnderstudyConfig, agentId: string): ModelRef | undefined {
  return configuredSelection(config.agents, agentId, false).primary;
}

/**
 * `/model default`: the runner's {@link configuredModelPatch} for the agent's configured primary (the override
 * cleared, a pin of the primary's provider kept, the return a pending live switch), written with compare-and-set;
 * a session that does not exist is left so.
 */
export async function clearUserModel(context: SessionContext, key: string): Promise<SessionEntry | undefined> {
  const primary = configuredPrimary(context.config, context.agentId);
  return updateSession(context, key, (current) => (current === undefined ? undefined : configuredModelPatch(current, primary, context.nowMs)));
}

/**
 * `/new`, `/reset`, `sessions.reset`: the runner's {@link sessionResetPatch} (automatic state cleared, the user's
 * choices kept), written with compare-and-set; a session that does not exist is left so. The revision is bumped,
 * so a turn that read the session before the reset cannot write over it.
 */
export async function resetSessionState(context: SessionContext, key: string): Promise<SessionEntry | undefined> {
  return updateSession(context, key, (current) => (current === undefined ? undefined : sessionResetPatch(current)));
}

/** `provider/model` of a session's model override, or `undefined`. */
export function sessionModelOverride(entry: SessionEntry | undefined): string | undefined {
  if (entry?.modelOverride === undefined) return undefined;
  return entry.providerOverride === undefined ? entry.modelOverride : formatModelRef({ provider: entry.providerOverride, model: entry.modelOverride });
}
