/**
 * One auth-profile store per agent (docs/configuration.md), opened on first use and kept open, closed all together on
 * shutdown. A store that fails to open is not cached, so a fixed problem (e.g. `understudy doctor --fix`)
 * needs no restart.
 */
import type { AuthProfileStore, InlineKey } from '@understudy/auth-profile-store';
import { LegacyAuthFilesError, openAuthProfileStore } from '@understudy/auth-profile-store';
import type { UnderstudyConfig } from '@understudy/config';
import { Secret } from '@understudy/contracts';
import { shuttingDown, storeError, storeUnavailable } from './store-errors.js';

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
   * @throws {LegacyAuthFilesError} when legacy auth files wait for `understudy doctor --fix` (not cached).
   * @throws {GatewayError} 503 `store_unavailable` when the store cannot be opened (a corrupted or unreadable
   *   file; not cached), 400 for an invalid agent id, 503 `shutting_down` once {@link AgentStores.closeAll} ran.
   */
  get(agentId: string): Promise<AuthProfileStore> {
    if (this.#closed) return Promise.reject(shuttingDown());
    let store = this.#stores.get(agentId);
    if (store === undefined) {
      store = openAuthProfileStore({ stateDir: this.#stateDir, agentId, inlineProfiles: this.#inline, nowMs: this.#nowMs }).catch((error: unknown) => {
        this.#stores.delete(agentId);
        if (LegacyAuthFilesError.isInstance(error)) throw error;
        throw storeError(error, agentId) ?? storeUnavailable(agentId, error);
      });
      this.#stores.set(agentId, store);
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
