/**
 * The session as the runner sees it: read once at the start, re-read only at candidate boundaries (live
 * switches), and written only with compare-and-set patches recomputed from the fresh entry on conflict, so a
 * concurrent `/model` is never overwritten (the model-failover doc "Session overrides and live model switching").
 *
 * The runner writes notice state, auth pins, the legacy auto-override probe stamp and its clearing, and consumes
 * pending live switches — never the model selection of a fallback.
 */
import type { AuthStorePort, ProfileId, SessionEntry, SessionPatch } from '@understudy/contracts';
import { normalizeProfileId, providerOfProfileId } from '@understudy/contracts';
import type { ProfilePin } from '@understudy/cooldown-scheduler';

/** Most compare-and-set rounds before a write gives up (another writer kept winning). */
const MAX_CAS_ROUNDS = 8;

/** A patch computed from the current entry, or `undefined` for "nothing to write". */
export type SessionPatchPlan = (entry: SessionEntry | undefined) => SessionPatch | undefined;

/** The session of one run (or a stand-in for one-off turns, where every call is a no-op). */
export class SessionState {
  readonly key: string | undefined;
  readonly #store: AuthStorePort;
  #entry: SessionEntry | undefined;

  private constructor(store: AuthStorePort, key: string | undefined, entry: SessionEntry | undefined) {
    this.#store = store;
    this.key = key;
    this.#entry = entry;
  }

  /** Reads the session (one store read; none for a one-off turn). */
  static async load(store: AuthStorePort, key: string | undefined): Promise<SessionState> {
    const trimmed = key?.trim();
    if (trimmed === undefined || trimmed === '') return new SessionState(store, undefined, undefined);
    return new SessionState(store, trimmed, await store.getSession(trimmed));
  }

  /** The entry as last read or written. */
  get entry(): SessionEntry | undefined {
    return this.#entry;
  }

  /** Re-reads the entry (one store read). */
  async refresh(): Promise<SessionEntry | undefined> {
    if (this.key === undefined) return undefined;
    this.#entry = await this.#store.getSession(this.key);
    return this.#entry;
  }

  /**
   * Compare-and-set write: `plan` computes the patch from the entry it will be applied to; on a conflict it runs
   * again on the entry another writer stored. Does nothing for a one-off turn or when `plan` returns nothing.
   *
   * @returns the entry after the write (or the current one when nothing was written).
   */
  async update(plan: SessionPatchPlan, nowMs: number): Promise<SessionEntry | undefined> {
    if (this.key === undefined) return undefined;
    let current = this.#entry;
    for (let round = 0; round < MAX_CAS_ROUNDS; round += 1) {
      const patch = plan(current);
      if (patch === undefined || Object.keys(patch).length === 0) {
        this.#entry = current;
        return current;
      }
      const result = await this.#store.writeSession(this.key, current?.revision ?? null, patch, nowMs);
      if (result.ok) {
        this.#entry = result.entry;
        return result.entry;
      }
      current = result.current;
    }
    this.#entry = current;
    return current;
  }
}

/**
 * True when the session's auth pin is a user pin: `authProfileOverrideSource: 'user'`, or no source at all (an
 * old explicit selection, treated as the user's so it is never silently dropped). The runner, `/reset` and
 * `/status` all read pins through this (the model-failover doc "Session stickiness").
 */
export function isUserPin(entry: Pick<SessionEntry, 'authProfileOverride' | 'authProfileOverrideSource'> | undefined): boolean {
  return entry?.authProfileOverride !== undefined && entry.authProfileOverrideSource !== 'auto';
}

/**
 * The auth pin that applies to a provider in this turn (the model-failover doc "Session stickiness"):
 * - an explicit profile of the request (turn only) acts as a user pin;
 * - a stored user pin (`authProfileOverrideSource: 'user'`, or no source: an old explicit selection) always
 *   applies while it belongs to the provider;
 * - a stored automatic pin applies until a compaction raised `compactionCount` above the count it was chosen at.
 *
 * @example sessionPin({ authProfileOverride: 'openai:b', authProfileOverrideSource: 'auto' } as SessionEntry, 'openai')
 *   // { profileId: 'openai:b', source: 'auto' }
 */
export function sessionPin(
  entry: SessionEntry | undefined,
  provider: string,
  explicit?: ProfileId | undefined,
): ProfilePin | undefined {
  if (explicit !== undefined && providerOfProfileId(explicit) === provider) {
    return { profileId: normalizeProfileId(explicit), source: 'user' };
  }
  const stored = entry?.authProfileOverride;
  if (entry === undefined || stored === undefined || providerOfProfileId(stored) !== provider) return undefined;
  if (isUserPin(entry)) return { profileId: normalizeProfileId(stored), source: 'user' };
  if ((entry.compactionCount ?? 0) > (entry.authProfileOverrideCompactionCount ?? 0)) return undefined;
  return { profileId: normalizeProfileId(stored), source: 'auto' };
}

/**
 * The session patch that records `profile` as the automatic pin after it answered for the selected provider —
 * unless a user pin is stored (it survives temporary rotation) or the same automatic pin is already current.
 */
export function autoPinPatch(entry: SessionEntry | undefined, profile: ProfileId): SessionPatch | undefined {
  if (isUserPin(entry)) return undefined;
  const compactionCount = entry?.compactionCount ?? 0;
  if (
    entry?.authProfileOverride === profile &&
    (entry.authProfileOverrideCompactionCount ?? 0) === compactionCount
  ) {
    return undefined;
  }
  return {
    authProfileOverride: profile,
    authProfileOverrideSource: 'auto',
    authProfileOverrideCompactionCount: compactionCount,
  };
}
