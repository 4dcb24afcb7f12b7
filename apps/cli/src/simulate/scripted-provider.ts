/**
 * The scripted provider of a simulated turn (docs/contracts.md#simulate): the attempt function answers from the turn's
 * `outcomes` — the first outcome whose `match` fits the call (provider, model, profile) gives its next result;
 * a call with no matching outcome or no result left answers `{ "ok": true }`. Each result's `latencyMs`
 * advances the simulated clock; a failure's `liveSwitch` (`"provider/model[@profile]"`) is a user's `/model`
 * that arrived while the call was in flight.
 */
import type { AttemptFunction, Candidate, ProviderFailure, ResolvedProfile } from '@understudy/contracts';
import { formatModelRef, normalizeProfileId, normalizeProviderId, parseModelRef, sameModelRef } from '@understudy/contracts';
import type { FakeClock } from '@understudy/fallback-runner/testing';
import type { ScenarioOutcome, ScenarioResult } from './scenario-schema.js';

/** What a simulated provider answers: the model that answered. */
export interface SimulatedAnswer {
  readonly answeredBy: string;
}

/** Transport error names that are error codes rather than messages. */
const ERROR_CODE = /^(?:E[A-Z0-9_]{2,}|UND_ERR_[A-Z_]+)$/;

function matches(outcome: ScenarioOutcome, candidate: Candidate, profile: string | null): boolean {
  const { match } = outcome;
  if (match.provider !== undefined && normalizeProviderId(match.provider) !== candidate.provider) return false;
  if (match.model !== undefined) {
    // A bare model id, or a whole `provider/model` compared as every model reference is.
    const model = match.model.trim();
    const ref = parseModelRef(model);
    if (model !== candidate.model && (ref === undefined || !sameModelRef(ref, candidate))) return false;
  }
  if (match.profile === null) return profile === null;
  if (match.profile !== undefined) {
    if (profile === null) return false;
    return match.profile.includes(':') ? normalizeProfileId(match.profile) === profile : profile.slice(profile.indexOf(':') + 1) === match.profile.trim();
  }
  return true;
}

/** The provider failure a scripted failure result stands for. */
function failureOfResult(result: Exclude<ScenarioResult, { kind: 'ok' }>, candidate: Candidate): ProviderFailure {
  const base = { provider: candidate.provider, model: candidate.model, ...(result.afterOutput ? { outputStarted: true, phase: 'stream' as const } : {}) };
  if (result.kind === 'http') {
    const headers = Object.fromEntries(Object.entries(result.headers).map(([name, value]) => [name.toLowerCase(), value]));
    return { ...base, status: result.status, headers, ...(result.body === undefined ? {} : { body: result.body }) };
  }
  const error = result.error.trim();
  if (error.toLowerCase() === 'abort') return { ...base, abortCause: 'user', code: 'ABORT_ERR', message: 'The operation was aborted' };
  if (ERROR_CODE.test(error)) return { ...base, code: error, message: error };
  return { ...base, message: error };
}

/**
 * The attempt function of one turn.
 *
 * @param outcomes - the turn's outcomes; each keeps its own cursor for the duration of the turn.
 * @param clock - advanced by each result's `latencyMs`.
 */
export function scriptedAttempt(
  outcomes: readonly ScenarioOutcome[],
  clock: FakeClock,
  liveSwitch?: (ref: string) => Promise<void>,
): AttemptFunction<SimulatedAnswer> {
  const cursors = outcomes.map(() => 0);
  return async (candidate: Candidate, profile: ResolvedProfile | null) => {
    const profileId = profile?.view.id ?? null;
    const index = outcomes.findIndex((outcome) => matches(outcome, candidate, profileId));
    const outcome = outcomes[index];
    let result: ScenarioResult = { kind: 'ok', latencyMs: 0 };
    if (outcome !== undefined) {
      const cursor = cursors[index] ?? 0;
      cursors[index] = cursor + 1;
      result = outcome.results[cursor] ?? result;
    }
    clock.advance(result.latencyMs);
    if (result.kind !== 'ok' && result.liveSwitch !== undefined) await liveSwitch?.(result.liveSwitch);
    if (result.kind === 'ok') return { ok: true, value: { answeredBy: formatModelRef(candidate) } };
    return { ok: false, failure: failureOfResult(result, candidate) };
  };
}
