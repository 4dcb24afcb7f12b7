/**
 * The options and result of `runWithModelFallback` (the model-failover doc "Runtime flow").
 */
import type {
  AbortSignalLike,
  AttemptFunction,
  AuthStorePort,
  Candidate,
  ChatType,
  Clock,
  FailoverReason,
  Logger,
  ModelRef,
  ProfileId,
  RandomSource,
  SelectionSource,
} from '@understudy/contracts';
import type { UnderstudyConfig } from '@understudy/config';
import type { AttemptRecord } from './attempt-record.js';
import type { FallbackDecisionEvent } from './events.js';
import type { AuthFailureSkipCache } from './skip-cache.js';

/** The parts of the parsed config file (`@understudy/config`'s `parseConfig`) the runner reads. */
export type FallbackConfig = Pick<UnderstudyConfig, 'agents' | 'auth' | 'retry' | 'models'>;

/** What the turn asks for. */
export interface FallbackRequest {
  /** The agent the turn runs for (`agents.entries.<id>`), e.g. `main`. */
  readonly agentId: string;
  /**
   * The session the turn belongs to. Absent: a one-off turn (no session state is read or written: no pins, no
   * notice state, no live switches, no skip cache).
   */
  readonly sessionKey?: string | undefined;
  /** `direct` shows fallback notices; `group` / `channel` keep the state but return no notice. @default the session's chat type, else 'direct' */
  readonly chatType?: ChatType | undefined;
  /**
   * The requested model: `provider/model`, a configured alias or a {@link ModelRef}. Absent: the agent's
   * configured primary. A session model override takes its place.
   */
  readonly model?: string | ModelRef | undefined;
  /** The selection source of `model`. @default 'default' (`agent` for an agent's own primary) */
  readonly source?: SelectionSource | undefined;
  /**
   * The caller's exact fallback list (for cron runs: the job's `payload.fallbacks`): the chain is the requested
   * model plus exactly this list; `[]` makes the turn strict.
   */
  readonly fallbacksOverride?: readonly (string | ModelRef)[] | undefined;
  /** The request carries images: the configured chain is `agents.defaults.imageModel` when set. @default false */
  readonly isImageRequest?: boolean | undefined;
  /**
   * An explicit auth profile for this turn only (e.g. `/model …@<profileId>` without `-s`): tried first for its
   * provider while eligible, never stored.
   */
  readonly authProfile?: ProfileId | undefined;
}

/** Options of `runWithModelFallback`. Every effect comes in through a port. */
export interface RunWithModelFallbackOptions<T> {
  readonly request: FallbackRequest;
  /** The parsed config (`parseConfig`): `agents`, `auth` (order, profiles, cooldowns), `retry.provider` and `models` (model metadata). */
  readonly config: FallbackConfig;
  /** The agent's store: profiles, usage stats, probe throttle, sessions. */
  readonly store: AuthStorePort;
  /**
   * Sends one request to one candidate with one auth profile (`null` for keyless providers). A returned
   * failure with `phase: 'request'` (nothing was sent) advances like its reason but marks no profile; a thrown
   * engine error with no status, code or cause (an exception of ours, see `isOwnException`) ends the turn
   * unchanged and marks nothing.
   */
  readonly attempt: AttemptFunction<T>;
  /** Time: `nowMs()` and `sleep(ms, signal)` (retry backoff). */
  readonly clock: Clock;
  /** Jitter source in `[0, 1)`. */
  readonly random: RandomSource;
  /** Decision events and warnings go here. @default silentLogger */
  readonly logger?: Logger | undefined;
  /** The caller's signal: when it aborts, the run stops at once (no further attempt, no sleep) with an `abort` FailoverError. */
  readonly signal?: AbortSignalLike | undefined;
  /**
   * Overall bound on retries and fallbacks, ms from the start of the run. Checked before each attempt and
   * each backoff; a request already in flight is bounded by the provider client's own timeouts. When it
   * passes, the run stops with a `timeout` FailoverError of kind `deadline`. @default no deadline
   */
  readonly turnTimeoutMs?: number | undefined;
  /**
   * The turn's deadline, epoch ms on `clock`, for a caller whose turn started before this run (the gateway: a
   * turn's runs after live switches and a continuation share the deadline it set once). Checked like
   * `turnTimeoutMs`; give one of the two, not both. @default no deadline
   */
  readonly turnDeadlineAtMs?: number | undefined;
  /**
   * The longest Retry-After worth waiting for on the same profile, ms (the SDK cap,
   * `UNDERSTUDY_SDK_RETRY_MAX_WAIT_SECONDS` × 1000). A longer one fails over at once; `null` removes the cap.
   * @default 60000
   */
  readonly maxRetryAfterMs?: number | null | undefined;
  /**
   * A success on a healthy profile (no failure counts, no window) whose `lastUsed` is younger than this many ms
   * is not written again, saving a write transaction per request on a busy gateway; `lastUsed` then has this
   * granularity for round-robin order. `0` writes every success. @default 0
   */
  readonly lastUsedRefreshMs?: number | undefined;
  /** The process-local auth failure skip cache (opt-in: the app builds it from `UNDERSTUDY_FALLBACK_SKIP_TTL_MS`). @default none */
  readonly skipCache?: AuthFailureSkipCache | undefined;
  /** Called with every `model_fallback_decision` event (also logged at info). */
  readonly onDecision?: ((event: FallbackDecisionEvent) => void) | undefined;
  /**
   * Providers that opted in to format retries: a `format` failure with a known repair (tool call ids) is
   * retried once on the same candidate and profile, asking the attempt for the repaired request.
   * @default the config's `models.providers.<id>.allowFormatRetry` (false when the provider is not configured)
   */
  readonly allowFormatRetry?: ((provider: string) => boolean) | undefined;
  /**
   * Whether a candidate can serve this request at all (e.g. a text-only model for a request with images): a
   * returned text skips the candidate without a call, with reason `format` and the text as its summary; `undefined`
   * tries it. @default every candidate is tried
   */
  readonly canServe?: ((candidate: Candidate) => string | undefined) | undefined;
}

/** A turn that a candidate answered. */
export interface FallbackRunResult<T> {
  /** What the attempt function resolved with. */
  readonly value: T;
  /** The candidate that answered. */
  readonly candidate: Candidate;
  /** The auth profile that answered, `null` for a keyless provider. */
  readonly profile: ProfileId | null;
  /** What the session selected (the requested model, or a legacy auto override's origin). */
  readonly selected: ModelRef;
  /** The chain this run walked. */
  readonly chain: readonly Candidate[];
  /** Every attempt, in order, the answering one last. */
  readonly attempts: readonly AttemptRecord[];
  /** Why the run left the selected model, when a fallback answered. */
  readonly fallbackReason?: FailoverReason | undefined;
  /** The fallback notice to show, once per state change; never set for `group` / `channel` chats. */
  readonly notice?: string | undefined;
}
