/**
 * A streamed answer that fails after output reached the client: the turn ends (no fallback, docs/policy.md#what-each-reason-does "any
 * failure after output reached the caller"), the failure is still marked on the auth profile by its reason
 * (the runner had already counted the attempt a success when the first token arrived), and the client gets an
 * explicit error event.
 */
import type { AuthProfileStore } from '@understudy/auth-profile-store';
import type { UnderstudyConfig } from '@understudy/config';
import type { Candidate, Logger, ProfileId, ProviderFailure } from '@understudy/contracts';
import { formatModelRef } from '@understudy/contracts';
import { recordFailure } from '@understudy/cooldown-scheduler';
import { classifyFailure } from '@understudy/error-classifier';
import { failureSummary } from '@understudy/fallback-runner';
import { GatewayError } from '../gateway-error.js';
import { kindOfReason, statusOfReason } from './turn-errors.js';

/**
 * Classifies a failure that happened after output started, marks it on the profile, and returns the error to
 * end the stream with.
 */
export async function failureAfterOutput(options: {
  readonly config: UnderstudyConfig;
  readonly store: AuthProfileStore;
  readonly candidate: Candidate;
  readonly profile: ProfileId | null;
  readonly failure: ProviderFailure;
  readonly nowMs: number;
  readonly logger: Logger;
}): Promise<GatewayError> {
  const { candidate, profile, failure, nowMs } = options;
  const classification = classifyFailure({ ...failure, outputStarted: true }, { nowMs });
  if (profile !== null && failure.abortCause !== 'user') {
    try {
      await options.store.updateUsageStats(profile, (stats) =>
        recordFailure(
          stats,
          {
            reason: classification.reason,
            nowMs,
            model: candidate.model,
            retryAfterMs: classification.retryAfterMs,
            profileId: profile,
            scope: classification.cooldownScope,
          },
          options.config.auth.cooldowns,
        ),
      );
    } catch (error) {
      options.logger.warn({ profile, error: (error as Error).message }, 'could not record a failure after output');
    }
  }
  const summary = failureSummary({ reason: classification.reason, status: classification.status, code: failure.code });
  const status = classification.status !== null && classification.status >= 400 ? classification.status : statusOfReason(classification.reason);
  return new GatewayError(status, kindOfReason(classification.reason), `${formatModelRef(candidate)}: the answer broke off after output started: ${summary}`, {
    code: classification.reason,
  });
}
