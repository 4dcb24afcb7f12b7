/**
 * One auth-profile store per agent (DESIGN §3), opened on first use and kept open, closed all together on
 * shutdown. A store that fails to open is not cached, so a fixed problem (e.g. `understudy doctor --fix`)
 * needs no restart.
 */
import type { AuthProfileStore, InlineKey } from '@understudy/auth-profile-store';
import { openAuthProfileStore } from '@understudy/auth-profile-store';
import type { UnderstudyConfig } from '@understudy/config';
import { Secret } from '@understudy/contracts';

/** The config's inline keys (`models.providers.<id>.apiKey`) as `<provider>:inline` profiles. */
export function inlineKeysOf(config: UnderstudyConfig): InlineKey[] {
  return Object.entries(config.models.providers)
    .filter(([, provider]) => provider.apiKey !== undefined && provider.apiKey.trim() !== '')
    .map(([provider, settings]) => ({ provider, key: new Secret(settings.apiKey ?? '') }));
}

/** The per-agent stores of one gateway. */
export class AgentStores {
  readonly #stateDir: string;
  readonly #inline: readonly InlineKey[];
  readonly #nowMs: () => number;
  readonly #stores = new Map<string, Promise<AuthProfileStore>>();
  #closed = false;

  constructor(options: { readonly stateDir: string; readonly config: UnderstudyConfig; readonly nowMs: () => number }) {
    this.#stateDir = options.stateDir;
    this.#inline = inlineKeysOf(options.config);
    this.#nowMs = options.nowMs;
  }

  /** The state root the stores live under. */
  get stateDir(): string {
    return this.#stateDir;
  }

  /**
   * The store of an agent, opened on first use.
   * @throws {LegacyAuthFilesError | AuthStoreError} when it cannot be opened (not cached).
   */
  get(agentId: string): Promise<AuthProfileStore> {
    if (this.#closed) return Promise.reject(new Error('the gateway is shutting down'));
    let store = this.#stores.get(agentId);
    if (store === undefined) {
      store = openAuthProfileStore({ stateDir: this.#stateDir, agentId, inlineProfiles: this.#inline, nowMs: this.#nowMs });
      this.#stores.set(agentId, store);
      store.catch(() => this.#stores.delete(agentId));
    }
    return store;
  }

  /** The stores opened so far (for metrics and the admin status). */
  async opened(): Promise<AuthProfileStore[]> {
    const settled = await Promise.allSettled(this.#stores.values());
    return settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  }

  /** Closes every store; later `get` calls fail. */
  async closeAll(): Promise<void> {
    this.#closed = true;
    const stores = await this.opened();
    this.#stores.clear();
    await Promise.allSettled(stores.map((store) => store.close()));
  }
}
