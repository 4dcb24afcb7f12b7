/**
 * The operator status page under `/ui` (docs/contracts.md#status-page, docs/operations.md#status-page). Like the
 * admin API it exists only when `gateway.auth.adminToken` is set (404 otherwise) and is not behind
 * `gateway.auth.token`: its own login takes the admin token and keeps a session cookie ({@link UiSessions}).
 *
 * - `GET /ui`: the page with a live session, else the login form (401).
 * - `POST /ui/login` (form field `token`): 303 to `/ui` with the session cookie; a wrong token: the form again (401).
 * - `POST /ui/logout`: ends the session, 303 to `/ui`.
 * - `GET /ui/app.js`, `GET /ui/app.css`: the page's script and style (no data in them, served without a session).
 * - `GET /ui/api/state`: what the page shows, as JSON (401 without a session).
 * - `POST /ui/api/clear-cooldown` `{agent, profile}`, `POST /ui/api/reset-session` `{agent, session}`: the admin
 *   API's operations, with the session's CSRF token in `x-understudy-csrf` (403 without it).
 *
 * Every POST whose `Origin` is not this gateway's is refused (403), on top of the `SameSite=Strict` cookie.
 * The page is static: it renders the data with `textContent`, and its Content-Security-Policy allows only its
 * own script and style.
 */
import fs from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { AdminContext } from '../admin/admin-api.js';
import { adminStatus, checkAgent, clearProfileCooldown, profileIdOf, requireAdminApi, resetAgentSession } from '../admin/admin-api.js';
import { GatewayError, invalidRequest } from '../gateway-error.js';
import { tokenMatches } from '../http/access.js';
import { readBodyText, readJsonBody } from '../http/body.js';
import { sendJson } from '../http/respond.js';
import { checkSessionKey } from '../sessions/session-key.js';
import type { RecentOutcomes } from './recent-outcomes.js';
import type { UiSession, UiSessions } from './ui-sessions.js';

/** What the status page reads. */
export interface UiContext {
  /** The admin API's context: the page's data and actions are the admin API's. */
  readonly admin: AdminContext;
  readonly sessions: UiSessions;
  readonly recent: RecentOutcomes;
}

/**
 * The page's files: `apps/gateway/ui/`, shipped in the package. This module sits at the same depth in `src/` and
 * `dist/`, so the same relative path finds them from either.
 */
const ASSET_DIR = path.resolve(import.meta.dirname, '../../ui');

const ASSETS: Readonly<Record<string, { readonly file: string; readonly type: string }>> = {
  '/ui/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/ui/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};

const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  // Not no-referrer: with it a browser sends `Origin: null` on a form POST, which the origin check refuses.
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
} as const;

const fileCache = new Map<string, Promise<string>>();

/** A file of the page, read once per process. */
function asset(file: string): Promise<string> {
  let cached = fileCache.get(file);
  if (cached === undefined) {
    cached = fs.readFile(path.join(ASSET_DIR, file), 'utf8');
    // A failed read is retried next time rather than cached.
    cached.catch(() => fileCache.delete(file));
    fileCache.set(file, cached);
  }
  return cached;
}

function sendBody(response: ServerResponse, status: number, body: string, type: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...PAGE_HEADERS, ...headers, 'content-type': type, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

/** The login messages: fixed texts of ours, never anything from the request. */
const LOGIN_MESSAGES = {
  none: 'Sign in with the gateway’s admin token (gateway.auth.adminToken).',
  wrong: 'That is not the admin token. Try again.',
} as const;

async function sendLogin(response: ServerResponse, message: keyof typeof LOGIN_MESSAGES): Promise<number> {
  const page = (await asset('login.html')).replace('{{message}}', LOGIN_MESSAGES[message]);
  sendBody(response, 401, page, 'text/html; charset=utf-8');
  return 401;
}

function redirect(response: ServerResponse, setCookie: string): number {
  response.writeHead(303, { ...PAGE_HEADERS, location: '/ui', 'set-cookie': setCookie, 'content-length': 0 });
  response.end();
  return 303;
}

/**
 * Refuses a POST sent from another site: its `Origin` (when the client sends one, as every browser does on a
 * POST) must be `http://<Host>` or `https://<Host>`.
 *
 * @throws {GatewayError} 403 `cross_origin`.
 */
function checkOrigin(request: IncomingMessage): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  const host = request.headers.host;
  if (host !== undefined && (origin === `http://${host}` || origin === `https://${host}`)) return;
  throw new GatewayError(403, 'permission', 'the status page accepts actions only from its own origin', { code: 'cross_origin' });
}

function requireSession(request: IncomingMessage, context: UiContext): UiSession {
  const session = context.sessions.find(request.headers);
  if (session === undefined) {
    throw new GatewayError(401, 'authentication', 'the status page needs a login: POST /ui/login with the admin token', { code: 'ui_login_required' });
  }
  return session;
}

function requireCsrf(request: IncomingMessage, context: UiContext, session: UiSession): void {
  const header = request.headers['x-understudy-csrf'];
  if (!context.sessions.csrfMatches(session, typeof header === 'string' ? header : undefined)) {
    throw new GatewayError(403, 'permission', 'an action needs the page’s confirmation token in x-understudy-csrf', { code: 'csrf_token_missing' });
  }
}

function textField(body: unknown, field: string): string {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[field] : undefined;
  if (typeof value !== 'string' || value.trim() === '') throw invalidRequest(`the body needs "${field}" as a non-empty string`, 'invalid_request');
  return value.trim();
}

/** What `GET /ui/api/state` answers. */
async function state(context: UiContext, session: UiSession): Promise<Record<string, unknown>> {
  const nowMs = context.admin.clock.nowMs();
  return {
    nowMs,
    csrfToken: session.csrfToken,
    sessionExpiresAtMs: session.expiresAtMs,
    gateway: await adminStatus(context.admin),
    answering: context.recent.answeringNow(),
    providerFigures: context.recent.providerFigures(nowMs),
    decisions: context.recent.decisions(),
  };
}

/**
 * Serves one request under `/ui`.
 *
 * @returns the status sent.
 * @throws {GatewayError} 404 when the admin API is off; 401, 403 and validation failures of the JSON endpoints.
 */
export async function handleUi(request: IncomingMessage, response: ServerResponse, url: URL, context: UiContext): Promise<number> {
  const adminToken = requireAdminApi(context.admin.config.gateway.auth.adminToken);
  const method = request.method ?? 'GET';
  const route = url.pathname.replace(/\/+$/, '') || '/';

  const file = ASSETS[route];
  if (file !== undefined && method === 'GET') {
    sendBody(response, 200, await asset(file.file), file.type);
    return 200;
  }
  if (route === '/ui' && method === 'GET') {
    if (context.sessions.find(request.headers) === undefined) return sendLogin(response, 'none');
    sendBody(response, 200, await asset('index.html'), 'text/html; charset=utf-8');
    return 200;
  }
  if (route === '/ui/login' && method === 'POST') {
    checkOrigin(request);
    const token = new URLSearchParams(await readBodyText(request, context.admin.body)).get('token') ?? undefined;
    if (!tokenMatches(token, adminToken)) {
      context.admin.logger.warn({ path: route }, 'status page login with a wrong admin token');
      return sendLogin(response, 'wrong');
    }
    return redirect(response, context.sessions.create().setCookie);
  }
  if (route === '/ui/logout' && method === 'POST') {
    checkOrigin(request);
    return redirect(response, context.sessions.end(context.sessions.find(request.headers)));
  }
  if (route === '/ui/api/state' && method === 'GET') {
    const session = requireSession(request, context);
    sendJson(response, 200, await state(context, session), { 'cache-control': 'no-store' });
    return 200;
  }
  if ((route === '/ui/api/clear-cooldown' || route === '/ui/api/reset-session') && method === 'POST') {
    checkOrigin(request);
    const session = requireSession(request, context);
    requireCsrf(request, context, session);
    const body = await readJsonBody(request, context.admin.body);
    const agentId = checkAgent(textField(body, 'agent'), context.admin.config);
    const answer =
      route === '/ui/api/clear-cooldown'
        ? await clearProfileCooldown(context.admin, agentId, profileIdOf(textField(body, 'profile')))
        : await resetAgentSession(context.admin, agentId, checkSessionKey(textField(body, 'session'), 'the session key'));
    context.admin.logger.info({ path: route, agent: agentId }, 'status page action');
    sendJson(response, 200, answer);
    return 200;
  }
  throw new GatewayError(404, 'not_found', `no status page endpoint ${method} ${route}`, { code: 'not_found' });
}
