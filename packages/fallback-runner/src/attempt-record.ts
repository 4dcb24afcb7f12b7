/**
 * Attempt records: one entry per request sent to a provider (same-profile retries included, each its own
 * entry) and one per candidate passed over without a request (the model-failover doc "Observability and failure summaries",
 * docs/contracts.md#simulate).
 */
import type { FailoverReason, ProfileId } from '@understudy/contracts';

/**
 * What an attempt record stands for.
 * - `call`: an ordinary request.
 * - `probe`: a request that tests a profile or provider that is cooling down or disabled (a cooldown probe, or
 *   a same-provider sibling tried despite the cooldown).
 * - `skip`: the candidate was passed over without a request.
 */
export type AttemptKind = 'call' | 'probe' | 'skip';

/**
 * One attempt of a run. Never holds a raw provider body or a secret: `summary` is our own words.
 *
 * - `profile`: the auth profile used (`null` for a keyless provider, and for most skips).
 * - `ok`: the request answered (`reason`, `status`, `code` are then absent).
 * - `reason` / `status` / `code`: the failover reason, the provider's HTTP status unchanged, the error code.
 * - `detail`: the id of the classifier rule that decided, or why a candidate was skipped.
 * - `retryAfterMs`: the provider's Retry-After, ms, when it gave one.
 * - `startedAtMs`: when the request was sent (for a skip: when it was decided, equal to `atMs`), epoch ms from
 *   the run's `Clock`; `atMs - startedAtMs` is how long the provider took (what a trace span of the attempt spans).
 * - `atMs`: when the attempt ended (or the skip was decided), epoch ms.
 */
export interface AttemptRecord {
  readonly provider: string;
  readonly model: string;
  readonly profile: ProfileId | null;
  readonly kind: AttemptKind;
  readonly ok: boolean;
  readonly reason?: FailoverReason | undefined;
  readonly status?: number | undefined;
  readonly code?: string | undefined;
  readonly detail?: string | undefined;
  readonly summary?: string | undefined;
  readonly retryAfterMs?: number | undefined;
  /**
   * A skip's own reason when it is not a failover reason: `context_window` — passed over after a context
   * overflow because its declared window is not larger (`reason` is then `context_overflow`).
   */
  readonly skipReason?: 'context_window' | undefined;
  /**
   * The record belongs to the continuation of an answer that broke after output (docs/policy.md#continuing-a-broken-stream):
   * the request carried the text already streamed as a trailing assistant message, or the candidate was passed
   * over for it.
   */
  readonly continuation?: true | undefined;
  readonly startedAtMs: number;
  readonly atMs: number;
}
