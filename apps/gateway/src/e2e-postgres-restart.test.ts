/**
 * End to end: two gateway replicas on a PostgreSQL server of the test's own, restarted for real
 * (`pg_ctl stop -m fast`: every connection cut, a second with no server, `pg_ctl start`) while both serve a
 * steady load. No chat request fails; once the server is back both replicas say `ok` again and a cooldown
 * answered to one is honoured by the other (the change listener came back too). README "Running several
 * replicas"; docs/configuration.md (state.postgres).
 */
import { Secret } from '@understudy/contracts';
import { connectPostgresState, openAuthProfileStore } from '@understudy/auth-profile-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, fixtureConfig, tail } from './test-support/e2e-fixture.js';
import { postgresBinaries, startPrivatePostgres } from './test-support/private-postgres.js';
import type { PrivatePostgres } from './test-support/private-postgres.js';
import type { EmulatorProcess, GatewayProcess } from './test-support/processes.js';
import { startEmulator, startGateway } from './test-support/processes.js';

const SECRET_KEY = 'test-only-restart-secret-key-0123456789';
const SCHEMA = 'understudy_restart';
const bin = postgresBinaries();
if (bin === undefined && process.env['CI'] === 'true') {
  throw new Error('CI=true and no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql: set UNDERSTUDY_TEST_PG_BIN');
}

let server: PrivatePostgres | undefined;
let emulator: EmulatorProcess;
let replicas: GatewayProcess[] = [];

async function chat(replica: GatewayProcess, content: string): Promise<{ status: number; profile: string | null }> {
  const response = await fetch(`${replica.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'default', messages: [{ role: 'user', content }] }),
  });
  await response.arrayBuffer();
  return { status: response.status, profile: response.headers.get('x-understudy-profile') };
}

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const healthOf = async (replica: GatewayProcess): Promise<string> => ((await (await fetch(`${replica.url}/healthz`)).json()) as { status: string }).status;

describe.runIf(bin !== undefined)('a real PostgreSQL restart under load', () => {
  beforeAll(async () => {
    server = await startPrivatePostgres(bin ?? '');
    const state = await connectPostgresState({ url: server.url, schema: SCHEMA, secretKey: SECRET_KEY });
    const store = await openAuthProfileStore({ stateDir: '/nonexistent-understudy-state', agentId: 'main', postgres: state, legacyFiles: 'ignore' });
    await store.upsertProfile({ id: 'openai:a', credential: { type: 'api_key', provider: 'openai', key: new Secret(KEYS.openaiA) } });
    await store.upsertProfile({ id: 'openai:b', credential: { type: 'api_key', provider: 'openai', key: new Secret(KEYS.openaiB) } });
    await store.close();
    await state.close();
    // Profile a fails every call and cools for 1 ms only, so every request marks it: the load keeps writing to
    // the database while it restarts.
    emulator = await startEmulator({
      routes: [
        { match: { api: 'openai-completions', model: 'gpt-a', key: KEYS.openaiA }, steps: [{ status: 503, body: { error: { message: 'Service Unavailable', type: 'server_error' } } }] },
        { steps: [{ ok: true, echo: true, delayMs: 20 }] },
      ],
    });
    const start = (): Promise<GatewayProcess> =>
      startGateway({
        config: {
          ...fixtureConfig(emulator.url),
          auth: { order: { openai: ['openai:a', 'openai:b'] }, cooldowns: { overloadedBackoffMs: 1, cooldownStepsMs: [1, 1, 1] } },
          state: { postgres: { schema: SCHEMA, poolSize: 4 } },
        },
        env: { TEST_ANTHROPIC_KEY: KEYS.anthropic, UNDERSTUDY_POSTGRES_URL: server?.url ?? '', UNDERSTUDY_SECRET_KEY: SECRET_KEY },
      });
    replicas = await Promise.all([start(), start()]);
  }, 90_000);

  afterAll(async () => {
    await Promise.allSettled(replicas.map((replica) => replica.stop()));
    await emulator?.stop();
    server?.destroy();
  });

  it('fails no chat request, recovers by itself, and cooldowns travel between replicas again afterwards', async () => {
    const [a, b] = replicas as [GatewayProcess, GatewayProcess];
    let stop = false;
    const statuses: number[] = [];
    const load = (async () => {
      for (let round = 0; !stop; round += 1) {
        const answers = await Promise.all(replicas.map((replica, index) => chat(replica, `load ${String(round)}-${String(index)}`)));
        statuses.push(...answers.map((answer) => answer.status));
      }
    })();
    await until(async () => statuses.length >= 10, 'the load to start');
    const before = statuses.length;
    // Down for a second: the load's marks meet the stopped server whatever the machine's speed.
    await server?.restart(1000);
    await until(async () => statuses.length >= before + 20, 'requests after the restart');
    await until(async () => (await healthOf(a)) === 'ok' && (await healthOf(b)) === 'ok', 'both replicas to see the server again');
    stop = true;
    await load;
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    // The restart was felt (a write met the closed server), and got over: not a restart nobody noticed.
    const logs = replicas.map((replica) => replica.stderr());
    expect(logs.some((log) => log.includes('shared state store unreachable') && log.includes('shared state store reachable again'))).toBe(true);

    // After the restart the change listener is back: a 429 answered to A makes B skip that profile.
    await emulator.setScript({
      routes: [
        { match: { api: 'openai-completions', model: 'gpt-a', key: KEYS.openaiA }, steps: [{ status: 429, headers: { 'retry-after': '60' }, body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } } }] },
        { steps: [{ ok: true, echo: true }] },
      ],
    });
    expect(await chat(a, 'to A')).toMatchObject({ status: 200, profile: 'openai:b' });
    const callsToA = async (): Promise<number> => (await emulator.requests()).filter((request) => request.keyFingerprint === tail(KEYS.openaiA)).length;
    const afterCooldown = await callsToA();
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (let index = 0; index < 3; index += 1) expect(await chat(b, `to B ${String(index)}`)).toMatchObject({ status: 200, profile: 'openai:b' });
    expect(await callsToA()).toBe(afterCooldown);
  }, 90_000);
});
