/**
 * A per-replica cache of state read from PostgreSQL, kept correct by change notifications (README "Running
 * several replicas"). An entry is served only while it is fresh:
 * - no notification about its key arrived since it was read (each write notifies in its own transaction, so
 *   the notification is delivered when the write commits);
 * - the `LISTEN` connection has been up without a break since before it was read (a break may have lost
 *   notifications, so entries of an older listener epoch are never served);
 * - it is younger than `maxAgeMs` (the bound that holds even if a notification were delayed).
 *
 * A read that raced a notification (the notification arrived while the query ran) is kept only as the last
 * known value: each key has a generation, bumped by every invalidation and compared when the read lands.
 * Stale entries stay as the last known state, which is what an outage serves.
 */

interface Entry<V> {
  readonly value: V;
  readonly fresh: boolean;
  readonly epoch: number;
  readonly atMs: number;
}

/** Where the cache learns whether it may serve entries at all. */
export interface CacheGate {
  /** True while the server is up and the listener connected. */
  readonly cacheUsable: boolean;
  readonly listenerEpoch: number;
  readonly cacheMaxAgeMs: number;
  monotonicMs(): number;
}

/** A ticket taken before a read, handed back with its result. */
export interface ReadTicket {
  readonly generation: number;
  readonly globalGeneration: number;
  readonly epoch: number;
  readonly usable: boolean;
}

/** Cached values by key, with last-known fallbacks; at most `maxEntries` keys (oldest dropped first). */
export class StateCache<V> {
  readonly #gate: CacheGate;
  readonly #maxEntries: number;
  readonly #entries = new Map<string, Entry<V>>();
  readonly #generations = new Map<string, number>();
  #globalGeneration = 0;

  constructor(gate: CacheGate, maxEntries = 10_000) {
    this.#gate = gate;
    this.#maxEntries = maxEntries;
  }

  /** The cached value when it may be served now, else `undefined`. */
  fresh(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined || !entry.fresh || !this.#gate.cacheUsable) return undefined;
    if (entry.epoch !== this.#gate.listenerEpoch) return undefined;
    if (this.#gate.monotonicMs() - entry.atMs > this.#gate.cacheMaxAgeMs) return undefined;
    return entry.value;
  }

  /** The last value read or written for `key`, fresh or not (what an outage serves). */
  lastKnown(key: string): V | undefined {
    return this.#entries.get(key)?.value;
  }

  /** Call before reading `key` from the database. */
  ticket(key: string): ReadTicket {
    return {
      generation: this.#generations.get(key) ?? 0,
      globalGeneration: this.#globalGeneration,
      epoch: this.#gate.listenerEpoch,
      usable: this.#gate.cacheUsable,
    };
  }

  /** Stores what a read returned; fresh only when nothing invalidated `key` since `ticket` was taken. */
  put(key: string, value: V, ticket: ReadTicket): void {
    const fresh =
      ticket.usable &&
      ticket.generation === (this.#generations.get(key) ?? 0) &&
      ticket.globalGeneration === this.#globalGeneration &&
      ticket.epoch === this.#gate.listenerEpoch;
    this.#set(key, { value, fresh, epoch: ticket.epoch, atMs: this.#gate.monotonicMs() });
  }

  /** Records a value known locally (e.g. a mark applied while the server was down), never as fresh. */
  remember(key: string, value: V): void {
    this.#set(key, { value, fresh: false, epoch: -1, atMs: this.#gate.monotonicMs() });
  }

  /** Something changed `key`: its entry is no longer served (it stays as the last known value). */
  invalidate(key: string): void {
    this.#generations.set(key, (this.#generations.get(key) ?? 0) + 1);
    const entry = this.#entries.get(key);
    if (entry?.fresh === true) this.#entries.set(key, { ...entry, fresh: false });
  }

  /** Everything may have changed. */
  invalidateAll(): void {
    this.#globalGeneration += 1;
    for (const [key, entry] of this.#entries) if (entry.fresh) this.#entries.set(key, { ...entry, fresh: false });
  }

  #set(key: string, entry: Entry<V>): void {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    if (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) {
        this.#entries.delete(oldest);
        // Forgetting a key's generation could let a read that raced its invalidation look fresh: reads in
        // flight are all demoted instead.
        this.#generations.delete(oldest);
        this.#globalGeneration += 1;
      }
    }
  }
}
