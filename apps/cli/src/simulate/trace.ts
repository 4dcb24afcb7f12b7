/**
 * `understudy simulate --trace`: the decision events as one line each, for humans, on stderr (stdout stays one
 * JSON document).
 */
import { formatModelRef } from '@understudy/contracts';
import type { FallbackDecisionEvent } from '@understudy/fallback-runner';

/**
 * One decision event as a line.
 *
 * @example traceLine(event, 0)
 *   // 'turn 1  t=0  candidate_failed  openai/gpt-x [openai:a]  rate_limit 429  → anthropic/claude-x (next_candidate)'
 */
export function traceLine(event: FallbackDecisionEvent, turnIndex: number): string {
  const subject = `${formatModelRef(event)}${event.profile === null ? '' : ` [${event.profile}]`}`;
  const why = [event.reason, event.status === undefined ? undefined : String(event.status), event.fallbackStepFromFailureDetail]
    .filter((part): part is string => part !== undefined && part !== '')
    .join(' ');
  const step =
    event.decision === 'candidate_succeeded'
      ? event.fallbackStepFromModel === undefined
        ? 'answered'
        : `answered after ${event.fallbackStepFromModel} failed (${event.fallbackStepFromFailureReason ?? 'unknown'})`
      : `${event.fallbackStepToModel === undefined ? '' : `→ ${event.fallbackStepToModel} `}(${event.fallbackStepFinalOutcome ?? 'unknown'})`;
  return [`turn ${turnIndex + 1}`, `t=${event.atMs}`, event.decision, subject, ...(event.decision === 'candidate_succeeded' ? [] : [why]), step]
    .filter((part) => part !== '')
    .join('  ');
}
