import { Secret } from '@understudy/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAuthProfileStore } from './index.js';
import type { AuthProfileStore } from './index.js';
import { makeTempStateRoot, removeTempStateRoot } from './test-support/temp-state.js';

let root: string;
let gateway: AuthProfileStore;
let other: AuthProfileStore;

beforeEach(async () => {
  root = makeTempStateRoot();
  gateway = await openAuthProfileStore({ stateDir: root, agentId: 'main', inlineProfiles: [{ provider: 'openai', key: new Secret('sk-test-inline') }] });
  other = await openAuthProfileStore({ stateDir: root, agentId: 'main' });
});

afterEach(async () => {
  await gateway.close();
  await other.close();
  removeTempStateRoot(root);
});

const key = (name: string) => ({ type: 'api_key', provider: 'openai', key: new Secret(`sk-test-${name}`) }) as const;

describe('request path: prepared statements, no routing state kept between calls', () => {
  it('sees another handle\'s profiles, order, cooldowns and removals on the very next call', async () => {
    expect(await gateway.loadProviderAuthState('openai')).toEqual({
      provider: 'openai',
      profiles: [{ id: 'openai:inline', provider: 'openai', type: 'api_key', facts: { type: 'api_key', hasSecret: true, hasRefresh: false }, source: 'inline' }],
      usageStats: {},
    });
    await other.upsertProfile({ id: 'a', credential: key('a') });
    await other.upsertProfile({ id: 'b', credential: key('b') });
    await other.setOrderOverride('openai', ['b', 'a']);
    await other.updateUsageStats('openai:b', () => ({ cooldownUntil: 5000, cooldownReason: 'rate_limit' }));
    const state = await gateway.loadProviderAuthState('OpenAI');
    expect(state.profiles.map((profile) => [profile.id, profile.source])).toEqual([['openai:a', 'store'], ['openai:b', 'store'], ['openai:inline', 'inline']]);
    expect(state.storedOrder).toEqual(['openai:b', 'openai:a']);
    expect(state.usageStats).toEqual({ 'openai:b': { cooldownUntil: 5000, cooldownReason: 'rate_limit' } });

    await other.updateUsageStats('openai:b', (stats) => ({ ...stats, cooldownUntil: 9000 }));
    expect((await gateway.loadProviderAuthState('openai')).usageStats['openai:b']).toEqual({ cooldownUntil: 9000, cooldownReason: 'rate_limit' });
    expect(await gateway.updateUsageStats('openai:b', (stats) => ({ ...stats, errorCount: 1 }))).toEqual({ cooldownUntil: 9000, cooldownReason: 'rate_limit', errorCount: 1 });

    await other.removeProfile('openai:b');
    expect(await gateway.resolveCredential('openai:b')).toBeUndefined();
    const after = await gateway.loadProviderAuthState('openai');
    expect(after.profiles.map((profile) => profile.id)).toEqual(['openai:a', 'openai:inline']);
    expect(after.storedOrder).toEqual(['openai:a']);
    await other.clearOrderOverride('openai');
    expect(await gateway.loadProviderAuthState('openai')).not.toHaveProperty('storedOrder');
  });

  it('sees another handle\'s session writes and refreshed credentials on the very next call', async () => {
    await other.writeSession('s', null, { modelOverride: 'gpt-x' }, 1);
    expect(await gateway.getSession('s')).toEqual({ key: 's', revision: 1, createdAt: 1, updatedAt: 1, modelOverride: 'gpt-x' });
    expect(await gateway.writeSession('s', 1, { chatType: 'group' }, 2)).toMatchObject({ ok: true, entry: { revision: 2, modelOverride: 'gpt-x', chatType: 'group' } });
    expect(await other.writeSession('s', 1, { modelOverride: 'stale' }, 3)).toMatchObject({ ok: false, current: { revision: 2, chatType: 'group' } });

    const oauth = { type: 'oauth', provider: 'openai', refresh: new Secret('rt-test') } as const;
    await other.upsertProfile({ id: 'me', credential: { ...oauth, access: new Secret('at-test-1'), expires: 1000 } });
    expect(await gateway.resolveCredential('openai:me')).toMatchObject({ type: 'oauth', expires: 1000 });
    await other.saveRefreshedCredential('openai:me', { ...oauth, access: new Secret('at-test-2'), expires: 2000 });
    const credential = await gateway.resolveCredential('openai:me');
    expect(credential?.type === 'oauth' && [credential.access?.reveal(), credential.expires]).toEqual(['at-test-2', 2000]);
  });

  it('serves the reads from a read-only handle and refuses its writes', async () => {
    await other.upsertProfile({ id: 'a', credential: key('a') });
    await other.writeSession('s', null, { modelOverride: 'gpt-x' }, 1);
    const reader = await openAuthProfileStore({ stateDir: root, agentId: 'main', readOnly: true });
    try {
      expect((await reader.loadProviderAuthState('openai')).profiles.map((profile) => profile.id)).toEqual(['openai:a']);
      expect(await reader.resolveCredential('openai:a')).toMatchObject({ type: 'api_key', provider: 'openai' });
      expect(await reader.getSession('s')).toMatchObject({ revision: 1, modelOverride: 'gpt-x' });
      await expect(reader.writeSession('s', 1, {}, 2)).rejects.toMatchObject({ code: 'store_read_only' });
      await expect(reader.tryAcquireProbe('openai', 0, 1)).rejects.toMatchObject({ code: 'store_read_only' });
    } finally {
      await reader.close();
    }
  });

  it('fails request-path calls after close with store_closed', async () => {
    await gateway.close();
    for (const call of [
      () => gateway.loadProviderAuthState('openai'),
      () => gateway.resolveCredential('openai:a'),
      () => gateway.updateUsageStats('openai:a', (stats) => stats),
      () => gateway.tryAcquireProbe('openai', 0, 1),
      () => gateway.getSession('s'),
      () => gateway.writeSession('s', null, {}, 1),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'store_closed' });
    }
  });
});
