/**
 * OAuth device-authorization grant (RFC 8628): how `understudy models auth login` turns a user's approval in a
 * browser into an `oauth` credential (access token, refresh token, expiry, and the account email when the
 * issuer returns an id token). Runs against the issuer configured in `models.providers.<id>.oauth`
 * (docs/configuration.md).
 */
import type { OAuthCredential } from '@understudy/contracts';
import { Secret, UnderstudyError } from '@understudy/contracts';
import type { Dispatcher } from 'undici';
import { request } from 'undici';

const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** What the user must do: open `verificationUri` and enter `userCode` (or open `verificationUriComplete`). */
export interface DeviceAuthorizationPrompt {
  readonly userCode: string;
  readonly verificationUri: string;
  readonly verificationUriComplete?: string | undefined;
  /** How long the code stays valid, s. */
  readonly expiresInSeconds: number;
}

/**
 * Options of {@link loginWithDeviceCode}.
 *
 * - `provider`: the provider id the credential is for.
 * - `deviceAuthorizationUrl`, `tokenUrl`, `clientId`, `clientSecret?`, `scope?`: the issuer's settings.
 * - `onPrompt`: called once with what to show the user.
 * - `sleep`: waits between polls (ms). @default setTimeout
 * - `nowMs`: the clock, for the expiry of the new token. @default Date.now
 * - `requestTimeoutMs`: limit of each HTTP request, ms. @default 30000
 * - `dispatcher`: an undici dispatcher. @default undici's global dispatcher
 */
export interface DeviceLoginOptions {
  readonly provider: string;
  readonly deviceAuthorizationUrl: string;
  readonly tokenUrl: string;
  readonly clientId: string;
  readonly clientSecret?: Secret | undefined;
  readonly scope?: string | undefined;
  readonly onPrompt: (prompt: DeviceAuthorizationPrompt) => void;
  readonly sleep?: ((ms: number) => Promise<void>) | undefined;
  readonly nowMs?: (() => number) | undefined;
  readonly requestTimeoutMs?: number | undefined;
  readonly dispatcher?: Dispatcher | undefined;
}

/** Why a device login failed. `code` is the OAuth error (`access_denied`, `expired_token`, …) or `http` / `invalid_response`. */
export class DeviceLoginError extends UnderstudyError {
  constructor(code: string, message: string, options: { readonly cause?: unknown } = {}) {
    super(code, message, options);
  }
}

interface FormAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

async function postForm(options: DeviceLoginOptions, url: string, form: URLSearchParams): Promise<FormAnswer> {
  let text: string;
  let status: number;
  try {
    const response = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      headersTimeout: options.requestTimeoutMs ?? 30_000,
      bodyTimeout: options.requestTimeoutMs ?? 30_000,
      ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
    });
    status = response.statusCode;
    text = await response.body.text();
  } catch (error) {
    throw new DeviceLoginError('http', `could not reach ${url}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new DeviceLoginError('invalid_response', `${url} answered HTTP ${status} without a JSON object`);
  }
  return { status, body: body as Record<string, unknown> };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The `email` claim of an id token (the payload is read, not verified: it only names the profile). */
export function emailFromIdToken(idToken: string | undefined): string | undefined {
  const payload = idToken?.split('.')[1];
  if (payload === undefined) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    return text(claims['email']);
  } catch {
    return undefined;
  }
}

function clientFields(options: DeviceLoginOptions, form: URLSearchParams): URLSearchParams {
  form.set('client_id', options.clientId);
  if (options.clientSecret !== undefined) form.set('client_secret', options.clientSecret.reveal());
  return form;
}

/**
 * Runs a device login: asks the issuer for a device code, shows the user where to approve it, polls the token
 * endpoint at the interval the issuer asks for (slower on `slow_down`) until it answers with tokens.
 *
 * @returns the new `oauth` credential (with `email` when the issuer sent an id token carrying one).
 * @throws {DeviceLoginError} `access_denied` (the user said no), `expired_token` (not approved in time),
 *   another OAuth error code, `http` (the issuer could not be reached), `invalid_response`.
 */
export async function loginWithDeviceCode(options: DeviceLoginOptions): Promise<OAuthCredential> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const nowMs = options.nowMs ?? Date.now;
  const start = new URLSearchParams();
  if (options.scope !== undefined) start.set('scope', options.scope);
  const started = await postForm(options, options.deviceAuthorizationUrl, clientFields(options, start));
  const deviceCode = text(started.body['device_code']);
  const userCode = text(started.body['user_code']);
  const verificationUri = text(started.body['verification_uri']) ?? text(started.body['verification_url']);
  if (started.status !== 200 || deviceCode === undefined || userCode === undefined || verificationUri === undefined) {
    const code = text(started.body['error']) ?? 'invalid_response';
    const why = text(started.body['error_description']) ?? 'no device_code, user_code and verification_uri in the answer';
    throw new DeviceLoginError(code, `the device authorization endpoint refused (HTTP ${started.status}, ${code}): ${why}`);
  }
  const expiresInSeconds = Number(started.body['expires_in']) > 0 ? Number(started.body['expires_in']) : 600;
  let intervalMs = (Number(started.body['interval']) >= 0 ? Number(started.body['interval']) : 5) * 1000;
  options.onPrompt({
    userCode,
    verificationUri,
    ...(text(started.body['verification_uri_complete']) === undefined ? {} : { verificationUriComplete: text(started.body['verification_uri_complete']) }),
    expiresInSeconds,
  });
  const giveUpAt = nowMs() + expiresInSeconds * 1000;
  for (;;) {
    await sleep(intervalMs);
    const polled = await postForm(
      options,
      options.tokenUrl,
      clientFields(options, new URLSearchParams({ grant_type: DEVICE_CODE_GRANT, device_code: deviceCode })),
    );
    const access = text(polled.body['access_token']);
    if (polled.status === 200 && access !== undefined) {
      const expiresIn = Number(polled.body['expires_in']);
      const refresh = text(polled.body['refresh_token']);
      const email = emailFromIdToken(text(polled.body['id_token']));
      return {
        type: 'oauth',
        provider: options.provider,
        access: new Secret(access),
        ...(refresh === undefined ? {} : { refresh: new Secret(refresh) }),
        expires: nowMs() + (Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 3600) * 1000,
        ...(email === undefined ? {} : { email }),
      };
    }
    const error = text(polled.body['error']) ?? `http_${polled.status}`;
    if (error === 'authorization_pending' && nowMs() < giveUpAt) continue;
    if (error === 'slow_down' && nowMs() < giveUpAt) {
      intervalMs += 5_000;
      continue;
    }
    const why = text(polled.body['error_description']);
    const message =
      error === 'access_denied'
        ? 'the login was denied at the issuer'
        : error === 'expired_token' || error === 'authorization_pending'
          ? `the code was not approved within ${expiresInSeconds} s: run the login again`
          : `the token endpoint refused (HTTP ${polled.status}, ${error})${why === undefined ? '' : `: ${why}`}`;
    throw new DeviceLoginError(error === 'authorization_pending' ? 'expired_token' : error, message);
  }
}
