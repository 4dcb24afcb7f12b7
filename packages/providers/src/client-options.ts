/** The options and the interface of a provider client (see `createProviderClient`). */
import type { AbortSignalLike, AttemptResult, Credential, Logger, ProfileId } from '@understudy/contracts';
import type { Dispatcher } from 'undici';
import type { ChatStream } from './chat-stream.js';
import type { ChatRequest, ChatResult, ProviderApi } from './chat-types.js';
import type { ProviderPoolOptions } from './http.js';
import type { OAuthCredentialSink, OAuthRefreshOptions } from './oauth-refresher.js';
import { ProviderOptionsError } from './provider-call-error.js';

/**
 * Timeouts, all in milliseconds; `0` turns one off.
 *
 * - `connectTimeoutMs`: establishing the TCP/TLS connection. @default 10000
 * - `headersTimeoutMs`: from sending the request to the response headers. A non-streaming answer arrives
 *   whole, so this bounds its generation time. @default 120000
 * - `completeHeadersTimeoutMs`: the same limit for a non-streaming call, whose headers arrive only with the
 *   whole answer (so it bounds generation time and must not be short). @default `headersTimeoutMs`
 * - `bodyTimeoutMs`: silence between two chunks of a non-streaming (or error) body. @default 60000
 * - `firstTokenTimeoutMs`: streams only, from sending the request to the first content delta. @default 60000
 * - `stallTimeoutMs`: streams only, silence (no byte) between two chunks once headers arrived. @default 30000
 * - `afterFinishGraceMs`: streams only. Once the finish reason arrived, the stream completes at once, except
 *   that it waits up to this long for a part the format still owes and that has not begun to arrive (OpenAI's
 *   usage chunk when it was asked for, Anthropic's `message_stop`); bytes already received are always read.
 *   Never longer than `stallTimeoutMs`. `0`: no wait beyond what was received. @default 50
 * - `drainAfterFinishMs`: streams only. After a stream completed before its response did (no end marker or
 *   end of body yet), how long the rest may take to arrive in the background, so that the keep-alive
 *   connection is reused; then the request is aborted and its connection closed. The caller never waits for
 *   it. `0`: close at once. @default 1000
 */
export interface ProviderTimeouts {
  readonly connectTimeoutMs?: number | undefined;
  readonly headersTimeoutMs?: number | undefined;
  readonly completeHeadersTimeoutMs?: number | undefined;
  readonly bodyTimeoutMs?: number | undefined;
  readonly firstTokenTimeoutMs?: number | undefined;
  readonly stallTimeoutMs?: number | undefined;
  readonly afterFinishGraceMs?: number | undefined;
  readonly drainAfterFinishMs?: number | undefined;
}

/** {@link ProviderTimeouts} with every default applied. */
export type ResolvedProviderTimeouts = { readonly [K in keyof ProviderTimeouts]-?: number };

/** The defaults of {@link ProviderTimeouts}. */
export const DEFAULT_PROVIDER_TIMEOUTS: ResolvedProviderTimeouts = Object.freeze({
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 120_000,
  completeHeadersTimeoutMs: 120_000,
  bodyTimeoutMs: 60_000,
  firstTokenTimeoutMs: 60_000,
  stallTimeoutMs: 30_000,
  afterFinishGraceMs: 50,
  drainAfterFinishMs: 1000,
});

/**
 * Options of {@link createProviderClient}.
 *
 * - `providerId`: the provider id (`openai`, `groq`, …), put on every failure.
 * - `api`: the wire format.
 * - `baseUrl`: as in config `models.providers.<id>.baseUrl`: OpenAI-style `…/v1`, Anthropic's origin
 *   (`/v1/messages` is appended), Gemini's `…/v1beta` (added when the URL has no version).
 * - `headers`: extra headers on every request (e.g. OpenRouter's `http-referer`); auth headers win.
 * - `dispatcher`: an undici dispatcher to use instead of the client's own keep-alive `Agent` (then `pool`
 *   and `timeouts.connectTimeoutMs` do not apply, and `close()` leaves it open).
 * - `oauth`: how to refresh `oauth` credentials; without it, expired tokens are sent as they are.
 * - `defaultMaxTokens`: output limit for formats that require one (Anthropic) when the request has none.
 *   @default 4096
 * - `includeStreamUsage`: OpenAI streams ask for a final usage chunk. @default true
 * - `maxResponseBytes`: largest non-streaming answer accepted. @default 33554432 (32 MiB)
 * - `nowMs`: the clock, for token expiry and Retry-After dates. @default Date.now
 */
export interface ProviderClientOptions {
  readonly providerId: string;
  readonly api: ProviderApi;
  readonly baseUrl: string;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Called for each stream event skipped because its data is not valid JSON (the stream goes on; the skip is
   * logged at warn with provider and model). The gateway counts them in `/metrics`.
   */
  readonly onSkippedStreamEvent?: ((event: { readonly provider: string; readonly model: string }) => void) | undefined;
  readonly timeouts?: ProviderTimeouts | undefined;
  readonly dispatcher?: Dispatcher | undefined;
  readonly pool?: ProviderPoolOptions | undefined;
  readonly oauth?: OAuthRefreshOptions | undefined;
  readonly defaultMaxTokens?: number | undefined;
  readonly includeStreamUsage?: boolean | undefined;
  readonly maxResponseBytes?: number | undefined;
  readonly logger?: Logger | undefined;
  readonly nowMs?: (() => number) | undefined;
}

/**
 * Per-call options.
 *
 * - `credential`: what to authorise with; `null` for a keyless provider (no auth header).
 * - `profileId`: the auth profile the credential belongs to; needed to write a refreshed OAuth credential
 *   back, and to share one refresh between concurrent calls of the profile.
 * - `signal`: the caller's abort signal. An abort is `abortCause: 'user'`, unless its reason is a
 *   `TimeoutError` (the turn deadline): then `abortCause: 'timeout'`, `timeoutKind: 'turn'`.
 * - `credentialStore`: the store the profile lives in (the agent's auth-profile store). A refreshed OAuth
 *   credential is written back there, and when it is an `OAuthCredentialStore` the refresh runs under its
 *   refresh lock, once per expiry across processes. @default `oauth.store` of the client options
 */
export interface ProviderCallOptions {
  readonly credential: Credential | null;
  readonly profileId?: ProfileId | undefined;
  readonly signal?: AbortSignalLike | undefined;
  readonly credentialStore?: OAuthCredentialSink | undefined;
}

/** A provider client. */
export interface ProviderClient {
  readonly providerId: string;
  readonly api: ProviderApi;
  /** A non-streaming call: the whole answer, or the failure. */
  complete(request: ChatRequest, options: ProviderCallOptions): Promise<AttemptResult<ChatResult>>;
  /**
   * A streaming call. Resolves once the first content delta arrived (output started but not yet handed to
   * anyone), with a {@link ChatStream} that yields it and the rest; or with a failure (`outputStarted: false`)
   * when the call failed before any content. A stream that finishes without content also resolves ok.
   * Failures after that are thrown by the stream's iterator with `outputStarted: true`.
   */
  stream(request: ChatRequest, options: ProviderCallOptions): Promise<AttemptResult<ChatStream>>;
  /**
   * Closes the client's own connection pool (not a dispatcher it was given), after closing the connections of
   * finished streams whose response has not ended yet (see `timeouts.drainAfterFinishMs`).
   */
  close(): Promise<void>;
  /**
   * Counts the input tokens of a request with the provider's own endpoint (`anthropic-messages` only:
   * `POST /v1/messages/count_tokens`). Any other api resolves with an `INVALID_REQUEST` failure.
   */
  countTokens(request: ChatRequest, options: ProviderCallOptions): Promise<AttemptResult<number>>;
}

/** Applies the defaults and checks every timeout. @throws {ProviderOptionsError} naming a bad one. */
export function checkTimeouts(timeouts: ProviderTimeouts | undefined): ResolvedProviderTimeouts {
  const given = Object.fromEntries(Object.entries(timeouts ?? {}).filter(([, value]) => value !== undefined));
  const resolved = {
    ...DEFAULT_PROVIDER_TIMEOUTS,
    // Without its own value, a non-streaming call's headers limit is the streaming one.
    ...(typeof given['headersTimeoutMs'] === 'number' ? { completeHeadersTimeoutMs: given['headersTimeoutMs'] } : {}),
    ...given,
  };
  for (const [name, value] of Object.entries(resolved)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new ProviderOptionsError(`timeouts.${name}`, 'must be a number of milliseconds, 0 or more (0 turns it off)');
    }
  }
  return resolved as ResolvedProviderTimeouts;
}

/** Checks that `baseUrl` is an http(s) URL. @throws {ProviderOptionsError} otherwise. */
export function checkBaseUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
  } catch (error) {
    throw new ProviderOptionsError('baseUrl', `must be an http(s) URL such as https://api.openai.com/v1; got ${JSON.stringify(baseUrl)}`, { cause: error });
  }
  return baseUrl;
}
