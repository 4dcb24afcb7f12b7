/**
 * A streamed answer that fails after output reached the client: the runner classifies it and marks it on the
 * auth profile through its one failure-marking path (`markFailureAfterOutput`; the run had already counted the
 * attempt a success when the first token arrived), and the client gets an explicit error event
 * (docs/policy.md#what-each-reason-does "any failure after output reached the caller") unless a continuation
 * finishes the answer (docs/policy.md#continuing-a-broken-stream); the error is always this failure's.
 */
import type { AuthProfileStore } from '@understudy/auth-profile-store';
import type { UnderstudyConfig } from '@understudy/config';
import type { Candidate, FailureClassification, Logger, ProfileId, ProviderFailure } from '@understudy/contracts';
import { formatModelRef } from '@understudy/contracts';
import { failureSummary, markFailureAfterOutput } from '@understudy/fallback-runner';
import { GatewayError } from '../gateway-error.js';
import { kindOfReason, replyStatus } from './turn-errors.js';

/** A failure after output: how it was classified, and the error that ends the stream when nothing continues it. */
export interface BrokenStream {
  readonly classification: FailureClassification;
  readonly error: GatewayError;
}

/**
 * Classifies a failure that happened after output started, marks it on the profile, and returns the error to
 * end the stream with (and the classification a continuation needs).
 */
export async function failureAfterOutput(options: {
  readonly config: UnderstudyConfig;
  readonly store: AuthProfileStore;
  readonly candidate: Candidate;
  readonly profile: ProfileId | null;
  readonly failure: ProviderFailure;
  readonly nowMs: number;
  readonly logger: Logger;
}): Promise<BrokenStream> {
  const { candidate, profile, failure, nowMs } = options;
  const classification = await markFailureAfterOutput({
    store: options.store,
    policy: options.config.auth.cooldowns,
    candidate,
    profile,
    failure,
    nowMs,
    logger: options.logger,
  });
  const summary = failureSummary({ reason: classification.reason, status: classification.status, code: failure.code });
  const status = replyStatus(classification.status, classification.reason);
  const error = new GatewayError(status, kindOfReason(classification.reason), `${formatModelRef(candidate)}: the answer broke off after output started: ${summary}`, {
    code: classification.reason,
  });
  return { classification, error };
}
