/**
 * What a run reads from and writes to the session (the model-failover doc "Session overrides and live model switching",
 * "User-visible fallback notices", "Session stickiness", "Selection source policy").
 */
import { describe, expect, it } from 'vitest';
import { fallbackClearedNoticeText, fallbackNoticeText } from './index.js';
import { brief, world } from './test-support/harness.js';

const NOW = 1_000_000;

describe('fallback notices: once per state change, direct chats only', () => {
  it('announces the move to a fallback once, stays quiet while the pair holds, announces the return', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    const first = await w.run({ openai: [{ status: 401 }] });
    expect(first.notice).toBe('↪️ Model Fallback: anthropic/claude-x (selected openai/gpt-x; auth)');
    expect(first.fallbackReason).toBe('auth');
    expect(w.store.session('s1')?.fallbackNotice).toEqual({ selected: 'openai/gpt-x', active: 'anthropic/claude-x', reason: 'auth', since: NOW });
    const second = await w.run({});
    expect(second.candidate.provider).toBe('anthropic');
    expect(second.notice).toBeUndefined();
    w.clock.advance(31_000);
    const third = await w.run({});
    expect(third.notice).toBe('↪️ Model Fallback cleared: openai/gpt-x (was anthropic/claude-x)');
    expect(w.store.session('s1')?.fallbackNotice).toBeUndefined();
    expect((await w.run({})).notice).toBeUndefined();
  });

  it('a change of the active fallback is a new state: a new notice', async () => {
    const w = world({
      profiles: ['openai:a', 'anthropic:a', 'google:a'],
      config: { agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['anthropic/claude-x', 'google/gemini-x'] } } } },
    });
    await w.run({ openai: [{ status: 401 }] });
    const next = await w.run({ anthropic: [{ status: 401 }] });
    expect(next.notice).toBe(fallbackNoticeText({ active: 'google/gemini-x', selected: 'openai/gpt-x', reason: 'auth' }));
  });

  it.each(['group', 'channel'] as const)('%s chats get no notice, but the same state is kept', async (chatType) => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    const result = await w.run({ openai: [{ status: 401 }] }, { chatType });
    expect(result.notice).toBeUndefined();
    expect(w.store.session('s1')?.fallbackNotice).toMatchObject({ selected: 'openai/gpt-x', active: 'anthropic/claude-x' });
    w.clock.advance(31_000);
    expect((await w.run({}, { chatType })).notice).toBeUndefined();
    expect(w.store.session('s1')?.fallbackNotice).toBeUndefined();
  });

  it("the session's stored chat type applies when the request names none", async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    w.store.setSession('s1', { chatType: 'group' });
    expect((await w.run({ openai: [{ status: 401 }] })).notice).toBeUndefined();
  });

  it('a one-off turn (no session key) returns the notice and writes nothing', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    const result = await w.run({ openai: [{ status: 401 }] }, { sessionKey: undefined });
    expect(result.notice).toContain('↪️ Model Fallback: anthropic/claude-x');
    expect(w.store.calls.getSession + w.store.calls.writeSession).toBe(0);
  });

  it('the cleared notice text', () => {
    expect(fallbackClearedNoticeText({ selected: 'openai/gpt-x', previous: 'anthropic/claude-x' })).toBe(
      '↪️ Model Fallback cleared: openai/gpt-x (was anthropic/claude-x)',
    );
  });
});

describe('fallback is turn-local: the model selection is never written by a fallback', () => {
  it('the next turn starts from the selected primary again', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    await w.run({ openai: [{ status: 429 }] });
    const entry = w.store.session('s1');
    expect(entry?.modelOverride).toBeUndefined();
    expect(entry?.providerOverride).toBeUndefined();
    w.clock.advance(31_000);
    expect((await w.run({})).candidate.provider).toBe('openai');
  });

  it('a concurrent /model between read and write is kept: the compare-and-set write retries on the new entry', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    let once = true;
    w.store.beforeSessionWrite = (key) => {
      if (!once) return;
      once = false;
      w.store.setSession(key, { modelOverride: 'google/gemini-x', modelOverrideSource: 'user' }, NOW);
    };
    await w.run({ openai: [{ status: 401 }] });
    expect(w.store.session('s1')).toMatchObject({
      modelOverride: 'google/gemini-x',
      modelOverrideSource: 'user',
      fallbackNotice: { active: 'anthropic/claude-x' },
    });
  });
});

describe('auth-profile stickiness per session', () => {
  it('pins the automatically chosen profile of the selected provider and reuses it', async () => {
    const w = world({ profiles: ['openai:a', 'openai:b'] });
    w.store.setUsageStats('openai:a', { lastUsed: 50 }).setUsageStats('openai:b', { lastUsed: 10 });
    expect((await w.run({})).profile).toBe('openai:b');
    expect(w.store.session('s1')).toMatchObject({ authProfileOverride: 'openai:b', authProfileOverrideSource: 'auto', authProfileOverrideCompactionCount: 0 });
    expect((await w.run({})).profile).toBe('openai:b');
  });

  it('a compaction releases the automatic pin; the new pin records the compaction count', async () => {
    const w = world({ profiles: ['openai:a', 'openai:b'] });
    w.store.setUsageStats('openai:a', { lastUsed: 10 }).setUsageStats('openai:b', { lastUsed: 50 });
    w.store.setSession('s1', { authProfileOverride: 'openai:b', authProfileOverrideSource: 'auto', authProfileOverrideCompactionCount: 0, compactionCount: 1 });
    expect((await w.run({})).profile).toBe('openai:a');
    expect(w.store.session('s1')).toMatchObject({ authProfileOverride: 'openai:a', authProfileOverrideCompactionCount: 1 });
  });

  it('an automatic pin in cooldown is replaced by the profile that answered', async () => {
    const w = world({ profiles: ['openai:a', 'openai:b'] });
    w.store.setSession('s1', { authProfileOverride: 'openai:a', authProfileOverrideSource: 'auto' });
    w.store.setUsageStats('openai:a', { cooldownUntil: NOW + 10_000_000, cooldownReason: 'overloaded' });
    expect((await w.run({})).profile).toBe('openai:b');
    expect(w.store.session('s1')?.authProfileOverride).toBe('openai:b');
  });

  it('a user pin stays first while eligible and survives temporary rotation', async () => {
    const w = world({ profiles: ['openai:a', 'openai:b'] });
    w.store.setSession('s1', { authProfileOverride: 'openai:b', authProfileOverrideSource: 'user' });
    const rotated = await w.run({ 'openai/gpt-x@openai:b': [{ status: 429 }] });
    expect(brief(rotated.attempts)).toEqual(['call openai/gpt-x@openai:b rate_limit 429', 'call openai/gpt-x@openai:a']);
    expect(w.store.session('s1')).toMatchObject({ authProfileOverride: 'openai:b', authProfileOverrideSource: 'user' });
    w.clock.advance(31_000);
    expect((await w.run({})).profile).toBe('openai:b');
  });

  it("an explicit profile for the turn is tried first and never stored", async () => {
    const w = world({ profiles: ['openai:a', 'openai:b'] });
    expect((await w.run({}, { authProfile: 'openai:b' })).profile).toBe('openai:b');
    expect(w.store.session('s1')?.authProfileOverride).toBeUndefined();
  });

  it('no pin is written for a fallback provider', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    await w.run({ openai: [{ status: 401 }] });
    expect(w.store.session('s1')?.authProfileOverride).toBeUndefined();
  });
});

describe('live user model switches', () => {
  it('jumps straight to a later candidate of the chain and consumes the switch', async () => {
    const w = world({
      profiles: ['openai:a', 'anthropic:a', 'google:a'],
      config: { agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['anthropic/claude-x', 'google/gemini-x'] } } } },
    });
    w.store.setSession('s1', { pendingLiveSwitch: { provider: 'google', model: 'gemini-x', authProfile: 'google:a', requestedAt: 1 } });
    const result = await w.run({ openai: [{ status: 401 }] });
    expect(result.calls.map((call) => call.ref)).toEqual(['openai/gpt-x', 'google/gemini-x']);
    expect(w.store.session('s1')?.pendingLiveSwitch).toBeUndefined();
  });

  it('a pending switch to the model the run starts with was honoured by the run itself: cleared, not handed back', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    w.store.setSession('s1', { modelOverride: 'anthropic/claude-x', modelOverrideSource: 'user', pendingLiveSwitch: { provider: 'anthropic', model: 'claude-x', requestedAt: 1 } });
    const error = await w.fail({ anthropic: [{ status: 401 }] });
    expect((error as Error).name).toBe('FailoverError');
    expect(w.store.session('s1')?.pendingLiveSwitch).toBeUndefined();
  });
});

describe('selection source policy in the run', () => {
  it('a user session override is the requested model and strict', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    w.store.setSession('s1', { modelOverride: 'anthropic/claude-x', modelOverrideSource: 'user' });
    const error = await w.fail({ anthropic: [{ status: 401 }] }, { model: 'openai/gpt-x' });
    expect((error as { attempts: unknown[] }).attempts).toHaveLength(1);
  });

  it('a legacy auto override is honoured; its origin is probed every 5 minutes and the override cleared once it answers', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    w.store.setSession('s1', { modelOverride: 'anthropic/claude-x', modelOverrideSource: 'auto', modelOverrideOrigin: 'openai/gpt-x' });
    const first = await w.run({ openai: [{ status: 429 }] });
    expect(brief(first.attempts)).toEqual(['call openai/gpt-x@openai:a rate_limit 429', 'call anthropic/claude-x@anthropic:a']);
    expect(first.selected).toEqual({ provider: 'openai', model: 'gpt-x' });
    expect(w.store.session('s1')).toMatchObject({ modelOverrideSource: 'auto', lastOriginProbeAt: NOW });
    w.clock.advance(60_000);
    const second = await w.run({});
    expect(brief(second.attempts)).toEqual(['call anthropic/claude-x@anthropic:a']);
    w.clock.advance(240_000);
    const third = await w.run({});
    expect(third.candidate.provider).toBe('openai');
    expect(third.notice).toBe('↪️ Model Fallback cleared: openai/gpt-x (was anthropic/claude-x)');
    const entry = w.store.session('s1');
    expect([entry?.modelOverride, entry?.modelOverrideSource, entry?.modelOverrideOrigin, entry?.lastOriginProbeAt]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('a heartbeat run clears a stale auto override of a direct chat (compare-and-set)', async () => {
    const w = world({ profiles: ['openai:a', 'anthropic:a'] });
    w.store.setSession('s1', { modelOverride: 'anthropic/claude-x', modelOverrideSource: 'auto', modelOverrideOrigin: 'google/gemini-x' });
    const result = await w.run({}, { source: 'heartbeat' });
    expect(result.candidate.provider).toBe('openai');
    expect(w.store.session('s1')?.modelOverride).toBeUndefined();
  });
});
