/**
 * OAuth access-token refresh (refresh-token grant, RFC 6749 §6) for `oauth` credentials: before a call when
 * the access token is missing or expired, and after a 401. The new credential is written back through the
 * {@link OAuthCredentialSink} port. Refreshes are single-flight per auth profile: concurrent calls share one
 * token request, and a call that still holds the credential a finished refresh replaced gets the new one
 * without another request — so each expiry costs exactly one refresh. With an {@link OAuthCredentialStore}
 * (the agent's auth-profile store) that holds across processes and replicas too: the refresh runs under the
 * store's refresh lock, and whoever waits for the lock re-reads the credential the holder wrote instead of
 * refreshing again (docs/architecture.md).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { AuthStorePort, Credential, Logger, OAuthCredential, ProfileId, ProviderFailure } from '@understudy/contracts';
import { Secret, silentLogger } from '@understudy/contracts';
import type { Dispatcher } from 'undici';
import { CallControl } from './call-control.js';
import type { AbortSignalLike } from '@understudy/contracts';
import { httpFailure, MAX_FAILURE_BODY_BYTES, streamFailure, transportFailure } from './failure.js';
import type { FailureContext } from './failure.js';
import { isConnectError } from './failure.js';
import { postRequest, readBodyText } from './http.js';

/** The port that persists a refreshed credential (implemented by the auth profile store). */
export interface OAuthCredentialSink {
  /** Stores the new credential of `profileId` (new access token, possibly a rotated refresh token, new expiry). */
  saveRefreshedCredential(profileId: ProfileId, credential: OAuthCredential): Promise<unknown>;
}

/**
 * A sink that can also coordinate refreshes between processes: the agent's auth-profile store (its
 * `AuthStorePort` refresh lock and credential read, plus the write-back).
 */
export interface OAuthCredentialStore
  extends OAuthCredentialSink, Pick<AuthStorePort, 'resolveCredential' | 'tryAcquireRefreshLock' | 'releaseRefreshLock'> {}

function isCoordinatingStore(sink: OAuthCredentialSink): sink is OAuthCredentialStore {
  const candidate = sink as Partial<OAuthCredentialStore>;
  return (
    typeof candidate.resolveCredential === 'function' &&
    typeof candidate.tryAcquireRefreshLock === 'function' &&
    typeof candidate.releaseRefreshLock === 'function'
  );
}

/** How often a process waiting for another one's refresh re-reads the stored credential, ms. */
const LOCK_POLL_MS = 50;

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
function pause(ms: number, signal: AbortSignalLike | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * How to refresh OAuth credentials.
 *
 * - `tokenUrl`: the token endpoint (`POST`, `application/x-www-form-urlencoded`).
 * - `clientId` / `clientSecret` / `scope`: sent when given.
 * - `store`: where refreshed credentials are written back when a call names no `credentialStore` of its own
 *   (see `ProviderCallOptions`); without either, a refresh is kept for this process only.
 * - `expirySkewMs`: refresh this long before the expiry. @default 60000
 * - `timeoutMs`: limit for the whole token request. @default 30000
 * - `defaultExpiresInSeconds`: lifetime assumed when the endpoint gives no `expires_in`. @default 3600
 */
export interface OAuthRefreshOptions {
  readonly tokenUrl: string;
  readonly clientId?: string | undefined;
  readonly clientSecret?: Secret | undefined;
  readonly scope?: string | undefined;
  readonly store?: OAuthCredentialSink | undefined;
  readonly expirySkewMs?: number | undefined;
  readonly timeoutMs?: number | undefined;
  readonly defaultExpiresInSeconds?: number | undefined;
}

/** Result of a refresh: the new credential, or the failure of the token request. */
export type RefreshOutcome =
  | { readonly ok: true; readonly credential: OAuthCredential }
  | { readonly ok: false; readonly failure: ProviderFailure };

/** What a refresh borrows from the calling client. */
export interface RefreshContext {
  readonly dispatcher: Dispatcher;
  readonly signal?: AbortSignalLike | undefined;
  readonly failureContext: FailureContext;
  /** The call's store (the agent's); it wins over `OAuthRefreshOptions.store`. */
  readonly store?: OAuthCredentialSink | undefined;
}

function fingerprint(secret: Secret | undefined): string | undefined {
  if (secret === undefined || secret.isBlank()) return undefined;
  return createHash('sha256').update(secret.reveal()).digest('hex');
}

interface LatestRefresh {
  /** Fingerprints of the access and refresh tokens this refresh replaced. */
  readonly replaced: ReadonlySet<string>;
  readonly credential: OAuthCredential;
}

/** One refresh of one auth profile (or refresh token): what every step of it works with. */
interface RefreshJob {
  /** The last refreshes done, of the job's store. */
  readonly latest: Map<string, LatestRefresh>;
  /** The profile id, or `refresh:<fingerprint>` without one. */
  readonly profileKey: string;
  readonly profileId: ProfileId | undefined;
  readonly context: RefreshContext;
  readonly sink: OAuthCredentialSink | undefined;
}

/** Records that `credential` replaced the tokens of `replaced` (for the calls that still hold one of them). */
function remember(job: RefreshJob, credential: OAuthCredential, ...replaced: OAuthCredential[]): void {
  const fingerprints = replaced.flatMap((old) => [fingerprint(old.access), fingerprint(old.refresh)]).filter((value) => value !== undefined);
  job.latest.set(job.profileKey, { replaced: new Set(fingerprints), credential });
}

/** Single-flight OAuth refresher; one per token endpoint, shared by the calls of a client. */
export class OAuthRefresher {
  readonly #options: OAuthRefreshOptions;
  readonly #nowMs: () => number;
  readonly #logger: Logger;
  /** Refreshes in flight and the last ones done, per store (agents may reuse profile ids) and profile. */
  readonly #byStore = new WeakMap<object, { readonly inFlight: Map<string, Promise<RefreshOutcome>>; readonly latest: Map<string, LatestRefresh> }>();
  readonly #noStore = {};
  /** This refresher's name as a refresh-lock holder. */
  readonly #holder = `${process.pid}-${randomUUID()}`;
  #refreshCount = 0;

  constructor(options: OAuthRefreshOptions, dependencies?: { readonly nowMs?: () => number; readonly logger?: Logger }) {
    this.#options = options;
    this.#nowMs = dependencies?.nowMs ?? Date.now;
    this.#logger = dependencies?.logger ?? silentLogger;
  }

  /** Token requests sent so far (for tests and metrics). */
  get refreshCount(): number {
    return this.#refreshCount;
  }

  /** True when the credential should be refreshed before use: no access token, or it expires within the skew. */
  needsRefresh(credential: OAuthCredential): boolean {
    if (credential.refresh === undefined || credential.refresh.isBlank()) return false;
    if (credential.access === undefined || credential.access.isBlank()) return true;
    if (credential.expires === undefined) return false;
    return credential.expires <= this.#nowMs() + (this.#options.expirySkewMs ?? 60_000);
  }

  /** Whether a credential can be refreshed at all (it has a refresh token). */
  canRefresh(credential: OAuthCredential): boolean {
    return credential.refresh !== undefined && !credential.refresh.isBlank();
  }

  /**
   * A fresh credential to replace `stale`: from a refresh already done for it, from the one in flight for the
   * auth profile, from another process's refresh (read back from a coordinating store), or from a new token
   * request. Without a `profileId`, calls are grouped by refresh token and nothing is written back.
   */
  async refresh(profileId: ProfileId | undefined, stale: OAuthCredential, context: RefreshContext): Promise<RefreshOutcome> {
    const sink = context.store ?? this.#options.store;
    let memory = this.#byStore.get(sink ?? this.#noStore);
    if (memory === undefined) {
      memory = { inFlight: new Map(), latest: new Map() };
      this.#byStore.set(sink ?? this.#noStore, memory);
    }
    const profileKey = profileId ?? `refresh:${fingerprint(stale.refresh) ?? 'none'}`;
    const latest = memory.latest.get(profileKey);
    const staleAccess = fingerprint(stale.access);
    const staleRefresh = fingerprint(stale.refresh);
    const superseded =
      latest !== undefined &&
      ((staleAccess !== undefined && latest.replaced.has(staleAccess)) ||
        (staleAccess === undefined && staleRefresh !== undefined && latest.replaced.has(staleRefresh)));
    if (superseded && !this.needsRefresh(latest.credential)) return { ok: true, credential: latest.credential };
    const running = memory.inFlight.get(profileKey);
    if (running !== undefined) return running;
    // When the caller's credential was already replaced, refresh from its replacement: a rotated refresh
    // token makes the old one useless.
    const source = superseded ? latest.credential : stale;
    const inFlight = memory.inFlight;
    const job: RefreshJob = { latest: memory.latest, profileKey, profileId, context, sink };
    const started = this.#refreshOnce(job, source).finally(() => inFlight.delete(profileKey));
    inFlight.set(profileKey, started);
    return started;
  }

  /** The refresh of one profile in this process: under the store's lock when the store coordinates. */
  async #refreshOnce(job: RefreshJob, stale: OAuthCredential): Promise<RefreshOutcome> {
    const { profileId, context, sink } = job;
    if (profileId === undefined || sink === undefined || !isCoordinatingStore(sink)) return this.#requestToken(job, stale);
    const leaseMs = (this.#options.timeoutMs ?? 30_000) + 5_000;
    const giveUpAt = this.#nowMs() + 2 * leaseMs;
    try {
      for (;;) {
        const fresh = this.#freshReplacement(await sink.resolveCredential(profileId), stale);
        if (fresh !== undefined) return this.#adopt(job, stale, fresh);
        if (await sink.tryAcquireRefreshLock(profileId, this.#holder, this.#nowMs(), leaseMs)) {
          try {
            // Another process may have finished between the read above and taking the lock.
            const stored = await sink.resolveCredential(profileId);
            const again = this.#freshReplacement(stored, stale);
            if (again !== undefined) return this.#adopt(job, stale, again);
            const source = stored?.type === 'oauth' && this.canRefresh(stored) ? stored : stale;
            return await this.#requestToken(job, source, stale);
          } finally {
            await sink.releaseRefreshLock(profileId, this.#holder).catch((error: unknown) => this.#warnStore(profileId, error, 'release'));
          }
        }
        if (this.#nowMs() >= giveUpAt) break;
        await pause(LOCK_POLL_MS, context.signal);
      }
    } catch (error) {
      if (context.signal?.aborted !== true) this.#warnStore(profileId, error, 'lock');
    }
    // The store could not coordinate (an error, or a lock that never came free), or the caller gave up (the
    // token request then fails at once as an abort): refresh in this process.
    return this.#requestToken(job, stale);
  }

  /** The stored credential when another process already replaced `stale` with one that needs no refresh. */
  #freshReplacement(stored: Credential | undefined, stale: OAuthCredential): OAuthCredential | undefined {
    if (stored?.type !== 'oauth' || this.needsRefresh(stored)) return undefined;
    if (stored.access === undefined || stored.access.isBlank()) return undefined;
    return fingerprint(stored.access) === fingerprint(stale.access) ? undefined : stored;
  }

  #adopt(job: RefreshJob, stale: OAuthCredential, credential: OAuthCredential): RefreshOutcome {
    remember(job, credential, stale);
    return { ok: true, credential };
  }

  #warnStore(profileId: ProfileId, error: unknown, step: 'lock' | 'release'): void {
    this.#logger.warn(
      { profileId, step, error: error instanceof Error ? error.message : String(error) },
      'the store could not coordinate an OAuth refresh; refreshing in this process',
    );
  }

  async #requestToken(job: RefreshJob, stale: OAuthCredential, callerStale: OAuthCredential = stale): Promise<RefreshOutcome> {
    const { profileId, context, sink } = job;
    const refreshToken = stale.refresh?.reveal() ?? '';
    const failureContext: FailureContext = {
      ...context.failureContext,
      secrets: [...context.failureContext.secrets, refreshToken, this.#options.clientSecret?.reveal() ?? ''],
    };
    const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken });
    if (this.#options.clientId !== undefined) form.set('client_id', this.#options.clientId);
    if (this.#options.clientSecret !== undefined) form.set('client_secret', this.#options.clientSecret.reveal());
    if (this.#options.scope !== undefined) form.set('scope', this.#options.scope);
    const control = new CallControl(context.signal);
    const timeoutMs = this.#options.timeoutMs ?? 30_000;
    control.arm('headers', timeoutMs);
    this.#refreshCount += 1;
    try {
      let response;
      try {
        response = await postRequest(
          context.dispatcher,
          this.#options.tokenUrl,
          { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          form.toString(),
          control,
        );
      } catch (error) {
        const phase = control.abortInfo === undefined && isConnectError(error) ? 'connect' : 'headers';
        return { ok: false, failure: refreshFailed(transportFailure(failureContext, error, { phase, outputStarted: false, abort: control.abortInfo })) };
      }
      let text: string;
      try {
        text = (await readBodyText(response.body, { maxBytes: MAX_FAILURE_BODY_BYTES, control, idleTimeoutMs: timeoutMs })).text;
      } catch (error) {
        return { ok: false, failure: refreshFailed(transportFailure(failureContext, error, { phase: 'body', outputStarted: false, abort: control.abortInfo, status: response.status })) };
      }
      if (response.status < 200 || response.status >= 300) {
        return {
          ok: false,
          failure: httpFailure(failureContext, {
            status: response.status,
            headers: response.headers,
            body: text,
            phase: 'body',
            outputStarted: false,
            messagePrefix: 'OAuth token refresh failed',
          }),
        };
      }
      const credential = this.#credentialFrom(text, stale);
      if (credential === undefined) {
        return {
          ok: false,
          failure: streamFailure(failureContext, {
            message: 'OAuth token refresh failed: the token endpoint answered without an access_token',
            status: response.status,
            body: text,
            phase: 'body',
            outputStarted: false,
          }),
        };
      }
      remember(job, credential, stale, callerStale);
      if (profileId !== undefined && sink !== undefined) {
        try {
          await sink.saveRefreshedCredential(profileId, credential);
        } catch (error) {
          this.#logger.warn(
            { profileId, error: error instanceof Error ? error.message : String(error) },
            'could not save a refreshed OAuth credential; using it for this process only',
          );
        }
      }
      return { ok: true, credential };
    } finally {
      control.dispose();
    }
  }

  #credentialFrom(text: string, stale: OAuthCredential): OAuthCredential | undefined {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return undefined;
    }
    const access = body['access_token'];
    if (typeof access !== 'string' || access.trim() === '') return undefined;
    const refresh = typeof body['refresh_token'] === 'string' && body['refresh_token'] !== '' ? new Secret(body['refresh_token']) : stale.refresh;
    const rawExpiresIn = Number(body['expires_in']);
    const expiresInSeconds = Number.isFinite(rawExpiresIn) && rawExpiresIn > 0 ? rawExpiresIn : (this.#options.defaultExpiresInSeconds ?? 3600);
    return {
      ...stale,
      access: new Secret(access),
      refresh,
      expires: this.#nowMs() + expiresInSeconds * 1000,
    };
  }
}

function refreshFailed(failure: ProviderFailure): ProviderFailure {
  return { ...failure, message: `OAuth token refresh failed: ${failure.message ?? 'unknown error'}` };
}
