/**
 * The end-to-end fixture: an emulator as every upstream, a gateway whose config points three providers at it
 * (`openai` with two stored auth profiles in a fixed order, `anthropic` with an inline key given through
 * `${ENV}` expansion, `backup` with an inline key), and helpers to reset state between tests.
 */
import { openAuthProfileStore } from '@understudy/auth-profile-store';
import { Secret } from '@understudy/contracts';
import type { EmulatorProcess, GatewayProcess } from './processes.js';
import { startEmulator, startGateway } from './processes.js';

/** Fixture keys: each ends in a distinct 4-character tail, which is all the emulator records of a key. */
export const KEYS = Object.freeze({
  openaiA: 'sk-test-openai-key-aaaa',
  openaiB: 'sk-test-openai-key-bbbb',
  anthropic: 'sk-test-anthropic-key-dddd',
  backup: 'sk-test-backup-key-cccc',
});

/** The admin token of the fixture gateway. */
export const ADMIN_TOKEN = 'admin-test-token-0123456789';

/** `…aaaa`: how the emulator records a key. */
export function tail(key: string): string {
  return `…${key.slice(-4)}`;
}

/** The fixture config. */
export function fixtureConfig(emulatorUrl: string, gateway: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    models: {
      providers: {
        openai: { baseUrl: `${emulatorUrl}/v1`, api: 'openai-completions', models: ['gpt-a'] },
        anthropic: { baseUrl: emulatorUrl, api: 'anthropic-messages', apiKey: '${TEST_ANTHROPIC_KEY}', models: ['claude-b'] },
        backup: { baseUrl: `${emulatorUrl}/v1`, api: 'openai-completions', apiKey: KEYS.backup, models: ['model-c'] },
      },
      timeouts: { connectMs: 2000, headersMs: 5000, firstTokenMs: 800, stallMs: 800, requestMs: 10_000 },
    },
    auth: { order: { openai: ['openai:a', 'openai:b'] }, cooldowns: { overloadedBackoffMs: 1 } },
    agents: {
      defaults: {
        model: { primary: 'openai/gpt-a', fallbacks: ['anthropic/claude-b', 'backup/model-c'] },
        models: { 'anthropic/claude-b': { alias: 'claude' } },
      },
      entries: { coder: { model: 'backup/model-c' } },
    },
    retry: { provider: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 5 } },
    gateway: { port: 0, maxRequestBytes: 65_536, auth: { adminToken: ADMIN_TOKEN }, shutdownGraceMs: 5000, ...gateway },
  };
}

/** Stores the two OpenAI auth profiles in agent `main`'s database before the gateway starts. */
export async function seedProfiles(stateDir: string): Promise<void> {
  const store = await openAuthProfileStore({ stateDir, agentId: 'main' });
  await store.upsertProfile({ id: 'openai:a', credential: { type: 'api_key', provider: 'openai', key: new Secret(KEYS.openaiA) } });
  await store.upsertProfile({ id: 'openai:b', credential: { type: 'api_key', provider: 'openai', key: new Secret(KEYS.openaiB) } });
  await store.close();
}

/** A running fixture. */
export interface Fixture {
  readonly emulator: EmulatorProcess;
  readonly gateway: GatewayProcess;
  /** `fetch` against the gateway's admin API. */
  admin(method: string, endpoint: string, body?: unknown): Promise<{ status: number; json: unknown }>;
  /** Ends every cooldown and disable window, so tests do not leak state into each other. */
  clearCooldowns(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts emulator + gateway. */
export async function startFixture(
  options: {
    readonly gateway?: Record<string, unknown>;
    readonly script?: unknown;
    /** Rewrites the fixture config (given the emulator URL), e.g. shorter windows and timeouts. */
    readonly config?: ((base: Record<string, unknown>, emulatorUrl: string) => Record<string, unknown>) | undefined;
  } = {},
): Promise<Fixture> {
  const emulator = await startEmulator(options.script ?? { routes: [] });
  let gateway: GatewayProcess;
  try {
    gateway = await startGateway({
      config: options.config === undefined ? fixtureConfig(emulator.url, options.gateway) : options.config(fixtureConfig(emulator.url, options.gateway), emulator.url),
      env: { TEST_ANTHROPIC_KEY: KEYS.anthropic },
      prepare: seedProfiles,
    });
  } catch (error) {
    await emulator.stop();
    throw error;
  }
  const admin = async (method: string, endpoint: string, body?: unknown) => {
    const response = await fetch(`${gateway.url}${endpoint}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, json: (await response.json()) as unknown };
  };
  return {
    emulator,
    gateway,
    admin,
    clearCooldowns: async () => {
      const listed = (await admin('GET', '/admin/profiles')).json as { profiles: { id: string }[] };
      for (const profile of listed.profiles) await admin('POST', `/admin/profiles/${encodeURIComponent(profile.id)}/clear-cooldown`);
    },
    stop: async () => {
      await gateway.stop();
      await emulator.stop();
    },
  };
}
