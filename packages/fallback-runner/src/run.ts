/**
 * `runWithModelFallback`: the runtime flow of the model-failover doc — resolve the session state, build the candidate chain,
 * try each candidate (auth-profile rotation, cooldowns, transient retries), advance on failover-worthy errors,
 * answer with the first candidate that succeeds (turn-local: the session's model selection is never written
 * by a fallback), and report exhaustion with every attempt.
 */
import type { Candidate, ChatType, FailoverReason, ModelRef } from '@understudy/contracts';
import { CLEAR_MODEL_OVERRIDE_PATCH, formatModelRef, modelRefKey, sameModelRef } from '@understudy/contracts';
import { resolveCandidateChain } from '@understudy/candidate-chain';
import type { AttemptRecord } from './attempt-record.js';
import { planRunChain } from './auto-override.js';
import type { RunChain } from './auto-override.js';
import type { CandidateOutcome } from './candidate-attempt.js';
import { runCandidate } from './candidate-attempt.js';
import { FailoverError } from './errors.js';
import type { FallbackStepOutcome } from './events.js';
import type { FailedCandidate } from './exhaustion.js';
import { exhaustionError } from './exhaustion.js';
import { consumeHonouredSwitch, nextCandidateIndex } from './live-switch.js';
import { noticeTransition } from './notice.js';
import type { FallbackRunResult, RunWithModelFallbackOptions } from './options.js';
import { RunContext } from './run-context.js';
import { SessionState, autoPinPatch } from './session-state.js';

/**
 * Runs one turn with auth-profile rotation and model fallback (the model-failover doc "Runtime flow"; docs/policy.md).
 *
 * Per candidate: the provider's auth state is read once; profiles are ordered (stored order, `auth.order`,
 * round robin; the session's pin first while eligible); transient failures are retried on the same profile
 * (`retry.provider.*`); each failure is classified and marked on its profile (one mark per profile, none for
 * retries that end in success); rotation to other profiles follows the reason's policy; when every profile is
 * unavailable the scheduler decides skip / throttled probe / sibling try. A success marks the profile used and
 * keeps the automatic auth pin. Only notice state, auth pins and legacy-override bookkeeping are written to the
 * session, always compare-and-set.
 *
 * @returns the answer, the candidate and profile that gave it, what the session selected, every attempt, and
 *   the fallback notice to show (direct chats only, once per state change).
 * @throws {FailoverError} kind `terminal` (context overflow, refusal, user abort, a failure after output: the
 *   turn ends without fallback), kind `deadline` (the turn deadline passed), or kind `exhausted` when the only
 *   candidate failed (its HTTP status kept).
 * @throws {FallbackSummaryError} when several candidates were tried and none answered.
 * @throws {LiveSessionModelSwitchError} when the user switched the session to a model outside the rest of the chain.
 * @throws {CandidateChainError} when the requested model or the config's model references are invalid.
 * @throws {FallbackOptionsError} for an unusable option (e.g. `turnTimeoutMs`).
 * @example
 * const result = await runWithModelFallback({
 *   request: { agentId: 'main', sessionKey: 'chat-1', model: 'openai/gpt-4o' },
 *   config, store, clock, random: Math.random, attempt: completeAttempt(clients, chatRequest),
 * });
 * result.candidate; // { provider: 'anthropic', model: 'claude-sonnet-4', origin: 'configured_fallback' }
 */
export async function runWithModelFallback<T>(options: RunWithModelFallbackOptions<T>): Promise<FallbackRunResult<T>> {
  const { request } = options;
  const session = await SessionState.load(options.store, request.sessionKey);
  const ctx = new RunContext(options, session);
  const plan = resolveCandidateChain({
    agents: options.config.agents,
    agentId: request.agentId,
    requested: request.model,
    source: request.source,
    fallbacksOverride: request.fallbacksOverride,
    session: session.entry,
    isImageRequest: request.isImageRequest,
  });
  for (const action of plan.sessionActions) await session.update(() => action.patch, ctx.nowMs());
  const chain = await planRunChain(ctx, plan);
  ctx.chain = chain.candidates;
  ctx.primaryIndices = chain.primaryIndices;
  await consumeHonouredSwitch(ctx, chain.candidates[0]);

  const failed: FailedCandidate<T>[] = [];
  let index = 0;
  // ctx.chain, not chain.candidates: a context overflow may append the agent's contextFallbacks.
  while (index < ctx.chain.length) {
    const candidate = ctx.chain[index];
    if (candidate === undefined) break;
    let outcome: CandidateOutcome<T>;
    try {
      outcome = await runCandidate(ctx, candidate, index);
    } catch (error) {
      if (FailoverError.isInstance(error)) {
        emitStep(ctx, {
          candidate,
          index,
          decision: 'candidate_failed',
          reason: error.reason,
          detail: error.classification?.detail ?? error.kind,
          finalOutcome: 'turn_ended',
          record: ctx.records[ctx.records.length - 1],
        });
      }
      throw error;
    }
    if (outcome.kind === 'success') return finish(ctx, chain, candidate, outcome.profile, outcome.value, options.request.chatType);
    failed.push({ candidate, outcome });
    const next = await nextCandidateIndex(ctx, index);
    emitStep(ctx, {
      candidate,
      index,
      decision: outcome.kind === 'skipped' ? 'skip_candidate' : 'candidate_failed',
      reason: outcome.reason,
      detail: outcome.kind === 'skipped' ? outcome.why : outcome.classification.detail,
      finalOutcome: next < ctx.chain.length ? 'next_candidate' : 'exhausted',
      next,
      record: outcome.record,
    });
    index = next;
  }
  throw exhaustionError(ctx, failed);
}

/** One step of the chain that did not answer, as a decision event. */
interface StepEvent {
  readonly candidate: Candidate;
  readonly index: number;
  readonly decision: 'skip_candidate' | 'candidate_failed';
  readonly reason: FailoverReason;
  readonly detail: string;
  readonly finalOutcome: FallbackStepOutcome;
  /** The chain index the run continues with. */
  readonly next?: number | undefined;
  readonly record?: AttemptRecord | undefined;
}

function emitStep<T>(ctx: RunContext<T>, step: StepEvent): void {
  const to = step.next === undefined ? undefined : ctx.chain[step.next];
  ctx.emit({
    event: 'model_fallback_decision',
    decision: step.decision,
    provider: step.candidate.provider,
    model: step.candidate.model,
    profile: step.record?.profile ?? null,
    reason: step.reason,
    status: step.record?.status,
    candidateIndex: step.index,
    candidateCount: ctx.chain.length,
    fallbackStepFromModel: formatModelRef(step.candidate),
    fallbackStepToModel: to === undefined ? undefined : formatModelRef(to),
    fallbackStepFromFailureReason: step.reason,
    fallbackStepFromFailureDetail: step.detail,
    fallbackStepFinalOutcome: step.finalOutcome,
    atMs: ctx.nowMs(),
  });
}

/** Why the run left the selected model: the selected model's last failure, else the first failure of the run. */
function reasonLeavingSelected(records: readonly AttemptRecord[], selected: ModelRef): FailoverReason | undefined {
  const failures = records.filter((record) => !record.ok && record.reason !== undefined);
  const own = failures.filter((record) => sameModelRef(record, selected));
  return (own[own.length - 1] ?? failures[0])?.reason;
}

async function finish<T>(
  ctx: RunContext<T>,
  chain: RunChain,
  candidate: Candidate,
  profile: string | null,
  value: T,
  requestedChatType: ChatType | undefined,
): Promise<FallbackRunResult<T>> {
  const nowMs = ctx.nowMs();
  const selectedText = formatModelRef(chain.selected);
  const activeText = formatModelRef(candidate);
  const onFallback = selectedText !== activeText;
  const fallbackReason = onFallback ? reasonLeavingSelected(ctx.records, chain.selected) : undefined;
  const originAnswered = chain.autoOrigin !== undefined && !onFallback;
  const explicitProfile = ctx.explicitProfile !== undefined || ctx.switchProfiles.has(modelRefKey(candidate));
  let notice: string | undefined;
  await ctx.session.update((entry) => {
    const clearsOverride = originAnswered && entry?.modelOverrideSource === 'auto';
    const transition = noticeTransition({
      entry,
      selected: selectedText,
      active: activeText,
      reason: fallbackReason,
      chatType: requestedChatType ?? entry?.chatType ?? 'direct',
      nowMs,
      previousFallback: clearsOverride ? overrideText(entry) : undefined,
    });
    notice = transition.notice;
    const pin =
      profile !== null && !explicitProfile && candidate.provider === chain.selected.provider ? autoPinPatch(entry, profile) : undefined;
    const patch = { ...(clearsOverride ? CLEAR_MODEL_OVERRIDE_PATCH : {}), ...transition.patch, ...pin };
    return Object.keys(patch).length === 0 ? undefined : patch;
  }, nowMs);
  if (ctx.session.key === undefined) {
    notice = noticeTransition({
      entry: undefined,
      selected: selectedText,
      active: activeText,
      reason: fallbackReason,
      chatType: requestedChatType ?? 'direct',
      nowMs,
    }).notice;
  }

  const firstFailure = ctx.records.find((record) => !record.ok);
  ctx.emit({
    event: 'model_fallback_decision',
    decision: 'candidate_succeeded',
    provider: candidate.provider,
    model: candidate.model,
    profile,
    candidateIndex: ctx.chain.indexOf(candidate),
    candidateCount: ctx.chain.length,
    ...(firstFailure === undefined
      ? {}
      : {
          fallbackStepFromModel: formatModelRef(firstFailure),
          fallbackStepFromFailureReason: firstFailure.reason,
          fallbackStepFromFailureDetail: firstFailure.detail,
        }),
    fallbackStepToModel: activeText,
    fallbackStepFinalOutcome: 'succeeded',
    atMs: nowMs,
  });

  return {
    value,
    candidate,
    profile,
    selected: chain.selected,
    chain: ctx.chain,
    attempts: Object.freeze([...ctx.records]),
    ...(fallbackReason === undefined ? {} : { fallbackReason }),
    ...(notice === undefined ? {} : { notice }),
  };
}

function overrideText(entry: { readonly providerOverride?: string | undefined; readonly modelOverride?: string | undefined } | undefined): string | undefined {
  const model = entry?.modelOverride?.trim();
  if (model === undefined || model === '') return undefined;
  const provider = entry?.providerOverride?.trim();
  return provider === undefined || provider === '' ? model : formatModelRef({ provider, model });
}
