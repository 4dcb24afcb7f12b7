/**
 * Lookups in the config's maps by a provider id that came from a request. The maps are plain objects, so a
 * lookup must ask for an own key: `providers['constructor']` would otherwise find `Object` and call a provider
 * named `constructor` configured.
 */
import type { UnderstudyConfig } from '@understudy/config';

/** The settings of a configured provider, or `undefined`. @example providerSettings(config, 'constructor') // undefined */
export function providerSettings(config: UnderstudyConfig, providerId: string): UnderstudyConfig['models']['providers'][string] | undefined {
  return Object.hasOwn(config.models.providers, providerId) ? config.models.providers[providerId] : undefined;
}

/** True when `models.providers` has `providerId`. */
export function isConfiguredProvider(config: UnderstudyConfig, providerId: string): boolean {
  return providerSettings(config, providerId) !== undefined;
}

/** `auth.order.<provider>`, or `undefined`. */
export function configuredOrder(config: UnderstudyConfig, providerId: string): readonly string[] | undefined {
  return Object.hasOwn(config.auth.order, providerId) ? config.auth.order[providerId] : undefined;
}

/** A copy of a map as a null-prototype object: only its own keys answer a lookup. */
function ownKeys<Value>(map: Readonly<Record<string, Value>>): Record<string, Value> {
  return Object.assign(Object.create(null) as Record<string, Value>, map);
}

/**
 * The config with its id-keyed maps (`models.providers`, `auth.order`, `auth.profiles`, `agents.entries`,
 * `agents.defaults.models`) copied into null-prototype objects, so every package the config is handed to finds
 * no provider, order or agent called `constructor` or `toString` that the config does not have.
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
