/**
 * End to end: `kill -9` of one of three gateway replicas on one PostgreSQL schema in the middle of a failure
 * storm loses no mark it acknowledged, and the other two keep serving (README "Running several replicas").
 *
 * The storm: every replica gets several concurrent requests at a time, all the time; the emulator answers every
 * call of the primary (`openai/gpt-a`, profiles `openai:a` and `openai:b`) with a 429 after a short delay, and
 * the fallback answers. Cooldowns last 200 ms (`auth.cooldowns.cooldownStepsMs`), so the primary's profiles are
 * called, refused and marked again and again, by all three replicas, while one of them is killed.
 *
 * What "acknowledged" means here, precisely: a request is acknowledged when its caller read a whole 200 answer.
 * The runner records a failure on a profile (one `errorCount` step, one row-locked transaction) before it moves
 * on to the next profile or candidate, so every (acknowledged request, profile the emulator answered a 429 with
 * that request's tag) pair is one mark that had committed before the answer left the replica. Afterwards, for
 * each profile P, with errorCount(P) read from the database:
 *
 *   acknowledged pairs of P (all replicas, the killed one included) ≤ errorCount(P) ≤ every pair the emulator saw for P
 *
 * The lower bound is "no acknowledged mark lost"; the upper bound is "no mark counted twice and none invented"
 * (requests the killed replica was still serving may or may not have marked: they sit between the bounds). No
 * timing is asserted; the waits are counts with generous deadlines, for a loaded 2-core machine.
 */
import { Secret } from '@understudy/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, fixtureConfig, tail } from './test-support/e2e-fixture.js';
import type { EmulatorProcess, GatewayProcess, RecordedRequest } from './test-support/processes.js';
import { startEmulator, startGateway } from './test-support/processes.js';
import { TEST_POSTGRES_URL, chat, dropReplicaSchema, postgresAvailable, replicaEnv, replicaSchema, withReplicaStore } from './test-support/replica-state.js';

const SCHEMA = replicaSchema('replica_kill');
/** Concurrent requests each replica is kept busy with. */
const CONCURRENCY = 6;
const PROFILES = { 'openai:a': tail(KEYS.openaiA), 'openai:b': tail(KEYS.openaiB) } as const;
const TAG = /\bstorm-(\d+)-(\d+)-(\d+)\b/;

const available = await postgresAvailable(SCHEMA);

let emulator: EmulatorProcess;
let replicas: GatewayProcess[] = [];

function stormConfig(emulatorUrl: string): Record<string, unknown> {
  const base = fixtureConfig(emulatorUrl);
  const auth = base['auth'] as { cooldowns: Record<string, unknown> };
  return {
    ...base,
    auth: { ...auth, cooldowns: { ...auth.cooldowns, cooldownStepsMs: [200] } },
    state: { postgres: { schema: SCHEMA, poolSize: 4 } },
  };
}

/** One request of the storm and how it ended. */
interface Sent {
  readonly replica: number;
  readonly tag: string;
  /** A whole 200 answer was read. */
  acknowledged: boolean;
  status?: number;
  error?: string;
}

/** Until `until()` says stop, keeps `CONCURRENCY` requests in flight on replica `index`, recording each. */
function storm(index: number, sent: Sent[], until: () => boolean): Promise<void> {
  const replica = replicas[index] as GatewayProcess;
  let counter = 0;
  const worker = async (lane: number): Promise<void> => {
    while (!until()) {
      counter += 1;
      const request: Sent = { replica: index, tag: `storm-${String(index)}-${String(lane)}-${String(counter)}`, acknowledged: false };
      sent.push(request);
      try {
        const answer = await chat(replica, `${request.tag} please answer`);
        request.status = answer.status;
        request.acknowledged = answer.status === 200;
      } catch (error) {
        // The killed replica: its connections are gone; nothing was acknowledged.
        request.error = (error as Error).message;
        return;
      }
    }
  };
  return Promise.all(Array.from({ length: CONCURRENCY }, (_, lane) => worker(lane))).then(() => undefined);
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Profile → the request tags the emulator answered a 429 for with that profile's key (`refused`), and every tag it saw with that key (`seen`). */
function pairsByProfile(records: readonly RecordedRequest[]): Record<string, { refused: Set<string>; seen: Set<string> }> {
  const out: Record<string, { refused: Set<string>; seen: Set<string> }> = {};
  for (const [id, fingerprint] of Object.entries(PROFILES)) {
    const refused = new Set<string>();
    const seen = new Set<string>();
    for (const record of records) {
      if (record.model !== 'gpt-a' || record.keyFingerprint !== fingerprint) continue;
      const tag = TAG.exec(JSON.stringify(record.body))?.[0];
      if (tag === undefined) continue;
      seen.add(tag);
      if (record.outcome === 'status 429') refused.add(tag);
    }
    out[id] = { refused, seen };
  }
  return out;
}

describe.runIf(available)('kill -9 of one of three replicas in a failure storm', () => {
  beforeAll(async () => {
    emulator = await startEmulator({ routes: [] });
    await withReplicaStore(SCHEMA, async (store) => {
      await store.upsertProfile({ id: 'openai:a', credential: { type: 'api_key', provider: 'openai', key: new Secret(KEYS.openaiA) } });
      await store.upsertProfile({ id: 'openai:b', credential: { type: 'api_key', provider: 'openai', key: new Secret(KEYS.openaiB) } });
    });
    replicas = await Promise.all([0, 1, 2].map(() => startGateway({ config: stormConfig(emulator.url), env: replicaEnv(TEST_POSTGRES_URL) })));
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(replicas.map((replica) => replica.stop()));
    await emulator?.stop();
    await dropReplicaSchema(SCHEMA);
  });

  it('every mark the killed replica acknowledged is in the database, none twice, and the other two keep serving', async () => {
    await emulator.setScript({
      routes: [
        {
          match: { api: 'openai-completions', model: 'gpt-a' },
          steps: [{ status: 429, delayMs: 40, body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } } }],
        },
        { steps: [{ ok: true, echo: true, delayMs: 10 }] },
      ],
    });
    const sent: Sent[] = [];
    let stopVictim = false;
    let stopSurvivors = false;
    const victimIndex = 2;
    const victim = replicas[victimIndex] as GatewayProcess;
    const running = [storm(0, sent, () => stopSurvivors), storm(1, sent, () => stopSurvivors), storm(victimIndex, sent, () => stopVictim)];
    /** (acknowledged request of the victim, profile refused for it) pairs so far. */
    const victimAcknowledgedRefusals = async (): Promise<number> => {
      const acknowledged = new Set(sent.filter((request) => request.replica === victimIndex && request.acknowledged).map((request) => request.tag));
      return Object.values(pairsByProfile(await emulator.requests())).reduce((sum, { refused }) => sum + [...refused].filter((tag) => acknowledged.has(tag)).length, 0);
    };

    // Mid-storm: the victim has acknowledged requests whose primary was refused behind it, and requests in flight.
    await waitFor('the victim to acknowledge requests whose primary was refused', async () => (await victimAcknowledgedRefusals()) >= 10);
    victim.child.kill('SIGKILL');
    expect(await victim.exited).toBe(128);
    stopVictim = true;
    const killedAt = sent.length;

    // The others keep serving through and after the kill: wait for more answers from each, then stop.
    await waitFor('both survivors to answer 20 more requests after the kill', () =>
      [0, 1].every((index) => sent.slice(killedAt).filter((request) => request.replica === index && request.acknowledged).length >= 20),
    );
    stopSurvivors = true;
    await Promise.all(running);

    const survivorRequests = sent.filter((request) => request.replica !== victimIndex);
    expect(survivorRequests.filter((request) => !request.acknowledged).map((request) => ({ tag: request.tag, status: request.status, error: request.error }))).toEqual([]);

    const records = await emulator.requests();
    expect(records.filter((record) => record.outcome === 'pending')).toEqual([]);
    const pairs = pairsByProfile(records);
    const acknowledged = new Set(sent.filter((request) => request.acknowledged).map((request) => request.tag));
    const victimAcknowledged = new Set(sent.filter((request) => request.acknowledged && request.replica === victimIndex).map((request) => request.tag));
    const stats = await withReplicaStore(SCHEMA, (store) => store.listUsageStats());
    let victimMarks = 0;
    for (const id of Object.keys(PROFILES)) {
      const { refused, seen } = pairs[id] as { refused: Set<string>; seen: Set<string> };
      const acknowledgedMarks = [...refused].filter((tag) => acknowledged.has(tag)).length;
      victimMarks += [...refused].filter((tag) => victimAcknowledged.has(tag)).length;
      const errorCount = stats[id]?.errorCount ?? 0;
      expect({ id, atLeast: acknowledgedMarks <= errorCount, atMost: errorCount <= seen.size, acknowledgedMarks, errorCount, seen: seen.size }).toMatchObject({
        id,
        atLeast: true,
        atMost: true,
      });
    }
    // The check covered marks of the killed replica, not only of the survivors.
    expect(victimMarks).toBeGreaterThanOrEqual(10);
    // And the survivors still answer once the storm is over (read after the counts: this request marks too).
    for (const index of [0, 1]) expect((await chat(replicas[index] as GatewayProcess, 'after the storm')).status).toBe(200);
  }, 180_000);
});
