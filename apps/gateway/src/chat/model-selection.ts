/**
 * What the `model` field of a client request selects (docs/contracts.md#gateway): `default` or an agent id runs that agent's
 * configured chain; a configured alias or `provider/model` of a configured provider is an explicit selection
 * (selection source `user`: strict); anything else is a 404 listing what is valid.
 */
import { lookupModelRef } from '@understudy/candidate-chain';
import type { UnderstudyConfig } from '@understudy/config';
import { isConfiguredProvider } from '@understudy/config';
import type { ModelRef } from '@understudy/contracts';
import { formatModelRef } from '@understudy/contracts';
import { GatewayError, invalidRequest } from '../gateway-error.js';
import { describeValue } from '../wire/untrusted.js';

/** The agent every request runs for unless `x-understudy-agent` or the `model` field names another. */
export const DEFAULT_AGENT = 'main';

/** What a request selected. */
export type RequestSelection =
  /** The agent's configured chain (`default`, an agent id, or no model field). */
  | { readonly kind: 'configured'; readonly agentId: string }
  /** An explicit model (alias or `provider/model`): strict. */
  | { readonly kind: 'explicit'; readonly agentId: string; readonly ref: ModelRef };

/** The agents a request may name: `main` and every `agents.entries` key. */
export function knownAgents(config: UnderstudyConfig): string[] {
  return [...new Set([DEFAULT_AGENT, ...Object.keys(config.agents.entries)])];
}

function selectionRefs(selection: UnderstudyConfig['agents']['defaults']['model']): string[] {
  if (selection === undefined) return [];
  if (typeof selection === 'string') return [selection];
  return [selection.primary, ...(selection.fallbacks ?? [])];
}

/**
 * Every `provider/model` the config names (provider model lists, the allowlist, the agents' chains), limited
 * to configured providers, in a stable order.
 */
export function configuredModelRefs(config: UnderstudyConfig): string[] {
  const refs = new Set<string>();
  const add = (text: string): void => {
    const ref = lookupModelRef(text, config.agents);
    if (ref !== undefined && isConfiguredProvider(config, ref.provider)) refs.add(formatModelRef(ref));
  };
  selectionRefs(config.agents.defaults.model).forEach(add);
  for (const entry of Object.values(config.agents.entries)) selectionRefs(entry.model).forEach(add);
  selectionRefs(config.agents.defaults.imageModel).forEach(add);
  Object.keys(config.agents.defaults.models).forEach(add);
  for (const [provider, settings] of Object.entries(config.models.providers)) {
    for (const model of settings.models ?? []) refs.add(formatModelRef({ provider, model: model.id }));
  }
  return [...refs];
}

/** What a client may put in `model`, for the 404 and `GET /v1/models`. */
export function validModelNames(config: UnderstudyConfig): { readonly agents: string[]; readonly aliases: string[]; readonly models: string[] } {
  const aliases = Object.values(config.agents.defaults.models)
    .map((entry) => entry.alias)
    .filter((alias): alias is string => alias !== undefined);
  return { agents: knownAgents(config), aliases, models: configuredModelRefs(config) };
}

function notFound(config: UnderstudyConfig, what: string): GatewayError {
  const valid = validModelNames(config);
  const providers = Object.keys(config.models.providers);
  const parts = [
    `"default"`,
    `an agent id (${valid.agents.join(', ')})`,
    ...(valid.aliases.length === 0 ? [] : [`an alias (${valid.aliases.join(', ')})`]),
    providers.length === 0
      ? 'provider/model of a configured provider (none is configured: add models.providers to the config or set a provider key such as OPENAI_API_KEY)'
      : `provider/model of a configured provider (${providers.join(', ')})${valid.models.length === 0 ? '' : `, e.g. ${valid.models.slice(0, 8).join(', ')}`}`,
  ];
  return new GatewayError(404, 'not_found', `${what}. Valid models: ${parts.join('; ')}.`, {
    code: 'model_not_found',
    details: { valid: ['default', ...valid.agents, ...valid.aliases, ...valid.models] },
  });
}

/**
 * Resolves the `model` field of a request for the agent named by `x-understudy-agent` (`headerAgentId`).
 *
 * @throws {GatewayError} 404 (`model_not_found`, `agent_not_found`) listing what is valid; a `model` with
 *   surrounding whitespace names nothing (it is not trimmed) and its 404 says so.
 * @example resolveRequestSelection('default', config, 'main') // { kind: 'configured', agentId: 'main' }
 * @example resolveRequestSelection('openai/gpt-4o', config, 'main') // { kind: 'explicit', agentId: 'main', ref: openai/gpt-4o }
 */
export function resolveRequestSelection(model: string | undefined, config: UnderstudyConfig, headerAgentId: string): RequestSelection {
  const agents = knownAgents(config);
  if (!agents.includes(headerAgentId)) {
    throw new GatewayError(404, 'not_found', `unknown agent "${headerAgentId}" (header x-understudy-agent); configured agents: ${agents.join(', ')}`, {
      code: 'agent_not_found',
    });
  }
  if (model === undefined || model.toLowerCase() === 'default') return { kind: 'configured', agentId: headerAgentId };
  // The field is matched as sent, as the OpenAI and Anthropic APIs match it (docs/contracts.md#gateway); the
  // lookup below would trim an alias or ref.
  const trimmed = model.trim();
  if (trimmed !== model) {
    throw notFound(config, `model ${describeValue(model)} is not available: the name is not trimmed; send ${describeValue(trimmed)} without the surrounding whitespace`);
  }
  if (agents.includes(model)) return { kind: 'configured', agentId: model };
  const ref = lookupModelRef(model, config.agents);
  // The name as JSON text (surrounding whitespace and control characters show), a long one cut at 60 characters.
  if (ref === undefined) throw notFound(config, `model ${describeValue(model)} is not available`);
  if (!isConfiguredProvider(config, ref.provider)) {
    throw notFound(config, `model ${describeValue(model)} is not available: provider ${describeValue(ref.provider)} is not configured`);
  }
  return { kind: 'explicit', agentId: headerAgentId, ref };
}

/**
 * Checks the body extension `understudy.fallbacks`: each entry must be an alias or `provider/model` of a
 * configured provider. Returns the entries as parsed refs (aliases resolved), the form the runner takes them in.
 *
 * @throws {GatewayError} 400 naming the bad entry.
 */
export function checkFallbacksOverride(fallbacks: readonly string[] | undefined, config: UnderstudyConfig): ModelRef[] | undefined {
  if (fallbacks === undefined) return undefined;
  return fallbacks.map((entry, index) => {
    const ref = lookupModelRef(entry, config.agents);
    const field = `understudy.fallbacks[${index}]`;
    if (ref === undefined) throw invalidRequest(`${field}: ${describeValue(entry)} is neither "provider/model" nor a configured alias`, 'invalid_request', field);
    if (!isConfiguredProvider(config, ref.provider)) {
      throw invalidRequest(`${field}: provider ${describeValue(ref.provider)} is not configured (models.providers)`, 'invalid_request', field);
    }
    return ref;
  });
}
