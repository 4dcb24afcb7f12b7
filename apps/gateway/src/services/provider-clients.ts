/**
 * One provider client per configured provider (`models.providers.<id>`), with the config's timeouts:
 * `models.timeouts` overridden per provider by `models.providers.<id>.timeouts`, and the provider's OAuth
 * token endpoint (`models.providers.<id>.oauth` over the built-in defaults) so expiring OAuth profiles are
 * refreshed before use; each call names the agent's store, where the refreshed credential is written back
 * under the store's refresh lock (docs/configuration.md).
 */
import type { ProviderConfig, UnderstudyConfig } from '@understudy/config';
import { providerSettings, resolveProviderOAuth } from '@understudy/config';
import type { Logger } from '@understudy/contracts';
import { Secret } from '@understudy/contracts';
import type { OAuthRefreshOptions, ProviderClient, ProviderTimeouts } from '@understudy/providers';
import { createProviderClient } from '@understudy/providers';

/** The client timeouts of one provider, from config (ms). */
function providerTimeouts(config: UnderstudyConfig, provider: ProviderConfig): ProviderTimeouts {
  const timeouts = { ...config.models.timeouts, ...Object.fromEntries(Object.entries(provider.timeouts ?? {}).filter(([, value]) => value !== undefined)) };
  return {
    connectTimeoutMs: timeouts.connectMs,
    headersTimeoutMs: timeouts.headersMs,
    // A non-streamed answer's headers arrive with the whole answer: only the whole-request limit bounds it, and
    // that limit is each attempt's own deadline (turn/run-turn.ts, `providerRequestTimeoutMs`), from the call to
    // its last byte. No second timer for it here.
    completeHeadersTimeoutMs: 0,
    bodyTimeoutMs: timeouts.stallMs,
    firstTokenTimeoutMs: timeouts.firstTokenMs,
    stallTimeoutMs: timeouts.stallMs,
  };
}

/**
 * The whole-request limit of a provider's non-streaming calls, ms (`models.timeouts.requestMs`, overridden by
 * `models.providers.<id>.timeouts.requestMs`): the one place it is applied is the attempt deadline of
 * turn/run-turn.ts; the provider clients get no timer for it.
 */
export function providerRequestTimeoutMs(config: UnderstudyConfig, providerId: string): number {
  return providerSettings(config, providerId)?.timeouts?.requestMs ?? config.models.timeouts.requestMs;
}

/** The refresh settings of a provider's OAuth profiles, or `undefined` when no token endpoint is known. */
function providerOAuth(providerId: string, provider: ProviderConfig): OAuthRefreshOptions | undefined {
  const oauth = resolveProviderOAuth(providerId, provider);
  if (oauth === undefined) return undefined;
  return {
    tokenUrl: oauth.tokenUrl,
    ...(oauth.clientId === undefined ? {} : { clientId: oauth.clientId }),
    ...(oauth.clientSecret === undefined ? {} : { clientSecret: new Secret(oauth.clientSecret) }),
    // The scope is asked for at login; a refresh keeps what was granted unless the config names one.
    ...(provider.oauth?.scope === undefined ? {} : { scope: provider.oauth.scope }),
  };
}

/** The provider clients of one gateway. */
export class ProviderClients {
  readonly #clients = new Map<string, ProviderClient>();

  constructor(options: {
    readonly config: UnderstudyConfig;
    readonly logger: Logger;
    readonly nowMs: () => number;
    /** Told about each upstream stream event skipped for data that is not valid JSON. */
    readonly onSkippedStreamEvent?: ((event: { readonly provider: string; readonly model: string }) => void) | undefined;
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
          oauth: providerOAuth(providerId, provider),
          logger: options.logger,
          nowMs: options.nowMs,
          ...(options.onSkippedStreamEvent === undefined ? {} : { onSkippedStreamEvent: options.onSkippedStreamEvent }),
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
