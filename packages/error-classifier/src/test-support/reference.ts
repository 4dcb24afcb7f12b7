/**
 * How a reference vector is compared (tests only). The reference system puts every transient failure in one
 * `timeout` bucket; understudy keeps the provider's own failures (`server_error`) and capacity (`overloaded`: 503,
 * 529, "busy", "overloaded") apart from time and transport (docs/policy.md#failover-reasons). So a vector agrees
 * when the reasons are equal, when both sit in the reference's transient bucket (`timeout` / `server_error`), or
 * when understudy reads the transient failure as capacity. `null` means the reference classifies nothing, which
 * is understudy's `unclassified`.
 */
import type { FailureExplanation } from '../classify-failure.js';

/** One vector of `fixtures/reference-vectors.jsonl`. */
export interface ReferenceVector {
  readonly id: string;
  readonly input: Record<string, unknown>;
  readonly expect: string | null;
}

const TRANSIENT: ReadonlySet<string> = new Set(['timeout', 'server_error']);

/** True when understudy's explanation agrees with the vector's expected reason. */
export function agrees(vector: ReferenceVector, result: FailureExplanation): boolean {
  const expected = vector.expect ?? 'unclassified';
  if (result.reason === expected) return true;
  if (TRANSIENT.has(expected) && TRANSIENT.has(result.reason)) return true;
  return TRANSIENT.has(expected) && result.reason === 'overloaded';
}
