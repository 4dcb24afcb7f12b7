/**
 * Format failures with a known repair (docs/policy.md#what-each-reason-does; the model-failover doc "Cooldowns":
 * tool call ID validation failures are sanitised and retried once when the provider opts in). Pure.
 */
import type { FormatRepair, ProviderFailure } from '@understudy/contracts';

/** A provider refusing the ids of tool calls or tool results (their characters, length or pairing). */
const TOOL_CALL_ID_PROBLEM = [
  /tool_call_id|tool_use_id|tool_call\.id|tool_calls\[\d+\]\.id|tool call ids?\b|tool_use\.id/i,
  /(?:string should match pattern|must match|did not match|does not match|invalid|too long|at most \d+ characters|duplicate|unexpected|no corresponding|must have a corresponding)/i,
];

/**
 * The repair for a failure already classified `format`, or `undefined` when none is known.
 *
 * @example formatRepairOf({ status: 400, body: "messages.1.tool_calls.0.id: String should match pattern '^[a-zA-Z0-9_-]+$'" }) // 'tool_call_ids'
 */
export function formatRepairOf(failure: Pick<ProviderFailure, 'body' | 'message' | 'details'>): FormatRepair | undefined {
  const text = [failure.body, failure.message, ...(failure.details ?? [])].filter((part) => typeof part === 'string').join('\n').slice(0, 16_384);
  return TOOL_CALL_ID_PROBLEM.every((pattern) => pattern.test(text)) ? 'tool_call_ids' : undefined;
}
