/**
 * End to end, OAuth profiles that keep working (the model-failover doc "Auth storage (keys + OAuth)", "OpenAI
 * Codex subscription plus API-key backup"): two real gateway processes on one state directory in front of the
 * emulator's token endpoint. An expired access token is refreshed once for 20 concurrent requests across both
 * processes and the rotated credential is stored; a revoked refresh token disables the profile
 * (`auth_permanent`) and the API-key backup answers; a usage limit with an exact reset time cools the
 * subscription until then, and it answers again after the reset.
 */
import { openAuthProfileStore } from '@understudy/auth-profile-store';
import type { OAuthCredential } from '@understudy/contracts';
import { Secret } from '@understudy/contracts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorProcess, GatewayProcess } from './test-support/processes.js';
import { startEmulator, startGateway } from './test-support/processes.js';

const SUBSCRIPTION = 'openai:user@example.com';
const BACKUP = 'openai:api-key-backup';
const BACKUP_KEY = 'sk-test-openai-backup-bbbb';

let emulator: EmulatorProcess;
let gateways: GatewayProcess[] = [];
let stateDir: string;

function config(emulatorUrl: string): Record<string, unknown> {
  return {
    models: {
      providers: {
        openai: {
          baseUrl: `${emulatorUrl}/v1`,
          api: 'openai-completions',
          models: ['gpt-a'],
          oauth: { tokenUrl: `${emulatorUrl}/oauth/token`, clientId: 'understudy-e2e' },
        },
      },
      timeouts: { connectMs: 2000, headersMs: 5000, firstTokenMs: 2000, stallMs: 2000, requestMs: 10_000 },
    },
    // The seed's example: the subscription first, the API key as its backup.
    auth: { order: { openai: [SUBSCRIPTION, BACKUP] }, cooldowns: { cooldownStepsMs: [500] } },
    agents: { defaults: { model: { primary: 'openai/gpt-a', fallbacks: [] } } },
    retry: { provider: { maxRetries: 0 } },
    gateway: { port: 0 },
  };
}

async function storeSubscription(credential: Omit<OAuthCredential, 'type' | 'provider'>): Promise<void> {
  const store = await openAuthProfileStore({ stateDir, agentId: 'main' });
  try {
    await store.upsertProfile({ id: SUBSCRIPTION, credential: { type: 'oauth', provider: 'openai', email: 'user@example.com', ...credential } });
    await store.updateUsageStats(SUBSCRIPTION, () => ({}));
  } finally {
    await store.close();
  }
}

async function readStore<T>(body: (store: Awaited<ReturnType<typeof openAuthProfileStore>>) => Promise<T>): Promise<T> {
  const store = await openAuthProfileStore({ stateDir, agentId: 'main', readOnly: true });
  try {
    return await body(store);
  } finally {
    await store.close();
  }
}

async function ask(gateway: GatewayProcess, content: string): Promise<{ status: number; profile: string | null; body: Record<string, unknown> }> {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'default', messages: [{ role: 'user', content }] }),
  });
  return { status: response.status, profile: response.headers.get('x-understudy-profile'), body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  emulator = await startEmulator({ routes: [] });
  stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-oauth-e2e-'));
  const store = await openAuthProfileStore({ stateDir, agentId: 'main' });
  await store.upsertProfile({ id: BACKUP, credential: { type: 'api_key', provider: 'openai', key: new Secret(BACKUP_KEY) } });
  await store.close();
  // Two gateway processes sharing one state directory, as two replicas share a store.
  for (let index = 0; index < 2; index += 1) {
    gateways.push(await startGateway({ config: config(emulator.url), env: { UNDERSTUDY_STATE_DIR: stateDir } }));
  }
});

afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.stop()));
  gateways = [];
  await emulator?.stop();
  if (stateDir !== undefined) fs.rmSync(stateDir, { recursive: true, force: true });
});

describe('an expired OAuth access token', () => {
  it('is refreshed once for 20 concurrent requests across two gateway processes, and the rotated credential is stored', async () => {
    await storeSubscription({ access: new Secret('expired-access-0000'), refresh: new Secret('refresh-token-0000'), expires: Date.now() - 60_000 });
    // A slow token endpoint, so every request arrives while the refresh is still running.
    await emulator.setScript({ routes: [], oauth: { steps: [{ delayMs: 400 }] } });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => ask(gateways[index % 2] as GatewayProcess, `hello ${index}`)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 200));
    expect(new Set(answers.map((answer) => answer.profile))).toEqual(new Set([SUBSCRIPTION]));
    const requests = await emulator.requests();
    const tokenRequests = requests.filter((request) => request.api === 'oauth');
    expect(tokenRequests).toHaveLength(1);
    const calls = requests.filter((request) => request.api === 'openai-completions');
    expect(calls).toHaveLength(20);
    expect(new Set(calls.map((call) => call.keyFingerprint))).toEqual(new Set(['…ss-1']));
    const stored = await readStore((store) => store.resolveCredential(SUBSCRIPTION));
    expect(stored?.type).toBe('oauth');
    if (stored?.type !== 'oauth') return;
    expect(stored.access?.reveal()).toBe('emu-access-1');
    expect(stored.refresh?.reveal()).toBe('emu-refresh-1');
    expect(stored.email).toBe('user@example.com');
    expect(stored.expires).toBeGreaterThan(Date.now() + 3_000_000);
    // The next request uses the stored token: no second refresh.
    expect((await ask(gateways[1] as GatewayProcess, 'again')).profile).toBe(SUBSCRIPTION);
    expect((await emulator.requests()).filter((request) => request.api === 'oauth')).toHaveLength(1);
  });

  it('with a revoked refresh token disables the profile (auth_permanent) and the API-key backup answers', async () => {
    await storeSubscription({ access: new Secret('expired-access-1111'), refresh: new Secret('revoked-refresh-1111'), expires: Date.now() - 60_000 });
    await emulator.setScript({ routes: [], oauth: { steps: [{ status: 400, body: { error: 'invalid_grant', error_description: 'The refresh token was revoked.' } }] } });
    const answer = await ask(gateways[0] as GatewayProcess, 'after revocation');
    expect(answer.status).toBe(200);
    expect(answer.profile).toBe(BACKUP);
    const stats = await readStore((store) => store.getUsageStats(SUBSCRIPTION));
    expect(stats.disabledReason).toBe('auth_permanent');
    expect(stats.disabledUntil).toBeGreaterThan(Date.now() + 5 * 60_000);
    // The disabled subscription is not tried again: the backup answers without another token request.
    expect((await ask(gateways[1] as GatewayProcess, 'still disabled')).profile).toBe(BACKUP);
    expect((await emulator.requests()).filter((request) => request.api === 'oauth')).toHaveLength(1);
    expect(JSON.stringify(answer.body)).not.toContain('revoked-refresh-1111');
  });
});

describe('a Codex-style subscription with an API-key backup', () => {
  it('cools the subscription until the usage limit resets, answers from the backup meanwhile, and returns to the subscription after', async () => {
    await storeSubscription({ access: new Secret('subscription-access-aaaa'), refresh: new Secret('subscription-refresh-aaaa'), expires: Date.now() + 3_600_000 });
    const resetsAt = Math.ceil(Date.now() / 1000) + 3;
    await emulator.setScript({
      routes: [
        {
          match: { key: 'subscription-access-aaaa' },
          steps: [
            { status: 429, body: { error: { type: 'usage_limit_reached', message: 'The usage limit has been reached', plan_type: 'plus', resets_at: resetsAt } } },
            { ok: true },
          ],
        },
      ],
    });
    const limited = await ask(gateways[0] as GatewayProcess, 'first');
    expect(limited.status).toBe(200);
    expect(limited.profile).toBe(BACKUP);
    const stats = await readStore((store) => store.getUsageStats(SUBSCRIPTION));
    expect(stats.cooldownUntil).toBeGreaterThanOrEqual(resetsAt * 1000 - 1000);
    expect(stats.cooldownUntil).toBeLessThanOrEqual(resetsAt * 1000 + 1000);
    // Before the reset, the other process also goes straight to the backup.
    expect((await ask(gateways[1] as GatewayProcess, 'second')).profile).toBe(BACKUP);
    const calls = (await emulator.requests()).filter((request) => request.api === 'openai-completions').map((request) => request.keyFingerprint);
    expect(calls).toEqual(['…aaaa', '…bbbb', '…bbbb']);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, resetsAt * 1000 + 1100 - Date.now())));
    const recovered = await ask(gateways[1] as GatewayProcess, 'after the reset');
    expect(recovered.status).toBe(200);
    expect(recovered.profile).toBe(SUBSCRIPTION);
  });
});
