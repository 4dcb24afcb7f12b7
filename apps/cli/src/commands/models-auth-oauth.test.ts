import fs from 'node:fs';
import path from 'node:path';
import { openAuthProfileStore } from '@understudy/auth-profile-store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempHome, runStoreCli } from '../test-support/run-store-cli.js';
import type { TempHome } from '../test-support/run-store-cli.js';

const ACCESS = 'at-test-oauth-json-0001';
const REFRESH = 'rt-test-oauth-json-0002';

let temp: TempHome;
let configPath: string;

const run = (argv: readonly string[], stdin?: string) =>
  runStoreCli(argv, { home: temp.home, ...(stdin === undefined ? {} : { stdin }), env: { UNDERSTUDY_CONFIG: configPath } });

function idToken(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none' })}.${part(claims)}.`;
}

beforeEach(() => {
  temp = makeTempHome();
  configPath = path.join(temp.home, 'understudy.json5');
  fs.writeFileSync(configPath, `{ models: { providers: { openai: { baseUrl: 'http://127.0.0.1:9/v1', api: 'openai-completions' } } } }`);
});

afterEach(() => temp.remove());

describe('models auth add --type oauth --key-stdin with token JSON (the model-failover doc "Auth storage (keys + OAuth)")', () => {
  it('stores a token endpoint answer as provider:<email>, expiring expires_in from now, and prints no token', async () => {
    const before = Date.now();
    const json = JSON.stringify({ access_token: ACCESS, refresh_token: REFRESH, expires_in: 3600, id_token: idToken({ email: 'ada@example.com' }) });
    const result = await run(['models', 'auth', 'add', '--provider', 'openai', '--type', 'oauth', '--key-stdin', '--json'], json);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ id: 'openai:ada@example.com', provider: 'openai', type: 'oauth', created: true });
    const store = await openAuthProfileStore({ stateDir: temp.stateRoot, agentId: 'main', readOnly: true });
    const credential = await store.resolveCredential('openai:ada@example.com');
    await store.close();
    expect(credential?.type).toBe('oauth');
    if (credential?.type !== 'oauth') return;
    expect(credential.access?.reveal()).toBe(ACCESS);
    expect(credential.refresh?.reveal()).toBe(REFRESH);
    expect(credential.expires).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(result.stdout).not.toContain(ACCESS);
  });

  it('reads a file that nests the tokens (a CLI login file), taking the expiry from the JWT access token', async () => {
    const access = idToken({ exp: 4_102_444_800 });
    const json = JSON.stringify({ tokens: { access_token: access, refresh_token: REFRESH }, last_refresh: '2026-01-01T00:00:00Z' });
    const result = await run(['models', 'auth', 'add', '--provider', 'openai', '--id', 'sub', '--type', 'oauth', '--key-stdin', '--json'], json);
    expect(result.code).toBe(0);
    const listed = await run(['models', 'auth', 'list', '--json']);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: 'openai:sub', type: 'oauth', hasSecret: true, hasRefresh: true, expires: '2100-01-01T00:00:00.000Z' })]);
  });

  it('names what is missing without echoing the input', async () => {
    const result = await run(['models', 'auth', 'add', '--provider', 'openai', '--type', 'oauth', '--key-stdin'], JSON.stringify({ token: ACCESS }));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/neither access_token nor refresh_token/);
    expect(result.stderr).not.toContain(ACCESS);
  });

  it('explains how to configure a device login when the provider has no issuer', async () => {
    const result = await run(['models', 'auth', 'login', '--provider', 'openai']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/models\.providers\.openai\.oauth\.\{deviceAuthorizationUrl, clientId\}/);
  });
});
