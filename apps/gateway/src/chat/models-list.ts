/**
 * `GET /v1/models`: what a client may put in `model` — `default`, the agent ids, the configured aliases and
 * the configured `provider/model`s — in OpenAI's list shape, or Anthropic's when the client sends
 * `anthropic-version` (as the Anthropic SDK does).
 */
import type { UnderstudyConfig } from '@understudy/config';
import { GatewayError } from '../gateway-error.js';
import { renderAnthropicModelList } from '../wire/anthropic-response.js';
import { renderOpenAIModelList } from '../wire/openai-response.js';
import { validModelNames } from './model-selection.js';

/** The model list entries, in order: `default`, agents, aliases, models. */
function modelListEntries(config: UnderstudyConfig): { readonly id: string; readonly ownedBy: string }[] {
  const valid = validModelNames(config);
  const seen = new Set<string>();
  const entries: { id: string; ownedBy: string }[] = [];
  const add = (id: string, ownedBy: string): void => {
    if (seen.has(id)) return;
    seen.add(id);
    entries.push({ id, ownedBy });
  };
  add('default', 'understudy');
  for (const agent of valid.agents) add(agent, 'understudy');
  for (const alias of valid.aliases) add(alias, 'understudy');
  for (const model of valid.models) add(model, model.slice(0, model.indexOf('/')));
  return entries;
}

/** The body of `GET /v1/models` in the client's format. */
export function renderModelList(config: UnderstudyConfig, anthropic: boolean): Record<string, unknown> {
  const entries = modelListEntries(config);
  return anthropic ? renderAnthropicModelList(entries) : renderOpenAIModelList(entries);
}

/**
 * The body of `GET /v1/models/{id}` in the client's format: one entry of the list.
 *
 * @throws {GatewayError} 404 naming the valid ids when `id` is not in the list.
 */
export function renderModel(config: UnderstudyConfig, id: string, anthropic: boolean): Record<string, unknown> {
  const entries = modelListEntries(config);
  const entry = entries.find((candidate) => candidate.id === id);
  if (entry === undefined) {
    throw new GatewayError(404, 'not_found', `unknown model "${id}"; valid: ${entries.map((candidate) => candidate.id).join(', ')}`, {
      code: 'model_not_found',
    });
  }
  const list = anthropic ? renderAnthropicModelList([entry]) : renderOpenAIModelList([entry]);
  return (list['data'] as Record<string, unknown>[])[0] ?? {};
}
