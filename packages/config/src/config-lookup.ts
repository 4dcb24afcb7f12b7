/**
 * Lookups in the config's maps by a provider id that came from a request, a command line or a scenario. The maps
 * are plain objects, so a lookup must ask for an own key: `providers['constructor']` would otherwise find
 * `Object` and call a provider named `constructor` configured. The gateway, the CLI and the runner all look up
 * through these.
 */
import type { UnderstudyConfig } from './config-schema.js';

/**
 * The settings of a configured provider (`models.providers.<providerId>`), or `undefined`.
 * @example providerSettings(config, 'constructor') // undefined
 */
export function providerSettings(config: Pick<UnderstudyConfig, 'models'>, providerId: string): UnderstudyConfig['models']['providers'][string] | undefined {
  return Object.hasOwn(config.models.providers, providerId) ? config.models.providers[providerId] : undefined;
}

/** True when `models.providers` has `providerId` as an own key. */
export function isConfiguredProvider(config: Pick<UnderstudyConfig, 'models'>, providerId: string): boolean {
  return providerSettings(config, providerId) !== undefined;
}

/** `auth.order.<providerId>` (profile ids in the configured order), or `undefined`. */
export function configuredOrder(config: Pick<UnderstudyConfig, 'auth'>, providerId: string): readonly string[] | undefined {
  return Object.hasOwn(config.auth.order, providerId) ? config.auth.order[providerId] : undefined;
}
