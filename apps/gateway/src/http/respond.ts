/** Writing responses: JSON bodies and an SSE stream that respects backpressure and a client that left. */
import type { ServerResponse } from 'node:http';

/** Headers as Node takes them. */
export type HeaderMap = Record<string, string | number>;

/**
 * Sends a JSON body with a status and extra headers. With `endAfter`, the whole body is written at once but the
 * response is ended (and a `connection: close` connection closed) only when `endAfter` settles: see
 * `discardRestOfBody` for why.
 */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers: HeaderMap = {}, endAfter?: Promise<void>): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  if (endAfter === undefined) {
    response.end(text);
    return;
  }
  response.write(text);
  void endAfter.then(() => response.end());
}

/** Sends a plain-text body (`/metrics`). */
export function sendText(response: ServerResponse, status: number, text: string, contentType: string): void {
  response.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/** An open SSE response. */
export class SseSink {
  readonly #response: ServerResponse;
  #closed = false;

  constructor(response: ServerResponse, status: number, headers: HeaderMap) {
    this.#response = response;
    response.writeHead(status, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    response.flushHeaders();
    response.once('close', () => {
      this.#closed = true;
    });
  }

  /** Calls `listener` when the client goes away before the stream ended. */
  onClose(listener: () => void): void {
    this.#response.on('close', listener);
  }

  /** Removes an {@link SseSink.onClose} listener. */
  offClose(listener: () => void): void {
    this.#response.off('close', listener);
  }

  /** The client is gone (or the stream was ended). */
  get closed(): boolean {
    return this.#closed || this.#response.destroyed;
  }

  /** Writes SSE text; waits for `drain` when the socket buffer is full. */
  async write(text: string): Promise<void> {
    if (text === '' || this.closed) return;
    if (this.#response.write(text)) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        this.#response.off('drain', done);
        this.#response.off('close', done);
        resolve();
      };
      this.#response.on('drain', done);
      this.#response.on('close', done);
    });
  }

  /** Ends the response (after a last piece of text). */
  end(text = ''): void {
    if (this.closed) return;
    this.#closed = true;
    this.#response.end(text);
  }
}

/**
 * `text` as an HTTP header value: every character outside printable ASCII and space (U+0020–U+007E), and `%`
 * itself, percent-encoded as UTF-8 bytes (a lone surrogate as U+FFFD), so any model name can be named in a header
 * and read back with `decodeURIComponent`.
 *
 * @example safeHeaderValue('openai/gpt-4o') // 'openai/gpt-4o'
 * @example safeHeaderValue('local/模型') // 'local/%E6%A8%A1%E5%9E%8B'
 */
export function safeHeaderValue(text: string): string {
  let out = '';
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    if (code >= 0x20 && code <= 0x7e && character !== '%') out += character;
    // A lone surrogate (invalid UTF-16 from the JSON body) has no UTF-8 bytes: the replacement character stands in.
    else out += code >= 0xd800 && code <= 0xdfff ? '%EF%BF%BD' : encodeURIComponent(character);
  }
  return out;
}
