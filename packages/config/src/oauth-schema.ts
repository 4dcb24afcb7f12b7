/**
 * `models.providers.<id>.oauth`: where and how a provider's OAuth profiles are refreshed (refresh-token grant)
 * and logged in (device-authorization grant), with built-in defaults for the providers that publish theirs
 * (docs/configuration.md, the model-failover doc "Auth storage (keys + OAuth)"). Pure: no I/O.
 */
import * as z from 'zod';

const httpUrl = (example: string) =>
  z.url({ protocol: /^https?$/, error: `must be an http(s) URL, e.g. "${example}"` });

/** The `oauth` object of a provider, as written. Every field is optional: built-in defaults fill the gaps. */
export const providerOAuthConfigSchema = z
  .strictObject({
    tokenUrl: httpUrl('https://auth.example.com/oauth/token')
      .optional()
      .describe('Token endpoint (refresh-token and device-code grants).'),
    deviceAuthorizationUrl: httpUrl('https://auth.example.com/oauth/device/code')
      .optional()
      .describe('Device-authorization endpoint used by `understudy models auth login`.'),
    clientId: z.string().trim().min(1).optional().describe('OAuth client id sent with every token request.'),
    clientSecret: z
      .string()
      .min(1)
      .optional()
      .describe('Client secret, only for providers whose clients have one; write "${ENV_VAR}", never the value.'),
    scope: z.string().trim().min(1).optional().describe('Scope asked for at login (and sent on refresh when set).'),
  })
  .describe('OAuth settings of the provider (defaults are built in for openai, anthropic and google).');

/** `models.providers.<id>.oauth` as written. */
export type ProviderOAuthConfig = z.infer<typeof providerOAuthConfigSchema>;

/**
 * The OAuth settings a provider ends up with. `tokenUrl` is always present (without one there is nothing to
 * refresh against); `deviceAuthorizationUrl` only when a login is possible. `source` says whether a built-in
 * default contributed.
 */
export interface ResolvedProviderOAuth {
  readonly tokenUrl: string;
  readonly deviceAuthorizationUrl?: string | undefined;
  readonly clientId?: string | undefined;
  readonly clientSecret?: string | undefined;
  readonly scope?: string | undefined;
  readonly source: 'config' | 'built-in' | 'config+built-in';
}

interface BuiltInOAuth {
  /** API hosts the defaults belong to: a provider id pointed elsewhere (a proxy, an emulator) gets none. */
  readonly apiHosts: readonly string[];
  readonly settings: Omit<ResolvedProviderOAuth, 'source'>;
}

/**
 * Published OAuth clients. OpenAI: the public Codex (ChatGPT subscription) client; Anthropic: the public
 * Claude subscription client; Google: the OAuth 2.0 endpoints (a Google client id must be configured).
 */
const BUILT_IN_OAUTH: ReadonlyMap<string, BuiltInOAuth> = new Map(Object.entries({
  openai: {
    apiHosts: ['api.openai.com', 'chatgpt.com'],
    settings: {
      tokenUrl: 'https://auth.openai.com/oauth/token',
      clientId: 'app_EMoamEEZ73f0CkXaXp7hrann',
      scope: 'openid profile email offline_access',
    },
  },
  anthropic: {
    apiHosts: ['api.anthropic.com'],
    settings: {
      tokenUrl: 'https://console.anthropic.com/v1/oauth/token',
      clientId: '9d1c250a-e61b-44d9-88ed-5944d1962f5e',
    },
  },
  google: {
    apiHosts: ['generativelanguage.googleapis.com'],
    settings: {
      tokenUrl: 'https://oauth2.googleapis.com/token',
      deviceAuthorizationUrl: 'https://oauth2.googleapis.com/device/code',
      scope: 'https://www.googleapis.com/auth/generative-language',
    },
  },
}));

/** The host of an http(s) URL (the schema already checked its shape), lower-cased. */
function hostOf(url: string): string | undefined {
  return /^https?:\/\/(?:[^@/?#]*@)?([^:/?#]+)/i.exec(url)?.[1]?.toLowerCase();
}

/**
 * The OAuth settings of one provider: its `oauth` config over the built-in defaults of that provider id,
 * which apply only while `baseUrl` points at the provider's own API host (so a provider id reused for a proxy
 * or the emulator never sends tokens to the real issuer).
 *
 * @param providerId a normalised provider id (`openai`).
 * @returns `undefined` when no token endpoint is known: OAuth credentials are then sent as they are.
 * @example resolveProviderOAuth('openai', { baseUrl: 'https://api.openai.com/v1' })?.tokenUrl // 'https://auth.openai.com/oauth/token'
 */
export function resolveProviderOAuth(
  providerId: string,
  provider: { readonly baseUrl: string; readonly oauth?: ProviderOAuthConfig | undefined },
): ResolvedProviderOAuth | undefined {
  const builtIn = BUILT_IN_OAUTH.get(providerId);
  const host = hostOf(provider.baseUrl);
  const defaults = builtIn !== undefined && host !== undefined && builtIn.apiHosts.includes(host) ? builtIn.settings : undefined;
  const configured = Object.fromEntries(Object.entries(provider.oauth ?? {}).filter(([, value]) => value !== undefined));
  const merged = { ...defaults, ...configured } as Partial<Omit<ResolvedProviderOAuth, 'source'>>;
  if (merged.tokenUrl === undefined) return undefined;
  const fromConfig = Object.keys(configured).length > 0;
  const source = defaults === undefined ? 'config' : fromConfig ? 'config+built-in' : 'built-in';
  return { ...merged, tokenUrl: merged.tokenUrl, source };
}
