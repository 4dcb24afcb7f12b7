/**
 * The config's id-keyed maps as null-prototype objects. The maps are plain objects, so a lookup by an id from
 * the command line or a scenario (`auth.order['constructor']`) would otherwise find `Object.prototype` members
 * and treat them as configured; the CLI and every package it hands the config to look up ids directly.
 */
import type { UnderstudyConfig } from '@understudy/config';

/** A copy of a map in which only its own keys answer a lookup. */
function ownKeys<Value>(map: Readonly<Record<string, Value>>): Record<string, Value> {
  return Object.assign(Object.create(null) as Record<string, Value>, map);
}

/**
 * The config with `models.providers`, `auth.order`, `auth.profiles`, `agents.entries` and
 * `agents.defaults.models` copied into null-prototype objects.
 *
 * @example withOwnKeyMaps(config).auth.order['constructor'] // undefined
 */
export function withOwnKeyMaps(config: UnderstudyConfig): UnderstudyConfig {
  return {
    ...config,
    models: { ...config.models, providers: ownKeys(config.models.providers) },
    auth: { ...config.auth, order: ownKeys(config.auth.order), profiles: ownKeys(config.auth.profiles) },
    agents: {
      ...config.agents,
      entries: ownKeys(config.agents.entries),
      defaults: { ...config.agents.defaults, models: ownKeys(config.agents.defaults.models) },
    },
  };
}
