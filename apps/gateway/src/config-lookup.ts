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
