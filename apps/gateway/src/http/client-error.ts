/**
 * Node's `clientError`: a connection whose request could not be read as HTTP, or did not arrive in time. When
 * no request is being served on the socket, the client gets a small JSON error (OpenAI's shape: the route is
 * unknown at this point) with the right status — 408 for a request that did not arrive in time, 431 for
 * headers over Node's size limit, 400 for anything malformed — and the connection is closed. When a request is
 * being served, the socket is destroyed: the handler sees the client gone and releases its in-flight slot.
 */
import type { Duplex } from 'node:stream';
import { GatewayError } from '../gateway-error.js';
import { renderAnthropicError } from '../wire/anthropic-response.js';
import { renderOpenAIError } from '../wire/openai-response.js';
import { parseRequestTarget } from './request-target.js';

/** Status, reason phrase and error of a client error code. */
function describe(code: string | undefined): { readonly status: number; readonly phrase: string; readonly error: GatewayError } {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        phrase: 'Request Timeout',
        error: new GatewayError(408, 'timeout', 'the request did not arrive in time; send the headers and the body without pausing', { code: 'request_timeout' }),
      };
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        phrase: 'Request Header Fields Too Large',
        error: new GatewayError(431, 'invalid_request', 'the request headers are too large', { code: 'headers_too_large' }),
      };
    default:
      return {
        status: 400,
        phrase: 'Bad Request',
        error: new GatewayError(400, 'invalid_request', 'the request is not valid HTTP', { code: 'bad_request' }),
      };
  }
}

/**
 * Answers a `clientError` (see the module comment). Never throws: when answering fails, the socket is destroyed.
 *
 * @example server.on('clientError', answerClientError)
 */
export function answerClientError(error: Error & { readonly code?: string }, socket: Duplex): void {
  try {
    answer(error, socket);
  } catch {
    // Nothing about one broken connection may reach the process: close it.
    socket.destroy();
  }
}

function answer(error: Error & { readonly code?: string }, socket: Duplex): void {
  // Node attaches the response being served to its socket (`_httpMessage`, what Node's own default handler
  // checks). Writing a raw response then would interleave with it.
  const serving = (socket as Duplex & { readonly _httpMessage?: unknown })._httpMessage;
  if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || !socket.writable || (serving !== undefined && serving !== null)) {
    socket.destroy();
    return;
  }
  const { status, phrase, error: answer } = describe(error.code);
  endWithError(socket, status, phrase, answer);
}

function endWithError(socket: Duplex, status: number, phrase: string, error: GatewayError, anthropic = false): void {
  const body = JSON.stringify(anthropic ? renderAnthropicError(error) : renderOpenAIError(error));
  socket.end(
    `HTTP/1.1 ${status} ${phrase}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * Answers a `CONNECT` request (Node's `connect` event, which bypasses the request listener; without a
 * handler Node drops the connection unanswered): 405 in the error shape of the target's route (Anthropic's for
 * `/v1/messages`, else OpenAI's), then the connection is closed. Never throws.
 *
 * @example server.on('connect', (request, socket) => refuseConnect(request.url, socket))
 */
export function refuseConnect(target: string | undefined, socket: Duplex): void {
  try {
    socket.on('error', () => socket.destroy());
    const parsed = parseRequestTarget(target);
    const path = parsed.ok ? parsed.url.pathname : '';
    const error = new GatewayError(405, 'invalid_request', 'CONNECT is not supported: the gateway is no proxy', { code: 'method_not_allowed' });
    endWithError(socket, 405, 'Method Not Allowed', error, path === '/v1/messages' || path === '/messages');
  } catch {
    socket.destroy();
  }
}
