/**
 * `createGateway`: the composition root. It wires the parsed config, the per-agent stores, the provider
 * clients, the fallback runner, the metrics and the HTTP server, and owns the lifecycle: `listen()` binds
 * (refusing a non-loopback address without `gateway.auth.token`), `close()` stops accepting, lets in-flight
 * requests finish within the grace period, aborts the rest, and closes the clients and the databases.
 *
 * The server is Node's own `http`: the request path is a handful of string compares, no middleware chain, so
 * the gateway adds as little as possible on top of the provider call (see README "Why node:http"). Client
 * requests have time limits (`http/server-limits.ts`), so a stalled client cannot hold a connection forever.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger as PinoLogger } from 'pino';
import { DEFAULT_PG_SCHEMA, parsePostgresUrl, resolveStateRoot, schemaProblem } from '@understudy/auth-profile-store';
import type { UnderstudyConfig } from '@understudy/config';
import { isLoopbackHost } from '@understudy/config';
import type { Clock, RandomSource } from '@understudy/contracts';
import { UnderstudyError, formatModelRef } from '@understudy/contracts';
import { AuthFailureSkipCache } from '@understudy/fallback-runner';
import type { RuntimeEnv } from '@understudy/runtime';
import { POSTGRES_URL_ENV, fallbackSkipTtlMsOf, resolveSharedState, systemClock, systemRandom } from '@understudy/runtime';
import { profileUnavailability } from '@understudy/cooldown-scheduler';
import type { AdminContext } from './admin/admin-api.js';
import { loggerPort } from './logger.js';
import type { ActiveWindow } from './metrics.js';
import { GatewayMetrics } from './metrics.js';
import type { BodyLimits } from './http/body.js';
import { answerClientError, refuseConnect } from './http/client-error.js';
import { createRequestListener } from './http/router.js';
import type { HttpLimits } from './http/server-limits.js';
import { resolveHttpLimits } from './http/server-limits.js';
import { configuredModelRefs } from './chat/model-selection.js';
import { AgentStores } from './services/agent-stores.js';
import { CooldownWatch } from './services/cooldown-watch.js';
import { ProviderClients } from './services/provider-clients.js';
import { loadTurnTracer } from './telemetry/turn-trace.js';
import type { RequestAbort } from './http/request-abort.js';
import type { TurnServices } from './turn/run-turn.js';
import { RecentOutcomes } from './ui/recent-outcomes.js';
import { UiSessions } from './ui/ui-sessions.js';

/** Options of {@link createGateway}. */
export interface GatewayOptions {
  /** The parsed config, flags already applied (`--host`, `--port` override `gateway.host` / `gateway.port`). */
  readonly config: UnderstudyConfig;
  /**
   * The environment's settings, parsed once by `parseRuntimeEnv` (`UNDERSTUDY_STATE_DIR`,
   * `UNDERSTUDY_FALLBACK_SKIP_TTL_MS`, `UNDERSTUDY_SDK_RETRY_MAX_WAIT_SECONDS`; docs/configuration.md#environment-variables).
   */
  readonly settings: RuntimeEnv;
  /**
   * The raw environment, read only for the shared state (`UNDERSTUDY_POSTGRES_URL` and the variable
   * `state.secretKeyEnv` names, docs/configuration.md#environment-variables). @default {}
   */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** The home folder (default state root `~/.understudy`). */
  readonly homeDir: string;
  readonly logger: PinoLogger;
  /** @default systemClock */
  readonly clock?: Clock | undefined;
  /** @default Math.random */
  readonly random?: RandomSource | undefined;
  /** Register Node process metrics on `/metrics`. @default true */
  readonly processMetrics?: boolean | undefined;
  /** Overrides of the client-request time limits (tests use short ones). @default DEFAULT_HTTP_LIMITS */
  readonly httpLimits?: Partial<HttpLimits> | undefined;
}

/** Where the gateway listens. */
export interface ListenInfo {
  /** `http://host:port`. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
}

/** A running (or ready to run) gateway. */
export interface Gateway {
  /** Binds `gateway.host:gateway.port`. @throws {GatewayStartError} `unsafe_bind`; the listen error (e.g. EADDRINUSE). */
  listen(): Promise<ListenInfo>;
  /**
   * Graceful shutdown: stop accepting, drain in-flight requests for at most `graceMs`
   * (@default `gateway.shutdownGraceMs`), abort the rest, close provider clients and databases. Idempotent.
   */
  close(options?: { readonly graceMs?: number | undefined }): Promise<void>;
  /** The state root (`UNDERSTUDY_STATE_DIR`, else `state.dir`, else `~/.understudy`). */
  readonly stateDir: string;
}

/** The gateway cannot start as configured; the message says how to fix it. */
export class GatewayStartError extends UnderstudyError<'unsafe_bind' | 'invalid_environment' | 'invalid_config' | 'state_unavailable'> {
  constructor(code: 'unsafe_bind' | 'invalid_environment' | 'invalid_config' | 'state_unavailable', message: string, options: { readonly cause?: unknown } = {}) {
    super(code, message, options);
  }
}

/** The state root the gateway uses: `UNDERSTUDY_STATE_DIR`, else `state.dir`, else `<home>/.understudy`. */
function gatewayStateDir(config: UnderstudyConfig, settings: Pick<RuntimeEnv, 'stateDir'>, homeDir: string): string {
  return resolveStateRoot({ homeDir, stateDir: settings.stateDir ?? config.state.dir });
}

/**
 * Refuses a non-loopback bind address without `gateway.auth.token` (docs/contracts.md#gateway).
 *
 * @throws {GatewayStartError} `unsafe_bind`.
 */
function checkBindSafety(config: UnderstudyConfig): void {
  if (!isLoopbackHost(config.gateway.host) && config.gateway.auth.token === undefined) {
    throw new GatewayStartError(
      'unsafe_bind',
      `refusing to listen on ${config.gateway.host}: binding a non-loopback address needs gateway.auth.token in the config (clients then send it as Authorization: Bearer <token> or x-api-key)`,
    );
  }
}

/**
 * The shared state settings; a URL or schema the shared state cannot use is a start error naming the variable or
 * config field it came from (`UNDERSTUDY_POSTGRES_URL`, `state.postgres.url`, `state.postgres.schema`) and the fix.
 */
function sharedStateOf(config: UnderstudyConfig, env: Readonly<Record<string, string | undefined>>): ReturnType<typeof resolveSharedState> {
  let shared: ReturnType<typeof resolveSharedState>;
  try {
    shared = resolveSharedState(config, env);
  } catch (error) {
    throw new GatewayStartError('invalid_environment', `${POSTGRES_URL_ENV}: ${(error as Error).message}`, { cause: error });
  }
  if (shared === undefined) return undefined;
  const fromEnv = shared.url !== config.state.postgres?.url;
  try {
    parsePostgresUrl(shared.url);
  } catch (error) {
    throw new GatewayStartError(fromEnv ? 'invalid_environment' : 'invalid_config', `${fromEnv ? POSTGRES_URL_ENV : 'state.postgres.url'}: ${(error as Error).message}`, { cause: error });
  }
  const problem = schemaProblem(shared.schema ?? DEFAULT_PG_SCHEMA);
  if (problem !== undefined) throw new GatewayStartError('invalid_config', `state.postgres.schema: ${problem}`);
  return shared;
}

/**
 * Builds a gateway from a parsed config.
 *
 * @throws {GatewayStartError} `unsafe_bind` for a non-loopback host without a token.
 * @example
 * const gateway = createGateway({ config, settings: parseRuntimeEnv(process.env), homeDir: os.homedir(), logger });
 * const { url } = await gateway.listen();
 * process.once('SIGTERM', () => void gateway.close());
 */
export function createGateway(options: GatewayOptions): Gateway {
  const { settings, logger } = options;
  const config = options.config;
  checkBindSafety(config);
  const clock = options.clock ?? systemClock;
  const random = options.random ?? systemRandom;
  const port = loggerPort(logger);
  const stateDir = gatewayStateDir(config, settings, options.homeDir);
  const shared = sharedStateOf(config, options.env ?? {});
  const stores = new AgentStores({ stateDir, config, nowMs: () => clock.nowMs(), shared, logger: port });
  const skipCache = new AuthFailureSkipCache({ ttlMs: fallbackSkipTtlMsOf(settings, config) });

  const activeWindows = async (): Promise<ActiveWindow[]> => {
    const nowMs = clock.nowMs();
    const windows: ActiveWindow[] = [];
    for (const store of await stores.opened()) {
      // A store that broke after it opened is reported by the requests that use it; /metrics goes on.
      const usage = await store.listUsageStats().catch(() => ({}));
      for (const [profileId, stats] of Object.entries(usage)) {
        // A model-scoped cooldown counts too: ask about the model it blocks.
        const block = profileUnavailability(stats, { nowMs, model: stats.cooldownModel });
        if (block !== undefined) windows.push({ agent: store.agentId, provider: profileId.slice(0, profileId.indexOf(':')), lane: block.lane, reason: block.reason });
      }
    }
    return windows;
  };
  const metrics = new GatewayMetrics({ activeWindows, stateStoreUp: () => stores.health(), defaultMetrics: options.processMetrics !== false });
  const providers = new ProviderClients({
    config,
    logger: port,
    nowMs: () => clock.nowMs(),
    onSkippedStreamEvent: ({ provider }) => metrics.skippedStreamEvents.inc({ provider }),
  });
  // Metric labels name only the models the config names (docs/operations.md#observability): bounded cardinality.
  const knownModels = new Set(configuredModelRefs(config));
  const turn: TurnServices = {
    config,
    providers,
    clock,
    random,
    logger: port,
    metrics,
    cooldownWatch: new CooldownWatch({ metrics, nowMs: () => clock.nowMs() }),
    modelLabel: (ref) => {
      const text = formatModelRef(ref);
      return knownModels.has(text) ? text : `${ref.provider}/other`;
    },
    skipCache: skipCache.enabled ? skipCache : undefined,
    maxRetryAfterMs: settings.sdkRetryMaxWaitMs,
    recent: new RecentOutcomes(),
  };

  const inFlight = new Set<RequestAbort>();
  const startedAtMs = clock.nowMs();
  let draining = false;
  let url: string | undefined;
  let server: Server | undefined;
  let closing: Promise<void> | undefined;
  const sockets = new Set<Socket>();
  const limits = resolveHttpLimits(options.httpLimits);
  // Aborted when shutdown starts: bodies still arriving then are answered 503 at once.
  const stopping = new AbortController();
  const body: BodyLimits = { maxBytes: config.gateway.maxRequestBytes, idleTimeoutMs: limits.bodyIdleTimeoutMs, shutdownSignal: stopping.signal };

  const admin: AdminContext = { config, stores, clock, logger: port, body, gatewayState: () => ({ url, draining, inFlight: inFlight.size, startedAtMs }) };
  const listener = createRequestListener({
    chat: { config, stores, turn, clock, logger: port, body },
    admin,
    ui: { admin, sessions: new UiSessions({ nowMs: () => clock.nowMs() }), recent: turn.recent },
    metrics,
    log: logger,
    draining: () => draining,
    stateHealth: () => stores.health(),
    inFlight,
  });

  async function drain(graceMs: number): Promise<void> {
    const deadline = Date.now() + graceMs;
    while (inFlight.size > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, Math.max(1, deadline - Date.now()))));
    }
  }

  async function shutdown(graceMs: number): Promise<void> {
    draining = true;
    stopping.abort();
    const stopped = server === undefined ? Promise.resolve() : new Promise<void>((resolve) => server?.close(() => resolve()));
    server?.closeIdleConnections();
    const waiting = inFlight.size;
    if (waiting > 0) logger.info({ inFlight: waiting, graceMs }, 'draining in-flight requests');
    await drain(graceMs);
    if (inFlight.size > 0) {
      logger.warn({ inFlight: inFlight.size }, 'grace period over: aborting the remaining requests');
      for (const controller of inFlight) controller.abort(new Error('the gateway is shutting down'));
      await drain(1000);
    }
    server?.closeAllConnections();
    for (const socket of sockets) socket.destroy();
    await stopped;
    await providers.closeAll();
    await stores.closeAll();
    // The turns are over: what they traced is exported before the process goes (docs/operations.md#observability).
    await turn.tracer?.shutdown();
    logger.info('gateway stopped; databases closed');
  }

  return {
    stateDir,
    async listen(): Promise<ListenInfo> {
      if (server !== undefined) throw new Error('the gateway is already listening');
      try {
        await stores.connect();
      } catch (error) {
        throw new GatewayStartError('state_unavailable', `cannot use the shared state: ${(error as Error).message}`, { cause: error });
      }
      // Off unless an OTLP endpoint is configured: then, and only then, the OpenTelemetry modules are loaded.
      turn.tracer ??= await loadTurnTracer({ config, settings, logger: port });
      const created = createServer(
        {
          requestTimeout: limits.requestTimeoutMs,
          headersTimeout: limits.headersTimeoutMs,
          keepAliveTimeout: limits.keepAliveTimeoutMs,
          connectionsCheckingInterval: limits.checkIntervalMs,
        },
        listener,
      );
      server = created;
      created.on('connection', (socket) => {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
      });
      created.on('clientError', answerClientError);
      created.on('connect', (request, socket) => refuseConnect(request.url, socket));
      await new Promise<void>((resolve, reject) => {
        created.once('error', reject);
        // `[::1]` is how a URL writes an IPv6 address; the socket wants it without the brackets.
        created.listen(config.gateway.port, config.gateway.host.replace(/^\[(.*)\]$/, '$1'), () => {
          created.off('error', reject);
          resolve();
        });
      });
      const address = created.address() as AddressInfo;
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      url = `http://${host}:${address.port}`;
      logger.info(
        { url, stateDir, providers: Object.keys(config.models.providers), auth: config.gateway.auth.token !== undefined, admin: config.gateway.auth.adminToken !== undefined },
        'understudy gateway listening',
      );
      return { url, host: address.address, port: address.port };
    },
    close(closeOptions = {}): Promise<void> {
      closing ??= shutdown(closeOptions.graceMs ?? config.gateway.shutdownGraceMs);
      return closing;
    },
  };
}
