/**
 * One provider client per configured provider (`models.providers.<id>`), with the config's timeouts:
 * `models.timeouts` overridden per provider by `models.providers.<id>.timeouts`.
 */
import type { ProviderConfig, UnderstudyConfig } from '@understudy/config';
import type { Logger } from '@understudy/contracts';
import type { ProviderClient, ProviderTimeouts } from '@understudy/providers';
import { createProviderClient } from '@understudy/providers';
import { providerSettings } from '../config-lookup.js';

/** The client timeouts of one provider, from config (ms). */
export function providerTimeouts(config: UnderstudyConfig, provider: ProviderConfig): ProviderTimeouts {
  const timeouts = { ...config.models.timeouts, ...Object.fromEntries(Object.entries(provider.timeouts ?? {}).filter(([, value]) => value !== undefined)) };
  return {
    connectTimeoutMs: timeouts.connectMs,
    headersTimeoutMs: timeouts.headersMs,
    bodyTimeoutMs: timeouts.stallMs,
    firstTokenTimeoutMs: timeouts.firstTokenMs,
    stallTimeoutMs: timeouts.stallMs,
  };
}

/** The whole-request limit of a provider's non-streaming calls, ms (`models.timeouts.requestMs`). */
export function providerRequestTimeoutMs(config: UnderstudyConfig, providerId: string): number {
  return providerSettings(config, providerId)?.timeouts?.requestMs ?? config.models.timeouts.requestMs;
}

/** The provider clients of one gateway. */
export class ProviderClients {
  readonly #clients = new Map<string, ProviderClient>();

  constructor(options: {
    readonly config: UnderstudyConfig;
    readonly logger: Logger;
    readonly sdkRetryMaxWaitSeconds: number | null;
    readonly nowMs: () => number;
  }) {
    for (const [providerId, provider] of Object.entries(options.config.models.providers)) {
      this.#clients.set(
        providerId,
        createProviderClient({
          providerId,
          api: provider.api,
          baseUrl: provider.baseUrl,
          ...(provider.headers === undefined ? {} : { headers: provider.headers }),
          timeouts: providerTimeouts(options.config, provider),
          sdkRetryMaxWaitSeconds: options.sdkRetryMaxWaitSeconds,
          logger: options.logger,
          nowMs: options.nowMs,
        }),
      );
    }
  }

  /** The client of a provider, or `undefined` when it is not configured. */
  get(providerId: string): ProviderClient | undefined {
    return this.#clients.get(providerId);
  }

  /** Closes every client's connection pool. */
  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.#clients.values()].map((client) => client.close()));
  }
}
