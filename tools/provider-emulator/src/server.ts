/**
 * The emulator's HTTP server: routes requests to scripted steps, serves the OAuth token endpoint (refresh-token
 * and device-code grants) and the device-authorization endpoint (`…/oauth/device/code`), records
 * every request, and answers the control API of control.ts (`GET|DELETE /__requests`, `POST /__script`,
 * `GET /__stats`, `GET /__health`).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { EmulatorStats, RecordedRequest } from './control.js';
import { CONTROL_PATHS } from './control.js';
import type { RequestTarget } from './request-info.js';
import { SECRET_HEADERS, keyFingerprint, requestKey, requestTarget } from './request-info.js';
import { realApiRefusal } from './real-limits.js';
import { playStep, sendStatus } from './responder.js';
import type { EmulatorScript, EmulatorStep, OAuthStep } from './script.js';
import { EMPTY_SCRIPT, EmulatorScriptError, parseEmulatorScript } from './script.js';

/** A running emulator. */
export interface EmulatorHandle {
  /** `http://host:port`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  /** Every recorded request so far, oldest first. */
  requests(): RecordedRequest[];
  /** Forgets the recorded requests and the OAuth refresh count. */
  clearRequests(): void;
  /** Replaces the script (a value or JSON5 text) and restarts every route's steps. @throws {EmulatorScriptError} */
  setScript(script: unknown): void;
  stats(): EmulatorStats;
  /** Stops listening and drops every open connection (stalled streams included). */
  close(): Promise<void>;
}

/**
 * Options of {@link startEmulator}.
 * - `port`: 0 for an ephemeral port. @default 0
 * - `host`: @default '127.0.0.1'
 * - `script`: the script (value or JSON5 text); `scriptFile`: a JSON5 file to read it from.
 * - `log`: receives one line per request (for `--verbose`).
 */
export interface EmulatorOptions {
  readonly port?: number | undefined;
  readonly host?: string | undefined;
  readonly script?: unknown;
  readonly scriptFile?: string | undefined;
  readonly log?: ((line: string) => void) | undefined;
}

const MAX_REQUEST_BYTES = 32 * 1024 * 1024;

class EmulatorState {
  script: EmulatorScript = EMPTY_SCRIPT;
  routeCalls: number[] = [];
  oauthCalls = 0;
  oauthRefreshes = 0;
  /** Device logins by device code: token polls so far. */
  readonly devices = new Map<string, { polls: number; readonly expiresAt: number }>();
  deviceLogins = 0;
  records: RecordedRequest[] = [];
  sequence = 0;
  readonly connections = new WeakMap<object, number>();
  connectionCount = 0;

  connectionOf(socket: object): number {
    let number = this.connections.get(socket);
    if (number === undefined) {
      this.connectionCount += 1;
      number = this.connectionCount;
      this.connections.set(socket, number);
    }
    return number;
  }

  setScript(script: EmulatorScript): void {
    this.script = script;
    this.routeCalls = (script.routes ?? []).map(() => 0);
    this.oauthCalls = 0;
    this.devices.clear();
  }

  /** The route and step for a request, consuming the step (the last one repeats). */
  nextStep(target: Extract<RequestTarget, { kind: 'api' }>, key: string | undefined, pathname: string) {
    const routes = this.script.routes ?? [];
    const index = routes.findIndex(({ match }) => {
      if (match === undefined) return true;
      return (
        (match.api === undefined || match.api === target.api) &&
        (match.model === undefined || match.model === target.model) &&
        (match.key === undefined || match.key === key) &&
        (match.pathPrefix === undefined || pathname.startsWith(match.pathPrefix)) &&
        (match.stream === undefined || match.stream === target.stream)
      );
    });
    const route = routes[index];
    if (route === undefined) return { route: null, step: null, value: undefined };
    const calls = this.routeCalls[index] ?? 0;
    this.routeCalls[index] = calls + 1;
    const stepIndex = Math.min(calls, route.steps.length - 1);
    return { route: index, step: stepIndex, value: route.steps[stepIndex] as EmulatorStep };
  }

  nextOAuthStep(): OAuthStep | undefined {
    const steps = this.script.oauth?.steps;
    const calls = this.oauthCalls;
    this.oauthCalls += 1;
    return steps === undefined ? undefined : steps[Math.min(calls, steps.length - 1)];
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BYTES) throw new Error('request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(text: string, contentType: string): unknown {
  if (contentType.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
}

function recordedHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || SECRET_HEADERS.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function handleControl(state: EmulatorState, request: IncomingMessage, response: ServerResponse, text: string, pathname: string, setScript: (value: unknown) => void): void {
  const action = `${request.method ?? 'GET'} ${pathname}`;
  switch (action) {
    case `GET ${CONTROL_PATHS.requests}`:
      return sendJson(response, 200, state.records);
    case `DELETE ${CONTROL_PATHS.requests}`:
      state.records = [];
      state.oauthRefreshes = 0;
      return sendJson(response, 200, { ok: true });
    case `POST ${CONTROL_PATHS.script}`:
      try {
        setScript(text);
        return sendJson(response, 200, { ok: true });
      } catch (error) {
        if (!EmulatorScriptError.isInstance(error)) throw error;
        return sendJson(response, 400, { error: error.message });
      }
    case `GET ${CONTROL_PATHS.stats}`:
      return sendJson(response, 200, statsOf(state));
    case `GET ${CONTROL_PATHS.health}`:
      return sendJson(response, 200, { ok: true });
    default:
      return sendJson(response, 404, { error: `unknown control endpoint ${action}` });
  }
}

function statsOf(state: EmulatorState): EmulatorStats {
  return {
    requests: state.records.length,
    oauthRefreshes: state.oauthRefreshes,
    deviceLogins: state.deviceLogins,
    routes: (state.script.routes ?? []).map((route, index) => ({ name: route.name ?? null, calls: state.routeCalls[index] ?? 0 })),
  };
}

function modelList(state: EmulatorState): unknown {
  const ids = new Set(state.script.models ?? []);
  for (const route of state.script.routes ?? []) if (route.match?.model !== undefined) ids.add(route.match.model);
  if (ids.size === 0) ids.add('emulator-model');
  return {
    object: 'list',
    data: [...ids].map((id) => ({ id, object: 'model', created: 0, owned_by: 'understudy-emulator' })),
  };
}

const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** An unsigned JWT (`alg: none`) carrying the email claim, as an id token. */
function idToken(email: string): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ email, sub: `emu-user-${email}` })}.`;
}

/** `POST …/oauth/device/code`: starts a device login (RFC 8628 §3.2). */
function handleDeviceCode(state: EmulatorState, response: ServerResponse, form: unknown, origin: string): string {
  const fields = typeof form === 'object' && form !== null ? (form as Record<string, unknown>) : {};
  if (typeof fields['client_id'] !== 'string' || fields['client_id'] === '') {
    return sendStatus(response, { status: 400, body: { error: 'invalid_client', error_description: 'client_id is required' } });
  }
  state.deviceLogins += 1;
  const device = state.script.oauth?.device;
  const number = state.deviceLogins;
  const deviceCode = `emu-device-${number}`;
  const expiresIn = device?.expiresInSeconds ?? 600;
  state.devices.set(deviceCode, { polls: 0, expiresAt: Date.now() + expiresIn * 1000 });
  const userCode = `EMU-${String(1000 + number).slice(-4)}`;
  sendJson(response, 200, {
    device_code: deviceCode,
    user_code: userCode,
    verification_uri: `${origin}/device`,
    verification_uri_complete: `${origin}/device?user_code=${userCode}`,
    expires_in: expiresIn,
    interval: device?.intervalSeconds ?? 0,
  });
  return 'device code issued';
}

/** The device-code grant at the token endpoint: pending, denied, expired or tokens (RFC 8628 §3.5). */
function handleDevicePoll(state: EmulatorState, response: ServerResponse, fields: Record<string, unknown>): string {
  const code = typeof fields['device_code'] === 'string' ? fields['device_code'] : '';
  const login = state.devices.get(code);
  if (login === undefined) return sendStatus(response, { status: 400, body: { error: 'invalid_grant', error_description: 'unknown device_code' } });
  if (Date.now() >= login.expiresAt) return sendStatus(response, { status: 400, body: { error: 'expired_token', error_description: 'the device code expired' } });
  const device = state.script.oauth?.device;
  login.polls += 1;
  if (login.polls <= (device?.pendingPolls ?? 1)) {
    return sendStatus(response, { status: 400, body: { error: 'authorization_pending', error_description: 'the user has not approved yet' } });
  }
  if (device?.deny === true) {
    state.devices.delete(code);
    return sendStatus(response, { status: 400, body: { error: 'access_denied', error_description: 'the user denied the request' } });
  }
  state.devices.delete(code);
  const email = device?.email;
  sendJson(response, 200, {
    access_token: `emu-device-access-${code.slice('emu-device-'.length)}`,
    token_type: 'Bearer',
    expires_in: 3600,
    refresh_token: `emu-device-refresh-${code.slice('emu-device-'.length)}`,
    ...(email === undefined ? {} : { id_token: idToken(email) }),
  });
  return 'device token issued';
}

async function handleOAuth(state: EmulatorState, response: ServerResponse, form: unknown, gone: AbortSignal): Promise<string> {
  const fields = typeof form === 'object' && form !== null ? (form as Record<string, unknown>) : {};
  if (fields['grant_type'] === DEVICE_CODE_GRANT) return handleDevicePoll(state, response, fields);
  state.oauthRefreshes += 1;
  const step = state.nextOAuthStep();
  if (step?.delayMs !== undefined) {
    try {
      await sleepFor(step.delayMs, undefined, { signal: gone });
    } catch {
      return 'client left';
    }
  }
  if (fields['grant_type'] !== 'refresh_token') {
    return sendStatus(response, { status: 400, body: { error: 'unsupported_grant_type', error_description: 'refresh_token and device_code grants only' } });
  }
  if (typeof fields['refresh_token'] !== 'string' || fields['refresh_token'] === '') {
    return sendStatus(response, { status: 400, body: { error: 'invalid_request', error_description: 'refresh_token is required' } });
  }
  if (step?.status !== undefined) return sendStatus(response, step);
  const number = state.oauthRefreshes;
  sendJson(response, 200, {
    access_token: step?.accessToken ?? `emu-access-${number}`,
    token_type: 'Bearer',
    expires_in: step?.expiresInSeconds ?? 3600,
    refresh_token: step?.refreshToken ?? `emu-refresh-${number}`,
  });
  return 'token issued';
}

function recordedBody(target: RequestTarget, body: unknown): unknown {
  if ((target.kind !== 'oauth' && target.kind !== 'device') || typeof body !== 'object' || body === null) return body;
  const fields = { ...(body as Record<string, unknown>) };
  for (const name of ['refresh_token', 'client_secret', 'device_code']) {
    if (typeof fields[name] === 'string') fields[name] = keyFingerprint(fields[name]);
  }
  return fields;
}

/**
 * Starts an emulator.
 *
 * @throws {EmulatorScriptError} when the script is invalid; the listen error when the port is taken.
 * @example const emulator = await startEmulator({ script: { routes: [] } }); await emulator.close();
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  const state = new EmulatorState();
  const setScript = (value: unknown): void => state.setScript(parseEmulatorScript(value));
  if (options.scriptFile !== undefined) setScript(await readFile(options.scriptFile, 'utf8'));
  else if (options.script !== undefined) setScript(options.script);
  const log = options.log;

  const server: Server = createServer((request, response) => {
    const gone = new AbortController();
    response.on('close', () => gone.abort());
    handle(request, response, gone.signal).catch((error: unknown) => {
      log?.(`emulator error: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) sendJson(response, 500, { error: { message: 'emulator failure', type: 'emulator_error' } });
      else response.destroy();
    });
  });
  server.keepAliveTimeout = 30_000;

  async function handle(request: IncomingMessage, response: ServerResponse, gone: AbortSignal): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://emulator.invalid');
    const method = request.method ?? 'GET';
    const text = await readBody(request);
    const body = parseBody(text, request.headers['content-type'] ?? '');
    const target = requestTarget(method, url.pathname, url.searchParams, body);
    if (target.kind === 'control') return handleControl(state, request, response, text, url.pathname, setScript);
    const key = requestKey(request.headers, url.searchParams);
    state.sequence += 1;
    const sequence = state.sequence;
    const chosen = target.kind === 'api' ? state.nextStep(target, key, url.pathname) : { route: null, step: null, value: undefined };
    url.searchParams.delete('key');
    const record: RecordedRequest = {
      sequence,
      timestamp: Date.now(),
      method,
      path: `${url.pathname}${url.search}`,
      api: target.kind === 'api' ? target.api : target.kind,
      model: target.kind === 'api' ? target.model : null,
      stream: target.kind === 'api' ? target.stream : false,
      keyFingerprint: keyFingerprint(key),
      headers: recordedHeaders(request),
      body: recordedBody(target, body),
      route: chosen.route,
      step: chosen.step,
      outcome: 'pending',
      connection: state.connectionOf(request.socket),
    };
    state.records.push(record);
    switch (target.kind) {
      case 'api': {
        const refusal = state.script.realLimits === true ? realApiRefusal(target.api, target.model, body) : undefined;
        record.outcome =
          refusal === undefined
            ? await playStep({ request, response, gone, target, body, sequence }, chosen.value, state.script)
            : `refused: ${sendStatus(response, refusal)}`;
        break;
      }
      case 'oauth':
        record.outcome = await handleOAuth(state, response, body, gone);
        break;
      case 'device':
        record.outcome = handleDeviceCode(state, response, body, `http://${request.headers.host ?? 'emulator.invalid'}`);
        break;
      case 'models':
        sendJson(response, 200, modelList(state));
        record.outcome = 'models';
        break;
      case 'unknown':
        sendJson(response, 404, { error: { message: `the emulator has no endpoint ${method} ${url.pathname}`, type: 'not_found_error' } });
        record.outcome = 'status 404';
        break;
    }
    log?.(`${method} ${record.path} ${record.model ?? ''} key=${record.keyFingerprint ?? '-'} -> ${record.outcome}`);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    requests: () => state.records.map((record) => ({ ...record })),
    clearRequests: () => {
      state.records = [];
      state.oauthRefreshes = 0;
    },
    setScript,
    stats: () => statsOf(state),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}
