/** What the emulator reads from an incoming request: route, model, stream flag, key, last user message. */
import type { IncomingHttpHeaders } from 'node:http';
import type { EmulatorApi } from './script.js';

/** A request for one of the three wire formats. */
export interface ApiRequest {
  readonly kind: 'api';
  readonly api: EmulatorApi;
  readonly model: string;
  readonly stream: boolean;
  /** Gemini streams as SSE only with `alt=sse`; without it the emulator sends one JSON array. */
  readonly sse: boolean;
}

/** Which endpoint a request is for. */
export type RequestTarget =
  | ApiRequest
  | { readonly kind: 'models' }
  | { readonly kind: 'oauth' }
  | { readonly kind: 'device' }
  | { readonly kind: 'control'; readonly action: string }
  | { readonly kind: 'unknown' };

const GEMINI_PATH = /\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/** Classifies a request by method and path (suffix match, so any base path prefix works). */
export function requestTarget(method: string, pathname: string, query: URLSearchParams, body: unknown): RequestTarget {
  if (pathname.startsWith('/__')) return { kind: 'control', action: `${method} ${pathname}` };
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const model = typeof record['model'] === 'string' ? record['model'] : '';
  if (method === 'POST' && pathname.endsWith('/oauth/token')) return { kind: 'oauth' };
  if (method === 'POST' && pathname.endsWith('/oauth/device/code')) return { kind: 'device' };
  if (method === 'POST' && pathname.endsWith('/chat/completions')) {
    return { kind: 'api', api: 'openai-completions', model, stream: record['stream'] === true, sse: true };
  }
  if (method === 'POST' && pathname.endsWith('/responses')) {
    return { kind: 'api', api: 'openai-responses', model, stream: record['stream'] === true, sse: true };
  }
  if (method === 'POST' && pathname.endsWith('/messages')) {
    return { kind: 'api', api: 'anthropic-messages', model, stream: record['stream'] === true, sse: true };
  }
  const gemini = method === 'POST' ? GEMINI_PATH.exec(pathname) : null;
  if (gemini !== null) {
    const stream = gemini[2] === 'streamGenerateContent';
    return {
      kind: 'api',
      api: 'google-generative-ai',
      model: decodeURIComponent(gemini[1] ?? ''),
      stream,
      sse: stream && query.get('alt') === 'sse',
    };
  }
  if (method === 'GET' && pathname.endsWith('/models')) return { kind: 'models' };
  return { kind: 'unknown' };
}

/** The key a request authorises with: bearer token, `x-api-key`, `x-goog-api-key`, or Gemini's `?key=`. */
export function requestKey(headers: IncomingHttpHeaders, query: URLSearchParams): string | undefined {
  const authorization = headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    if (match?.[1] !== undefined) return match[1];
  }
  for (const name of ['x-api-key', 'x-goog-api-key']) {
    const value = headers[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return query.get('key') ?? undefined;
}

/** A key as records show it: its last 4 characters only. */
export function keyFingerprint(key: string | undefined): string | null {
  if (key === undefined) return null;
  return key.length <= 4 ? '*'.repeat(key.length) : `…${key.slice(-4)}`;
}

/** Headers that carry secrets; never recorded. */
export const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'cookie', 'proxy-authorization']);

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => {
      const record = typeof part === 'object' && part !== null ? (part as Record<string, unknown>) : {};
      const textual = record['type'] === 'text' || record['type'] === 'input_text' || record['type'] === undefined;
      return textual ? (typeof record['text'] === 'string' ? record['text'] : '') : '';
    })
    .join('');
}

/** The text of the last user message (for echo answers), in any of the three formats. */
export function lastUserText(api: EmulatorApi, body: unknown): string {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  if (api === 'openai-responses' && typeof record['input'] === 'string') return record['input'];
  const list = api === 'google-generative-ai' ? record['contents'] : api === 'openai-responses' ? record['input'] : record['messages'];
  if (!Array.isArray(list)) return '';
  for (let index = list.length - 1; index >= 0; index -= 1) {
    const message = list[index] as Record<string, unknown> | null;
    if (message === null || typeof message !== 'object' || message['role'] !== 'user') continue;
    const text = api === 'google-generative-ai' ? textOf(message['parts']) : textOf(message['content']);
    if (text !== '') return text;
  }
  return '';
}

/** The prompt's size in characters, for a usage estimate. */
export function promptSize(api: EmulatorApi, body: unknown): number {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const prompt =
    api === 'google-generative-ai'
      ? [record['systemInstruction'], record['contents']]
      : api === 'openai-responses'
        ? [record['instructions'], record['input']]
        : [record['system'], record['messages']];
  return JSON.stringify(prompt).length;
}
/**
 * The text of a trailing assistant message (an assistant prefill the model is asked to continue), or `''` when
 * the last message is not the assistant's; OpenAI chat completions and Anthropic messages.
 */
export function trailingAssistantText(api: EmulatorApi, body: unknown): string {
  if (api !== 'openai-completions' && api !== 'anthropic-messages') return '';
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const list = record['messages'];
  if (!Array.isArray(list)) return '';
  const last = list[list.length - 1] as Record<string, unknown> | null | undefined;
  if (last === null || typeof last !== 'object' || last['role'] !== 'assistant') return '';
  return textOf(last['content']);
}
