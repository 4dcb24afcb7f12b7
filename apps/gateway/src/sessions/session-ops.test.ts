import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AuthProfileStore } from '@understudy/auth-profile-store';
import { openAuthProfileStore } from '@understudy/auth-profile-store';
import { parseConfig } from '@understudy/config';
import { Secret } from '@understudy/contracts';
import type { SessionEntry } from '@understudy/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../gateway-error.js';
import { parseSessionPatchBody, patchSession } from './session-patch.js';
import type { SessionContext } from './session-ops.js';
import { clearUserModel, resetSessionState, selectUserModel, updateSession } from './session-ops.js';
import { sessionStatus } from './status-report.js';

const config = parseConfig({
  models: {
    providers: {
      openai: { baseUrl: 'http://127.0.0.1:1/v1', api: 'openai-completions' },
      anthropic: { baseUrl: 'http://127.0.0.1:1', api: 'anthropic-messages' },
    },
  },
  agents: { defaults: { model: { primary: 'openai/gpt-a', fallbacks: ['anthropic/claude-b'] }, models: { 'anthropic/claude-b': { alias: 'claude' } } } },
});

let dir: string;
let store: AuthProfileStore;
let context: SessionContext;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-session-ops-'));
  store = await openAuthProfileStore({ stateDir: dir, agentId: 'main' });
  for (const [id, provider] of [['openai:a', 'openai'], ['openai:b', 'openai'], ['anthropic:w', 'anthropic']] as const) {
    await store.upsertProfile({ id, credential: { type: 'api_key', provider, key: new Secret(`sk-test-${id}`) } });
  }
  context = { store, config, agentId: 'main', nowMs: 5_000 };
});

afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function expectGatewayError(promise: Promise<unknown>, status: number, text: string): Promise<void> {
  const error = await promise.then(() => undefined, (thrown: unknown) => thrown);
  expect(GatewayError.isInstance(error)).toBe(true);
  expect((error as GatewayError).status).toBe(status);
  expect((error as GatewayError).message).toContain(text);
}

describe('/model and /model default', () => {
  // Seed "Session stickiness": a user pin is kept; the pin is cleared when it no longer matches the provider.
  it('writes a user override, a user pin and a pending live switch', async () => {
    const entry = await selectUserModel(context, 's', { provider: 'openai', model: 'gpt-a' }, 'openai:b');
    expect(entry).toMatchObject({
      providerOverride: 'openai',
      modelOverride: 'gpt-a',
      modelOverrideSource: 'user',
      authProfileOverride: 'openai:b',
      authProfileOverrideSource: 'user',
      pendingLiveSwitch: { provider: 'openai', model: 'gpt-a', authProfile: 'openai:b', requestedAt: 5_000 },
    });
  });

  it('keeps a pin of the same provider and clears one of another provider', async () => {
    await selectUserModel(context, 's', { provider: 'openai', model: 'gpt-a' }, 'openai:b');
    expect((await selectUserModel(context, 's', { provider: 'openai', model: 'gpt-z' }))?.authProfileOverride).toBe('openai:b');
    expect((await selectUserModel(context, 's', { provider: 'anthropic', model: 'claude-b' }))?.authProfileOverride).toBeUndefined();
  });

  it('/model default clears the override, keeps a compatible pin, clears an incompatible one', async () => {
    await selectUserModel(context, 'compatible', { provider: 'anthropic', model: 'claude-b' });
    await store.writeSession('compatible', 1, { authProfileOverride: 'openai:a', authProfileOverrideSource: 'user' }, 1);
    const kept = await clearUserModel(context, 'compatible');
    expect(kept?.modelOverride).toBeUndefined();
    expect(kept?.authProfileOverride).toBe('openai:a');
    expect(kept?.pendingLiveSwitch).toMatchObject({ provider: 'openai', model: 'gpt-a' });

    await selectUserModel(context, 'incompatible', { provider: 'anthropic', model: 'claude-b' }, 'anthropic:w');
    expect((await clearUserModel(context, 'incompatible'))?.authProfileOverride).toBeUndefined();
  });
});

describe('/new, /reset, sessions.reset', () => {
  it('clears automatic state, keeps what the user chose, and bumps the revision', async () => {
    await store.writeSession('auto', null, {
      modelOverride: 'claude-b',
      providerOverride: 'anthropic',
      modelOverrideSource: 'auto',
      modelOverrideOrigin: 'openai/gpt-a',
      authProfileOverride: 'anthropic:w',
      authProfileOverrideSource: 'auto',
      compactionCount: 3,
      chatType: 'group',
      fallbackNotice: { selected: 'openai/gpt-a', active: 'anthropic/claude-b', reason: 'rate_limit', since: 1 },
    }, 1);
    const reset = await resetSessionState(context, 'auto');
    expect(reset).toMatchObject({ revision: 2, compactionCount: 3, chatType: 'group' });
    expect(reset?.modelOverride).toBeUndefined();
    expect(reset?.authProfileOverride).toBeUndefined();
    expect(reset?.fallbackNotice).toBeUndefined();

    await selectUserModel(context, 'user', { provider: 'openai', model: 'gpt-a' }, 'openai:b');
    const kept = await resetSessionState(context, 'user');
    expect(kept).toMatchObject({ modelOverride: 'gpt-a', modelOverrideSource: 'user', authProfileOverride: 'openai:b', authProfileOverrideSource: 'user' });
    expect(kept?.pendingLiveSwitch).toBeUndefined();
    expect(await resetSessionState(context, 'missing')).toBeUndefined();
  });
});

describe('pins (the model-failover doc "Session stickiness")', () => {
  it('/reset keeps a pin stored without a source, as the runner reads it: a user pin', async () => {
    await store.writeSession('old', null, { authProfileOverride: 'openai:b', compactionCount: 1 }, 1);
    expect((await resetSessionState(context, 'old'))?.authProfileOverride).toBe('openai:b');
  });

  it('removing a profile clears every session pin naming it, user and automatic; /status never shows one', async () => {
    await store.writeSession('user', null, { authProfileOverride: 'openai:b', authProfileOverrideSource: 'user' }, 1);
    await store.writeSession('auto', null, { authProfileOverride: 'openai:b', authProfileOverrideSource: 'auto', authProfileOverrideCompactionCount: 0 }, 1);
    await store.writeSession('other', null, { authProfileOverride: 'openai:a', authProfileOverrideSource: 'user' }, 1);
    expect(await store.removeProfile('openai:b')).toBe(true);
    const user = await store.getSession('user');
    expect(user?.authProfileOverride).toBeUndefined();
    expect(user?.authProfileOverrideSource).toBeUndefined();
    expect(user?.revision).toBe(2);
    expect((await store.getSession('auto'))?.authProfileOverride).toBeUndefined();
    expect((await store.getSession('other'))?.authProfileOverride).toBe('openai:a');
  });

  it('/status shows a pin only while its profile exists', async () => {
    const shown = await sessionStatus({ store, config, agentId: 'main', nowMs: 5_000 }, 's', {
      key: 's',
      revision: 1,
      createdAt: 1,
      updatedAt: 1,
      authProfileOverride: 'openai:a',
    } as SessionEntry);
    expect(shown.pinnedProfile).toEqual({ profileId: 'openai:a', source: 'user' });
    const gone = await sessionStatus({ store, config, agentId: 'main', nowMs: 5_000 }, 's', {
      key: 's',
      revision: 1,
      createdAt: 1,
      updatedAt: 1,
      authProfileOverride: 'openai:gone',
      authProfileOverrideSource: 'user',
    } as SessionEntry);
    expect(gone.pinnedProfile).toBeUndefined();
  });
});

describe('sessions.patch', () => {
  it('a model change is a user override with a pending switch; a profile after @ is a user pin', async () => {
    const entry = await patchSession(context, 'p', parseSessionPatchBody({ model: 'claude@anthropic:w', compactionCount: 2 }));
    expect(entry).toMatchObject({
      providerOverride: 'anthropic',
      modelOverride: 'claude-b',
      modelOverrideSource: 'user',
      authProfileOverride: 'anthropic:w',
      authProfileOverrideSource: 'user',
      authProfileOverrideCompactionCount: 2,
      compactionCount: 2,
      pendingLiveSwitch: { provider: 'anthropic', model: 'claude-b', authProfile: 'anthropic:w' },
    });
  });

  it('modelOverride with providerOverride works like model; null clears it like /model default', async () => {
    await patchSession(context, 'p', parseSessionPatchBody({ providerOverride: 'anthropic', modelOverride: 'claude-b' }));
    const cleared = await patchSession(context, 'p', parseSessionPatchBody({ modelOverride: null }));
    expect(cleared?.modelOverride).toBeUndefined();
    expect(cleared?.pendingLiveSwitch).toMatchObject({ provider: 'openai', model: 'gpt-a' });
  });

  it('a model change writes what /model writes: the notice state and the pin of another provider are cleared', async () => {
    await store.writeSession('n', null, {
      authProfileOverride: 'openai:a',
      authProfileOverrideSource: 'user',
      fallbackNotice: { selected: 'openai/gpt-a', active: 'anthropic/claude-b', reason: 'auth', since: 1 },
    }, 1);
    const entry = await patchSession(context, 'n', parseSessionPatchBody({ model: 'claude' }));
    expect(entry).toMatchObject({ modelOverride: 'claude-b', modelOverrideSource: 'user', pendingLiveSwitch: { provider: 'anthropic', model: 'claude-b' } });
    expect(entry?.fallbackNotice).toBeUndefined();
    expect(entry?.authProfileOverride).toBeUndefined();
  });

  it('an automatic override an operator sets is no live switch, and keeps the origin it replaced', async () => {
    await store.writeSession('a', null, { modelOverrideOrigin: 'openai/gpt-a', lastOriginProbeAt: 3 }, 1);
    const entry = await patchSession(context, 'a', parseSessionPatchBody({ model: 'claude', modelOverrideSource: 'auto' }));
    expect(entry).toMatchObject({ modelOverride: 'claude-b', modelOverrideSource: 'auto', modelOverrideOrigin: 'openai/gpt-a' });
    expect(entry?.pendingLiveSwitch).toBeUndefined();
    expect(entry?.lastOriginProbeAt).toBeUndefined();
  });

  it('a new compaction count releases an automatic pin, not a user pin', async () => {
    await store.writeSession('auto', null, { authProfileOverride: 'openai:a', authProfileOverrideSource: 'auto', authProfileOverrideCompactionCount: 0, compactionCount: 0 }, 1);
    const released = await patchSession(context, 'auto', parseSessionPatchBody({ compactionCount: 1 }));
    expect(released?.compactionCount).toBe(1);
    expect(released?.authProfileOverride).toBeUndefined();

    await store.writeSession('user', null, { authProfileOverride: 'openai:a', authProfileOverrideSource: 'user', compactionCount: 0 }, 1);
    expect((await patchSession(context, 'user', parseSessionPatchBody({ compactionCount: 1 })))?.authProfileOverride).toBe('openai:a');
  });

  it('rejects unknown fields, unknown providers and profiles of another provider', async () => {
    expect(() => parseSessionPatchBody({ modelOverides: 'x' })).toThrow('modelOverides');
    expect(() => parseSessionPatchBody({ compactionCount: -1 })).toThrow('compactionCount');
    await expectGatewayError(patchSession(context, 'x', parseSessionPatchBody({ model: 'groq/llama' })), 400, 'provider "groq" is not configured');
    await expectGatewayError(patchSession(context, 'x', parseSessionPatchBody({ model: 'openai/gpt-a@anthropic:w' })), 400, 'belongs to provider "anthropic"');
    await expectGatewayError(patchSession(context, 'x', parseSessionPatchBody({ modelOverride: 'gpt-a' })), 400, 'providerOverride');
  });
});

describe('updateSession', () => {
  it('re-reads and recomputes when another writer got there first (compare-and-set)', async () => {
    await store.writeSession('race', null, { compactionCount: 1 }, 1);
    let calls = 0;
    const entry = await updateSession(context, 'race', async (current) => {
      calls += 1;
      if (calls === 1) await store.writeSession('race', current?.revision ?? null, { compactionCount: 7 }, 2);
      return { chatType: 'channel' };
    });
    expect(calls).toBe(2);
    expect(entry).toMatchObject({ compactionCount: 7, chatType: 'channel', revision: 3 });
  });
});
