import { Secret, providerOfProfileId } from '@understudy/contracts';
import { STORE_CONFORMANCE_CASES } from '@understudy/contracts/testing';
import type { StoreHarness } from '@understudy/contracts/testing';
import { describe, it } from 'vitest';
import { MemoryAuthStore } from './memory-store.js';

function harness(): StoreHarness {
  const store = new MemoryAuthStore();
  return {
    store,
    peer: store,
    addApiKeyProfile: (id, key) => {
      store.addProfile(id, { type: 'api_key', provider: providerOfProfileId(id) ?? '', key: new Secret(key) });
      return Promise.resolve();
    },
    settle: () => Promise.resolve(),
    removeProfile: (id) => Promise.resolve(store.removeProfile(id)),
    setOrder: (provider, ids) => {
      store.setOrder(provider, ids);
      return Promise.resolve();
    },
  };
}

describe('the in-memory test store keeps the store contract (@understudy/contracts/testing)', () => {
  for (const conformance of STORE_CONFORMANCE_CASES) {
    it(conformance.name, () => conformance.run(harness()));
  }
});
