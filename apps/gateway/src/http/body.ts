/**
 * Reading a request body with a size limit (`gateway.maxRequestBytes` → 413) and parsing it as JSON (→ 400).
 */
import type { IncomingMessage } from 'node:http';
import { GatewayError, invalidRequest } from '../gateway-error.js';

/**
 * The request body as text, at most `maxBytes`. A `content-length` over the limit is refused before reading.
 *
 * @throws {GatewayError} 413 `request_too_large`.
 */
export async function readBodyText(request: IncomingMessage, maxBytes: number): Promise<string> {
  const tooLarge = (): GatewayError =>
    new GatewayError(413, 'request_too_large', `request body is larger than ${maxBytes} bytes (gateway.maxRequestBytes)`, {
      code: 'request_too_large',
    });
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) throw tooLarge();
    chunks.push(buffer);
  }
  return chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8');
}

/**
 * The request body parsed as JSON.
 *
 * @throws {GatewayError} 413 for an oversized body, 400 `invalid_json` for text that is not JSON.
 */
export async function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  const text = await readBodyText(request, maxBytes);
  if (text.trim() === '') throw invalidRequest('the request body is empty: send a JSON object', 'invalid_json');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw invalidRequest(`the request body is not valid JSON (${(error as Error).message})`, 'invalid_json');
  }
}
