/**
 * What the status page shows of the recent past (docs/operations.md#status-page): the last attempts of every turn
 * and the last `model_fallback_decision` events, each in a fixed-size ring, so the memory is bounded and
 * recording is O(1) per attempt. The per-provider figures of the last hour are computed from the attempt ring
 * when the page asks (at most once a second per open page), never on the request path.
 */
import type { AttemptRecord, FallbackDecisionEvent } from '@understudy/fallback-runner';

/** How many attempts the ring keeps. @default */
const DEFAULT_ATTEMPT_CAPACITY = 20_000;
/** How many decision events the ring keeps. @default */
const DEFAULT_DECISION_CAPACITY = 500;
/** The window of the per-provider figures, ms (one hour). */
export const STATS_WINDOW_MS = 60 * 60 * 1000;

/** One recorded attempt: who answered or failed, how long it took. */
interface AttemptEntry {
  readonly agent: string | undefined;
  readonly provider: string;
  readonly model: string;
  readonly profile: string | null;
  readonly ok: boolean;
  readonly reason: string | undefined;
  /** `atMs - startedAtMs`, ms. */
  readonly latencyMs: number;
  /** When the attempt ended, epoch ms. */
  readonly atMs: number;
}

/** One decision event as the page shows it (the event's own fields, agent added). */
export type RecentDecision = FallbackDecisionEvent & { readonly agent: string | undefined };

/** Per-provider figures over {@link STATS_WINDOW_MS}. */
export interface ProviderFigures {
  readonly provider: string;
  /** Requests sent (calls and probes; skips are not requests). */
  readonly attempts: number;
  readonly succeeded: number;
  /** `succeeded / attempts`, 0–1; `null` with no attempt. */
  readonly successRate: number | null;
  /** Latency percentiles of the requests, ms (nearest rank); `null` with no attempt. */
  readonly p50Ms: number | null;
  readonly p95Ms: number | null;
  /** Decisions that left a candidate of this provider for the next one (`fallbackStepFinalOutcome: next_candidate`). */
  readonly failovers: number;
}

/** The model that answered an agent's last successful attempt. */
export interface AnsweringNow {
  readonly agent: string;
  readonly provider: string;
  readonly model: string;
  readonly profile: string | null;
  /** Epoch ms. */
  readonly atMs: number;
}

/** A fixed-capacity ring: `push` is O(1), the oldest entry is overwritten when full. */
class Ring<T> {
  readonly #items: (T | undefined)[];
  #next = 0;
  #size = 0;

  constructor(capacity: number) {
    this.#items = new Array<T | undefined>(Math.max(1, Math.floor(capacity)));
  }

  push(item: T): void {
    this.#items[this.#next] = item;
    this.#next = (this.#next + 1) % this.#items.length;
    if (this.#size < this.#items.length) this.#size += 1;
  }

  /** Oldest first. */
  toArray(): T[] {
    const out: T[] = [];
    const start = (this.#next - this.#size + this.#items.length) % this.#items.length;
    for (let index = 0; index < this.#size; index += 1) out.push(this.#items[(start + index) % this.#items.length] as T);
    return out;
  }
}

function percentile(sorted: readonly number[], fraction: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank] ?? null;
}

/**
 * The recent attempts and decisions of this gateway process (not shared between replicas).
 *
 * @example
 * const recent = new RecentOutcomes();
 * recent.recordAttempts('main', result.attempts);
 * recent.providerFigures(Date.now());
 */
export class RecentOutcomes {
  readonly #attempts: Ring<AttemptEntry>;
  readonly #decisions: Ring<RecentDecision>;
  /** Per agent: the last successful attempt. Keys are configured agent ids, so the map stays small. */
  readonly #answering = new Map<string, AnsweringNow>();

  /** @param capacity ring sizes (@default {@link DEFAULT_ATTEMPT_CAPACITY}, {@link DEFAULT_DECISION_CAPACITY}). */
  constructor(capacity: { readonly attempts?: number | undefined; readonly decisions?: number | undefined } = {}) {
    this.#attempts = new Ring(capacity.attempts ?? DEFAULT_ATTEMPT_CAPACITY);
    this.#decisions = new Ring(capacity.decisions ?? DEFAULT_DECISION_CAPACITY);
  }

  /** Records a run's attempt records (skips are left out: no request was sent). `agent` undefined when unknown. */
  recordAttempts(agent: string | undefined, attempts: readonly AttemptRecord[]): void {
    for (const record of attempts) {
      if (record.kind === 'skip') continue;
      this.#attempts.push({
        agent,
        provider: record.provider,
        model: record.model,
        profile: record.profile,
        ok: record.ok,
        reason: record.reason,
        latencyMs: Math.max(0, record.atMs - record.startedAtMs),
        atMs: record.atMs,
      });
      if (record.ok && agent !== undefined) {
        this.#answering.set(agent, { agent, provider: record.provider, model: record.model, profile: record.profile, atMs: record.atMs });
      }
    }
  }

  /**
   * Records one `model_fallback_decision` event of an agent's turn. A first-try success is left out, as the runner
   * logs it only at debug: it is no fallback decision, and would push the real ones out of the ring.
   */
  recordDecision(agent: string | undefined, event: FallbackDecisionEvent): void {
    if (event.decision === 'candidate_succeeded' && event.fallbackStepFromModel === undefined) return;
    this.#decisions.push({ ...event, agent });
  }

  /** The kept decision events, newest first. */
  decisions(): RecentDecision[] {
    return this.#decisions.toArray().reverse();
  }

  /** Per agent, the model of its last successful attempt. */
  answeringNow(): AnsweringNow[] {
    return [...this.#answering.values()];
  }

  /** Per-provider figures over the hour before `nowMs`, providers sorted by id. */
  providerFigures(nowMs: number): ProviderFigures[] {
    const since = nowMs - STATS_WINDOW_MS;
    const byProvider = new Map<string, { latencies: number[]; succeeded: number; failovers: number }>();
    const of = (provider: string) => {
      let entry = byProvider.get(provider);
      if (entry === undefined) {
        entry = { latencies: [], succeeded: 0, failovers: 0 };
        byProvider.set(provider, entry);
      }
      return entry;
    };
    for (const attempt of this.#attempts.toArray()) {
      if (attempt.atMs < since) continue;
      const entry = of(attempt.provider);
      entry.latencies.push(attempt.latencyMs);
      if (attempt.ok) entry.succeeded += 1;
    }
    for (const decision of this.#decisions.toArray()) {
      if (decision.atMs >= since && decision.fallbackStepFinalOutcome === 'next_candidate') of(decision.provider).failovers += 1;
    }
    return [...byProvider.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([provider, entry]) => {
        const sorted = entry.latencies.sort((a, b) => a - b);
        return {
          provider,
          attempts: sorted.length,
          succeeded: entry.succeeded,
          successRate: sorted.length === 0 ? null : entry.succeeded / sorted.length,
          p50Ms: percentile(sorted, 0.5),
          p95Ms: percentile(sorted, 0.95),
          failovers: entry.failovers,
        };
      });
  }
}
