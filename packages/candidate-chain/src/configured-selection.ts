/**
 * The configured chain an agent's turn falls back on: the agent's own model, the configured default, or the
 * image model for image requests (docs/configuration.md; the model-failover doc "Selection source policy", "Related config").
 */
import type { ModelRef } from '@understudy/contracts';
import type { AgentsModelConfig } from './agents-config.js';
import { resolveModelSelection } from './agents-config.js';

/** Where the configured chain comes from. */
export type ConfiguredSelectionKind = 'default' | 'agent' | 'image';

/** The configured chain for an agent's turn. */
export interface ConfiguredSelection {
  readonly kind: ConfiguredSelectionKind;
  /** The configured primary (agent primary, default primary or image primary). */
  readonly primary?: ModelRef | undefined;
  /**
   * The configured fallbacks. `undefined` only for an agent whose model carries no `fallbacks`: that agent's
   * primary is strict.
   */
  readonly fallbacks?: readonly ModelRef[] | undefined;
  /** Config path of the selection, for error messages (e.g. `agents.entries.main.model`). */
  readonly field: string;
}

/**
 * The configured chain of an agent: for image requests `agents.defaults.imageModel` when set; else
 * `agents.entries.<agentId>.model` when set (strict unless it is an object with `fallbacks`; a missing `primary`
 * falls back to the default primary); else `agents.defaults.model`.
 *
 * @throws {CandidateChainError} `invalid_model_ref` naming the config path of a bad reference.
 * @example configuredSelection({ defaults: { model: { primary: 'openai/a', fallbacks: ['anthropic/b'] } } }, 'main', false)
 *   // { kind: 'default', primary: openai/a, fallbacks: [anthropic/b], field: 'agents.defaults.model' }
 */
export function configuredSelection(
  agents: AgentsModelConfig | undefined,
  agentId: string | undefined,
  isImageRequest: boolean,
): ConfiguredSelection {
  const defaults = agents?.defaults;
  if (isImageRequest && defaults?.imageModel !== undefined) {
    const field = 'agents.defaults.imageModel';
    const image = resolveModelSelection(defaults.imageModel, agents, field);
    return { kind: 'image', primary: image.primary, fallbacks: image.fallbacks ?? [], field };
  }
  const defaultField = 'agents.defaults.model';
  const fallbackDefault = (): ConfiguredSelection => {
    const configured = resolveModelSelection(defaults?.model, agents, defaultField);
    return { kind: 'default', primary: configured.primary, fallbacks: configured.fallbacks ?? [], field: defaultField };
  };
  const agentModel = agentId === undefined ? undefined : agents?.entries?.[agentId]?.model;
  if (agentModel === undefined) return fallbackDefault();
  const field = `agents.entries.${agentId ?? ''}.model`;
  const own = resolveModelSelection(agentModel, agents, field);
  const primary = own.primary ?? fallbackDefault().primary;
  return { kind: 'agent', primary, fallbacks: own.fallbacks, field };
}
