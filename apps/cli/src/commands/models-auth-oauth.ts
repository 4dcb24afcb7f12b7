/**
 * OAuth profiles from the command line (the model-failover doc "Auth storage (keys + OAuth)", docs/configuration.md):
 * the token JSON of `models auth add --type oauth --key-stdin`, and `models auth login --provider P`, the OAuth
 * device-authorization grant against the issuer of `models.providers.<P>.oauth` (built-in defaults included).
 * Tokens are never printed; only the profile id, the email and the expiry are.
 */
import type { Command } from 'commander';
import { providerSettings, resolveProviderOAuth } from '@understudy/config';
import { Secret } from '@understudy/contracts';
import type { OAuthCredential } from '@understudy/contracts';
import { DeviceLoginError, emailFromIdToken, loginWithDeviceCode } from '@understudy/providers';
import { CliError, ExitCode, writeLine } from '../io.js';
import type { CliIo } from '../io.js';
import { isoTime, writeJson } from '../output.js';
import { addCommonOptions, cliAction, commandContext, withStore } from '../store-context.js';
import type { CommonOptions } from '../store-context.js';
import { checkProviderOption, profileIdOption } from './profile-id-rules.js';

const usage = (message: string): CliError => new CliError(message, { exitCode: ExitCode.usage, code: 'bad_input' });

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The `exp` claim of a JWT access token, epoch ms (the payload is read, not verified). */
function jwtExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (payload === undefined) return undefined;
  try {
    const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>)['exp'];
    return typeof exp === 'number' && Number.isFinite(exp) && exp > 0 ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** Epoch ms from a timestamp that may be in seconds (< 10^12) or milliseconds. */
function epochMs(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined;
  return value < 1e12 ? value * 1000 : value;
}

/**
 * The `oauth` credential in a token JSON read from stdin. Accepted shapes: a token endpoint's answer
 * (`access_token`, `refresh_token`, `expires_in` s, `id_token`), understudy's own (`access`, `refresh`,
 * `expires` epoch ms, `email`), and a file that nests either under `tokens`. Without an expiry, a JWT access
 * token's `exp` is used. Flags win over the JSON for `expires` and `email`.
 *
 * @throws {CliError} exit 2 naming the missing or malformed field (never its value).
 */
export function oauthCredentialFromJson(
  json: string,
  options: {
    readonly provider: string;
    readonly nowMs: number;
    readonly expires?: number | undefined;
    readonly email?: string | undefined;
    readonly projectId?: string | undefined;
    readonly enterpriseUrl?: string | undefined;
  },
): OAuthCredential {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw usage('--key-stdin: the token JSON on stdin is not valid JSON (expected an object with access_token / refresh_token)');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw usage('--key-stdin: the token JSON must be an object');
  const outer = parsed as Record<string, unknown>;
  const tokens = typeof outer['tokens'] === 'object' && outer['tokens'] !== null ? (outer['tokens'] as Record<string, unknown>) : outer;
  const access = text(tokens['access_token']) ?? text(tokens['access']);
  const refresh = text(tokens['refresh_token']) ?? text(tokens['refresh']);
  if (access === undefined && refresh === undefined) {
    throw usage('--key-stdin: the token JSON has neither access_token nor refresh_token (nor access / refresh)');
  }
  const expiresIn = tokens['expires_in'];
  const expires =
    options.expires ??
    epochMs(tokens['expires']) ??
    epochMs(tokens['expires_at']) ??
    (typeof expiresIn === 'number' && expiresIn > 0 ? options.nowMs + expiresIn * 1000 : undefined) ??
    (access === undefined ? undefined : jwtExpiry(access));
  const email = options.email ?? text(tokens['email']) ?? text(outer['email']) ?? emailFromIdToken(text(tokens['id_token']));
  return {
    type: 'oauth',
    provider: options.provider,
    ...(access === undefined ? {} : { access: new Secret(access) }),
    ...(refresh === undefined ? {} : { refresh: new Secret(refresh) }),
    ...(expires === undefined ? {} : { expires }),
    ...(email === undefined ? {} : { email }),
    ...(options.projectId === undefined ? {} : { projectId: options.projectId }),
    ...(options.enterpriseUrl === undefined ? {} : { enterpriseUrl: options.enterpriseUrl }),
  };
}

interface LoginOptions extends CommonOptions {
  readonly provider: string;
  readonly id?: string | undefined;
}

/** Registers `models auth login` under `models auth`. */
export function registerLoginCommand(auth: Command, io: CliIo): void {
  addCommonOptions(
    auth
      .command('login')
      .description('Log in to a provider with OAuth (device authorization) and store the account as an oauth profile.')
      .requiredOption('--provider <id>', 'provider id, e.g. openai')
      .option('--id <name>', 'profile name or provider:name (default: the account email, else default)'),
  ).action(
    cliAction(async (options: LoginOptions) => {
      const context = commandContext(options, io);
      const provider = checkProviderOption(options.provider);
      const settings = providerSettings(context.config, provider);
      if (settings === undefined) {
        throw usage(`provider "${provider}" is not configured: add models.providers.${provider} (baseUrl, api, oauth) to the config`);
      }
      const oauth = resolveProviderOAuth(provider, settings);
      const path = `models.providers.${provider}.oauth`;
      if (oauth?.deviceAuthorizationUrl === undefined || oauth.clientId === undefined) {
        const missing = [oauth?.deviceAuthorizationUrl === undefined ? 'deviceAuthorizationUrl' : undefined, oauth?.clientId === undefined ? 'clientId' : undefined]
          .filter((field) => field !== undefined)
          .join(' and ');
        throw usage(`no device login for "${provider}": set ${path}.${missing === 'deviceAuthorizationUrl and clientId' ? '{deviceAuthorizationUrl, clientId}' : missing} in the config (and tokenUrl)`);
      }
      let credential: OAuthCredential;
      try {
        credential = await loginWithDeviceCode({
          provider,
          deviceAuthorizationUrl: oauth.deviceAuthorizationUrl,
          tokenUrl: oauth.tokenUrl,
          clientId: oauth.clientId,
          ...(oauth.clientSecret === undefined ? {} : { clientSecret: new Secret(oauth.clientSecret) }),
          ...(oauth.scope === undefined ? {} : { scope: oauth.scope }),
          onPrompt: (prompt) => {
            const where = prompt.verificationUriComplete ?? prompt.verificationUri;
            writeLine(io.stderr, `To log in to ${provider}, open ${where} and enter the code ${prompt.userCode} (valid ${Math.round(prompt.expiresInSeconds / 60)} min).`);
          },
        });
      } catch (error) {
        if (!DeviceLoginError.isInstance(error)) throw error;
        throw new CliError(`login to ${provider} failed: ${error.message}`, { exitCode: ExitCode.failure, code: `oauth_${error.code}` });
      }
      const id = profileIdOption({ id: options.id, email: credential.email, provider });
      const { profile, created } = await withStore(context, (store) => store.upsertProfile({ id, credential }));
      const expires = credential.expires === undefined ? null : isoTime(credential.expires);
      if (context.json) {
        writeJson(io.stdout, { id: profile.id, provider, type: 'oauth', created, email: credential.email ?? null, expires });
      } else {
        writeLine(io.stdout, `${created ? 'Added' : 'Updated'} oauth profile ${context.colors.bold(profile.id)} for agent ${context.agentId}${expires === null ? '' : ` (access token until ${expires}; refreshed automatically)`}.`);
      }
    }),
  );
}
