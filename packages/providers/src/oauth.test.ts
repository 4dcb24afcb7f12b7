/**
 * OAuth refresh against the emulator's token endpoint: refresh when the access token is expired and after a
 * 401, written back through the port, once per expiry even under 20 concurrent calls.
 */
import type { OAuthCredential, ProfileId } from '@understudy/contracts';
import { Secret } from '@understudy/contracts';
import { describe, expect, it } from 'vitest';
import type { EmulatorScript } from '@understudy/provider-emulator/client';
import type { ChatRequest, ProviderApi } from './chat-types.js';
import type { ProviderClient } from './client-options.js';
import type { OAuthCredentialSink } from './oauth-refresher.js';
import { emulatorClient } from './test-support/clients.js';
import { useEmulator } from './test-support/emulator.js';

const emulator = useEmulator();
const NOW = Date.now();

const request: ChatRequest = { model: 'model-o', messages: [{ role: 'user', content: 'hi' }] };

/** A port that remembers what it was asked to save. */
function recordingSink(): OAuthCredentialSink & { saved: { profileId: ProfileId; credential: OAuthCredential }[] } {
  const saved: { profileId: ProfileId; credential: OAuthCredential }[] = [];
  return {
    saved,
    saveRefreshedCredential: async (profileId, credential) => {
      saved.push({ profileId, credential });
    },
  };
}

function oauthCredential(access: string, expires: number): OAuthCredential {
  return { type: 'oauth', provider: 'anthropic', access: new Secret(access), refresh: new Secret('refresh-token-0'), expires, email: 'user@example.com' };
}

async function oauthClient(api: ProviderApi, script: EmulatorScript, sink: OAuthCredentialSink): Promise<ProviderClient> {
  await emulator.setScript(script);
  const client = emulator.client(api, { oauth: { tokenUrl: `${emulator.url}/oauth/token`, clientId: 'understudy-test', store: sink } });
  return client;
}

describe('OAuth refresh', () => {
  it('refreshes an expired access token exactly once for 20 concurrent calls, and writes it back', async () => {
    const sink = recordingSink();
    const client = await oauthClient('openai-completions', { routes: [] }, sink);
    const expired = oauthCredential('expired-access-1', NOW - 60_000);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => client.complete(request, { credential: expired, profileId: 'openai:user@example.com' })),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    expect((await emulator.stats()).oauthRefreshes).toBe(1);
    expect(sink.saved).toHaveLength(1);
    const [saved] = sink.saved;
    if (saved === undefined) return;
    expect(saved.profileId).toBe('openai:user@example.com');
    expect(saved.credential.access?.reveal()).toBe('emu-access-1');
    expect(saved.credential.refresh?.reveal()).toBe('emu-refresh-1');
    expect(saved.credential.email).toBe('user@example.com');
    expect(saved.credential.expires).toBeGreaterThan(NOW + 3_000_000);
    const records = await emulator.requests();
    const [tokenRequest] = records.filter((record) => record.api === 'oauth');
    expect(tokenRequest?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(tokenRequest?.body).toEqual({ grant_type: 'refresh_token', refresh_token: '…en-0', client_id: 'understudy-test' });
    const calls = records.filter((record) => record.api === 'openai-completions');
    expect(calls).toHaveLength(20);
    expect(calls.every((record) => record.keyFingerprint === '…ss-1')).toBe(true);

    // A later call still holding the replaced credential gets the new one without another refresh.
    const later = await client.complete(request, { credential: expired, profileId: 'openai:user@example.com' });
    expect(later.ok).toBe(true);
    expect((await emulator.stats()).oauthRefreshes).toBe(1);
  });

  it('refreshes once after 20 concurrent 401s for the same stale token, then retries each call', async () => {
    const sink = recordingSink();
    const script = {
      routes: [{ match: { key: 'revoked-access' }, steps: [{ status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } }] }],
    };
    const client = await oauthClient('anthropic-messages', script, sink);
    const stale = oauthCredential('revoked-access', NOW + 3_600_000);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => client.stream(request, { credential: stale, profileId: 'anthropic:user@example.com' })),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    expect((await emulator.stats()).oauthRefreshes).toBe(1);
    expect(sink.saved).toHaveLength(1);
    const records = await emulator.requests();
    const calls = records.filter((record) => record.api === 'anthropic-messages');
    expect(calls.filter((record) => record.outcome === 'status 401')).toHaveLength(20);
    const retried = calls.filter((record) => record.outcome !== 'status 401');
    expect(retried).toHaveLength(20);
    // OAuth on Anthropic: bearer token plus the oauth beta flag.
    expect(retried.every((record) => record.keyFingerprint === '…ss-1' && record.headers['anthropic-beta'] === 'oauth-2025-04-20')).toBe(true);
    for (const result of results) if (result.ok) result.value.cancel();
  });

  it('returns the refresh failure (no secret in it) and sends no provider call', async () => {
    const sink = recordingSink();
    const script = { routes: [], oauth: { steps: [{ status: 400, body: { error: 'invalid_grant', error_description: 'Refresh token refresh-token-0 was revoked' } }] } };
    const client = await oauthClient('google-generative-ai', script, sink);
    const result = await client.complete(request, { credential: oauthCredential('old', NOW - 1), profileId: 'google:default' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failure).toMatchObject({ status: 400, phase: 'body', outputStarted: false });
    expect(result.failure.message).toMatch(/^OAuth token refresh failed: HTTP 400/);
    expect(JSON.stringify(result.failure)).not.toContain('refresh-token-0');
    expect(result.failure.body).toContain('invalid_grant');
    expect(sink.saved).toHaveLength(0);
    expect((await emulator.requests()).filter((record) => record.api !== 'oauth')).toHaveLength(0);
  });

  it('keeps working when the port cannot save, for this process', async () => {
    const failingSink: OAuthCredentialSink = {
      saveRefreshedCredential: async () => {
        throw new Error('database is locked');
      },
    };
    const client = await oauthClient('openai-completions', { routes: [] }, failingSink);
    const result = await client.complete(request, { credential: oauthCredential('gone', NOW - 1), profileId: 'openai:x' });
    expect(result.ok).toBe(true);
  });

  it('sends an unexpired token as it is, and a token credential is never refreshed', async () => {
    const sink = recordingSink();
    const client = await oauthClient('openai-completions', { routes: [] }, sink);
    expect((await client.complete(request, { credential: oauthCredential('fresh-access-9', NOW + 3_600_000), profileId: 'openai:y' })).ok).toBe(true);
    expect((await client.complete(request, { credential: { type: 'token', provider: 'openai', token: new Secret('static-token'), expires: NOW - 1 } })).ok).toBe(true);
    expect((await emulator.stats()).oauthRefreshes).toBe(0);
    expect((await emulator.requests()).map((record) => record.keyFingerprint)).toEqual(['…ss-9', '…oken']);
  });
});

describe('OAuth refresh after the refreshed token expired too', () => {
  it('refreshes from the replacement (its rotated refresh token), not from the stale credential', async () => {
    const sink = recordingSink();
    await emulator.setScript({ routes: [], oauth: { steps: [{ accessToken: 'short-lived', refreshToken: 'rotated-refresh-1', expiresInSeconds: 1 }, {}] } });
    const client = emulatorClient('openai-completions', emulator.url, {
      oauth: { tokenUrl: `${emulator.url}/oauth/token`, store: sink, expirySkewMs: 5_000 },
    });
    emulator.closeAfterAll(client);
    const stale = oauthCredential('expired-access-2', NOW - 60_000);
    expect((await client.complete(request, { credential: stale, profileId: 'openai:rotating' })).ok).toBe(true);
    // The replacement expires within the skew, so the next call with the stale credential refreshes again,
    // sending the rotated refresh token.
    expect((await client.complete(request, { credential: stale, profileId: 'openai:rotating' })).ok).toBe(true);
    const tokenRequests = (await emulator.requests()).filter((record) => record.api === 'oauth');
    expect(tokenRequests.map((record) => (record.body as { refresh_token: string }).refresh_token)).toEqual(['…en-0', '…sh-1']);
    expect(sink.saved.map((entry) => entry.credential.refresh?.reveal())).toEqual(['rotated-refresh-1', 'emu-refresh-2']);
  });
});
