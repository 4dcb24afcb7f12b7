/**
 * One auth-profile store per agent (docs/configuration.md), opened on first use and kept open, closed all together on
 * shutdown. A store that fails to open is not cached, so a fixed problem (e.g. `understudy doctor --fix`)
 * needs no restart.
 */
import type { AuthProfileStore, InlineKey, PostgresState, StoreStatus } from '@understudy/auth-profile-store';
import { LegacyAuthFilesError, connectPostgresState, openAuthProfileStore } from '@understudy/auth-profile-store';
import type { Logger } from '@understudy/contracts';
import { silentLogger } from '@understudy/contracts';
import type { SharedStateSettings } from '@understudy/runtime';
import type { UnderstudyConfig } from '@understudy/config';
import { inlineKeysOf } from '@understudy/config';
import { shuttingDown, storeError, storeUnavailable } from './store-errors.js';

/** Health of the state the stores use (`/healthz`, `understudy_state_store_up`). */
export interface StateHealth {
  readonly backend: 'sqlite' | 'postgres';
  /** False while the shared PostgreSQL state cannot be reached (requests are served from the last known state). */
  readonly up: boolean;
  /** Marks taken while down, waiting to be written back. */
  readonly pendingMarks: number;
  /**
   * `agent/profile` ids whose stored credential this gateway cannot open (another `UNDERSTUDY_SECRET_KEY`, or a
   * corrupt row): those profiles are skipped, and `/healthz` says `degraded`.
   */
  readonly unreadableCredentials: readonly string[];
}

/**
 * The per-agent stores of one gateway: SQLite files under the state root, or, with shared-state settings, one
 * PostgreSQL connection ({@link AgentStores.connect}) that every agent's store uses.
 */
export class AgentStores {
  readonly #stateDir: string;
  readonly #inline: readonly InlineKey[];
  readonly #nowMs: () => number;
  readonly #shared: SharedStateSettings | undefined;
  readonly #logger: Logger;
  readonly #stores = new Map<string, Promise<AuthProfileStore>>();
  #postgres: Promise<PostgresState> | undefined;
  #closed = false;

  constructor(options: {
    readonly stateDir: string;
    readonly config: UnderstudyConfig;
    readonly nowMs: () => number;
    /** Shared PostgreSQL state (`resolveSharedState`); absent: SQLite. */
    readonly shared?: SharedStateSettings | undefined;
    readonly logger?: Logger | undefined;
  }) {
    this.#stateDir = options.stateDir;
    this.#inline = inlineKeysOf(options.config);
    this.#nowMs = options.nowMs;
    this.#shared = options.shared;
    this.#logger = options.logger ?? silentLogger;
  }

  /**
   * Connects to the shared PostgreSQL state and runs its migrations (once; a no-op for SQLite). The gateway
   * calls it before it listens, so a replica that cannot reach its database does not start.
   * @throws {AuthStoreError} `state_unreachable`, `migration_failed`, `invalid_secret_key`, `invalid_postgres_options`.
   */
  async connect(): Promise<void> {
    if (this.#shared === undefined) return;
    this.#postgres ??= connectPostgresState({
      url: this.#shared.url,
      schema: this.#shared.schema,
      poolSize: this.#shared.poolSize,
      secretKey: this.#shared.secretKey,
      logger: this.#logger,
    });
    try {
      const state = await this.#postgres;
      if (this.#shared.secretKey === undefined) {
        this.#logger.warn({ state: state.location }, `no ${this.#shared.secretKeyEnv}: credentials cannot be stored in or read from the shared state (inline config keys still work)`);
      }
    } catch (error) {
      this.#postgres = undefined;
      throw error;
    }
  }

  /** Backend and health of the state. */
  async health(): Promise<StateHealth> {
    if (this.#shared === undefined) return { backend: 'sqlite', up: true, pendingMarks: 0, unreadableCredentials: [] };
    const state = await this.#postgres?.catch(() => undefined);
    const stores = await this.opened();
    const statuses: StoreStatus[] = stores.map((store) => store.status());
    return {
      backend: 'postgres',
      up: state?.status().up ?? false,
      pendingMarks: statuses.reduce((sum, status) => sum + status.pendingMarks, 0),
      unreadableCredentials: stores.flatMap((store, index) => (statuses[index]?.unreadableCredentials ?? []).map((id) => `${store.agentId}/${id}`)),
    };
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
      store = this.#open(agentId).catch((error: unknown) => {
        this.#stores.delete(agentId);
        if (LegacyAuthFilesError.isInstance(error)) throw error;
        throw storeError(error, agentId) ?? storeUnavailable(agentId, error);
      });
      this.#stores.set(agentId, store);
    }
    return store;
  }

  async #open(agentId: string): Promise<AuthProfileStore> {
    const postgres = this.#shared === undefined ? undefined : await (this.#postgres ?? (await this.connect(), this.#postgres));
    return openAuthProfileStore({ stateDir: this.#stateDir, agentId, inlineProfiles: this.#inline, nowMs: this.#nowMs, postgres });
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
    const postgres = await this.#postgres?.catch(() => undefined);
    this.#postgres = undefined;
    await postgres?.close();
  }
}
