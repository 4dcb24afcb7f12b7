import fs from 'node:fs';
import path from 'node:path';
import { Secret } from '@understudy/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LegacyAuthFilesError, importLegacyAuthFiles, openAuthProfileStore, statePathsUnder } from '../index.js';
import type { StatePaths } from '../index.js';
import { makeTempStateRoot, modeOf, removeTempStateRoot } from '../test-support/temp-state.js';

const SECRETS = {
  openai: 'sk-test-legacy-openai-1',
  anthropicAccess: 'at-test-legacy-anthropic',
  anthropicRefresh: 'rt-test-legacy-anthropic',
  copilot: 'tok-test-legacy-copilot',
  google: 'at-test-legacy-google',
  googleRefresh: 'rt-test-legacy-google',
  mistral: 'sk-test-legacy-mistral',
  groq: 'sk-test-legacy-groq',
};

/** An older-layout auth-profiles.json: credentials plus order and usage stats, with some junk to skip. */
const authProfiles = {
  version: 1,
  profiles: {
    'openai:default': { type: 'api_key', provider: 'openai', key: SECRETS.openai },
    'anthropic:ada@example.com': {
      type: 'oauth',
      provider: 'anthropic',
      access: SECRETS.anthropicAccess,
      refresh: SECRETS.anthropicRefresh,
      expires: 1_736_200_000_000,
      email: 'ada@example.com',
      label: 'personal',
    },
    'github-copilot:default': { type: 'token', provider: 'github-copilot', token: SECRETS.copilot, expires: 1_736_300_000_000 },
    'openai:broken': { type: 'api_key', provider: 'openai', key: '' },
    mystery: { type: 'saml', provider: 'acme' },
  },
  order: { openai: ['openai:default', 'openai:backup', 'anthropic:x'] },
  lastGood: { openai: 'openai:default' },
  usageStats: { 'openai:default': { lastUsed: 1_736_150_000_000, errorCount: 1 }, 'github-copilot:default': { lastUsed: 5 } },
};

/** The newer auth-state.json: routing state only; it wins over the older layout. */
const authState = {
  order: { anthropic: ['anthropic:ada@example.com'] },
  lastGood: { anthropic: 'anthropic:ada@example.com' },
  usageStats: {
    'openai:default': { lastUsed: 1_736_160_000_000, cooldownUntil: 1_736_160_600_000, errorCount: 2 },
    'anthropic:ada@example.com': { disabledUntil: 1_736_178_000_000, disabledReason: 'billing', failureCounts: { billing: 1 }, mood: 'grumpy' },
  },
};

const oauthJson = {
  google: { access: SECRETS.google, refresh: SECRETS.googleRefresh, expires: 1_736_400_000_000, email: 'bob@example.com' },
};

const authJson = { mistral: SECRETS.mistral, groq: { apiKey: SECRETS.groq } };

let root: string;
let paths: StatePaths;

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2));
}

function writeAllLegacyFiles(): void {
  writeJson(paths.legacy.authProfiles, authProfiles);
  writeJson(paths.legacy.authState, authState);
  writeJson(paths.legacy.oauthJson, oauthJson);
  writeJson(paths.legacy.authJson, authJson);
}

beforeEach(() => {
  root = makeTempStateRoot('understudy-legacy-');
  paths = statePathsUnder(root, 'main');
});

afterEach(() => removeTempStateRoot(root));

describe('fail closed until imported (the model-failover doc "Auth storage")', () => {
  it('refuses to open an agent with credential-bearing legacy files, naming `understudy doctor --fix`', async () => {
    writeAllLegacyFiles();
    const error = await openAuthProfileStore({ stateDir: root, agentId: 'main' }).catch((caught: unknown) => caught);
    expect(LegacyAuthFilesError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('understudy doctor --fix');
    expect((error as LegacyAuthFilesError).files.map((file) => path.basename(file.path)).sort()).toEqual(['auth-profiles.json', 'auth.json', 'oauth.json']);
    expect(fs.existsSync(paths.databasePath)).toBe(false);
  });

  it('names the agent in the command for agents other than main, and leaves them alone for the global oauth.json', async () => {
    writeJson(paths.legacy.oauthJson, oauthJson);
    const work = statePathsUnder(root, 'work');
    const store = await openAuthProfileStore({ stateDir: root, agentId: 'work' });
    await store.close();
    writeJson(work.legacy.authJson, authJson);
    await expect(openAuthProfileStore({ stateDir: root, agentId: 'work' })).rejects.toThrow('understudy doctor --fix --agent work');
  });

  it('does not block on auth-state.json alone (it holds no credentials), nor on a file whose entries are all unusable', async () => {
    writeJson(paths.legacy.authState, authState);
    writeJson(paths.legacy.authJson, { openai: '' });
    const store = await openAuthProfileStore({ stateDir: root, agentId: 'main' });
    await store.close();
  });

  it('blocks on a credential file that is not valid JSON, and the import leaves it in place', async () => {
    fs.mkdirSync(paths.agentDir, { recursive: true });
    fs.writeFileSync(paths.legacy.authProfiles, '{"profiles": {"openai:default": {"key": "sk-test-trunc');
    await expect(openAuthProfileStore({ stateDir: root, agentId: 'main' })).rejects.toMatchObject({ code: 'legacy_auth_files', files: [{ why: 'unreadable' }] });
    const report = await importLegacyAuthFiles({ stateDir: root, agentId: 'main' });
    expect(report.files).toEqual([{ kind: 'auth-profiles.json', path: paths.legacy.authProfiles, status: 'unreadable', error: 'not valid JSON' }]);
    expect(fs.existsSync(paths.legacy.authProfiles)).toBe(true);
  });
});

describe('import (understudy doctor --fix)', () => {
  it('imports the auth-profiles.json + auth-state.json pair (and auth.json, oauth.json) into the same profiles, orders and usage stats', async () => {
    writeAllLegacyFiles();
    const report = await importLegacyAuthFiles({ stateDir: root, agentId: 'main', nowMs: () => 42 });

    expect(Object.fromEntries(report.profiles.map((entry) => [entry.id, entry.action]))).toEqual({
      'openai:default': 'created',
      'anthropic:ada@example.com': 'created',
      'github-copilot:default': 'created',
      'mistral:default': 'created',
      'groq:default': 'created',
      'google:bob@example.com': 'created',
    });
    expect(report.orders).toEqual([
      { provider: 'openai', action: 'created' },
      { provider: 'anthropic', action: 'created' },
    ]);
    expect(report.skipped.map((skip) => `${path.basename(skip.file)} ${skip.at}: ${skip.reason}`).sort()).toEqual([
      'auth-profiles.json lastGood: not imported: rotation order and session pins replace it',
      'auth-profiles.json order["openai"][2]: belongs to provider "anthropic"',
      'auth-profiles.json profiles["anthropic:ada@example.com"].label: unknown field',
      'auth-profiles.json profiles["mystery"]: unknown credential type "saml"',
      'auth-profiles.json profiles["openai:broken"]: api_key without a key',
      'auth-state.json lastGood: not imported: rotation order and session pins replace it',
      'auth-state.json usageStats["anthropic:ada@example.com"].mood: unknown field',
    ]);

    for (const file of [paths.legacy.authProfiles, paths.legacy.authState, paths.legacy.authJson, paths.legacy.oauthJson]) {
      expect(fs.existsSync(file)).toBe(false);
      expect(modeOf(`${file}.imported`)).toBe(0o600);
    }
    expect(report.files.every((file) => file.status === 'imported')).toBe(true);
    const reportText = JSON.stringify(report);
    for (const secret of Object.values(SECRETS)) expect(reportText).not.toContain(secret);

    const store = await openAuthProfileStore({ stateDir: root, agentId: 'main' });
    const openai = await store.loadProviderAuthState('openai');
    expect(openai.profiles.map((profile) => profile.id)).toEqual(['openai:default']);
    expect(openai.storedOrder).toEqual(['openai:default', 'openai:backup']);
    expect(openai.usageStats).toEqual({ 'openai:default': { lastUsed: 1_736_160_000_000, cooldownUntil: 1_736_160_600_000, errorCount: 2 } });
    const anthropic = await store.loadProviderAuthState('anthropic');
    expect(anthropic.storedOrder).toEqual(['anthropic:ada@example.com']);
    expect(anthropic.usageStats['anthropic:ada@example.com']).toEqual({ disabledUntil: 1_736_178_000_000, disabledReason: 'billing', failureCounts: { billing: 1 } });
    expect(await store.getUsageStats('github-copilot:default')).toEqual({ lastUsed: 5 });

    const oauth = await store.resolveCredential('anthropic:ada@example.com');
    expect(oauth).toMatchObject({ type: 'oauth', provider: 'anthropic', expires: 1_736_200_000_000, email: 'ada@example.com' });
    expect(oauth?.type === 'oauth' && [oauth.access?.reveal(), oauth.refresh?.reveal()]).toEqual([SECRETS.anthropicAccess, SECRETS.anthropicRefresh]);
    const token = await store.resolveCredential('github-copilot:default');
    expect(token?.type === 'token' && [token.token.reveal(), token.expires]).toEqual([SECRETS.copilot, 1_736_300_000_000]);
    const groq = await store.resolveCredential('groq:default');
    expect(groq?.type === 'api_key' && groq.key.reveal()).toBe(SECRETS.groq);
    expect(await store.getProfile('google:bob@example.com')).toMatchObject({ type: 'oauth', email: 'bob@example.com', facts: { hasSecret: true, hasRefresh: true } });
    await store.close();
  });

  it('is idempotent: importing the same files again changes nothing and says so', async () => {
    writeAllLegacyFiles();
    await importLegacyAuthFiles({ stateDir: root, agentId: 'main' });
    writeAllLegacyFiles();
    const again = await importLegacyAuthFiles({ stateDir: root, agentId: 'main', nowMs: () => 77 });
    expect(new Set(again.profiles.map((entry) => entry.action))).toEqual(new Set(['unchanged']));
    expect(new Set([...again.orders, ...again.usageStats].map((entry) => entry.action))).toEqual(new Set(['unchanged']));
    expect(fs.existsSync(`${paths.legacy.authProfiles}.imported-77`)).toBe(true);
  });

  it('never overwrites a credential the store already holds, except an OAuth token that expires later', async () => {
    const store = await openAuthProfileStore({ stateDir: root, agentId: 'main' });
    await store.upsertProfile({ credential: { type: 'api_key', provider: 'openai', key: new Secret('sk-test-newer-in-store') } });
    await store.upsertProfile({
      id: 'anthropic:ada@example.com',
      credential: { type: 'oauth', provider: 'anthropic', access: new Secret('at-test-old'), refresh: new Secret('rt-test-old'), expires: 1_000 },
    });
    await store.setOrderOverride('openai', ['openai:default']);
    await store.close();
    writeAllLegacyFiles();

    const report = await importLegacyAuthFiles({ stateDir: root, agentId: 'main' });
    expect(report.profiles.find((entry) => entry.id === 'openai:default')).toMatchObject({ action: 'kept_stored' });
    expect(report.profiles.find((entry) => entry.id === 'anthropic:ada@example.com')).toMatchObject({ action: 'updated' });
    expect(report.orders.find((entry) => entry.provider === 'openai')).toEqual({ provider: 'openai', action: 'kept_stored' });

    const reopened = await openAuthProfileStore({ stateDir: root, agentId: 'main' });
    const openai = await reopened.resolveCredential('openai:default');
    expect(openai?.type === 'api_key' && openai.key.reveal()).toBe('sk-test-newer-in-store');
    const anthropic = await reopened.resolveCredential('anthropic:ada@example.com');
    expect(anthropic?.type === 'oauth' && anthropic.access?.reveal()).toBe(SECRETS.anthropicAccess);
    expect(await reopened.getOrderOverride('openai')).toEqual(['openai:default']);
    await reopened.close();
  });

  it('keeps the later-expiring copy when two legacy files hold the same OAuth profile', async () => {
    writeJson(paths.legacy.authProfiles, {
      profiles: { 'google:bob@example.com': { type: 'oauth', provider: 'google', access: 'at-test-stale', refresh: 'rt-test-stale', expires: 1, email: 'bob@example.com' } },
    });
    writeJson(paths.legacy.oauthJson, oauthJson);
    const report = await importLegacyAuthFiles({ stateDir: root, agentId: 'main' });
    expect(report.profiles).toEqual([
      { id: 'google:bob@example.com', file: paths.legacy.authProfiles, action: 'duplicate', detail: `superseded by ${paths.legacy.oauthJson}, which expires later` },
      { id: 'google:bob@example.com', file: paths.legacy.oauthJson, action: 'created' },
    ]);
  });

  it('reports nothing to do when there are no legacy files', async () => {
    const report = await importLegacyAuthFiles({ stateDir: root, agentId: 'main' });
    expect(report).toMatchObject({ files: [], profiles: [], orders: [], usageStats: [], skipped: [] });
  });
});
