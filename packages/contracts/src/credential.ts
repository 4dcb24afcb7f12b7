/**
 * Credentials and the secret-free view of an auth profile (the model-failover doc "Auth storage", "Rotation order").
 */
import type { ProfileId } from './profile-id.js';
import type { Secret } from './secret.js';

/** The three credential types of the model-failover doc "Auth storage". */
export type CredentialType = 'api_key' | 'oauth' | 'token';

/** `type: "api_key"` → `{ provider, key }`. */
export interface ApiKeyCredential {
  readonly type: 'api_key';
  readonly provider: string;
  readonly key: Secret;
}

/** `type: "oauth"` → `{ provider, access, refresh, expires (epoch ms), email?, projectId?, enterpriseUrl? }`. */
export interface OAuthCredential {
  readonly type: 'oauth';
  readonly provider: string;
  readonly access?: Secret | undefined;
  readonly refresh?: Secret | undefined;
  /** Access-token expiry, epoch ms. */
  readonly expires?: number | undefined;
  readonly email?: string | undefined;
  readonly projectId?: string | undefined;
  readonly enterpriseUrl?: string | undefined;
}

/** `type: "token"` → a static bearer token, optionally expiring (epoch ms); never refreshed. */
export interface TokenCredential {
  readonly type: 'token';
  readonly provider: string;
  readonly token: Secret;
  readonly expires?: number | undefined;
}

/** Any stored credential. */
export type Credential = ApiKeyCredential | OAuthCredential | TokenCredential;

/**
 * What the policy code may know about a credential without seeing it: enough for the eligibility rules of
 * the model-failover doc "Rotation order" (non-blank key, unexpired token, OAuth with access or refresh).
 */
export interface CredentialFacts {
  readonly type: CredentialType;
  /** `api_key`: a non-blank key. `token`: a non-blank token. `oauth`: a non-blank access token. */
  readonly hasSecret: boolean;
  /** `oauth` only: a non-blank refresh token. */
  readonly hasRefresh: boolean;
  /** Expiry of the token or OAuth access token, epoch ms. */
  readonly expiresAt?: number | undefined;
}

/**
 * An auth profile as routing sees it: identity and credential facts, never the secret.
 * `source` tells where it came from: the agent's store, or an inline config key (`<provider>:inline`).
 */
export interface AuthProfileView {
  readonly id: ProfileId;
  readonly provider: string;
  readonly facts: CredentialFacts;
  readonly email?: string | undefined;
  readonly source: 'store' | 'inline';
}

/** A profile ready for an attempt: its view plus the credential to send (`null` for a keyless provider). */
export interface ResolvedProfile {
  readonly view: AuthProfileView;
  readonly credential: Credential | null;
}

/** Secret-free facts of a credential. Pure: no clock; expiry is compared by the caller. */
export function credentialFacts(credential: Credential): CredentialFacts {
  switch (credential.type) {
    case 'api_key':
      return { type: 'api_key', hasSecret: !credential.key.isBlank(), hasRefresh: false };
    case 'token':
      return { type: 'token', hasSecret: !credential.token.isBlank(), hasRefresh: false, expiresAt: credential.expires };
    case 'oauth':
      return {
        type: 'oauth',
        hasSecret: credential.access !== undefined && !credential.access.isBlank(),
        hasRefresh: credential.refresh !== undefined && !credential.refresh.isBlank(),
        expiresAt: credential.expires,
      };
  }
}
