/**
 * Attempt functions for the fallback runner (contracts `AttemptFunction`) built on provider clients: the
 * runner passes a candidate, the resolved auth profile and its signal; the attempt sends the request with the
 * candidate's model id through the candidate's provider client.
 */
import type { AttemptCallOptions, AttemptFunction, AttemptResult, Candidate, ResolvedProfile } from '@understudy/contracts';
import type { ChatRequest, ChatResult } from './chat-types.js';
import type { ChatStream } from './chat-stream.js';
import type { ProviderCallOptions, ProviderClient } from './client-options.js';
import type { OAuthCredentialSink } from './oauth-refresher.js';
import { sanitizeToolCallIds } from './tool-call-ids.js';

/** Finds the client of a candidate's provider; `undefined` when the provider is not configured. */
export type ClientResolver = (candidate: Candidate) => ProviderClient | undefined;

/** The request for a candidate: a fixed request (its `model` is replaced by the candidate's), or a function. */
export type CandidateRequest = ChatRequest | ((candidate: Candidate) => ChatRequest);

function requestFor(request: CandidateRequest, candidate: Candidate, call: AttemptCallOptions | undefined): ChatRequest {
  const built = typeof request === 'function' ? request(candidate) : { ...request, model: candidate.model };
  // A format retry (the runner's `allowFormatRetry`): the repaired request.
  return call?.repair === 'tool_call_ids' ? sanitizeToolCallIds(built) : built;
}

/**
 * What every call of an attempt function shares. `credentialStore`: the store the profiles come from, so an
 * OAuth refresh is written back there under its refresh lock (see `ProviderCallOptions`).
 */
export interface AttemptOptions {
  readonly credentialStore?: OAuthCredentialSink | undefined;
}

/**
 * The per-call options of one provider call for a resolved profile: its credential (`null` without a profile),
 * its profile id, the attempt's abort signal, and `options.credentialStore` only for a profile that comes from
 * the store (an inline config key is not in the store: an OAuth refresh has nowhere to be written back). Used by
 * every attempt function, the count-tokens one of the gateway included.
 *
 * @example callOptions(null, signal, {}) // { credential: null, profileId: undefined, signal }
 */
export function callOptions(profile: ResolvedProfile | null, signal: ProviderCallOptions['signal'], options: AttemptOptions): ProviderCallOptions {
  const credentialStore = profile?.view.source === 'store' ? options.credentialStore : undefined;
  return { credential: profile?.credential ?? null, profileId: profile?.view.id, signal, ...(credentialStore === undefined ? {} : { credentialStore }) };
}

function noClient(candidate: Candidate): AttemptResult<never> {
  return {
    ok: false,
    failure: {
      provider: candidate.provider,
      model: candidate.model,
      message: `no client is configured for provider ${candidate.provider}`,
      code: 'PROVIDER_NOT_CONFIGURED',
      outputStarted: false,
    },
  };
}

/**
 * A non-streaming attempt: resolves ok with the whole answer.
 *
 * @example const attempt = completeAttempt((c) => clients.get(c.provider), request);
 */
export function completeAttempt(clients: ClientResolver, request: CandidateRequest, options: AttemptOptions = {}): AttemptFunction<ChatResult> {
  return async (candidate, profile, signal, call) => {
    const client = clients(candidate);
    if (client === undefined) return noClient(candidate);
    return client.complete(requestFor(request, candidate, call), callOptions(profile, signal, options));
  };
}

/**
 * A streaming attempt: resolves ok as soon as the first content delta arrived (nothing has reached the
 * caller yet, so every earlier failure is an ordinary failover failure with `outputStarted: false`), handing
 * over the {@link ChatStream}. Failures while the caller iterates it are thrown with `outputStarted: true`.
 *
 * @example const attempt = streamAttempt((c) => clients.get(c.provider), request);
 */
export function streamAttempt(clients: ClientResolver, request: CandidateRequest, options: AttemptOptions = {}): AttemptFunction<ChatStream> {
  return async (candidate, profile, signal, call) => {
    const client = clients(candidate);
    if (client === undefined) return noClient(candidate);
    return client.stream(requestFor(request, candidate, call), callOptions(profile, signal, options));
  };
}
