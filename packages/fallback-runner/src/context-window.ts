/**
 * Context-window-aware fallback (docs/policy.md#what-each-reason-does): a gateway cannot compact a conversation,
 * so after a context overflow the run moves on only to candidates whose declared context window
 * (`contextWindow` model metadata, docs/configuration.md#model-metadata) is larger than the failing model's,
 * adding the agent's `contextFallbacks` that are not in the chain. Candidates in between are passed over with
 * skip reason `context_window`; the same request never goes to the same model twice. With no larger window the
 * turn ends, as for any terminal failure.
 */
import { resolveModelRef } from '@understudy/candidate-chain';
import { lookupModelMetadata } from '@understudy/config';
import type { Candidate, ModelRef } from '@understudy/contracts';
import { modelRefKey } from '@understudy/contracts';
import type { RunContext } from './run-context.js';

/** The skip reason of a candidate passed over because its window is not larger than one that overflowed. */
export const CONTEXT_WINDOW_SKIP = 'context_window';

/** The declared context window of a model, tokens (`undefined`: not known). */
function windowOf<T>(ctx: RunContext<T>, ref: ModelRef): number | undefined {
  return lookupModelMetadata(ctx.config, ref).contextWindow;
}

/**
 * Whether `candidate` may take the request after the context overflows of this run: always before any; after
 * one, only a model not yet tried for it whose known window is larger than every window that overflowed.
 */
export function fitsContext<T>(ctx: RunContext<T>, candidate: ModelRef): boolean {
  const overflow = ctx.contextOverflow;
  if (overflow === undefined) return true;
  if (overflow.models.has(modelRefKey(candidate))) return false;
  const window = windowOf(ctx, candidate);
  return window !== undefined && window > overflow.floorTokens;
}

/** The agent's `contextFallbacks` (its own list, else the defaults'), resolved. */
function contextFallbacks<T>(ctx: RunContext<T>): ModelRef[] {
  const agents = ctx.config.agents;
  const own = agents.entries[ctx.agentId]?.model;
  const fallback = agents.defaults.model;
  const list =
    (typeof own === 'object' ? own.contextFallbacks : undefined) ?? (typeof fallback === 'object' ? fallback.contextFallbacks : undefined) ?? [];
  return list.map((text, at) => resolveModelRef(text, { agents, field: `contextFallbacks[${String(at)}]` }));
}

/**
 * Records a context overflow of `candidate` and tells whether the run can move on to a larger window: raises
 * the window floor, appends the `contextFallbacks` not yet in the chain (as configured fallbacks, once), and
 * looks for a later candidate that {@link fitsContext}.
 *
 * @returns `true` when such a candidate exists (the overflow then advances instead of ending the turn).
 */
export function routeContextOverflow<T>(ctx: RunContext<T>, candidate: Candidate): boolean {
  const window = windowOf(ctx, candidate);
  const previous = ctx.contextOverflow;
  const models = new Set(previous?.models ?? []);
  models.add(modelRefKey(candidate));
  // An unknown window of the failing model gives no floor beyond earlier ones: any known window may be larger.
  ctx.contextOverflow = { floorTokens: Math.max(previous?.floorTokens ?? 0, window ?? 0), models };
  if (previous === undefined) {
    const inChain = new Set(ctx.chain.map((entry) => modelRefKey(entry)));
    const extra: Candidate[] = [];
    for (const ref of contextFallbacks(ctx)) {
      const key = modelRefKey(ref);
      if (inChain.has(key)) continue;
      inChain.add(key);
      extra.push({ ...ref, origin: 'configured_fallback' });
    }
    if (extra.length > 0) ctx.chain = [...ctx.chain, ...extra];
  }
  const index = ctx.chain.indexOf(candidate);
  return ctx.chain.some((entry, at) => at > index && fitsContext(ctx, entry));
}
