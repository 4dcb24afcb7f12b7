/**
 * The admin API under `/admin/` (docs/contracts.md#gateway). It exists only when `gateway.auth.adminToken` is set (without
 * it every admin path answers 404, so an unconfigured gateway exposes no management surface) and then requires
 * `Authorization: Bearer <adminToken>` (401 otherwise). The agent is `?agent=` or `x-understudy-agent`
 * (default `main`). Bodies are JSON in OpenAI's error shape on failure. Nothing here ever returns a secret.
 *
 * - `GET /admin/status`: gateway state, providers, and per agent the chain, its cooldowns and its profiles.
 * - `GET /admin/sessions/:key`: the session entry and its `/status`.
 * - `PATCH /admin/sessions/:key`: `sessions.patch` (see `session-patch.ts`).
 * - `POST /admin/sessions/:key/reset`: `sessions.reset` (like `/reset`).
 * - `GET /admin/profiles`: profiles with usage stats and availability.
 * - `POST /admin/profiles/:id/clear-cooldown`: ends a profile's cooldown and disable windows, resets its counts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthProfileStore } from '@understudy/auth-profile-store';
import { LegacyAuthFilesError } from '@understudy/auth-profile-store';
import type { UnderstudyConfig } from '@understudy/config';
import type { Clock, Logger } from '@understudy/contracts';
import { isoTime, normalizeProfileId, parseProfileId, redactUrl } from '@understudy/contracts';
import { clearCooldown, profileUnavailability } from '@understudy/cooldown-scheduler';
import { GatewayError, invalidRequest } from '../gateway-error.js';
import { bearerToken, tokenMatches } from '../http/access.js';
import type { BodyLimits } from '../http/body.js';
import { readJsonBody } from '../http/body.js';
import { decodePathSegment } from '../http/request-target.js';
import { sendJson } from '../http/respond.js';
import { DEFAULT_AGENT, knownAgents } from '../chat/model-selection.js';
import type { AgentStores } from '../services/agent-stores.js';
import { storeError, storeFailureFacts } from '../services/store-errors.js';
import { checkSessionKey } from '../sessions/session-key.js';
import { parseSessionPatchBody, patchSession } from '../sessions/session-patch.js';
import { resetSessionState } from '../sessions/session-ops.js';
import { sessionStatus } from '../sessions/status-report.js';

/** What the admin API reads. */
export interface AdminContext {
  readonly config: UnderstudyConfig;
  readonly stores: AgentStores;
  readonly clock: Clock;
  /** Where a broken agent store seen by `/admin/status` is logged. */
  readonly logger: Logger;
  /** Limits of the request body (size, idle time, shutdown). */
  readonly body: BodyLimits;
  /** Gateway facts for `/admin/status`. */
  readonly gatewayState: () => { readonly url: string | undefined; readonly draining: boolean; readonly inFlight: number; readonly startedAtMs: number };
}

function agentOf(request: IncomingMessage, url: URL, config: UnderstudyConfig): string {
  const header = request.headers['x-understudy-agent'];
  return checkAgent(url.searchParams.get('agent')?.trim() || (typeof header === 'string' ? header.trim() : '') || DEFAULT_AGENT, config);
}

/**
 * A configured agent id, as given.
 *
 * @throws {GatewayError} 404 `agent_not_found` listing the configured agents.
 */
export function checkAgent(agent: string, config: UnderstudyConfig): string {
  const agents = knownAgents(config);
  if (!agents.includes(agent)) {
    throw new GatewayError(404, 'not_found', `unknown agent "${agent}"; configured agents: ${agents.join(', ')}`, { code: 'agent_not_found' });
  }
  return agent;
}

async function profilesOf(store: AuthProfileStore, nowMs: number): Promise<Record<string, unknown>[]> {
  const [profiles, stats] = await Promise.all([store.listProfiles(), store.listUsageStats()]);
  return profiles.map((profile) => {
    const usage = stats[profile.id] ?? {};
    // A model-scoped cooldown shows as a block of that model (`unavailable.model`).
    const block = profileUnavailability(usage, { nowMs, model: usage.cooldownModel });
    return {
      id: profile.id,
      provider: profile.provider,
      type: profile.type,
      source: profile.source,
      ...(profile.email === undefined ? {} : { email: profile.email }),
      eligible: profile.facts.hasSecret || profile.facts.hasRefresh,
      ...(profile.facts.expiresAt === undefined ? {} : { expiresAt: isoTime(profile.facts.expiresAt) }),
      available: block === undefined,
      ...(block === undefined
        ? {}
        : { unavailable: { lane: block.lane, reason: block.reason, until: isoTime(block.untilMs), ...(block.model === undefined ? {} : { model: block.model }) } }),
      usageStats: usage,
    };
  });
}

async function agentStatus(context: AdminContext, agentId: string, nowMs: number): Promise<Record<string, unknown>> {
  const store = await context.stores.get(agentId);
  const chain = await sessionStatus({ store, config: context.config, agentId, nowMs }, undefined, undefined);
  return {
    id: agentId,
    store: 'ok',
    selected: chain.selected ?? null,
    chain: chain.chain,
    strict: chain.strict,
    cooldowns: chain.cooldowns.map((block) => ({ ...block, profiles: block.profiles.map((profile) => ({ ...profile, until: isoTime(profile.untilMs) })) })),
    ...(chain.problem === undefined ? {} : { problem: chain.problem }),
    profiles: await profilesOf(store, nowMs),
  };
}

/**
 * The body of `GET /admin/status` (docs/contracts.md#gateway), also what the status page shows: gateway state,
 * providers (base URLs redacted, never a key) and per agent the chain, its cooldowns and its profiles (ids and
 * usage stats, never a credential). One agent's broken store is reported in its entry, the others go on.
 *
 * @throws {GatewayError} for a failure that is not a store's 503.
 */
export async function adminStatus(context: AdminContext): Promise<Record<string, unknown>> {
  const nowMs = context.clock.nowMs();
  const state = context.gatewayState();
  const agents = [];
  for (const agentId of knownAgents(context.config)) {
    try {
      agents.push(await agentStatus(context, agentId, nowMs));
    } catch (error) {
      // One agent's broken store must not hide the others: report it and go on.
      const mapped = agentError(error, agentId);
      if (mapped.status !== 503) throw mapped;
      context.logger.error({ agent: agentId, ...storeFailureFacts(mapped) }, mapped.message);
      agents.push({ id: agentId, store: 'unavailable', problem: mapped.message, code: mapped.code });
    }
  }
  return {
    status: state.draining ? 'draining' : 'ok',
    url: state.url ?? null,
    uptimeSeconds: Math.round((nowMs - state.startedAtMs) / 1000),
    inFlight: state.inFlight,
    providers: Object.entries(context.config.models.providers).map(([id, provider]) => ({
      id,
      api: provider.api,
      // Shown, never its credentials: userinfo and key-like query values are masked.
      baseUrl: redactUrl(provider.baseUrl),
      inlineKey: provider.apiKey !== undefined && provider.apiKey.trim() !== '',
      models: (provider.models ?? []).map((model) => model.id),
    })),
    agents,
  };
}

const SESSION_PATH = /^\/admin\/sessions\/([^/]+)(\/reset)?$/;
const PROFILE_PATH = /^\/admin\/profiles\/([^/]+)\/clear-cooldown$/;

/** The longest profile id the admin API accepts (ids are short: `provider:name`, the name maybe an email). */
const MAX_PROFILE_ID_LENGTH = 256;

/**
 * A profile id from the path, canonical (`provider:name`, provider normalised).
 *
 * @throws {GatewayError} 400 `invalid_profile_id` naming the rule.
 */
export function profileIdOf(text: string): string {
  const printable = [...text].every((char) => char >= ' ' && char !== '\u007f');
  const parsed = printable && text.length <= MAX_PROFILE_ID_LENGTH ? parseProfileId(text) : undefined;
  if (parsed === undefined || parsed.provider === '' || parsed.name.trim() === '') {
    throw invalidRequest(
      `not a profile id: use provider:name (e.g. openai:work), at most ${MAX_PROFILE_ID_LENGTH} characters, no control characters; see GET /admin/profiles`,
      'invalid_profile_id',
    );
  }
  return normalizeProfileId(text);
}

/** The HTTP error for a failure while serving an agent: store failures named for the agent, the rest as is. */
function agentError(error: unknown, agentId: string): GatewayError {
  if (GatewayError.isInstance(error)) return error;
  if (LegacyAuthFilesError.isInstance(error)) return new GatewayError(503, 'unavailable', error.message, { code: 'legacy_auth_files', cause: error });
  return storeError(error, agentId) ?? new GatewayError(500, 'internal', 'internal gateway error (see the gateway log)', { code: 'internal_error', cause: error });
}

/**
 * The admin token, when the admin API (and the status page) is on.
 *
 * @throws {GatewayError} 404 `admin_disabled` when `gateway.auth.adminToken` is not set.
 */
export function requireAdminApi(adminToken: string | undefined): string {
  if (adminToken === undefined) {
    throw new GatewayError(404, 'not_found', 'the admin API is off: set gateway.auth.adminToken in the config to enable it', { code: 'admin_disabled' });
  }
  return adminToken;
}

/**
 * Checks the admin token. @throws {GatewayError} 404 when the admin API is off, 401 for a missing or wrong token.
 */
function checkAdminAccess(request: IncomingMessage, adminToken: string | undefined): void {
  if (!tokenMatches(bearerToken(request.headers), requireAdminApi(adminToken))) {
    throw new GatewayError(401, 'authentication', 'the admin API needs Authorization: Bearer <gateway.auth.adminToken>', { code: 'invalid_admin_token' });
  }
}

/**
 * Serves one admin request.
 *
 * @returns the status sent.
 * @throws {GatewayError} for access, routing and validation failures (rendered by the server).
 */
export async function handleAdmin(request: IncomingMessage, response: ServerResponse, url: URL, context: AdminContext): Promise<number> {
  checkAdminAccess(request, context.config.gateway.auth.adminToken);
  const method = request.method ?? 'GET';
  const path = url.pathname.replace(/\/+$/, '');
  const nowMs = context.clock.nowMs();

  if (path === '/admin/status' && method === 'GET') {
    sendJson(response, 200, await adminStatus(context));
    return 200;
  }

  if (path === '/admin/profiles' && method === 'GET') {
    const agentId = agentOf(request, url, context.config);
    return forAgent(agentId, async () => {
      const store = await context.stores.get(agentId);
      sendJson(response, 200, { agent: agentId, profiles: await profilesOf(store, nowMs) });
      return 200;
    });
  }

  const profileMatch = PROFILE_PATH.exec(path);
  if (profileMatch !== null && method === 'POST') {
    const agentId = agentOf(request, url, context.config);
    const profileId = profileIdOf(decodePathSegment(profileMatch[1] ?? ''));
    sendJson(response, 200, await clearProfileCooldown(context, agentId, profileId));
    return 200;
  }

  const sessionMatch = SESSION_PATH.exec(path);
  if (sessionMatch !== null) {
    const agentId = agentOf(request, url, context.config);
    const key = checkSessionKey(decodePathSegment(sessionMatch[1] ?? ''), 'the session key in the path');
    return forAgent(agentId, () => serveSession(request, response, context, { agentId, key, reset: sessionMatch[2] !== undefined, method, path, nowMs }));
  }

  throw new GatewayError(404, 'not_found', `no admin endpoint ${method} ${path}`, { code: 'not_found' });
}

/**
 * `POST /admin/profiles/:id/clear-cooldown`: ends the profile's cooldown and disable windows and resets its
 * failure counts. Resolves with the answer body (`agent`, `profile`, `usageStats`).
 *
 * @param profileId a canonical profile id (`provider:name`).
 * @throws {GatewayError} 404 `profile_not_found`; a store failure as the agent's 400 or 503.
 */
export function clearProfileCooldown(context: AdminContext, agentId: string, profileId: string): Promise<Record<string, unknown>> {
  return forAgent(agentId, async () => {
    const store = await context.stores.get(agentId);
    if ((await store.getProfile(profileId)) === undefined) {
      throw new GatewayError(404, 'not_found', `auth profile "${profileId}" does not exist for agent ${agentId}`, { code: 'profile_not_found' });
    }
    const usageStats = await store.updateUsageStats(profileId, clearCooldown);
    return { agent: agentId, profile: profileId, usageStats };
  });
}

/**
 * `POST /admin/sessions/:key/reset`: `sessions.reset` (like `/reset`). Resolves with the answer body (`agent`, `session`).
 *
 * @param key a checked session key (`checkSessionKey`).
 * @throws {GatewayError} 404 `session_not_found`; a store failure as the agent's 400 or 503.
 */
export function resetAgentSession(context: AdminContext, agentId: string, key: string): Promise<Record<string, unknown>> {
  return forAgent(agentId, async () => {
    const store = await context.stores.get(agentId);
    const entry = await resetSessionState({ store, config: context.config, agentId, nowMs: context.clock.nowMs() }, key);
    if (entry === undefined) throw new GatewayError(404, 'not_found', `no session "${key}" for agent ${agentId}`, { code: 'session_not_found' });
    return { agent: agentId, session: entry };
  });
}

/** Runs an agent's request; a store failure comes out as that agent's 400 or 503. */
async function forAgent<T>(agentId: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw agentError(error, agentId);
  }
}

/** `GET` / `PATCH /admin/sessions/:key` and `POST /admin/sessions/:key/reset`. */
async function serveSession(
  request: IncomingMessage,
  response: ServerResponse,
  context: AdminContext,
  target: { readonly agentId: string; readonly key: string; readonly reset: boolean; readonly method: string; readonly path: string; readonly nowMs: number },
): Promise<number> {
  const { agentId, key, method } = target;
  const store = await context.stores.get(agentId);
  const sessionContext = { store, config: context.config, agentId, nowMs: target.nowMs };
  if (target.reset && method === 'POST') {
    sendJson(response, 200, await resetAgentSession(context, agentId, key));
    return 200;
  }
  if (!target.reset && method === 'GET') {
    const entry = await store.getSession(key);
    if (entry === undefined) throw new GatewayError(404, 'not_found', `no session "${key}" for agent ${agentId}`, { code: 'session_not_found' });
    sendJson(response, 200, { agent: agentId, session: entry, status: await sessionStatus(sessionContext, key, entry) });
    return 200;
  }
  if (!target.reset && method === 'PATCH') {
    const body = parseSessionPatchBody(await readJsonBody(request, context.body));
    const entry = await patchSession(sessionContext, key, body);
    sendJson(response, 200, { agent: agentId, session: entry ?? null });
    return 200;
  }
  throw new GatewayError(405, 'invalid_request', `${method} ${target.path} is not supported (GET or PATCH a session, POST …/reset)`, { code: 'method_not_allowed' });
}
