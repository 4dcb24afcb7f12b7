/**
 * `createProviderClient`: one provider's client over undici. Calls never throw for provider trouble: they
 * resolve with `{ ok: true, value }` or `{ ok: false, failure }` (the contracts' `AttemptResult`), where
 * `failure` is the `ProviderFailure` the classifier reads.
 */
import type { AbortSignalLike, AttemptResult, Credential, Logger, ProviderFailure } from '@understudy/contracts';
import { silentLogger } from '@understudy/contracts';
import type { Dispatcher } from 'undici';
import { authHeaders, credentialSecret } from './auth-headers.js';
import { CallControl } from './call-control.js';
import type { ChatRequest, ChatResult, ChatStreamDelta, NativeRequest, ProviderApi } from './chat-types.js';
import { PROVIDER_APIS, isContentDelta } from './chat-types.js';
import type { ChatStream } from './chat-stream.js';
import { PumpedChatStream, finishErrorFailure, resultToDeltas } from './chat-stream.js';
import type { FailureContext } from './failure.js';
import { MAX_FAILURE_BODY_BYTES, httpFailure, isConnectError, notSentFailure, streamFailure, transportFailure } from './failure.js';
import type { OpenResponse, RequestTarget } from './http.js';
import { createProviderAgent, discardBody, postRequest, readBodyText, requestTarget } from './http.js';
import { OAuthRefresher } from './oauth-refresher.js';
import { ProviderOptionsError } from './provider-call-error.js';
import type { ProviderCallOptions, ProviderClient, ProviderClientOptions, ResolvedProviderTimeouts } from './client-options.js';
import { checkBaseUrl, checkTimeouts } from './client-options.js';
import { StreamPump, StreamPumpError } from './stream-pump.js';
import { wireFormatFor } from './wire/registry.js';
import type { WireFormat } from './wire/wire-format.js';
import { WireError } from './wire/wire-format.js';

interface Opened {
  readonly ok: true;
  readonly response: OpenResponse;
  readonly control: CallControl;
  readonly context: FailureContext;
}

type OpenResult = Opened | { readonly ok: false; readonly failure: ProviderFailure };

/** How many distinct (model, stream) endpoints a client remembers before it starts over. */
const MAX_CACHED_TARGETS = 256;

/**
 * Creates a client for one provider.
 *
 * @throws {ProviderOptionsError} for an unknown `api`, a bad `baseUrl` or a negative timeout.
 * @example
 * const client = createProviderClient({ providerId: 'openai', api: 'openai-completions', baseUrl: 'https://api.openai.com/v1' });
 * const result = await client.complete({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
 *   { credential: { type: 'api_key', provider: 'openai', key: new Secret(key) } });
 */
export function createProviderClient(options: ProviderClientOptions): ProviderClient {
  const wire = wireFormatFor(options.api);
  if (wire === undefined) {
    throw new ProviderOptionsError('api', `must be one of ${PROVIDER_APIS.join(', ')}; got ${JSON.stringify(options.api)}`);
  }
  return new UndiciProviderClient(options, wire, checkBaseUrl(options.baseUrl), checkTimeouts(options.timeouts));
}

class UndiciProviderClient implements ProviderClient {
  readonly providerId: string;
  readonly api: ProviderApi;
  readonly #options: ProviderClientOptions;
  readonly #wire: WireFormat;
  readonly #baseUrl: string;
  readonly #timeouts: ResolvedProviderTimeouts;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #refresher: OAuthRefresher | undefined;
  readonly #nowMs: () => number;
  readonly #logger: Logger;
  readonly #includeStreamUsage: boolean;
  /** Completed streams whose response is still ending in the background; each entry closes its connection. */
  readonly #drains = new Set<() => void>();
  /** Endpoints already split into origin + path, keyed by stream flag and model (the only inputs that vary). */
  readonly #targets = new Map<string, RequestTarget>();

  constructor(options: ProviderClientOptions, wire: WireFormat, baseUrl: string, timeouts: ResolvedProviderTimeouts) {
    this.providerId = options.providerId;
    this.api = options.api;
    this.#options = options;
    this.#wire = wire;
    this.#baseUrl = baseUrl;
    this.#timeouts = timeouts;
    this.#ownsDispatcher = options.dispatcher === undefined;
    this.#dispatcher = options.dispatcher ?? createProviderAgent(options.pool, timeouts.connectTimeoutMs);
    this.#nowMs = options.nowMs ?? Date.now;
    this.#logger = options.logger ?? silentLogger;
    this.#refresher =
      options.oauth === undefined ? undefined : new OAuthRefresher(options.oauth, { nowMs: this.#nowMs, logger: this.#logger });
    this.#includeStreamUsage = options.includeStreamUsage ?? true;
  }

  async close(): Promise<void> {
    for (const stop of [...this.#drains]) stop();
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  async complete(request: ChatRequest, options: ProviderCallOptions): Promise<AttemptResult<ChatResult>> {
    const opened = await this.#open(request, options, false);
    if (!opened.ok) return this.#failed(opened.failure);
    const { response, control, context } = opened;
    try {
      if (!isSuccess(response.status)) return this.#failed(await this.#errorResponse(opened));
      const decoded = await this.#readWhole(opened, request.model, this.#native(request) !== undefined);
      if (!decoded.ok) return this.#failed(decoded.failure);
      const failure = finishErrorFailure(
        { kind: 'finish', finishReason: decoded.value.finishReason, rawFinishReason: decoded.value.rawFinishReason },
        { provider: context.provider, model: context.model, headers: response.headers },
        false,
      );
      if (failure !== undefined) return this.#failed({ ...failure, phase: 'body' });
      return { ok: true, value: { ...decoded.value, responseHeaders: response.headers } };
    } finally {
      control.dispose();
    }
  }

  async stream(request: ChatRequest, options: ProviderCallOptions): Promise<AttemptResult<ChatStream>> {
    const opened = await this.#open(request, options, true);
    if (!opened.ok) return this.#failed(opened.failure);
    const { response, control, context } = opened;
    const streamBase = {
      status: response.status,
      headers: response.headers,
      provider: context.provider,
      requestedModel: request.model,
    };
    if (!isSuccess(response.status)) {
      control.disarm('first_token');
      const failure = await this.#errorResponse(opened);
      control.dispose();
      return this.#failed(failure);
    }
    if (!(response.headers['content-type'] ?? '').includes('text/event-stream')) {
      // The server answered a stream request with a whole JSON body: read it as one.
      control.disarm('first_token');
      const decoded = await this.#readWhole(opened, request.model, false);
      control.dispose();
      if (!decoded.ok) return this.#failed(decoded.failure);
      const deltas = resultToDeltas(decoded.value);
      const failure = deltas.map((delta) => finishErrorFailure(delta, { provider: context.provider, model: context.model, headers: response.headers }, false)).find((item) => item !== undefined);
      if (failure !== undefined) return this.#failed(failure);
      return { ok: true, value: new PumpedChatStream({ ...streamBase, buffered: deltas, model: decoded.value.model }) };
    }
    const pump = new StreamPump({
      body: response.body,
      decoder: this.#wire.createStreamDecoder({ includeStreamUsage: this.#includeStreamUsage }),
      control,
      stallTimeoutMs: this.#timeouts.stallTimeoutMs,
      afterFinishGraceMs: this.#timeouts.afterFinishGraceMs,
      drainAfterFinishMs: this.#timeouts.drainAfterFinishMs,
      drains: this.#drains,
      context,
      status: response.status,
      headers: response.headers,
      native: this.#native(request) !== undefined,
      logger: this.#logger,
      onSkippedEvent: () => this.#options.onSkippedStreamEvent?.({ provider: context.provider, model: context.model }),
    });
    const buffered: ChatStreamDelta[] = [];
    for (;;) {
      let delta: ChatStreamDelta | undefined;
      try {
        delta = await pump.next();
      } catch (error) {
        control.dispose();
        if (StreamPumpError.isInstance(error)) return this.#failed(error.failure(false));
        throw error;
      }
      if (delta !== undefined) {
        const failure = finishErrorFailure(delta, { provider: context.provider, model: context.model, headers: response.headers }, false);
        if (failure !== undefined) {
          pump.discard();
          control.dispose();
          return this.#failed(failure);
        }
        buffered.push(delta);
      }
      if (delta === undefined || isContentDelta(delta)) {
        control.disarm('first_token');
        return { ok: true, value: new PumpedChatStream({ ...streamBase, buffered, pump, control, native: pump.native }) };
      }
    }
  }

  async countTokens(request: ChatRequest, options: ProviderCallOptions): Promise<AttemptResult<number>> {
    if (this.api !== 'anthropic-messages') {
      return this.#failed({
        provider: this.providerId,
        model: request.model,
        message: `counting tokens needs an anthropic-messages provider; ${this.providerId} speaks ${this.api}`,
        code: 'INVALID_REQUEST',
        errorType: 'invalid_request_error',
        outputStarted: false,
      });
    }
    const opened = await this.#open(request, options, false, true);
    if (!opened.ok) return this.#failed(opened.failure);
    try {
      if (!isSuccess(opened.response.status)) return this.#failed(await this.#errorResponse(opened));
      const read = await readBodyText(opened.response.body, { maxBytes: 64 * 1024, control: opened.control, idleTimeoutMs: this.#timeouts.bodyTimeoutMs });
      let count: unknown;
      try {
        count = asPlainRecord(JSON.parse(read.text))?.['input_tokens'];
      } catch {
        count = undefined;
      }
      if (typeof count !== 'number' || !Number.isFinite(count)) {
        return this.#failed(this.#bodyFailure(opened, 'malformed count_tokens answer: no input_tokens number', read.text, 'MALFORMED_RESPONSE').failure);
      }
      return { ok: true, value: count };
    } catch (error) {
      return this.#failed(transportFailure(opened.context, error, { phase: 'body', outputStarted: false, abort: opened.control.abortInfo, status: opened.response.status, headers: opened.response.headers }));
    } finally {
      opened.control.dispose();
    }
  }

  /** The caller's own body when it is in this client's format (the same-format fast path). */
  #native(request: ChatRequest): NativeRequest | undefined {
    return request.native !== undefined && request.native.api === this.api ? request.native : undefined;
  }

  /** Sends the request (refreshing an OAuth credential first when it is due, and once more after a 401). */
  async #open(request: ChatRequest, options: ProviderCallOptions, stream: boolean, count = false): Promise<OpenResult> {
    let credential = options.credential;
    const refresher = this.#refresher;
    if (credential?.type === 'oauth' && refresher?.needsRefresh(credential) === true) {
      const refreshed = await refresher.refresh(options.profileId, credential, this.#refreshContext(request, credential, options));
      if (!refreshed.ok) return refreshed;
      credential = refreshed.credential;
    }
    const first = await this.#send(request, credential, options.signal, stream, count);
    if (!first.ok || first.response.status !== 401 || credential?.type !== 'oauth' || refresher?.canRefresh(credential) !== true) {
      return first;
    }
    discardBody(first.response.body);
    first.control.dispose();
    const refreshed = await refresher.refresh(options.profileId, credential, this.#refreshContext(request, credential, options));
    if (!refreshed.ok) return refreshed;
    return this.#send(request, refreshed.credential, options.signal, stream, count);
  }

  #refreshContext(request: ChatRequest, credential: Credential, options: ProviderCallOptions) {
    return {
      dispatcher: this.#dispatcher,
      signal: options.signal,
      failureContext: this.#failureContext(request, credential),
      store: options.credentialStore,
    };
  }

  #failureContext(request: ChatRequest, credential: Credential | null): FailureContext {
    const secrets: string[] = [];
    if (credential !== null) {
      const secret = credentialSecret(credential);
      if (secret !== undefined) secrets.push(secret);
      if (credential.type === 'oauth' && credential.refresh !== undefined) secrets.push(credential.refresh.reveal());
    }
    return { provider: this.providerId, model: request.model, secrets };
  }

  async #send(
    request: ChatRequest,
    credential: Credential | null,
    signal: AbortSignalLike | undefined,
    stream: boolean,
    count: boolean,
  ): Promise<OpenResult> {
    const context = this.#failureContext(request, credential);
    let body: string;
    let target: RequestTarget;
    try {
      target = count ? requestTarget(`${this.#wire.endpoint(this.#baseUrl, request, false)}/count_tokens`) : this.#target(request, stream);
      const encodeOptions = { defaultMaxTokens: this.#options.defaultMaxTokens ?? 4096, includeStreamUsage: this.#includeStreamUsage };
      const native = this.#native(request);
      const encoded =
        native === undefined
          ? (this.#wire.encodeRequest(request, stream, encodeOptions) as Record<string, unknown>)
          : this.#wire.nativeBody(native.body, request.model, stream, encodeOptions);
      body = JSON.stringify(count ? countTokensBody(encoded) : encoded);
    } catch (error) {
      return { ok: false, failure: notSentFailure(context, this.api, error) };
    }
    const headers = this.#headers(credential, stream, this.#native(request)?.headers);
    const control = new CallControl(signal);
    control.arm('headers', stream ? this.#timeouts.headersTimeoutMs : this.#timeouts.completeHeadersTimeoutMs);
    if (stream) control.arm('first_token', this.#timeouts.firstTokenTimeoutMs);
    try {
      const response = await postRequest(this.#dispatcher, target, headers, body, control);
      control.disarm('headers');
      return { ok: true, response, control, context };
    } catch (error) {
      const abort = control.abortInfo;
      control.dispose();
      const phase = abort === undefined && isConnectError(error) ? 'connect' : 'headers';
      return { ok: false, failure: transportFailure(context, error, { phase, outputStarted: false, abort }) };
    }
  }

  /** The endpoint for this model and mode, built and split once per client. */
  #target(request: ChatRequest, stream: boolean): RequestTarget {
    const key = `${stream ? 's' : 'c'}:${request.model}`;
    let target = this.#targets.get(key);
    if (target === undefined) {
      target = requestTarget(this.#wire.endpoint(this.#baseUrl, request, stream));
      if (this.#targets.size >= MAX_CACHED_TARGETS) this.#targets.clear();
      this.#targets.set(key, target);
    }
    return target;
  }

  /** Configured headers, the format's, the client's own format headers (same format only), then auth. */
  #headers(credential: Credential | null, stream: boolean, clientHeaders: Readonly<Record<string, string>> | undefined): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(this.#options.headers ?? {})) headers[name.toLowerCase()] = value;
    Object.assign(headers, this.#wire.staticHeaders);
    for (const [name, value] of Object.entries(clientHeaders ?? {})) {
      headers[name] = name === 'anthropic-beta' && headers[name] !== undefined ? `${headers[name]},${value}` : value;
    }
    Object.assign(headers, {
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
    });
    for (const [name, value] of Object.entries(authHeaders(this.api, credential))) {
      // A beta flag joins the ones the caller configured rather than replacing them.
      headers[name] = name === 'anthropic-beta' && headers[name] !== undefined ? `${headers[name]},${value}` : value;
    }
    return headers;
  }

  /** An error status: up to 64 KiB of the body, as a failure. */
  async #errorResponse(opened: Opened): Promise<ProviderFailure> {
    const { response, control, context } = opened;
    let text = '';
    try {
      text = (await readBodyText(response.body, { maxBytes: MAX_FAILURE_BODY_BYTES, control, idleTimeoutMs: this.#timeouts.bodyTimeoutMs })).text;
    } catch {
      // Keep the status and headers; the body could not be read in time.
    }
    return httpFailure(context, {
      status: response.status,
      headers: response.headers,
      body: text,
      phase: 'body',
      outputStarted: false,
    });
  }

  /** A whole JSON answer, decoded. */
  async #readWhole(opened: Opened, requestedModel: string, keepNative: boolean): Promise<AttemptResult<Omit<ChatResult, 'responseHeaders'>>> {
    const { response, control, context } = opened;
    const maxBytes = this.#options.maxResponseBytes ?? 32 * 1024 * 1024;
    let text: string;
    try {
      const read = await readBodyText(response.body, { maxBytes, control, idleTimeoutMs: this.#timeouts.bodyTimeoutMs });
      if (!read.complete) {
        return this.#bodyFailure(opened, `response body larger than ${maxBytes} bytes`, read.text, 'RESPONSE_TOO_LARGE');
      }
      text = read.text;
    } catch (error) {
      return {
        ok: false,
        failure: transportFailure(context, error, {
          phase: 'body',
          outputStarted: false,
          abort: control.abortInfo,
          status: response.status,
          headers: response.headers,
        }),
      };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      return this.#bodyFailure(opened, `malformed response body: ${(error as Error).message}`, text, 'MALFORMED_RESPONSE');
    }
    try {
      const value = this.#wire.decodeResponse(json, requestedModel);
      const body = keepNative ? asPlainRecord(json) : undefined;
      return { ok: true, value: body === undefined ? value : { ...value, native: { api: this.api, body } } };
    } catch (error) {
      if (!WireError.isInstance(error)) throw error;
      if (error.kind === 'provider_error') {
        return {
          ok: false,
          failure: httpFailure(context, {
            status: response.status,
            headers: response.headers,
            body: text,
            phase: 'body',
            outputStarted: false,
          }),
        };
      }
      return this.#bodyFailure(opened, error.message, text, error.kind === 'empty' ? 'EMPTY_RESPONSE' : 'MALFORMED_RESPONSE');
    }
  }

  #bodyFailure(opened: Opened, message: string, body: string, code: string): { ok: false; failure: ProviderFailure } {
    return {
      ok: false,
      failure: streamFailure(opened.context, {
        message,
        code,
        status: opened.response.status,
        headers: opened.response.headers,
        body,
        phase: 'body',
        outputStarted: false,
      }),
    };
  }

  #failed(failure: ProviderFailure): { ok: false; failure: ProviderFailure } {
    this.#logger.debug(
      {
        provider: failure.provider,
        model: failure.model,
        status: failure.status,
        code: failure.code,
        phase: failure.phase,
        timeoutKind: failure.timeoutKind,
        abortCause: failure.abortCause,
      },
      'provider call failed',
    );
    return { ok: false, failure };
  }
}

/** The fields Anthropic's count_tokens endpoint takes (it refuses the others, `max_tokens` among them). */
const COUNT_TOKENS_FIELDS: readonly string[] = ['model', 'messages', 'system', 'tools', 'tool_choice', 'thinking', 'mcp_servers', 'output_config'];

function countTokensBody(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of COUNT_TOKENS_FIELDS) if (body[key] !== undefined) out[key] = body[key];
  return out;
}

function asPlainRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}
