/**
 * The session patches of a user's `/model`, `/model default` and `/reset` (the model-failover doc "Session overrides
 * and live model switching", "Session stickiness"), and that a run follows the `/model` patch as a live switch.
 */
import type { AttemptFunction, SessionEntry, SessionPatch } from '@understudy/contracts';
import { describe, expect, it } from 'vitest';
import { configuredModelPatch, sessionResetPatch, userModelPatch } from './index.js';
import { world } from './test-support/harness.js';

const entry = (fields: Partial<SessionEntry>): SessionEntry => ({ key: 's', revision: 1, createdAt: 0, updatedAt: 0, ...fields });

/** The entry a patch leaves (`null` clears, absent keeps), as the stores apply it. */
function applied(current: SessionEntry | undefined, patch: SessionPatch): Record<string, unknown> {
  const next: Record<string, unknown> = { ...current };
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) delete next[field];
    else next[field] = value;
  }
  return next;
}

const legacyAuto = entry({
  providerOverride: 'anthropic',
  modelOverride: 'claude-b',
  modelOverrideSource: 'auto',
  modelOverrideOrigin: 'openai/gpt-a',
  lastOriginProbeAt: 7,
  authProfileOverride: 'anthropic:w',
  authProfileOverrideSource: 'auto',
  authProfileOverrideCompactionCount: 1,
  compactionCount: 3,
  chatType: 'group',
  fallbackNotice: { selected: 'openai/gpt-a', active: 'anthropic/claude-b', reason: 'rate_limit', since: 1 },
  pendingLiveSwitch: { provider: 'google', model: 'gemini-c', requestedAt: 2 },
});

describe('userModelPatch (/model)', () => {
  it('writes a strict user override and a pending live switch, and clears what belonged to the old selection', () => {
    const next = applied(legacyAuto, userModelPatch(legacyAuto, { ref: { provider: 'openai', model: 'gpt-a' } }, 5_000));
    expect(next).toMatchObject({
      providerOverride: 'openai',
      modelOverride: 'gpt-a',
      modelOverrideSource: 'user',
      pendingLiveSwitch: { provider: 'openai', model: 'gpt-a', requestedAt: 5_000 },
      compactionCount: 3,
      chatType: 'group',
    });
    for (const gone of ['modelOverrideOrigin', 'lastOriginProbeAt', 'fallbackNotice']) expect(next).not.toHaveProperty(gone);
    // The automatic pin belonged to anthropic: the selection moved to openai.
    expect(next).not.toHaveProperty('authProfileOverride');
    expect(next).not.toHaveProperty('authProfileOverrideCompactionCount');
  });

  it('with @profile: the profile is the user pin at the current compaction count, and travels with the switch', () => {
    const patch = userModelPatch(legacyAuto, { ref: { provider: 'anthropic', model: 'claude-b' }, profileId: 'anthropic:x' }, 5_000);
    expect(applied(legacyAuto, patch)).toMatchObject({
      authProfileOverride: 'anthropic:x',
      authProfileOverrideSource: 'user',
      authProfileOverrideCompactionCount: 3,
      pendingLiveSwitch: { provider: 'anthropic', model: 'claude-b', authProfile: 'anthropic:x', requestedAt: 5_000 },
    });
  });

  it('without @profile: a pin of the same provider is kept, one of another provider is cleared', () => {
    const pinned = entry({ authProfileOverride: 'openai:b', authProfileOverrideSource: 'user' });
    expect(applied(pinned, userModelPatch(pinned, { ref: { provider: 'openai', model: 'gpt-z' } }, 1))).toMatchObject({ authProfileOverride: 'openai:b' });
    expect(applied(pinned, userModelPatch(pinned, { ref: { provider: 'anthropic', model: 'claude-b' } }, 1))).not.toHaveProperty('authProfileOverride');
    expect(userModelPatch(undefined, { ref: { provider: 'openai', model: 'gpt-a' } }, 1)).not.toHaveProperty('authProfileOverride');
  });
});

describe('configuredModelPatch (/model default)', () => {
  it('clears the override and the notice, switches back to the primary, keeps only a pin of its provider', () => {
    const user = entry({ providerOverride: 'anthropic', modelOverride: 'claude-b', modelOverrideSource: 'user', authProfileOverride: 'openai:a', authProfileOverrideSource: 'user' });
    const kept = applied(user, configuredModelPatch(user, { provider: 'openai', model: 'gpt-a' }, 9));
    expect(kept).toMatchObject({ authProfileOverride: 'openai:a', pendingLiveSwitch: { provider: 'openai', model: 'gpt-a', requestedAt: 9 } });
    expect(kept).not.toHaveProperty('modelOverride');
    expect(kept).not.toHaveProperty('providerOverride');
    expect(applied(legacyAuto, configuredModelPatch(legacyAuto, { provider: 'openai', model: 'gpt-a' }, 9))).not.toHaveProperty('authProfileOverride');
  });

  it('with no configured primary there is nothing to switch to, and no pin to keep', () => {
    const next = applied(legacyAuto, configuredModelPatch(legacyAuto, undefined, 9));
    expect(next).not.toHaveProperty('pendingLiveSwitch');
    expect(next).not.toHaveProperty('authProfileOverride');
  });
});

describe('sessionResetPatch (/new, /reset)', () => {
  it('clears automatic state and keeps the compaction count and chat type', () => {
    const next = applied(legacyAuto, sessionResetPatch(legacyAuto));
    expect(next).toEqual({ key: 's', revision: 1, createdAt: 0, updatedAt: 0, compactionCount: 3, chatType: 'group' });
  });

  it('keeps what the user chose: a user override and a user pin (a pin without a source counts as one)', () => {
    const user = entry({ providerOverride: 'openai', modelOverride: 'gpt-a', modelOverrideSource: 'user', authProfileOverride: 'openai:b', pendingLiveSwitch: { provider: 'openai', model: 'gpt-a', requestedAt: 1 } });
    expect(applied(user, sessionResetPatch(user))).toEqual({ key: 's', revision: 1, createdAt: 0, updatedAt: 0, providerOverride: 'openai', modelOverride: 'gpt-a', modelOverrideSource: 'user', authProfileOverride: 'openai:b' });
  });
});

describe('a run follows the /model patch', () => {
  it('a /model arriving during a call jumps to that later candidate with its pinned profile, and is consumed', async () => {
    const w = world({
      profiles: ['openai:a', 'anthropic:a', 'google:a', 'google:b'],
      config: { agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['anthropic/claude-x', 'google/gemini-x'] } } } },
    });
    const attempt: AttemptFunction<string> = async (candidate, profile) => {
      if (candidate.provider === 'openai') {
        const current = await w.store.getSession('s1');
        const patch = userModelPatch(current, { ref: { provider: 'google', model: 'gemini-x' }, profileId: 'google:b' }, w.clock.nowMs());
        await w.store.writeSession('s1', current?.revision ?? null, patch, w.clock.nowMs());
        return { ok: false, failure: { status: 401 } };
      }
      return { ok: true, value: `${candidate.provider}/${candidate.model}@${profile?.view.id ?? '-'}` };
    };
    const result = await w.run({}, {}, { attempt });
    expect(result.value).toBe('google/gemini-x@google:b');
    expect(result.attempts.map((record) => `${record.provider}@${record.profile ?? '-'}`)).toEqual(['openai@openai:a', 'google@google:b']);
    expect(w.store.session('s1')).toMatchObject({ modelOverride: 'gemini-x', modelOverrideSource: 'user', authProfileOverride: 'google:b' });
    expect(w.store.session('s1')?.pendingLiveSwitch).toBeUndefined();
  });
});
