/**
 * Running a scenario (docs/contracts.md#simulate): the real candidate-chain builder, cooldown scheduler and fallback runner
 * against a temporary real store and scripted provider outcomes, on a simulated clock (no real sleeping; `seed`
 * drives the jitter). Turns run in order and share the store, the session, the probe throttle and the skip cache.
 */
import { CandidateChainError } from '@understudy/candidate-chain';
import { turnDeadlineAtMs } from '@understudy/config';
import type { AuthStorePort, ProfileId, ProfileUsageStats, SessionEntry } from '@understudy/contracts';
import { formatModelRef, parseModelRef, qualifyProfileId, sameModelRef, splitModelAndProfile } from '@understudy/contracts';
import type { AttemptRecord, FallbackDecisionEvent } from '@understudy/fallback-runner';
import {
  AuthFailureSkipCache,
  FailoverError,
  FallbackSummaryError,
  LiveSessionModelSwitchError,
  continueAfterOutput,
  runFollowingLiveSwitches,
  runWithModelFallback,
  userModelPatch,
} from '@understudy/fallback-runner';
import { FakeClock, seededRandom } from '@understudy/fallback-runner/testing';
import { RuntimeEnvError, fallbackSkipTtlMsOf, parseRuntimeEnv } from '@understudy/runtime';
import type { LoadedScenario } from './scenario-load.js';
import { ScenarioFieldError } from './scenario-load.js';
import type { ScenarioTurn } from './scenario-schema.js';
import { openScenarioStore } from './scenario-store.js';
import { scriptedAttempt } from './scripted-provider.js';

/** The session key simulated turns use unless a turn names its own. */
const SIMULATION_SESSION_KEY = 'simulate';

/** One attempt in the output. */
export interface AttemptOutput {
  readonly provider: string;
  readonly model: string;
  readonly profile: ProfileId | null;
  readonly kind: 'call' | 'skip' | 'probe';
  readonly reason?: string;
  readonly status?: number;
  /** The attempt belongs to the continuation of an answer that broke after output (docs/policy.md#continuing-a-broken-stream). */
  readonly continuation?: true;
}

/** One turn in the output. */
export interface TurnOutput {
  readonly outcome: 'success' | 'exhausted' | 'failed';
  readonly answeredBy: string | null;
  readonly profile: ProfileId | null;
  readonly attempts: readonly AttemptOutput[];
  readonly error?: { readonly name: string; readonly message: string; readonly soonestCooldownExpiry?: number };
  readonly notice?: string;
}

/** The document `understudy simulate` prints. */
export interface SimulationOutput {
  readonly turns: readonly TurnOutput[];
  readonly usageStats: Readonly<Record<ProfileId, ProfileUsageStats>>;
  readonly session: Readonly<Record<string, unknown>>;
}

/** Options of {@link runScenario}. */
export interface RunScenarioOptions {
  /** The environment: `UNDERSTUDY_FALLBACK_SKIP_TTL_MS`, `UNDERSTUDY_SDK_RETRY_MAX_WAIT_SECONDS` (and `OPENCLAW_*`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Called with every decision event and the 0-based turn index (`--trace`). */
  readonly onDecision?: ((event: FallbackDecisionEvent, turnIndex: number) => void) | undefined;
}

function attemptOutput(record: AttemptRecord): AttemptOutput {
  return {
    provider: record.provider,
    model: record.model,
    profile: record.profile,
    kind: record.kind,
    ...(record.skipReason !== undefined ? { reason: record.skipReason } : record.reason === undefined ? {} : { reason: record.reason }),
    ...(record.status === undefined ? {} : { status: record.status }),
    ...(record.continuation === true ? { continuation: true as const } : {}),
  };
}

/** The scenario path of a bad model reference found while building a turn's chain. */
function chainErrorPath(error: CandidateChainError, turnIndex: number): string {
  const field = error.field;
  if (field === 'requested') return `turns[${turnIndex}].request.model`;
  if (field.startsWith('fallbacksOverride')) return `turns[${turnIndex}].request.${field}`;
  if (field.startsWith('session.')) return field;
  return field.startsWith('[') ? `config${field}` : `config.${field}`;
}

function errorOutput(error: Error & { readonly soonestCooldownExpiry?: number | undefined }): NonNullable<TurnOutput['error']> {
  return {
    name: error.name,
    message: error.message,
    ...(error.soonestCooldownExpiry === undefined ? {} : { soonestCooldownExpiry: error.soonestCooldownExpiry }),
  };
}

function sessionOutput(entry: SessionEntry | undefined): Record<string, unknown> {
  if (entry === undefined) return {};
  const bookkeeping = new Set(['key', 'revision', 'createdAt', 'updatedAt']);
  return Object.fromEntries(Object.entries(entry).filter(([name]) => !bookkeeping.has(name)));
}

/**
 * Runs every turn of a scenario and returns the output document.
 *
 * @throws {ScenarioFieldError} for a field that only turns out unusable while running (a bad model reference,
 *   a profile the store rejects, a bad environment value).
 */
export async function runScenario(loaded: LoadedScenario, options: RunScenarioOptions): Promise<SimulationOutput> {
  const { scenario, config } = loaded;
  const clock = new FakeClock(scenario.now);
  const random = seededRandom(scenario.seed);
  const agentOf = (turn: ScenarioTurn): string => turn.request.agent ?? turn.request.agentId ?? 'main';
  const firstTurn = scenario.turns[0];
  const agentId = firstTurn === undefined ? 'main' : agentOf(firstTurn);
  let skipCache: AuthFailureSkipCache;
  let maxRetryAfterMs: number | null;
  try {
    // The same parse, with the same grammar, as the gateway's (docs/configuration.md#environment-variables).
    const settings = parseRuntimeEnv(options.env);
    skipCache = new AuthFailureSkipCache({ ttlMs: fallbackSkipTtlMsOf(settings, config) });
    maxRetryAfterMs = settings.sdkRetryMaxWaitMs;
  } catch (error) {
    if (!RuntimeEnvError.isInstance(error)) throw error;
    throw new ScenarioFieldError(error.variable, error.message, error);
  }
  const seeded = await openScenarioStore({
    agentId,
    config,
    profiles: scenario.profiles,
    usageStats: scenario.usageStats,
    session: scenario.session === undefined ? undefined : { key: SIMULATION_SESSION_KEY, fields: scenario.session },
    nowMs: () => clock.nowMs(),
  });
  try {
    const turns: TurnOutput[] = [];
    let sessionKey = SIMULATION_SESSION_KEY;
    for (const [turnIndex, turn] of scenario.turns.entries()) {
      if (turn.at !== undefined) clock.setTime(turn.at);
      sessionKey = turn.request.sessionKey ?? SIMULATION_SESSION_KEY;
      turns.push(await runTurn({ loaded, turn, turnIndex, sessionKey, clock, random, skipCache, maxRetryAfterMs, seeded, options, agentId: agentOf(turn) }));
    }
    const stored = await seeded.store.listUsageStats();
    const usageStats: Record<ProfileId, ProfileUsageStats> = {};
    for (const id of seeded.profileIds) usageStats[id] = stored[id] ?? {};
    for (const [id, stats] of Object.entries(stored)) if (usageStats[id] === undefined) usageStats[id] = stats;
    return { turns, usageStats, session: sessionOutput(await seeded.store.getSession(sessionKey)) };
  } finally {
    await seeded.dispose();
  }
}

/**
 * A user's `/model provider/model[@profile]` arriving while a call is in flight (a result's `liveSwitch`): the
 * gateway's `/model` split of the text and the runner's {@link userModelPatch}, written with compare-and-set.
 */
async function switchSessionModel(port: AuthStorePort, sessionKey: string, text: string, nowMs: number): Promise<void> {
  const split = splitModelAndProfile(text.trim());
  const ref = parseModelRef(split.model);
  if (ref === undefined) return;
  const selection = { ref, ...(split.profile === undefined ? {} : { profileId: qualifyProfileId(ref.provider, split.profile) }) };
  for (let tries = 0; tries < 3; tries += 1) {
    const current = await port.getSession(sessionKey);
    const written = await port.writeSession(sessionKey, current?.revision ?? null, userModelPatch(current, selection, nowMs), nowMs);
    if (written.ok) return;
  }
}

async function runTurn(input: {
  readonly loaded: LoadedScenario;
  readonly turn: ScenarioTurn;
  readonly turnIndex: number;
  readonly sessionKey: string;
  readonly agentId: string;
  readonly clock: FakeClock;
  readonly random: () => number;
  readonly skipCache: AuthFailureSkipCache;
  readonly maxRetryAfterMs: number | null;
  readonly seeded: Awaited<ReturnType<typeof openScenarioStore>>;
  readonly options: RunScenarioOptions;
}): Promise<TurnOutput> {
  const { turn, turnIndex, clock, options } = input;
  const request = turn.request;
  const onDecision = options.onDecision;
  // Attempts of runs a live switch handed back (the turn then ran again on the switched model, as the gateway does).
  const earlier: AttemptRecord[] = [];
  const attempts = (last: readonly AttemptRecord[]) => [...earlier, ...last].map(attemptOutput);
  const liveSwitch = (ref: string) => switchSessionModel(input.seeded.port, input.sessionKey, ref, clock.nowMs());
  const attempt = scriptedAttempt(turn.outcomes, clock, liveSwitch);
  // The turn's deadline, set once as the gateway sets it (docs/architecture.md#one-request-through-the-gateway).
  const deadlineAtMs = turnDeadlineAtMs(input.loaded.config, clock.nowMs());
  try {
    const request0 = {
        agentId: input.agentId,
        sessionKey: input.sessionKey,
        ...(request.chatType === undefined ? {} : { chatType: request.chatType }),
        ...(request.model === undefined ? {} : { model: request.model }),
        ...(request.source === undefined ? {} : { source: request.source }),
        ...(request.fallbacksOverride === undefined ? {} : { fallbacksOverride: request.fallbacksOverride }),
        ...(request.authProfile === undefined ? {} : { authProfile: request.authProfile }),
        isImageRequest: request.isImageRequest === true || request.image === true,
    };
    const result = await runFollowingLiveSwitches(
      request0,
      (next) =>
        runWithModelFallback({
          request: next,
          config: input.loaded.config,
          store: input.seeded.port,
          attempt,
          clock,
          random: input.random,
          turnDeadlineAtMs: deadlineAtMs,
          maxRetryAfterMs: input.maxRetryAfterMs,
          skipCache: input.skipCache,
          ...(onDecision === undefined ? {} : { onDecision: (event: FallbackDecisionEvent) => onDecision(event, turnIndex) }),
        }),
      { onSwitch: (error) => earlier.push(...error.attempts) },
    );
    return {
      outcome: 'success',
      answeredBy: formatModelRef(result.candidate),
      profile: result.profile,
      attempts: attempts(result.attempts),
      ...(result.notice === undefined ? {} : { notice: result.notice }),
    };
  } catch (error) {
    if (CandidateChainError.isInstance(error)) throw new ScenarioFieldError(chainErrorPath(error, turnIndex), error.message, error);
    if (FailoverError.isInstance(error)) {
      // As the gateway does (docs/policy.md#continuing-a-broken-stream): a break after output may be continued.
      const chain = error.chain;
      if (error.outputStarted && chain !== undefined && error.classification !== undefined && input.loaded.config.gateway.streams.continueAfterOutput) {
        const outcome = await continueAfterOutput({
          config: input.loaded.config,
          store: input.seeded.port,
          chain,
          brokenIndex: chain.findIndex((candidate) => sameModelRef(candidate, error)),
          failure: error.classification,
          attempt,
          clock,
          turnDeadlineAtMs: deadlineAtMs,
          ...(onDecision === undefined ? {} : { onDecision: (event: FallbackDecisionEvent) => onDecision(event, turnIndex) }),
        });
        const all = [...error.attempts, ...outcome.attempts];
        if (outcome.kind === 'continued') {
          return { outcome: 'success', answeredBy: formatModelRef(outcome.candidate), profile: outcome.profile, attempts: attempts(all) };
        }
        return { outcome: 'failed', answeredBy: null, profile: null, attempts: attempts(all), error: errorOutput(error) };
      }
      return {
        outcome: error.kind === 'exhausted' ? 'exhausted' : 'failed',
        answeredBy: null,
        profile: null,
        attempts: attempts(error.attempts),
        error: errorOutput(error),
      };
    }
    if (FallbackSummaryError.isInstance(error)) {
      return { outcome: 'exhausted', answeredBy: null, profile: null, attempts: attempts(error.attempts), error: errorOutput(error) };
    }
    // Only a switch loop (more switches than the gateway follows) gets here.
    if (LiveSessionModelSwitchError.isInstance(error)) {
      return { outcome: 'failed', answeredBy: null, profile: null, attempts: attempts(error.attempts), error: errorOutput(error) };
    }
    throw error;
  }
}
