/**
 * The request listener: routes by method and path, enforces the client token, tracks in-flight requests for
 * graceful shutdown, renders every error in the wire format of the route, and writes one access-log line and
 * the request metrics per request.
 */
import type { StateHealth } from '../services/agent-stores.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_SDK_RETRY_MAX_WAIT_MS } from '@understudy/contracts';
import type { Logger as PinoLogger } from 'pino';
import type { AdminContext } from '../admin/admin-api.js';
import { handleAdmin } from '../admin/admin-api.js';
import type { ChatHandlerContext, ChatOutcome } from '../chat/chat-handler.js';
import { handleChat } from '../chat/chat-handler.js';
import { handleCountTokens } from '../chat/count-tokens.js';
import { renderModel, renderModelList } from '../chat/models-list.js';
import { GatewayError, internalError, invalidRequest, methodNotAllowed } from '../gateway-error.js';
import { storeError, storeFailureFacts } from '../services/store-errors.js';
import type { GatewayMetrics } from '../metrics.js';
import type { UpstreamTimer } from '../turn/run-turn.js';
import type { UiContext } from '../ui/ui-handler.js';
import { handleUi } from '../ui/ui-handler.js';
import type { WireDialect } from '../wire/dialect.js';
import { anthropicDialect, openAIDialect, responsesDialect } from '../wire/dialects.js';
import { clientAllowed } from './access.js';
import { decodePathSegment, parseRequestTarget } from './request-target.js';
import { sendJson, sendText } from './respond.js';
import { discardRestOfBody } from './body.js';
import { RequestAbort } from './request-abort.js';

/** Everything the router needs. */
export interface RouterContext {
  readonly chat: ChatHandlerContext;
  readonly admin: AdminContext;
  /** The status page under `/ui` (docs/operations.md#status-page). */
  readonly ui: UiContext;
  readonly metrics: GatewayMetrics;
  readonly log: PinoLogger;
  /** True once shutdown started: new requests get 503. */
  readonly draining: () => boolean;
  /**
   * Backend and health of the state store (`/healthz` says `degraded` while the shared state is unreachable or a
   * stored credential cannot be opened with this gateway's key).
   */
  readonly stateHealth?: (() => Promise<StateHealth>) | undefined;
  /** In-flight requests' abort controllers (aborted when the grace period ends). */
  readonly inFlight: Set<RequestAbort>;
}

type Route =
  | 'chat_completions'
  | 'messages'
  | 'responses'
  | 'count_tokens'
  | 'models'
  | 'model'
  | 'healthz'
  | 'metrics'
  | 'admin'
  | 'ui'
  | 'unknown';

/** The routes that run a turn (their time is measured as gateway overhead). */
const TURN_ROUTES: ReadonlySet<Route> = new Set(['chat_completions', 'messages', 'responses', 'count_tokens']);

function routeOf(path: string): Route {
  switch (path) {
    case '/v1/chat/completions':
    case '/chat/completions':
      return 'chat_completions';
    case '/v1/messages':
    case '/messages':
      return 'messages';
    case '/v1/responses':
    case '/responses':
      return 'responses';
    case '/v1/messages/count_tokens':
    case '/messages/count_tokens':
      return 'count_tokens';
    case '/v1/models':
    case '/models':
      return 'models';
    case '/healthz':
      return 'healthz';
    case '/metrics':
      return 'metrics';
    default:
      if (path.startsWith('/v1/models/') || path.startsWith('/models/')) return 'model';
      if (path === '/ui' || path.startsWith('/ui/')) return 'ui';
      return path === '/admin' || path.startsWith('/admin/') ? 'admin' : 'unknown';
  }
}

/** True for a path of the Anthropic dialect (`/v1/messages` and everything under it). */
function isAnthropicPath(path: string): boolean {
  return /^(?:\/v1)?\/messages(?:\/|$)/.test(path);
}

/** The wire format errors of a route are rendered in: the dialect its path belongs to. */
function dialectOf(route: Route, path: string, request: IncomingMessage): WireDialect {
  if (route === 'responses') return responsesDialect;
  if (isAnthropicPath(path)) return anthropicDialect;
  if ((route === 'models' || route === 'model') && request.headers['anthropic-version'] !== undefined) return anthropicDialect;
  return openAIDialect;
}

/**
 * The retry headers of an error: `retry-after` when known; and for a request on which understudy exhausted its
 * own recovery, `x-should-retry: false` unless a retry within the client SDK's wait cap can help (then only
 * `retry-after`, the soonest recovery), so that an SDK does not repeat the whole failover (docs/wire-mapping.md#retries).
 */
export function retryHeaders(error: GatewayError, maxRetryAfterMs: number | null): Record<string, string | number> {
  const headers: Record<string, string | number> = {};
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = error.retryAfterSeconds;
  if (!error.exhausted) return headers;
  const capMs = Math.min(DEFAULT_SDK_RETRY_MAX_WAIT_MS, maxRetryAfterMs ?? DEFAULT_SDK_RETRY_MAX_WAIT_MS);
  const helps = error.retryAfterSeconds !== undefined && error.retryAfterSeconds * 1000 <= capMs;
  if (!helps) headers['x-should-retry'] = 'false';
  return headers;
}

function sendError(response: ServerResponse, dialect: WireDialect, error: GatewayError, maxRetryAfterMs: number | null): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const headers = retryHeaders(error, maxRetryAfterMs);
  if (error.status === 401) headers['www-authenticate'] = 'Bearer';
  // The rest of the body was not read (too large, encoded, or it stopped arriving): the connection closes after the answer.
  if (error.status === 408 || error.status === 413 || error.status === 415) headers['connection'] = 'close';
  // A 413 or 415 may come while the body is still arriving (chunked, no content-length): let the client read it first.
  const rest = error.status === 413 || error.status === 415 ? discardRestOfBody(response.req, OVERSIZED_DRAIN) : undefined;
  sendJson(response, error.status, dialect.renderError(error), headers, rest);
}

/** After a 413 or 415 sent while the body is still arriving: how much more of it is read and dropped, and for how long. */
const OVERSIZED_DRAIN = { maxBytes: 8 * 1024 * 1024, maxMs: 2_000 } as const;

/**
 * Logs what the client was not told: the real cause of an internal error (with its stack), and of a store that
 * cannot be used (code and message at `error`, the stack at `debug`). Strings are scrubbed by the logger.
 */
function logFailure(log: PinoLogger, error: GatewayError, method: string, path: string): void {
  const cause = error.cause ?? error;
  if (error.kind === 'internal') {
    log.error({ err: cause, method, path }, 'request failed with an internal error');
    return;
  }
  if (error.code === 'store_unavailable') {
    log.error({ method, path, ...storeFailureFacts(error) }, error.message);
    log.debug({ err: cause, method, path }, 'state store failure (stack)');
  }
}

/**
 * The `http` request listener.
 *
 * @example http.createServer(createRequestListener(context))
 */
export function createRequestListener(context: RouterContext): (request: IncomingMessage, response: ServerResponse) => void {
  const { metrics, log } = context;
  const token = context.chat.config.gateway.auth.token;

  const serveRequest = (request: IncomingMessage, response: ServerResponse): void => {
    const started = performance.now();
    const target = parseRequestTarget(request.url);
    const url = target.ok ? target.url : undefined;
    const path = url?.pathname ?? '';
    const method = request.method ?? 'GET';
    const route = url === undefined ? 'unknown' : routeOf(path);
    const dialect = dialectOf(route, path, request);
    const abort = new RequestAbort();
    const timer: UpstreamTimer = { upstreamMs: 0 };
    context.inFlight.add(abort);
    metrics.inFlight.inc();
    response.once('close', () => {
      if (!response.writableFinished) abort.abort(new Error('the client closed the connection'));
    });

    const serve = async (): Promise<ChatOutcome & { readonly error?: string }> => {
      if (!target.ok) throw invalidRequest(target.problem, 'invalid_request_target');
      if (route === 'healthz' && method === 'GET') {
        const draining = context.draining();
        const health = await context.stateHealth?.();
        // Degraded is still 200: chat requests are answered (from the last known state), so a balancer keeps
        // sending them; the body and understudy_state_store_up say what is wrong.
        const unreadable = (health?.unreadableCredentials.length ?? 0) > 0;
        const status = draining ? 'draining' : health?.up === false || unreadable ? 'degraded' : 'ok';
        sendJson(response, draining ? 503 : 200, health === undefined || health.backend === 'sqlite' ? { status } : { status, state: health });
        return { status: draining ? 503 : 200 };
      }
      if (context.draining()) {
        response.setHeader('connection', 'close');
        throw new GatewayError(503, 'unavailable', 'the gateway is shutting down; retry on another instance', { code: 'shutting_down' });
      }
      if (route === 'admin' && url !== undefined) return { status: await handleAdmin(request, response, url, context.admin) };
      if (route === 'ui' && url !== undefined) return { status: await handleUi(request, response, url, context.ui) };
      if (!clientAllowed(request.headers, token)) {
        throw new GatewayError(401, 'authentication', 'this gateway needs its token: send Authorization: Bearer <gateway.auth.token> or x-api-key', {
          code: 'invalid_api_key',
        });
      }
      switch (route) {
        case 'chat_completions':
        case 'messages':
        case 'responses':
          if (method !== 'POST') throw methodNotAllowed(method, path, 'POST');
          return handleChat(dialect, request, response, context.chat, abort, timer);
        case 'count_tokens':
          if (method !== 'POST') throw methodNotAllowed(method, path, 'POST');
          return handleCountTokens(request, response, context.chat, abort, timer);
        case 'model': {
          if (method !== 'GET') throw methodNotAllowed(method, path, 'GET');
          const id = decodePathSegment(path.slice(path.indexOf('/models/') + '/models/'.length));
          sendJson(response, 200, renderModel(context.chat.config, id, dialect.id === 'anthropic'));
          return { status: 200 };
        }
        case 'models':
          if (method !== 'GET') throw methodNotAllowed(method, path, 'GET');
          sendJson(response, 200, renderModelList(context.chat.config, dialect.id === 'anthropic'));
          return { status: 200 };
        case 'metrics': {
          const { contentType, text } = await metrics.render();
          sendText(response, 200, text, contentType);
          return { status: 200 };
        }
        default:
          throw new GatewayError(
            404,
            'not_found',
            `no endpoint ${method} ${path}; try POST /v1/chat/completions, POST /v1/messages, POST /v1/messages/count_tokens, POST /v1/responses, GET /v1/models or GET /v1/models/{id}`,
            { code: 'not_found' },
          );
      }
    };

    void serve()
      .catch((error: unknown): ChatOutcome & { readonly error?: string } => {
        const gatewayError = GatewayError.isInstance(error)
          ? error
          : (storeError(error, undefined) ?? internalError(error));
        logFailure(log, gatewayError, method, path);
        sendError(response, dialect, gatewayError, context.chat.turn.maxRetryAfterMs);
        return { status: gatewayError.status, error: gatewayError.code };
      })
      .then((outcome) => {
        const totalMs = performance.now() - started;
        metrics.requestsOf.of(route, String(outcome.status)).inc();
        metrics.requestSecondsOf.of(route).observe(totalMs / 1000);
        if (TURN_ROUTES.has(route)) {
          // A streamed answer's own time ends at its first byte; after that the gateway only relays.
          const ownMs = (timer.outputAtMs === undefined ? totalMs : timer.outputAtMs - started) - timer.upstreamMs;
          metrics.overheadSecondsOf.of(route).observe(Math.max(0, ownMs) / 1000);
        }
        if (route !== 'healthz' && route !== 'metrics') {
          log.info({ method, path, ...outcome, durationMs: Math.round(totalMs * 10) / 10, upstreamMs: Math.round(timer.upstreamMs * 10) / 10 }, 'request');
        }
      })
      .catch((error: unknown) => answerUnexpected(log, response, error, { method, path }))
      .finally(() => {
        context.inFlight.delete(abort);
        metrics.inFlight.dec();
      });
  };

  // The last guard: whatever escapes the handling of one request is answered (or its connection closed) and
  // logged; it never reaches the process, where it would end every other request with it.
  return (request, response) => {
    try {
      serveRequest(request, response);
    } catch (error) {
      answerUnexpected(log, response, error, { method: request.method, path: undefined });
    }
  };
}

/**
 * Answers an exception that escaped the request handling: 500 `internal_error` in OpenAI's error shape when
 * nothing was sent yet (the route may not be known at this point), else the connection is closed so the
 * client sees the answer end early rather than a clean end. Logs it with its stack. Never throws.
 */
function answerUnexpected(log: PinoLogger, response: ServerResponse, error: unknown, where: { readonly method: string | undefined; readonly path: string | undefined }): void {
  try {
    log.error({ err: error, method: where.method, path: where.path }, 'request handling failed unexpectedly');
  } catch {
    // A logger that throws must not take the answer down with it.
  }
  try {
    if (response.headersSent) response.destroy();
    else sendError(response, openAIDialect, internalError(), null);
  } catch {
    response.destroy();
  }
}
