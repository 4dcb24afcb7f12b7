/**
 * Legacy automatic session overrides (the model-failover doc "Selection source policy": previously stored
 * `modelOverrideSource: "auto"` entries are still honoured; their origin is probed every 5 minutes and the
 * override is cleared once the origin answers). Fallback never writes such overrides any more.
 */
import type { Candidate, ModelRef } from '@understudy/contracts';
import { sameModelRef } from '@understudy/contracts';
import type { CandidateChainPlan } from '@understudy/candidate-chain';
import type { RunContext } from './run-context.js';

/** The chain of the run and which of its candidates count as primary. */
export interface RunChain {
  readonly candidates: readonly Candidate[];
  readonly primaryIndices: ReadonlySet<number>;
  /** What the session selected: the requested model, or a legacy auto override's origin. */
  readonly selected: ModelRef;
  /** Set for a legacy auto override: its origin, which clears the override when it answers. */
  readonly autoOrigin?: ModelRef | undefined;
}

/**
 * The chain to walk. For a legacy auto override whose origin is due for its probe (`lastOriginProbeAt` older
 * than `auth.cooldowns.legacyOverrideProbeIntervalMs`, default 5 min), the origin goes first and the probe time
 * is stamped (compare-and-set); the override model follows as a primary too.
 */
export async function planRunChain<T>(ctx: RunContext<T>, plan: CandidateChainPlan): Promise<RunChain> {
  const origin = plan.source === 'auto' ? plan.autoOverrideOrigin : undefined;
  if (origin === undefined) {
    return { candidates: plan.candidates, primaryIndices: new Set([0]), selected: plan.requested };
  }
  const nowMs = ctx.nowMs();
  const lastProbeMs = ctx.session.entry?.lastOriginProbeAt;
  const due = lastProbeMs === undefined || nowMs - lastProbeMs >= ctx.policy.legacyOverrideProbeIntervalMs;
  if (!due) return { candidates: plan.candidates, primaryIndices: new Set([0]), selected: origin, autoOrigin: origin };
  await ctx.session.update(
    (entry) => (entry?.modelOverrideSource === 'auto' ? { lastOriginProbeAt: nowMs } : undefined),
    nowMs,
  );
  const candidates: Candidate[] = [
    Object.freeze({ provider: origin.provider, model: origin.model, origin: 'configured_primary' as const }),
    ...plan.candidates.filter((candidate) => !sameModelRef(candidate, origin)),
  ];
  return { candidates: Object.freeze(candidates), primaryIndices: new Set([0, 1]), selected: origin, autoOrigin: origin };
}
