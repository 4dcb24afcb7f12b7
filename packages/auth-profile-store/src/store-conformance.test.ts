import { Secret, providerOfProfileId } from '@understudy/contracts';
import { STORE_CONFORMANCE_CASES } from '@understudy/contracts/testing';
import type { StoreHarness } from '@understudy/contracts/testing';
import { afterAll, afterEach, describe, it } from 'vitest';
import { connectPostgresState, openAuthProfileStore } from './index.js';
import type { AuthProfileStore, PostgresState } from './index.js';
import { makeTempStateRoot, removeTempStateRoot } from './test-support/temp-state.js';
import { TEST_POSTGRES_URL, TEST_SECRET_KEY, dropSchemas, freshSchema, postgresAvailable } from './test-support/test-postgres.js';

const cleanups: (() => Promise<void>)[] = [];
const schemas: string[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  await dropSchemas(schemas);
});

function harnessOver(store: AuthProfileStore, peer: AuthProfileStore, settle: () => Promise<void> = () => Promise.resolve()): StoreHarness {
  return {
    store,
    peer,
    settle,
    addApiKeyProfile: async (id, key) => {
      await store.upsertProfile({ id, credential: { type: 'api_key', provider: providerOfProfileId(id) ?? '', key: new Secret(key) } });
    },
    removeProfile: (id) => store.removeProfile(id),
    setOrder: async (provider, ids) => {
      await store.setOrderOverride(provider, ids);
    },
  };
}

async function sqliteHarness(): Promise<StoreHarness> {
  const root = makeTempStateRoot('understudy-conformance-');
  const store = await openAuthProfileStore({ stateDir: root, agentId: 'main' });
  const peer = await openAuthProfileStore({ stateDir: root, agentId: 'main' });
  cleanups.push(async () => {
    await store.close();
    await peer.close();
    removeTempStateRoot(root);
  });
  return harnessOver(store, peer);
}

async function postgresHarness(): Promise<StoreHarness> {
  const schema = freshSchema('conformance');
  schemas.push(schema);
  const root = makeTempStateRoot('understudy-conformance-pg-');
  // Two connections (two pools, two listeners), as two replicas would have.
  const states: PostgresState[] = [];
  for (let index = 0; index < 2; index += 1) {
    states.push(await connectPostgresState({ url: TEST_POSTGRES_URL, schema, secretKey: TEST_SECRET_KEY, poolSize: 4 }));
  }
  const [a, b] = states as [PostgresState, PostgresState];
  const store = await openAuthProfileStore({ stateDir: root, agentId: 'main', postgres: a });
  const peer = await openAuthProfileStore({ stateDir: root, agentId: 'main', postgres: b });
  cleanups.push(async () => {
    await store.close();
    await peer.close();
    await a.close();
    await b.close();
    removeTempStateRoot(root);
  });
  return harnessOver(store, peer, async () => {
    await Promise.all([a.sync(), b.sync()]);
  });
}

describe('the SQLite store keeps the store contract (@understudy/contracts/testing)', () => {
  for (const conformance of STORE_CONFORMANCE_CASES) {
    it(conformance.name, async () => conformance.run(await sqliteHarness()));
  }
});

describe.runIf(await postgresAvailable())('the PostgreSQL store keeps the store contract (@understudy/contracts/testing)', () => {
  for (const conformance of STORE_CONFORMANCE_CASES) {
    it(conformance.name, async () => conformance.run(await postgresHarness()), 20_000);
  }
});
