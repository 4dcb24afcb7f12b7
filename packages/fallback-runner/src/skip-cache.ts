/**
 * The auth failure skip cache (the model-failover doc "Auth failure skip cache"): an opt-in, process-local, session-scoped
 * memory of auth-class failures of non-primary candidates, so a later turn passes such a candidate over instead
 * of failing on it again. Keyed by session, provider, model and auth profile: another profile does not inherit
 * the marker.
 */
import type { FailoverReason, ProfileId } from '@understudy/contracts';

/** Shortest TTL, ms: positive values are clamped up to 1 s. */
export const MIN_SKIP_TTL_MS = 1_000;
/** Longest TTL, ms: positive values are clamped down to 10 min. */
export const MAX_SKIP_TTL_MS = 600_000;

/**
 * A positive TTL clamped to 1 s – 10 min; 0 (or less) means disabled (`undefined`).
 *
 * @example clampSkipTtlMs(50) // 1000
 * @example clampSkipTtlMs(0) // undefined
 */
export function clampSkipTtlMs(ttlMs: number): number | undefined {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) return undefined;
  return Math.min(MAX_SKIP_TTL_MS, Math.max(MIN_SKIP_TTL_MS, Math.floor(ttlMs)));
}

/** What a skip marker is keyed by. */
export interface SkipCacheKey {
  readonly sessionKey: string;
  readonly provider: string;
  readonly model: string;
  readonly profile: ProfileId | null;
}

interface Marker {
  readonly reason: FailoverReason;
  readonly expiresAtMs: number;
}

/**
 * The process-local auth failure skip cache. Create one per process (the gateway) or per simulation and pass it
 * to every run; entries expire after `ttlMs`. Bounded: the oldest entries go first beyond `maxEntries`.
 *
 * @example
 * const cache = new AuthFailureSkipCache({ ttlMs: 60_000 }); // the app passes UNDERSTUDY_FALLBACK_SKIP_TTL_MS, parsed once
 * if (cache.enabled) runWithModelFallback({ ...options, skipCache: cache });
 */
export class AuthFailureSkipCache {
  /** The TTL in ms after clamping, or `undefined` when the cache is disabled. */
  readonly ttlMs: number | undefined;
  readonly #maxEntries: number;
  readonly #markers = new Map<string, Marker>();

  /**
   * @param options.ttlMs - marker lifetime, ms; clamped to 1 s – 10 min; 0 disables the cache.
   * @param options.maxEntries - most markers kept. @default 10000
   */
  constructor(options: { readonly ttlMs: number; readonly maxEntries?: number | undefined }) {
    this.ttlMs = clampSkipTtlMs(options.ttlMs);
    this.#maxEntries = Math.max(1, options.maxEntries ?? 10_000);
  }

  /** `false` when the TTL was 0 or unset: nothing is remembered. */
  get enabled(): boolean {
    return this.ttlMs !== undefined;
  }

  /** The reason of a live marker for `key`, or `undefined`. Expired markers are dropped. */
  get(key: SkipCacheKey, nowMs: number): FailoverReason | undefined {
    const id = markerId(key);
    const marker = this.#markers.get(id);
    if (marker === undefined) return undefined;
    if (marker.expiresAtMs <= nowMs) {
      this.#markers.delete(id);
      return undefined;
    }
    return marker.reason;
  }

  /** Remembers an auth-class failure (`auth`, `auth_permanent`) of `key`; other reasons are ignored. */
  remember(key: SkipCacheKey, reason: FailoverReason, nowMs: number): void {
    if (this.ttlMs === undefined || (reason !== 'auth' && reason !== 'auth_permanent')) return;
    const id = markerId(key);
    this.#markers.delete(id);
    this.#markers.set(id, { reason, expiresAtMs: nowMs + this.ttlMs });
    while (this.#markers.size > this.#maxEntries) {
      const oldest = this.#markers.keys().next().value;
      if (oldest === undefined) break;
      this.#markers.delete(oldest);
    }
  }

  /** Forgets every marker (tests, or a gateway restart in-process). */
  clear(): void {
    this.#markers.clear();
  }
}

function markerId(key: SkipCacheKey): string {
  return JSON.stringify([key.sessionKey, key.provider, key.model, key.profile]);
}
