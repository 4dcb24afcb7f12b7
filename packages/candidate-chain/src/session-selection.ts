/**
 * How a session's stored model override becomes the requested model and its selection source (the model-failover doc
 * "Selection source policy", "Session overrides and live model switching"; docs/contracts.md#simulate). Shared by the runner,
 * the gateway and `understudy simulate`.
 */
import type { ModelRef, SessionFields } from '@understudy/contracts';
import type { AgentsModelConfig } from './agents-config.js';
import { resolveModelRef } from './agents-config.js';
import { configuredSelection } from './configured-selection.js';

/** The requested model a session override stands for, and the policy it selects. */
export interface SessionSelection {
  readonly requested: ModelRef;
  /**
   * `user` (`modelOverrideSource: "user"`), `legacy` (an override without a source: treated as strict like a
   * user selection), or `auto` (a legacy automatic fallback override: walks the configured chain).
   */
  readonly source: 'user' | 'legacy' | 'auto';
  /**
   * `auto` only: the `provider/model` the fallback replaced (`modelOverrideOrigin`), else the configured primary
   * of the agent. The runner probes it every `legacyOverrideProbeIntervalMs` and clears the override once it
   * answers.
   */
  readonly origin?: ModelRef | undefined;
}

/**
 * The selection a session's stored override stands for, or `undefined` when the session has no model override.
 * `providerOverride` + `modelOverride` name the model; without `providerOverride`, `modelOverride` is read as
 * `provider/model` or a configured alias.
 *
 * @throws {CandidateChainError} `invalid_model_ref` (field `session.modelOverride` / `session.modelOverrideOrigin`).
 * @example resolveSessionSelection({ modelOverride: 'claude-x', providerOverride: 'anthropic' })
 *   // { requested: { provider: 'anthropic', model: 'claude-x' }, source: 'legacy' }
 */
export function resolveSessionSelection(
  session: SessionFields | undefined,
  agents?: AgentsModelConfig,
  agentId?: string,
): SessionSelection | undefined {
  const modelOverride = session?.modelOverride?.trim();
  if (session === undefined || modelOverride === undefined || modelOverride === '') return undefined;
  const provider = session.providerOverride?.trim();
  const requested = resolveModelRef(
    provider === undefined || provider === '' ? modelOverride : { provider, model: modelOverride },
    { agents, field: 'session.modelOverride' },
  );
  if (session.modelOverrideSource === 'user') return { requested, source: 'user' };
  if (session.modelOverrideSource !== 'auto') return { requested, source: 'legacy' };
  const storedOrigin = session.modelOverrideOrigin?.trim();
  const origin =
    storedOrigin === undefined || storedOrigin === ''
      ? configuredSelection(agents, agentId, false).primary
      : resolveModelRef(storedOrigin, { agents, field: 'session.modelOverrideOrigin' });
  return origin === undefined ? { requested, source: 'auto' } : { requested, source: 'auto', origin };
}
