/**
 * Credentials ↔ `credentials` rows. Secrets are unwrapped only here, on their way into the row, and wrapped
 * again on the way out; nothing else in the store sees a raw secret.
 */
import { Secret, normalizeProviderId } from '@understudy/contracts';
import type { Credential, CredentialFacts, CredentialType } from '@understudy/contracts';
import { AuthStoreError } from './errors.js';
import type { CredentialsTable } from './schema.js';

/** The secret-bearing columns of a credential row. */
export type CredentialColumns = Omit<CredentialsTable, 'profile_id' | 'updated_at'>;

/** The row columns of a credential. */
export function credentialColumns(credential: Credential): CredentialColumns {
  switch (credential.type) {
    case 'api_key':
      return { ...emptyColumns('api_key'), api_key: credential.key.reveal() };
    case 'token':
      return { ...emptyColumns('token'), token: credential.token.reveal(), expires_at: credential.expires ?? null };
    case 'oauth':
      return {
        ...emptyColumns('oauth'),
        access_token: credential.access?.reveal() ?? null,
        refresh_token: credential.refresh?.reveal() ?? null,
        expires_at: credential.expires ?? null,
        project_id: credential.projectId ?? null,
        enterprise_url: credential.enterpriseUrl ?? null,
      };
  }
}

/** The credential of a row, secrets wrapped. */
export function credentialFromRow(row: CredentialColumns, provider: string, email: string | null): Credential {
  switch (row.type) {
    case 'api_key':
      return { type: 'api_key', provider, key: new Secret(row.api_key ?? '') };
    case 'token':
      return { type: 'token', provider, token: new Secret(row.token ?? ''), ...optional('expires', row.expires_at) };
    case 'oauth':
      return {
        type: 'oauth',
        provider,
        ...optional('access', row.access_token === null ? null : new Secret(row.access_token)),
        ...optional('refresh', row.refresh_token === null ? null : new Secret(row.refresh_token)),
        ...optional('expires', row.expires_at),
        ...optional('email', email),
        ...optional('projectId', row.project_id),
        ...optional('enterpriseUrl', row.enterprise_url),
      };
  }
}

/** Secret-free facts of a row (same rules as contracts' `credentialFacts`). */
export function factsFromRow(row: CredentialColumns): CredentialFacts {
  switch (row.type) {
    case 'api_key':
      return { type: 'api_key', hasSecret: isPresent(row.api_key), hasRefresh: false };
    case 'token':
      return { type: 'token', hasSecret: isPresent(row.token), hasRefresh: false, ...optional('expiresAt', row.expires_at) };
    case 'oauth':
      return {
        type: 'oauth',
        hasSecret: isPresent(row.access_token),
        hasRefresh: isPresent(row.refresh_token),
        ...optional('expiresAt', row.expires_at),
      };
  }
}

const CREDENTIAL_COLUMN_NAMES = Object.keys(emptyColumns('api_key')) as readonly (keyof CredentialColumns)[];

/** True when two rows hold the same credential (every credential column equal; stamps and ids ignored). */
export function sameCredentialColumns(a: CredentialColumns, b: CredentialColumns): boolean {
  return CREDENTIAL_COLUMN_NAMES.every((column) => a[column] === b[column]);
}

/**
 * Checks a credential before it is stored: a known type, a provider, a non-blank key or token, an OAuth
 * credential with an access or refresh token, finite expiries.
 *
 * @throws {AuthStoreError} `invalid_credential`, naming the field.
 */
export function assertStorableCredential(credential: Credential): void {
  const fail = (message: string): never => {
    throw new AuthStoreError('invalid_credential', message);
  };
  if (!['api_key', 'oauth', 'token'].includes(credential.type)) {
    fail(`credential type "${String(credential.type)}" is not one of api_key, oauth, token`);
  }
  if (typeof credential.provider !== 'string' || normalizeProviderId(credential.provider) === '') {
    fail('credential.provider is empty: name the provider, e.g. "openai"');
  }
  switch (credential.type) {
    case 'api_key':
      if (!Secret.isInstance(credential.key) || credential.key.isBlank()) fail('credential.key is empty: give the API key');
      break;
    case 'token':
      if (!Secret.isInstance(credential.token) || credential.token.isBlank()) fail('credential.token is empty: give the token');
      break;
    case 'oauth': {
      const hasAccess = Secret.isInstance(credential.access) && !credential.access.isBlank();
      const hasRefresh = Secret.isInstance(credential.refresh) && !credential.refresh.isBlank();
      if (!hasAccess && !hasRefresh) fail('an oauth credential needs an access or a refresh token');
      break;
    }
  }
  if (credential.type !== 'api_key' && credential.expires !== undefined && !Number.isFinite(credential.expires)) {
    fail('credential.expires must be epoch milliseconds');
  }
}

/** The credential types, for messages and option parsing. */
export const CREDENTIAL_TYPES: readonly CredentialType[] = Object.freeze(['api_key', 'oauth', 'token']);

function emptyColumns(type: CredentialType): CredentialColumns {
  return {
    type,
    api_key: null,
    token: null,
    access_token: null,
    refresh_token: null,
    expires_at: null,
    project_id: null,
    enterprise_url: null,
  };
}

function isPresent(value: string | null): boolean {
  return value !== null && value.trim() !== '';
}

/** `{ [key]: value }` when the value is present, `{}` otherwise (keeps `exactOptionalPropertyTypes` happy). */
function optional<K extends string, V>(key: K, value: V | null | undefined): { [P in K]?: V } {
  return value === null || value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}
