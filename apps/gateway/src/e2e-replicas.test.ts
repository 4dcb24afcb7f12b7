/**
 * End to end: three gateway processes on one PostgreSQL schema, no balancer (each request picks its replica),
 * one emulator as the upstream (README "Running several replicas"). A cooldown answered to one replica is
 * honoured by the others, the probe throttle holds across all three (one probe per provider per window), a `/model` choice and an auth pin made
 * through one replica are what another serves, and a database that goes away mid-load (a proxy in front of the server is cut) fails no
 * chat request, turns /healthz degraded and understudy_state_store_up to 0, refuses /model with a 503, and
 * recovers by itself.
 */
import net from 'node:net';
import { Secret } from '@understudy/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, KEYS, fixtureConfig, tail } from './test-support/e2e-fixture.js';
import type { EmulatorProcess, GatewayProcess } from './test-support/processes.js';
import { startEmulator, startGateway } from './test-support/processes.js';
import { TEST_POSTGRES_URL as POSTGRES_URL, chat, dropReplicaSchema, postgresAvailable, replicaEnv, replicaSchema, withReplicaStore } from './test-support/replica-state.js';

const SCHEMA = replicaSchema('replicas');

/** A loopback proxy in front of the server, so the test can take the database away from the gateways only. */
class Proxy {
  readonly #sockets = new Set<net.Socket>();
  #server: net.Server | undefined;
  port = 0;
  async start(): Promise<void> {
    const target = new URL(POSTGRES_URL);
    const server = net.createServer((client) => {
      const upstream = net.connect(Number(target.port === '' ? 5432 : target.port), target.hostname);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', () => resolve()));
    this.port = (server.address() as net.AddressInfo).port;
    this.#server = server;
  }
  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

const available = await postgresAvailable(SCHEMA);

let emulator: EmulatorProcess;
let replicas: GatewayProcess[] = [];
const proxy = new Proxy();
let sessionCounter = 0;

const withStore = <T>(body: Parameters<typeof withReplicaStore<T>>[1], secretKey?: string): Promise<T> => withReplicaStore(SCHEMA, body, secretKey);

async function clearWindows(): Promise<void> {
  await withStore(async (store) => {
    for (const id of Object.keys(await store.listUsageStats())) await store.updateUsageStats(id, () => ({}));
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
}

function startReplica(): Promise<GatewayProcess> {
  const url = new URL(POSTGRES_URL);
  url.port = String(proxy.port);
  return startGateway({
    config: { ...fixtureConfig(emulator.url), state: { postgres: { schema: SCHEMA, poolSize: 4 } } },
    env: replicaEnv(url.toString()),
  });
}

async function callsWithKey(key: string): Promise<number> {
  return (await emulator.requests()).filter((request) => request.keyFingerprint === tail(key)).length;
}

const rateLimited = { status: 429, headers: { 'retry-after': '60' }, body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } } };

describe.runIf(available)('three gateway replicas on one PostgreSQL schema', () => {
  beforeAll(async () => {
    await proxy.start();
    emulator = await startEmulator({ routes: [] });
    await withStore(async (store) => {
      await store.upsertProfile({ id: 'openai:a', credential: { type: 'api_key', provider: 'openai', key: new Secret(KEYS.openaiA) } });
      await store.upsertProfile({ id: 'openai:b', credential: { type: 'api_key', provider: 'openai', key: new Secret(KEYS.openaiB) } });
    });
    replicas = await Promise.all([startReplica(), startReplica(), startReplica()]);
  }, 90_000);

  afterAll(async () => {
    await Promise.allSettled(replicas.map((replica) => replica.stop()));
    await emulator?.stop();
    await proxy.stop();
    await dropReplicaSchema(SCHEMA);
  });

  it('a 429 answered to A makes B and C skip that profile: the upstream sees no further call with its key', async () => {
    await clearWindows();
    await emulator.setScript({
      routes: [
        { match: { api: 'openai-completions', model: 'gpt-a', key: KEYS.openaiA }, steps: [rateLimited] },
        { match: { api: 'openai-completions', model: 'gpt-a' }, steps: [{ ok: true, echo: true }] },
      ],
    });
    const [a, b, c] = replicas as [GatewayProcess, GatewayProcess, GatewayProcess];
    const first = await chat(a, 'to A');
    expect(first).toMatchObject({ status: 200, profile: 'openai:b' });
    expect(await callsWithKey(KEYS.openaiA)).toBe(1);
    // Well inside the cache bound (1 s): only the change notification can tell B and C about the cooldown.
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const replica of [b, c, b, c]) expect(await chat(replica, 'to B or C')).toMatchObject({ status: 200, profile: 'openai:b' });
    expect(await callsWithKey(KEYS.openaiA)).toBe(1);
  }, 30_000);

  it('across all three replicas, a cooling provider gets at most one probe per throttle window', async () => {
    await clearWindows();
    await emulator.setScript({
      routes: [
        { match: { api: 'openai-completions', model: 'gpt-a' }, steps: [{ status: 503, body: { error: { message: 'Service Unavailable', type: 'server_error' } } }] },
        { steps: [{ ok: true, echo: true }] },
      ],
    });
    const primaryCalls = async (): Promise<number> => (await emulator.requests()).filter((request) => request.model === 'gpt-a').length;
    const [a] = replicas as [GatewayProcess, GatewayProcess, GatewayProcess];
    expect((await chat(a, 'cools both profiles')).status).toBe(200);
    const afterCooling = await primaryCalls();
    expect(afterCooling).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // A storm through every replica, well inside one probe throttle window (30 s by default): each replica may
    // want to probe the cooling primary (a computed cooldown is probed whatever its distance to expiry), but the
    // slot is one row in the shared state.
    for (let round = 0; round < 8; round += 1) {
      const answers = await Promise.all(replicas.map((replica, index) => chat(replica, `storm ${String(round)}-${String(index)}`)));
      for (const answer of answers) expect(answer.status).toBe(200);
    }
    expect((await primaryCalls()) - afterCooling).toBeLessThanOrEqual(1);
  }, 30_000);

  it('a /model choice made through A is what B serves on that session, and an auth pin survives the change of replica', async () => {
    await clearWindows();
    await emulator.setScript({ routes: [{ steps: [{ ok: true, echo: true }] }] });
    const [a, b, c] = replicas as [GatewayProcess, GatewayProcess, GatewayProcess];
    sessionCounter += 1;
    const session = `replica-session-${String(sessionCounter)}`;
    expect((await chat(a, '/model backup/model-c', session)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await chat(b, 'served by B', session)).toMatchObject({ status: 200, model: 'backup/model-c' });
    expect((await chat(b, '/model openai/gpt-a@openai:b', session)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await chat(c, 'served by C', session)).toMatchObject({ status: 200, model: 'openai/gpt-a', profile: 'openai:b' });
    expect(await chat(a, 'served by A', session)).toMatchObject({ status: 200, model: 'openai/gpt-a', profile: 'openai:b' });
  }, 30_000);

  it('the database going away mid-load fails no chat request; /healthz is degraded, /model answers 503, and it recovers by itself', async () => {
    await clearWindows();
    await emulator.setScript({ routes: [{ steps: [{ ok: true, echo: true, delayMs: 20 }] }] });
    const [a, b] = replicas as [GatewayProcess, GatewayProcess];
    sessionCounter += 1;
    const session = `replica-session-${String(sessionCounter)}`;
    expect((await chat(a, 'before', session)).status).toBe(200);
    let stop = false;
    const statuses: number[] = [];
    const load = (async () => {
      for (let round = 0; !stop; round += 1) {
        const results = await Promise.all(replicas.map((replica, index) => chat(replica, `load ${String(round)}-${String(index)}`, index === 0 ? session : undefined)));
        statuses.push(...results.map((result) => result.status));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await proxy.stop();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const health = (await (await fetch(`${a.url}/healthz`)).json()) as { status: string; state?: { up: boolean } };
    expect(health).toMatchObject({ status: 'degraded', state: { backend: 'postgres', up: false } });
    expect(await (await fetch(`${b.url}/metrics`)).text()).toMatch(/understudy_state_store_up\{backend="postgres"\} 0/);
    const refused = await chat(a, '/model backup/model-c', session);
    expect(refused.status).toBe(503);
    expect(refused.text).toContain('shared state store (PostgreSQL) is unreachable');
    await proxy.start();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    stop = true;
    await load;
    expect(statuses.length).toBeGreaterThan(6);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const deadline = Date.now() + 10_000;
    let recovered: { status: string } = { status: '' };
    while (Date.now() < deadline) {
      recovered = (await (await fetch(`${a.url}/healthz`)).json()) as { status: string };
      if (recovered.status === 'ok') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(recovered.status).toBe('ok');
    expect((await chat(a, '/model backup/model-c', session)).status).toBe(200);
  }, 60_000);

  it('admin API through any replica lists the same profiles', async () => {
    const listed = await Promise.all(
      replicas.map(async (replica) => {
        const response = await fetch(`${replica.url}/admin/profiles`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
        return ((await response.json()) as { profiles: { id: string }[] }).profiles.map((profile) => profile.id).sort();
      }),
    );
    expect(new Set(listed.map((ids) => ids.join(','))).size).toBe(1);
    expect(listed[0]).toContain('openai:a');
  });

  it('a credential sealed under another key costs only its profile: requests go on, /healthz says degraded and names it', async () => {
    await clearWindows();
    await emulator.setScript({ routes: [{ steps: [{ ok: true, echo: true }] }] });
    const [a] = replicas as [GatewayProcess, GatewayProcess, GatewayProcess];
    // What `state copy` with the wrong UNDERSTUDY_SECRET_KEY leaves behind.
    await withStore(async (store) => {
      await store.upsertProfile({ id: 'openai:a', credential: { type: 'api_key', provider: 'openai', key: new Secret(KEYS.openaiA) } });
    }, 'a-different-test-secret-key-9876543210zyx');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await chat(a, 'with one unreadable profile')).toMatchObject({ status: 200, profile: 'openai:b' });
    const health = (await (await fetch(`${a.url}/healthz`)).json()) as { status: string; state: { unreadableCredentials: string[] } };
    expect(health).toMatchObject({ status: 'degraded', state: { backend: 'postgres', up: true, unreadableCredentials: ['main/openai:a'] } });
    expect(a.stderr()).toContain('the credential of openai:a cannot be opened');
    expect(a.stderr()).not.toContain(KEYS.openaiA);
    // Sealed again with the replicas' key: the profile is back and so is `ok`.
    await withStore(async (store) => {
      await store.upsertProfile({ id: 'openai:a', credential: { type: 'api_key', provider: 'openai', key: new Secret(KEYS.openaiA) } });
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await chat(a, 'all readable again')).toMatchObject({ status: 200, profile: 'openai:a' });
    expect(((await (await fetch(`${a.url}/healthz`)).json()) as { status: string }).status).toBe('ok');
  }, 30_000);
});
