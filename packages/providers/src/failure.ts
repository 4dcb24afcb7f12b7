/**
 * Building the {@link ProviderFailure} values the clients return: from an HTTP error response, from a
 * transport error or abort, and from a bad stream. Secrets used by the call are scrubbed from every text field.
 */
import type { FailurePhase, ProviderFailure } from '@understudy/contracts';
import { TIMEOUT_CODES, errorCode } from '@understudy/contracts';
import type { AbortInfo } from './call-control.js';
import { WireError } from './wire/wire-format.js';

/** At most this many bytes of a response body are kept in a failure. */
export const MAX_FAILURE_BODY_BYTES = 64 * 1024;

/** What every failure of one call shares. */
export interface FailureContext {
  readonly provider: string;
  readonly model: string;
  /** Secret values sent by the call; replaced by `***` wherever they would appear. */
  readonly secrets: readonly string[];
}

/** Replaces every occurrence of a secret (4+ characters) with `***`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length >= 4 && result.includes(secret)) result = result.split(secret).join('***');
  }
  return result;
}

/** Error facts a JSON error body names: `error.type`, `error.code`/`error.status`, `error.message`. */
export function describeErrorBody(body: string): { errorType?: string; code?: string; message?: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return {};
  }
  const root = Array.isArray(parsed) ? parsed[0] : parsed;
  if (typeof root !== 'object' || root === null) return {};
  const rootRecord = root as Record<string, unknown>;
  const error = typeof rootRecord['error'] === 'object' && rootRecord['error'] !== null
    ? (rootRecord['error'] as Record<string, unknown>)
    : rootRecord;
  const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
  const facts: { errorType?: string; code?: string; message?: string } = {};
  const errorType = text(error['type']);
  const code = text(error['code']) ?? text(error['status']);
  const message = text(error['message']) ?? text(rootRecord['message']);
  if (errorType !== undefined) facts.errorType = errorType;
  if (code !== undefined) facts.code = code;
  if (message !== undefined) facts.message = message;
  return facts;
}

/** Options for {@link httpFailure}. */
export interface HttpFailureInput {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly phase: FailurePhase;
  readonly outputStarted: boolean;
  /** Prefix for the message, e.g. `OAuth token refresh failed`. */
  readonly messagePrefix?: string | undefined;
}

/**
 * A failure from an HTTP response the provider sent (an error status, or an error payload in a 2xx body). The
 * Retry-After is not read here: the classifier reads it once (`retryAfterMs`), and the runner caps it once.
 */
export function httpFailure(context: FailureContext, input: HttpFailureInput): ProviderFailure {
  const body = redactSecrets(input.body, context.secrets);
  const facts = describeErrorBody(body);
  const summary = facts.message === undefined ? '' : `: ${truncate(facts.message, 500)}`;
  const prefix = input.messagePrefix === undefined ? '' : `${input.messagePrefix}: `;
  return {
    provider: context.provider,
    model: context.model,
    status: input.status,
    headers: input.headers,
    body,
    message: redactSecrets(`${prefix}HTTP ${input.status}${summary}`, context.secrets),
    ...(facts.code === undefined ? {} : { code: facts.code }),
    ...(facts.errorType === undefined ? {} : { errorType: facts.errorType }),
    phase: input.phase,
    outputStarted: input.outputStarted,
  };
}

/** `code` of a request this provider's wire format cannot carry (a {@link WireError} `invalid_request`). */
export const INVALID_REQUEST_CODE = 'INVALID_REQUEST';
/** `code` of a request that could not be serialised at all (e.g. nested too deeply for `JSON.stringify`). */
export const NOT_SERIALISABLE_CODE = 'REQUEST_NOT_SERIALISABLE';

/**
 * The failure of a request that was never sent because it could not be built or serialised for `api`: phase
 * `request`, so the runner marks no auth profile for it (no provider answered). A {@link WireError} keeps its
 * message as `INVALID_REQUEST`; anything else thrown while building the body (a `RangeError` from a request
 * nested too deeply to serialise) is `REQUEST_NOT_SERIALISABLE`. Both carry `invalid_request_error`: the
 * request's fault, answered 400 when no other candidate can carry it.
 */
export function notSentFailure(context: FailureContext, api: string, error: unknown): ProviderFailure {
  const wire = WireError.isInstance(error);
  const cause = error instanceof Error ? error.message : 'the request body could not be built';
  return {
    provider: context.provider,
    model: context.model,
    message: redactSecrets(wire ? `invalid request for ${api}: ${cause}` : `the request could not be serialised for ${api}: ${cause}`, context.secrets),
    code: wire ? INVALID_REQUEST_CODE : NOT_SERIALISABLE_CODE,
    errorType: 'invalid_request_error',
    phase: 'request',
    outputStarted: false,
  };
}

/** Where a transport error happened and what we know about it. */
export interface TransportFailureInput {
  readonly phase: FailurePhase;
  readonly outputStarted: boolean;
  readonly abort?: AbortInfo | undefined;
  readonly status?: number | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

const CONNECT_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** True when the error happened while connecting (refused, DNS, connect timeout, TLS certificate). */
export function isConnectError(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && (CONNECT_ERROR_CODES.has(code) || code.startsWith('ERR_TLS_') || code.includes('CERT'));
}

const TIMEOUT_WORDS: Record<string, string> = {
  connect: 'connecting took longer than',
  headers: 'no response headers within',
  body: 'the response body went silent for',
  first_token: 'no first token within',
  stall: 'the stream stalled: no data for',
  turn: 'the turn deadline passed',
};

/** Headers that carry a profile's credential: a value undici refuses there is the credential's fault. */
const CREDENTIAL_HEADER = /\b(authorization|x-api-key|x-goog-api-key|api-key)\b/i;

/**
 * True for undici's refusal of a header value it cannot send (`UND_ERR_INVALID_ARG`, "invalid authorization
 * header") when the header is one that carries the profile's credential: a stored key with a line break, say.
 */
function isInvalidCredentialHeader(error: unknown, code: string | undefined): boolean {
  if (code !== 'UND_ERR_INVALID_ARG') return false;
  const message = error instanceof Error ? error.message : '';
  return /header/i.test(message) && CREDENTIAL_HEADER.test(message);
}

/**
 * A failure from a transport error, one of our timeouts, or a caller abort. A credential that cannot be sent as
 * a header value is not a transport problem: it comes back as an `authentication_error` (failover reason `auth`),
 * so the profile is cooled and the rotation moves on instead of the request being read as a timeout.
 */
export function transportFailure(context: FailureContext, error: unknown, input: TransportFailureInput): ProviderFailure {
  const shared = {
    provider: context.provider,
    model: context.model,
    ...(input.status === undefined ? {} : { status: input.status }),
    ...(input.headers === undefined ? {} : { headers: input.headers }),
    phase: input.phase,
    outputStarted: input.outputStarted,
  };
  if (input.abort?.cause === 'user') {
    return { ...shared, code: 'ABORT_ERR', message: 'Request was aborted by the caller', abortCause: 'user' };
  }
  const code = errorCode(error);
  const timeoutKind = input.abort?.timeoutKind ?? (code === 'UND_ERR_CONNECT_TIMEOUT' ? 'connect' : undefined);
  if (timeoutKind !== undefined) {
    const after = input.abort?.afterMs === undefined ? '' : ` ${input.abort.afterMs} ms`;
    return {
      ...shared,
      code: TIMEOUT_CODES[timeoutKind],
      message: `Request timed out: ${TIMEOUT_WORDS[timeoutKind] ?? 'timeout'}${after}`,
      abortCause: 'timeout',
      timeoutKind,
    };
  }
  if (isInvalidCredentialHeader(error, code)) {
    return {
      ...shared,
      code: 'INVALID_CREDENTIAL',
      errorType: 'authentication_error',
      message: 'Invalid API key: the credential of this auth profile cannot be sent as an HTTP header value (it holds a line break, a control character or another character headers cannot carry); replace it with `understudy models auth add`',
    };
  }
  const raw = error instanceof Error ? error.message : String(error);
  const where = {
    request: 'before the request was sent',
    connect: 'while connecting',
    headers: 'before the response headers arrived',
    body: 'while reading the response body',
    stream: 'in the middle of the stream',
  }[input.phase];
  return {
    ...shared,
    ...(code === undefined ? {} : { code }),
    message: redactSecrets(`Connection error ${where}${code === undefined ? '' : ` (${code})`}: ${raw}`, context.secrets),
  };
}

/** A failure the stream itself reported or caused: an error event, a malformed chunk, an early end. */
export function streamFailure(
  context: FailureContext,
  input: {
    readonly message: string;
    readonly code?: string | undefined;
    readonly status?: number | undefined;
    readonly headers?: Readonly<Record<string, string>> | undefined;
    readonly body?: string | undefined;
    readonly errorType?: string | undefined;
    readonly phase: FailurePhase;
    readonly outputStarted: boolean;
  },
): ProviderFailure {
  const body = input.body === undefined ? undefined : redactSecrets(truncateBytes(input.body), context.secrets);
  const facts = body === undefined ? {} : describeErrorBody(body);
  const errorType = input.errorType ?? facts.errorType;
  const code = input.code ?? facts.code;
  return {
    provider: context.provider,
    model: context.model,
    ...(input.status === undefined ? {} : { status: input.status }),
    ...(input.headers === undefined ? {} : { headers: input.headers }),
    ...(body === undefined ? {} : { body }),
    message: redactSecrets(input.message, context.secrets),
    ...(code === undefined ? {} : { code }),
    ...(errorType === undefined ? {} : { errorType }),
    phase: input.phase,
    outputStarted: input.outputStarted,
  };
}

function truncate(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}…`;
}

/** Keeps the first {@link MAX_FAILURE_BODY_BYTES} bytes of a text (at a character boundary). */
export function truncateBytes(text: string, maxBytes: number = MAX_FAILURE_BODY_BYTES): string {
  if (text.length <= maxBytes / 4) return text;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  return new TextDecoder().decode(bytes.subarray(0, maxBytes)).replace(/\uFFFD$/, '');
}
