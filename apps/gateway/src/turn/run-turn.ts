/**
 * One turn: `runWithModelFallback` with the provider clients as attempt functions. This is the only module
 * that calls the runner. Each attempt gets a deadline of its own (the rest of the turn, and for whole answers
 * `models.timeouts.requestMs`), cleared as soon as the attempt resolves, so a streamed answer that has started
 * is never cut by it; the time spent waiting on providers is measured for the overhead metric. A streamed
 * answer that broke after output may be continued on a later candidate of the same chain
 * ({@link continueStreamTurn}, docs/policy.md#continuing-a-broken-stream) within the same turn deadline.
 */
import { turnStore } from '../services/turn-store.js';
import type { AuthProfileStore } from '@understudy/auth-profile-store';
import type { UnderstudyConfig } from '@understudy/config';
import { turnDeadlineAtMs } from '@understudy/config';
import type { AbortSignalLike, AttemptFunction, Candidate, ChatType, Clock, FailureClassification, Logger, ModelRef, ProfileId, RandomSource } from '@understudy/contracts';
import { formatModelRef, sameModelRef } from '@understudy/contracts';
import type { AttemptRecord, AuthFailureSkipCache, FallbackRunResult } from '@understudy/fallback-runner';
import { continueAfterOutput, runFollowingLiveSwitches, runWithModelFallback } from '@understudy/fallback-runner';
import type { ChatRequest, ChatResult, ChatStream } from '@understudy/providers';
import { callOptions, completeAttempt, streamAttempt } from '@understudy/providers';
import { candidateRequest, unservableReason } from './candidate-shaping.js';
import type { RequestSelection } from '../chat/model-selection.js';
import type { GatewayMetrics } from '../metrics.js';
import type { CooldownWatch } from '../services/cooldown-watch.js';
import type { ProviderClients } from '../services/provider-clients.js';
import type { TurnTracer } from '../telemetry/turn-trace.js';
import type { RecentOutcomes } from '../ui/recent-outcomes.js';
import { providerRequestTimeoutMs } from '../services/provider-clients.js';
import { AttemptDeadline } from './attempt-deadline.js';
import { prefillRequest, skipLeading } from './prefill.js';

/** What every turn shares (built once by the gateway). */
export interface TurnServices {
  readonly config: UnderstudyConfig;
  readonly providers: ProviderClients;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly logger: Logger;
  readonly metrics: GatewayMetrics;
  readonly skipCache: AuthFailureSkipCache | undefined;
  /** The SDK retry-after cap in ms (`null`: no cap). */
  readonly maxRetryAfterMs: number | null;
  /** Sees every usage-stats write of a turn (the cooldown and recovery metrics). */
  readonly cooldownWatch: CooldownWatch;
  /** Labels a `provider/model` for the metrics: itself when the config names it, else `<provider>/other`. */
  readonly modelLabel: (ref: { readonly provider: string; readonly model: string }) => string;
  /**
   * The turn tracer while OpenTelemetry export is on (set once the gateway loaded it at `listen()`,
   * docs/operations.md#observability); `undefined`: tracing is off and turns keep no attempt log.
   */
  tracer?: TurnTracer | undefined;
  /** The status page's ring of recent attempts and decisions (docs/operations.md#status-page). */
  readonly recent: RecentOutcomes;
}

/**
 * A scheduled job's declared selection source (header `x-understudy-source`): its explicit model is the job
 * primary, which walks the configured fallbacks (or the request's `understudy.fallbacks`, the job's
 * `payload.fallbacks`; `[]` is strict) instead of being a strict user selection.
 */
export type ScheduledSource = 'cron' | 'heartbeat';

/** One turn's request. */
export interface TurnInput {
  readonly store: AuthProfileStore;
  readonly selection: RequestSelection;
  readonly sessionKey: string | undefined;
  readonly chatType: ChatType | undefined;
  /** `cron` / `heartbeat` from `x-understudy-source`; absent: an explicit model is a strict user selection. */
  readonly source?: ScheduledSource | undefined;
  /** The checked `understudy.fallbacks`, parsed (aliases resolved). */
  readonly fallbacksOverride: readonly ModelRef[] | undefined;
  readonly isImageRequest: boolean;
  readonly chat: Omit<ChatRequest, 'model'>;
  /** Aborts when the client goes away. */
  readonly signal: AbortSignalLike;
  /** Collects every attempt record of the turn, in order, when the turn is traced (absent: nothing is kept). */
  readonly attemptLog?: AttemptRecord[] | undefined;
}

/** Time spent waiting on providers during a turn, ms, and when a streamed answer's first byte went out. */
export interface UpstreamTimer {
  upstreamMs: number;
  /** `performance.now()` when the first byte of a streamed answer was written. */
  outputAtMs?: number;
}

/**
 * A healthy profile's `lastUsed` is rewritten at most once a second: round robin needs no finer grain, and it
 * saves a write transaction on most requests of a busy gateway.
 */
const LAST_USED_REFRESH_MS = 1_000;

/**
 * Wraps an attempt: its own deadline (cleared when it resolves), and upstream time measurement. The deadline
 * is an {@link AttemptDeadline} over the runner's signal: one timer, no extra controller or `AbortSignal.any`.
 */
function timedAttempt<T>(
  inner: AttemptFunction<T>,
  services: TurnServices,
  timer: UpstreamTimer,
  limits: { readonly turnDeadlineAtMs: number; readonly wholeAnswer: boolean },
): AttemptFunction<T> {
  return async (candidate, profile, signal, call) => {
    const limitMs = Math.min(
      limits.turnDeadlineAtMs - services.clock.nowMs(),
      limits.wholeAnswer ? providerRequestTimeoutMs(services.config, candidate.provider) : Number.POSITIVE_INFINITY,
    );
    const deadline = new AttemptDeadline(signal, limitMs, 'the provider request took too long');
    const started = performance.now();
    try {
      return await inner(candidate, profile, deadline, call);
    } finally {
      deadline.clear();
      const elapsedMs = performance.now() - started;
      timer.upstreamMs += elapsedMs;
      services.metrics.upstreamSecondsOf.of(candidate.provider).observe(elapsedMs / 1000);
    }
  };
}

/**
 * The one place a turn's deadline is set: `gateway.turnTimeoutMs` from now, epoch ms. The runner, each attempt's
 * own deadline and a continuation all take this instant (docs/architecture.md#one-request-through-the-gateway).
 */
function turnDeadline(services: TurnServices): number {
  return turnDeadlineAtMs(services.config, services.clock.nowMs());
}

/**
 * Counts a run's attempt records, keeps them in the turn's attempt log when it is traced, and in the status page's
 * ring (with the agent when the turn has one).
 */
function countAttempts(
  services: TurnServices,
  input: Pick<TurnInput, 'attemptLog'> & { readonly selection?: Pick<RequestSelection, 'agentId'> | undefined },
  result: { readonly attempts: readonly AttemptRecord[] },
): void {
  services.recent.recordAttempts(input.selection?.agentId, result.attempts);
  for (const record of result.attempts) {
    services.metrics.attemptsOf.of(record.provider, record.kind, record.ok ? 'ok' : (record.reason ?? 'unknown')).inc();
    if (record.kind === 'probe') services.metrics.probes.inc({ provider: record.provider, outcome: record.ok ? 'success' : 'failure' });
  }
  input.attemptLog?.push(...result.attempts);
}

/** Counts the attempts of a failed run (its error carries them). */
export function countFailedAttempts(
  services: TurnServices,
  input: Pick<TurnInput, 'attemptLog'> & { readonly selection?: Pick<RequestSelection, 'agentId'> | undefined },
  error: unknown,
): void {
  const attempts = (error as { attempts?: unknown } | null)?.attempts;
  if (Array.isArray(attempts)) countAttempts(services, input, { attempts: attempts as AttemptRecord[] });
}

async function run<T>(
  services: TurnServices,
  input: TurnInput,
  inner: AttemptFunction<T>,
  timer: UpstreamTimer,
  wholeAnswer: boolean,
  turnDeadlineAtMs: number = turnDeadline(services),
): Promise<FallbackRunResult<T>> {
  const attempt = timedAttempt(inner, services, timer, { turnDeadlineAtMs, wholeAnswer });
  const explicit = input.selection.kind === 'explicit' ? input.selection.ref : undefined;
  const request = {
    agentId: input.selection.agentId,
    ...(input.sessionKey === undefined ? {} : { sessionKey: input.sessionKey }),
    ...(input.chatType === undefined ? {} : { chatType: input.chatType }),
    ...(explicit === undefined
      ? input.source === undefined
        ? {}
        : { source: input.source }
      : { model: explicit, source: input.source ?? ('user' as const) }),
    ...(input.fallbacksOverride === undefined ? {} : { fallbacksOverride: input.fallbacksOverride }),
    isImageRequest: input.isImageRequest,
  };
  const result = await runFollowingLiveSwitches<T>(
    request,
    (next) =>
      runWithModelFallback<T>({
        request: next,
        config: services.config,
        store: turnStore(input.store, services.logger, services.cooldownWatch),
        attempt,
        clock: services.clock,
        random: services.random,
        logger: services.logger,
        signal: input.signal,
        turnDeadlineAtMs,
        maxRetryAfterMs: services.maxRetryAfterMs,
        lastUsedRefreshMs: LAST_USED_REFRESH_MS,
        canServe: (candidate) => unservableReason(services.config, candidate, input.isImageRequest),
        ...(services.skipCache === undefined ? {} : { skipCache: services.skipCache }),
        onDecision: (event) => services.recent.recordDecision(next.agentId, event),
      }),
    // The user switched the session's model mid-turn to one outside this chain: the turn runs on it.
    { onSwitch: (error) => countAttempts(services, input, error) },
  );
  countAttempts(services, input, result);
  if (result.fallbackReason !== undefined) {
    services.metrics.fallbacks.inc({ reason: result.fallbackReason });
    services.metrics.fallbackTransitions.inc({ from: services.modelLabel(result.selected), to: services.modelLabel(result.candidate), reason: result.fallbackReason });
  }
  return result;
}

/**
 * A turn answered whole (non-streaming).
 *
 * @throws {FailoverError | FallbackSummaryError | CandidateChainError} as `runWithModelFallback`.
 */
export function runCompleteTurn(services: TurnServices, input: TurnInput, timer: UpstreamTimer): Promise<FallbackRunResult<ChatResult>> {
  const clients = (candidate: { readonly provider: string }) => services.providers.get(candidate.provider);
  return run(services, input, completeAttempt(clients, candidateRequest(services.config, { ...input.chat, stream: false }), { credentialStore: input.store }), timer, true);
}

/**
 * A count-tokens turn: a candidate on an `anthropic-messages` upstream counts with the provider's endpoint, any
 * other one answers `estimate` at once.
 *
 * @throws {FailoverError | FallbackSummaryError | CandidateChainError} as `runWithModelFallback`.
 */
export function runCountTokensTurn(services: TurnServices, input: TurnInput, timer: UpstreamTimer, estimate: number): Promise<FallbackRunResult<number>> {
  const shape = candidateRequest(services.config, { ...input.chat, stream: false });
  const attempt: AttemptFunction<number> = async (candidate, profile, signal) => {
    const client = services.providers.get(candidate.provider);
    if (client?.api !== 'anthropic-messages') return { ok: true, value: estimate };
    const counted = await client.countTokens(shape(candidate), callOptions(profile, signal, { credentialStore: input.store }));
    // The counting endpoint is advisory and not every Anthropic-compatible server has it (404, 403, 501, its own
    // limits): its failure says nothing of the model, so the estimate answers and nothing is marked
    // (docs/wire-mapping.md#count-tokens).
    return counted.ok ? counted : { ok: true, value: estimate };
  };
  return run(services, input, attempt, timer, true);
}

/**
 * A streamed turn: resolves once a candidate produced its first content (nothing has reached the client yet),
 * with the started stream.
 *
 * @throws {FailoverError | FallbackSummaryError | CandidateChainError} as `runWithModelFallback`.
 */
export async function runStreamTurn(services: TurnServices, input: TurnInput, timer: UpstreamTimer): Promise<StreamTurn> {
  const clients = (candidate: { readonly provider: string }) => services.providers.get(candidate.provider);
  const deadlineAtMs = turnDeadline(services);
  const attempt = streamAttempt(clients, candidateRequest(services.config, { ...input.chat, stream: true }), { credentialStore: input.store });
  return { ...(await run(services, input, attempt, timer, false, deadlineAtMs)), deadlineAtMs };
}

/** A started streamed turn: the run's result and the turn's deadline (a continuation must start before it). */
export type StreamTurn = FallbackRunResult<ChatStream> & {
  /** When the turn's deadline passes, epoch ms (`gateway.turnTimeoutMs` from the turn's start). */
  readonly deadlineAtMs: number;
};

/** The candidate (and profile) whose stream the client is reading. */
export interface StreamAnswerer {
  readonly candidate: Candidate;
  readonly profile: ProfileId | null;
}

/**
 * Continues a streamed answer that broke after output (docs/policy.md#continuing-a-broken-stream) on the next
 * candidate of the turn's chain after `answerer` whose model accepts an assistant prefill: the turn's request
 * with `text` (what the client already got) as a trailing assistant message. Resolves with the started
 * continuation stream and who gives it, or `undefined` when nothing continues the answer.
 */
export async function continueStreamTurn(
  services: TurnServices,
  input: TurnInput,
  timer: UpstreamTimer,
  broken: { readonly turn: StreamTurn; readonly answerer: StreamAnswerer; readonly classification: FailureClassification; readonly text: string },
): Promise<(StreamAnswerer & { readonly stream: ChatStream }) | undefined> {
  const { turn, answerer } = broken;
  const brokenIndex = turn.chain.findIndex((candidate) => sameModelRef(candidate, answerer.candidate));
  if (brokenIndex === -1) return undefined;
  const prefill = prefillRequest(input.chat, broken.text);
  const clients = (candidate: { readonly provider: string }) => services.providers.get(candidate.provider);
  const attempt = timedAttempt(
    streamAttempt(clients, candidateRequest(services.config, prefill.chat), { credentialStore: input.store }),
    services,
    timer,
    { turnDeadlineAtMs: turn.deadlineAtMs, wholeAnswer: false },
  );
  const outcome = await continueAfterOutput({
    config: services.config,
    store: turnStore(input.store, services.logger, services.cooldownWatch),
    chain: turn.chain,
    brokenIndex,
    failure: broken.classification,
    canServe: (candidate) => unservableReason(services.config, candidate, input.isImageRequest),
    attempt,
    clock: services.clock,
    logger: services.logger,
    signal: input.signal,
    turnDeadlineAtMs: turn.deadlineAtMs,
    onDecision: (event) => services.recent.recordDecision(input.selection.agentId, event),
  });
  countAttempts(services, input, { attempts: outcome.attempts });
  services.metrics.continuations.inc({ outcome: outcome.kind });
  if (outcome.kind !== 'continued') {
    services.logger.info({ model: formatModelRef(answerer.candidate), why: outcome.why }, 'the broken stream was not continued');
    return undefined;
  }
  return { candidate: outcome.candidate, profile: outcome.profile, stream: skipLeading(outcome.value, prefill.trimmed) };
}

