/**
 * `PATCH /admin/sessions/:key` — `sessions.patch` semantics (docs/contracts.md#gateway): the session fields of docs/policy.md#failover-reasons,
 * `null` clears a field, an absent key leaves it alone. A model change is a user override with a pending live
 * switch (like `/model`); clearing the model is `/model default`; a new `compactionCount` releases an automatic
 * auth pin so the next turn re-picks it (the model-failover doc "Session stickiness").
 */
import type { SessionEntry, SessionPatch } from '@understudy/contracts';
import { CLEAR_AUTH_PIN_PATCH, formatModelRef, normalizeProfileId, parseModelRef, parseProfileId, splitModelAndProfile } from '@understudy/contracts';
import { configuredModelPatch, userModelPatch } from '@understudy/fallback-runner';
import * as z from 'zod';
import { invalidRequest } from '../gateway-error.js';
import type { SessionContext } from './session-ops.js';
import { configuredPrimary, resolveUserModel, resolveUserProfile, updateSession } from './session-ops.js';

const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().optional();
const text = z.string().trim().min(1);

/** The body of `PATCH /admin/sessions/:key`. Unknown keys are a 400 naming them. */
const sessionPatchBodySchema = z.strictObject({
  /** Convenience: `"provider/model[@profile]"` or an alias, like `/model`; `null` is `/model default`. */
  model: nullable(text),
  providerOverride: nullable(text),
  modelOverride: nullable(text),
  modelOverrideSource: nullable(z.enum(['user', 'auto'])),
  modelOverrideOrigin: nullable(text),
  authProfileOverride: nullable(text),
  authProfileOverrideSource: nullable(z.enum(['user', 'auto'])),
  authProfileOverrideCompactionCount: nullable(z.number().int().min(0)),
  compactionCount: nullable(z.number().int().min(0)),
  chatType: nullable(z.enum(['direct', 'group', 'channel'])),
});

/** A validated patch body. */
export type SessionPatchBody = z.output<typeof sessionPatchBodySchema>;

/**
 * Validates a patch body.
 *
 * @throws {GatewayError} 400 naming each bad field.
 */
export function parseSessionPatchBody(body: unknown): SessionPatchBody {
  const parsed = sessionPatchBodySchema.safeParse(body);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const path = issue.path.join('.') || '(body)';
    if (issue.code === 'unrecognized_keys') return `unknown field(s) ${issue.keys.join(', ')}: accepted are ${Object.keys(sessionPatchBodySchema.shape).join(', ')}`;
    return `${path}: ${issue.message}`;
  });
  throw invalidRequest(problems.join('; '), 'invalid_session_patch');
}

const has = (body: SessionPatchBody, key: keyof SessionPatchBody): boolean => Object.hasOwn(body, key) && body[key] !== undefined;

/** `provider/model` for a `modelOverride` (+ `providerOverride`) patch; a bare model id keeps the session's provider. */
function modelOverrideText(body: SessionPatchBody, current: SessionEntry | undefined): string {
  const model = body.modelOverride ?? '';
  const provider = body.providerOverride ?? undefined;
  if (provider !== undefined) return formatModelRef({ provider, model });
  if (parseModelRef(model) !== undefined) return model;
  if (current?.providerOverride === undefined) {
    throw invalidRequest('modelOverride: give "provider/model", or set providerOverride as well', 'invalid_session_patch');
  }
  return `${current.providerOverride}/${model}`;
}

/**
 * Applies a `sessions.patch` to a session (created when it does not exist yet).
 *
 * @throws {GatewayError} 400 for an unknown model, provider or profile, or contradictory fields.
 */
export async function patchSession(context: SessionContext, key: string, body: SessionPatchBody): Promise<SessionEntry | undefined> {
  if (has(body, 'model') && (has(body, 'modelOverride') || has(body, 'providerOverride'))) {
    throw invalidRequest('give either "model" or "modelOverride"/"providerOverride", not both', 'invalid_session_patch');
  }
  // Resolve everything that needs the config or the store before the compare-and-set loop.
  const current = await context.store.getSession(key);
  let modelText: string | null | undefined;
  let profileText: string | null | undefined = body.authProfileOverride;
  if (has(body, 'model')) {
    if (body.model === null) modelText = null;
    else {
      const split = splitModelAndProfile(body.model ?? '');
      modelText = split.model;
      if (split.profile !== undefined) {
        if (has(body, 'authProfileOverride')) throw invalidRequest('give the profile either after "@" in "model" or in "authProfileOverride"', 'invalid_session_patch');
        profileText = split.profile;
      }
    }
  } else if (has(body, 'modelOverride')) {
    modelText = body.modelOverride === null ? null : modelOverrideText(body, current);
  } else if (has(body, 'providerOverride')) {
    throw invalidRequest('providerOverride needs modelOverride (or use "model": "provider/model")', 'invalid_session_patch');
  }

  const ref = modelText === undefined || modelText === null ? undefined : resolveUserModel(modelText, context.config, has(body, 'model') ? 'model' : 'modelOverride');
  const targetProvider =
    ref?.provider ?? (modelText === null ? configuredPrimary(context.config, context.agentId)?.provider : current?.providerOverride);
  let profileId: string | null | undefined = profileText;
  if (typeof profileText === 'string') {
    const provider = targetProvider ?? parseProfileId(profileText)?.provider;
    if (provider === undefined) throw invalidRequest(`authProfileOverride: "${profileText}" is not "provider:name"`, 'invalid_session_patch');
    profileId = await resolveUserProfile(context.store, provider, normalizeProfileId(profileText));
  }

  const source = body.modelOverrideSource ?? 'user';
  return updateSession(context, key, (entry) => {
    const patch: Record<string, unknown> = {};
    // The model change itself is what `/model` and `/model default` write (docs/policy.md#failover-reasons).
    if (ref !== undefined) {
      Object.assign(patch, userModelPatch(entry, { ref, ...(typeof profileId === 'string' ? { profileId } : {}) }, context.nowMs));
      if (source !== 'user') {
        // An automatic override set by an operator is no user switch: no pending live switch, and the origin it
        // replaced stays as stored unless the body names one.
        delete patch['pendingLiveSwitch'];
        delete patch['modelOverrideOrigin'];
        patch['modelOverrideSource'] = source;
      }
    } else if (modelText === null) {
      Object.assign(patch, configuredModelPatch(entry, configuredPrimary(context.config, context.agentId), context.nowMs));
    } else if (has(body, 'modelOverrideSource')) {
      patch['modelOverrideSource'] = body.modelOverrideSource;
    }
    // The fields the body names win; a cleared model keeps no origin.
    for (const field of ['modelOverrideOrigin', 'authProfileOverrideCompactionCount', 'chatType'] as const) {
      if (has(body, field) && !(field === 'modelOverrideOrigin' && modelText === null)) patch[field] = body[field];
    }

    const pinned = entry?.authProfileOverride;
    if (profileId === null) {
      Object.assign(patch, CLEAR_AUTH_PIN_PATCH);
    } else if (typeof profileId === 'string') {
      Object.assign(patch, {
        authProfileOverride: profileId,
        authProfileOverrideSource: body.authProfileOverrideSource ?? 'user',
        ...(has(body, 'authProfileOverrideCompactionCount') ? {} : { authProfileOverrideCompactionCount: body.compactionCount ?? entry?.compactionCount ?? null }),
      });
    } else if (has(body, 'authProfileOverrideSource') && patch['authProfileOverride'] !== null) {
      // (A model change to another provider has just cleared the pin: there is no pin left to re-source.)
      patch['authProfileOverrideSource'] = body.authProfileOverrideSource;
    }

    if (has(body, 'compactionCount')) {
      patch['compactionCount'] = body.compactionCount;
      const changed = (body.compactionCount ?? undefined) !== entry?.compactionCount;
      if (changed && profileId === undefined && pinned !== undefined && entry?.authProfileOverrideSource !== 'user') {
        // Compaction releases an automatic pin: the next turn picks a profile afresh.
        Object.assign(patch, CLEAR_AUTH_PIN_PATCH);
      }
    }
    return patch as SessionPatch;
  });
}
