/** HTTP plumbing over undici shared by the clients and the OAuth refresher. */
import { Agent } from 'undici';
import type { Dispatcher } from 'undici';
import type { CallControl } from './call-control.js';

/** The body stream of an undici response. */
export type ResponseBody = Dispatcher.ResponseData['body'];

/** A response whose headers arrived. */
export interface OpenResponse {
  readonly status: number;
  /** Lower-cased names; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: ResponseBody;
}

/**
 * Connection pool options for the undici `Agent` a client creates when it is not given a dispatcher.
 *
 * - `connections`: sockets per origin. @default 64
 * - `keepAliveTimeoutMs`: how long an idle socket is kept. @default 30000
 * - `keepAliveMaxTimeoutMs`: upper bound for a server's keep-alive hint. @default 600000
 * - `connect`: extra options for undici's connector (e.g. a TLS `ca`), merged with the connect timeout.
 */
export interface ProviderPoolOptions {
  readonly connections?: number | undefined;
  readonly keepAliveTimeoutMs?: number | undefined;
  readonly keepAliveMaxTimeoutMs?: number | undefined;
  readonly connect?: Readonly<Record<string, unknown>> | undefined;
}

/** A keep-alive undici `Agent` with a connect timeout (ms; 0 disables it). */
export function createProviderAgent(pool: ProviderPoolOptions | undefined, connectTimeoutMs: number): Agent {
  return new Agent({
    connections: pool?.connections ?? 64,
    keepAliveTimeout: pool?.keepAliveTimeoutMs ?? 30_000,
    keepAliveMaxTimeout: pool?.keepAliveMaxTimeoutMs ?? 600_000,
    connect: { ...(pool?.connect ?? {}), timeout: connectTimeoutMs > 0 ? connectTimeoutMs : null },
  } as Agent.Options);
}

/** Response headers as a plain lower-case record. */
export function plainHeaders(raw: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/**
 * Where a request goes, split once the way undici's top-level `request(url)` would split it on every call:
 * `origin` (`https://host:port`) and `path` (pathname plus search).
 */
export interface RequestTarget {
  readonly origin: string;
  readonly path: string;
}

/**
 * Parses an absolute http(s) URL into a {@link RequestTarget}.
 *
 * @throws {TypeError} when `url` is not a valid absolute URL.
 * @example
 * requestTarget('https://api.openai.com/v1/chat/completions'); // { origin: 'https://api.openai.com', path: '/v1/chat/completions' }
 */
export function requestTarget(url: string): RequestTarget {
  const parsed = new URL(url);
  return { origin: parsed.origin, path: parsed.search === '' ? parsed.pathname : `${parsed.pathname}${parsed.search}` };
}

/**
 * Sends a POST and waits for the response headers. undici's own headers and body timeouts are off: the
 * {@link CallControl} timers replace them, so we know which one fired. Goes straight to the dispatcher's
 * `request` with a prebuilt origin and path (a URL string is split here first), skipping undici's per-call
 * URL parsing.
 *
 * @throws whatever undici throws (connection errors, the control's abort reason).
 */
export async function postRequest(
  dispatcher: Dispatcher,
  target: RequestTarget | string,
  headers: Readonly<Record<string, string>>,
  body: string,
  control: CallControl,
): Promise<OpenResponse> {
  const { origin, path } = typeof target === 'string' ? requestTarget(target) : target;
  const response = await dispatcher.request({
    origin,
    path,
    method: 'POST',
    headers,
    body,
    signal: control.signal,
    headersTimeout: 0,
    bodyTimeout: 0,
  });
  return {
    status: response.statusCode,
    headers: plainHeaders(response.headers as Record<string, string | string[] | undefined>),
    body: response.body,
  };
}

/** Outcome of {@link readBodyText}. */
export interface BodyText {
  readonly text: string;
  /** False when reading stopped at `maxBytes` (the rest was discarded). */
  readonly complete: boolean;
}

/**
 * Reads a body as UTF-8 text, at most `maxBytes`, with the control's `body` timer re-armed before each chunk
 * (`idleTimeoutMs` without a byte aborts the call). A body longer than `maxBytes` is cut there and destroyed.
 *
 * @throws the read error (the control's abort reason, a socket error).
 */
export async function readBodyText(
  body: ResponseBody,
  options: { readonly maxBytes: number; readonly control: CallControl; readonly idleTimeoutMs: number },
): Promise<BodyText> {
  const chunks: Buffer[] = [];
  let size = 0;
  const iterator = body[Symbol.asyncIterator]();
  try {
    for (;;) {
      options.control.arm('body', options.idleTimeoutMs);
      const next = (await iterator.next()) as IteratorResult<Buffer>;
      options.control.disarm('body');
      if (next.done === true) return { text: Buffer.concat(chunks).toString('utf8'), complete: true };
      const room = options.maxBytes - size;
      chunks.push(next.value.length > room ? next.value.subarray(0, room) : next.value);
      size += Math.min(next.value.length, room);
      if (size >= options.maxBytes) {
        discardBody(body);
        return { text: new TextDecoder().decode(Buffer.concat(chunks)).replace(/\uFFFD$/, ''), complete: false };
      }
    }
  } finally {
    options.control.disarm('body');
  }
}

const ignore = (): void => undefined;

/**
 * Discards a body without waiting for it. undici reports a body destroyed before its end as an
 * `error` event (`UND_ERR_ABORTED`); nobody waits for that one, so it is swallowed here.
 */
export function discardBody(body: ResponseBody): void {
  if (body.destroyed) return;
  body.on('error', ignore);
  body.destroy();
}
