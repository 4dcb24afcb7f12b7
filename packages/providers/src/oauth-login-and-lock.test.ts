/**
 * Against the emulator's OAuth endpoints: two clients (two processes' worth of refreshers) sharing one
 * coordinating store refresh an expired token once, and the device-authorization grant logs in, waits while
 * pending, and reports a denial.
 */
import type { Credential, OAuthCredential, ProfileId } from '@understudy/contracts';
import { Secret } from '@understudy/contracts';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from './chat-types.js';
import type { OAuthCredentialStore } from './oauth-refresher.js';
import { DeviceLoginError, loginWithDeviceCode } from './oauth-device-login.js';
import { emulatorClient } from './test-support/clients.js';
import { useEmulator } from './test-support/emulator.js';

const emulator = useEmulator();

const request: ChatRequest = { model: 'model-o', messages: [{ role: 'user', content: 'hi' }] };

/** A shared store: one credential per profile, a refresh lock with a lease, like the SQLite store's. */
function sharedStore(initial: OAuthCredential): OAuthCredentialStore & { saves: number; lockCalls: number } {
  let credential: Credential = initial;
  let lock: { holder: string; expiresAt: number } | undefined;
  const store = {
    saves: 0,
    lockCalls: 0,
    resolveCredential: async () => credential,
    saveRefreshedCredential: async (_id: ProfileId, next: OAuthCredential) => {
      store.saves += 1;
      credential = next;
    },
    tryAcquireRefreshLock: async (_id: ProfileId, holder: string, nowMs: number, leaseMs: number) => {
      store.lockCalls += 1;
      if (lock !== undefined && lock.holder !== holder && lock.expiresAt > nowMs) return false;
      lock = { holder, expiresAt: nowMs + leaseMs };
      return true;
    },
    releaseRefreshLock: async (_id: ProfileId, holder: string) => {
      if (lock?.holder === holder) lock = undefined;
    },
  };
  return store;
}

describe('OAuth refresh across refreshers sharing a store', () => {
  it('sends one token request for 2 × 10 concurrent calls of two clients; the waiting client reads the stored token', async () => {
    await emulator.setScript({ routes: [], oauth: { steps: [{ delayMs: 200 }] } });
    const stale: OAuthCredential = { type: 'oauth', provider: 'openai', access: new Secret('stale-access-0'), refresh: new Secret('refresh-0'), expires: Date.now() - 1 };
    const store = sharedStore(stale);
    const options = { oauth: { tokenUrl: `${emulator.url}/oauth/token`, clientId: 'understudy-test' } };
    const first = emulatorClient('openai-completions', emulator.url, options);
    const second = emulatorClient('openai-completions', emulator.url, options);
    emulator.closeAfterAll(first, second);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (index % 2 === 0 ? first : second).complete(request, { credential: stale, profileId: 'openai:sub', credentialStore: store }),
      ),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    expect((await emulator.stats()).oauthRefreshes).toBe(1);
    expect(store.saves).toBe(1);
    const calls = (await emulator.requests()).filter((record) => record.api === 'openai-completions');
    expect(calls.map((record) => record.keyFingerprint)).toEqual(Array.from({ length: 20 }, () => '…ss-1'));
  });
});

describe('device-authorization login', () => {
  const base = () => ({
    provider: 'openai',
    deviceAuthorizationUrl: `${emulator.url}/oauth/device/code`,
    tokenUrl: `${emulator.url}/oauth/token`,
    clientId: 'understudy-test',
    scope: 'openid email offline_access',
    sleep: async () => undefined,
  });

  it('shows the code, polls while pending, and returns the credential with the id token email', async () => {
    await emulator.setScript({ routes: [], oauth: { device: { pendingPolls: 2, email: 'ada@example.com' } } });
    const prompts: unknown[] = [];
    const credential = await loginWithDeviceCode({ ...base(), onPrompt: (prompt) => prompts.push(prompt) });
    expect(prompts).toEqual([
      expect.objectContaining({ userCode: 'EMU-1001', verificationUri: `${emulator.url}/device`, expiresInSeconds: 600 }),
    ]);
    expect(credential.access?.reveal()).toBe('emu-device-access-1');
    expect(credential.refresh?.reveal()).toBe('emu-device-refresh-1');
    expect(credential.email).toBe('ada@example.com');
    expect(credential.expires).toBeGreaterThan(Date.now() + 3_000_000);
    const records = await emulator.requests();
    expect(records.map((record) => record.outcome)).toEqual(['device code issued', 'status 400', 'status 400', 'device token issued']);
    expect(records[0]?.body).toEqual({ client_id: 'understudy-test', scope: 'openid email offline_access' });
    expect((await emulator.stats()).oauthRefreshes).toBe(0);
  });

  it('reports a denial as access_denied', async () => {
    await emulator.setScript({ routes: [], oauth: { device: { pendingPolls: 0, deny: true } } });
    const login = loginWithDeviceCode({ ...base(), onPrompt: () => undefined });
    await expect(login).rejects.toSatisfy((error: unknown) => DeviceLoginError.isInstance(error) && error.code === 'access_denied');
  });
});
