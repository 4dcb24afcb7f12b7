/**
 * Reading a request body with limits: a size limit (`gateway.maxRequestBytes` → 413), an idle limit (a body
 * that stops arriving → 408, so a slow or stalled client cannot hold a connection and an in-flight slot
 * forever), and the gateway's shutdown (a body still arriving when shutdown starts → 503 at once, instead of
 * holding the drain for the whole grace period). The body is never decoded: a `content-encoding` other than
 * `identity` is refused before reading (→ 415). Then parsing it as JSON (→ 400), nested at most
 * `MAX_JSON_DEPTH` levels (→ 400).
 */
import type { IncomingMessage } from 'node:http';
import { GatewayError, invalidRequest } from '../gateway-error.js';
import { checkJsonDepth } from '../wire/untrusted.js';

/** The limits of one body read. */
export interface BodyLimits {
  /** Largest body, bytes (`gateway.maxRequestBytes`). */
  readonly maxBytes: number;
  /** Longest silence between two pieces of the body, ms (see `BODY_IDLE_TIMEOUT_MS`). */
  readonly idleTimeoutMs: number;
  /** Aborted when the gateway starts shutting down: a read in progress then fails with 503. */
  readonly shutdownSignal?: AbortSignal | undefined;
}

function tooLarge(maxBytes: number): GatewayError {
  return new GatewayError(413, 'request_too_large', `request body is larger than ${maxBytes} bytes (gateway.maxRequestBytes)`, {
    code: 'request_too_large',
  });
}

/** A `content-encoding` value short and plain enough to name in an answer (anything else is not echoed). */
const NAMEABLE_ENCODING = /^[a-z0-9][a-z0-9 ,._-]{0,39}$/i;

/**
 * The refusal of a body sent with a `content-encoding` (gzip, br, deflate, …): the gateway reads bodies as they
 * are, and compressed bytes would otherwise reach the JSON parser and come back in its error. `identity` (alone
 * or in a list of identities) and an empty header mean no encoding.
 *
 * @returns a 415 `unsupported_content_encoding` naming the header and the fix (never body bytes), or
 *   `undefined` when the body is not encoded.
 */
function encodedBodyRefusal(request: IncomingMessage): GatewayError | undefined {
  const header = request.headers['content-encoding'];
  if (header === undefined) return undefined;
  const codings = header
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0) return undefined;
  const named = NAMEABLE_ENCODING.test(header.trim()) ? `content-encoding: ${header.trim()}` : 'a content-encoding header';
  return new GatewayError(
    415,
    'invalid_request',
    `the request body was sent with ${named}, which this gateway does not decode; send an uncompressed body (no content-encoding header, or content-encoding: identity)`,
    { code: 'unsupported_content_encoding' },
  );
}

/**
 * The request body as text, within `limits`. A `content-length` over the limit and a `content-encoding` are
 * refused before reading.
 *
 * @throws {GatewayError} 415 `unsupported_content_encoding` for a body with a `content-encoding` other than `identity`; 413 `request_too_large`; 408 `request_timeout` when no part of the body arrived for
 *   `idleTimeoutMs`; 503 `shutting_down` when the gateway started shutting down; 400 `incomplete_body` when the
 *   client closed the connection before the body was complete.
 * @example const text = await readBodyText(request, { maxBytes: 1_048_576, idleTimeoutMs: 10_000 })
 */
export function readBodyText(request: IncomingMessage, limits: BodyLimits): Promise<string> {
  const { maxBytes, idleTimeoutMs, shutdownSignal } = limits;
  const encoded = encodedBodyRefusal(request);
  if (encoded !== undefined) return Promise.reject(encoded);
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.reject(tooLarge(maxBytes));
  if (request.readableEnded) return Promise.resolve('');
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      clearTimeout(idle);
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('close', onClose);
      shutdownSignal?.removeEventListener('abort', onShutdown);
    };
    const fail = (error: unknown): void => {
      cleanup();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    const onIdle = (): void => {
      fail(
        new GatewayError(408, 'timeout', `the request body stopped arriving: nothing came for ${idleTimeoutMs} ms; send the whole body at once`, {
          code: 'request_timeout',
        }),
      );
    };
    const idle = setTimeout(onIdle, idleTimeoutMs);
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        fail(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
      idle.refresh();
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (error: Error): void => fail(error);
    const onClose = (): void => {
      if (!request.readableEnded) fail(invalidRequest('the client closed the connection before the request body was complete', 'incomplete_body'));
    };
    const onShutdown = (): void => {
      fail(new GatewayError(503, 'unavailable', 'the gateway is shutting down; retry on another instance', { code: 'shutting_down' }));
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('close', onClose);
    if (shutdownSignal?.aborted === true) onShutdown();
    else shutdownSignal?.addEventListener('abort', onShutdown, { once: true });
  });
}

/**
 * Reads and drops what is left of a request body, so the answer already written can be read before the
 * connection closes: closing a socket with request bytes unread makes the kernel reset the connection, and the
 * reset throws away the answer the client had not read yet (a client streaming an oversized chunked body would
 * see `ECONNRESET` instead of the 413 that says why). Bounded: it gives up after `maxBytes` more bytes or `maxMs`.
 *
 * @returns `undefined` when the body is already over; else a promise that resolves (never rejects) when the
 *   body ended, the client closed, or a bound was reached.
 */
export function discardRestOfBody(request: IncomingMessage, bounds: { readonly maxBytes: number; readonly maxMs: number }): Promise<void> | undefined {
  if (request.readableEnded || request.destroyed) return undefined;
  return new Promise<void>((resolve) => {
    let dropped = 0;
    const done = (): void => {
      clearTimeout(timer);
      request.off('data', onData);
      request.off('end', done);
      request.off('close', done);
      resolve();
    };
    const onData = (chunk: Buffer): void => {
      dropped += chunk.length;
      if (dropped > bounds.maxBytes) done();
    };
    const timer = setTimeout(done, bounds.maxMs);
    request.on('data', onData);
    request.on('end', done);
    request.on('close', done);
    request.resume();
  });
}

/**
 * The request body parsed as JSON.
 *
 * @throws {GatewayError} those of {@link readBodyText}, 400 `invalid_json` for text that is not JSON, and 400
 *   `nesting_too_deep` for JSON nested deeper than `MAX_JSON_DEPTH` levels (naming the field).
 */
export async function readJsonBody(request: IncomingMessage, limits: BodyLimits): Promise<unknown> {
  const text = await readBodyText(request, limits);
  if (text.trim() === '') throw invalidRequest('the request body is empty: send a JSON object', 'invalid_json');
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch (error) {
    // The parser's message quotes the body's first characters (a key pasted by mistake, compressed bytes): only
    // the position goes back to the client.
    const position = /at position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
    throw invalidRequest(`the request body is not valid JSON${position === undefined ? '' : ` (at character ${position})`}: send one JSON object`, 'invalid_json');
  }
  checkJsonDepth(body);
  return body;
}
