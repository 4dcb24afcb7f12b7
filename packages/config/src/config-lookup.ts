/**
 * Lookups in the config's maps by a provider id that came from a request, a command line or a scenario. The maps
 * are plain objects, so a lookup must ask for an own key: `providers['constructor']` would otherwise find
 * `Object` and call a provider named `constructor` configured. The gateway, the CLI and the runner all look up
 * through these, and take the few values they derive from the config alike from here (inline keys, the turn
 * deadline).
 */
import { Secret } from '@understudy/contracts';
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

/** An inline config key (`models.providers.<id>.apiKey`), which the stores serve as the profile `<provider>:inline`. */
export interface ConfiguredInlineKey {
  readonly provider: string;
  readonly key: Secret;
}

/**
 * The config's inline keys: every provider whose `apiKey` is set and not blank, with the key wrapped as a
 * {@link Secret} (docs/policy.md#windows: such a key is the profile `<provider>:inline`). The gateway's stores,
 * the CLI's and `simulate`'s are all opened with these.
 *
 * @example inlineKeysOf(config) // [{ provider: 'openai', key: Secret(…) }]
 */
export function inlineKeysOf(config: Pick<UnderstudyConfig, 'models'>): ConfiguredInlineKey[] {
  return Object.entries(config.models.providers)
    .filter(([, provider]) => provider.apiKey !== undefined && provider.apiKey.trim() !== '')
    .map(([provider, settings]) => ({ provider, key: new Secret(settings.apiKey ?? '') }));
}

/**
 * The instant a turn that starts at `nowMs` must be over: `gateway.turnTimeoutMs` later, epoch ms. Set once per
 * turn and shared by every run, attempt and continuation of it (docs/architecture.md#one-request-through-the-gateway);
 * the gateway and `simulate` both take it from here.
 *
 * @example turnDeadlineAtMs(config, 1_000) // 601000 with the default 600 s
 */
export function turnDeadlineAtMs(config: Pick<UnderstudyConfig, 'gateway'>, nowMs: number): number {
  return nowMs + config.gateway.turnTimeoutMs;
}
