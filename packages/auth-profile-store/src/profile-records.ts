/**
 * Rows of `profiles` joined with `credentials` as secret-free records, and profile-id rules of the store
 * (the model-failover doc "Profile IDs").
 */
import { DEFAULT_PROFILE_NAME, INLINE_PROFILE_NAME, formatProfileId, parseProfileId } from '@understudy/contracts';
import type { Credential, ProfileId } from '@understudy/contracts';
import { factsFromRow } from './credential-rows.js';
import { AuthStoreError } from './errors.js';
import { assertProfileId } from './profile-ids.js';
import type { CredentialsTable, ProfilesTable } from './schema.js';
import type { AuthProfileRecord } from './store-api.js';

/** A `profiles` row joined with its credential columns. */
export type ProfileRow = ProfilesTable & Omit<CredentialsTable, 'profile_id' | 'type' | 'updated_at'> & { readonly credential_updated_at: number };

/** The secret-free record of a joined row. */
export function toRecord(row: ProfileRow): AuthProfileRecord {
  return {
    id: row.id,
    provider: row.provider,
    type: row.type,
    facts: factsFromRow(row),
    source: 'store',
    ...(row.email === null ? {} : { email: row.email }),
    createdAt: row.created_at,
    credentialUpdatedAt: row.credential_updated_at,
    ...(row.project_id === null ? {} : { projectId: row.project_id }),
    ...(row.enterprise_url === null ? {} : { enterpriseUrl: row.enterprise_url }),
  };
}

/**
 * The id a new profile gets (the model-failover doc "Profile IDs"): the requested `provider:name` or name, else
 * `<provider>:<email>` for OAuth with an email, else `<provider>:default`.
 *
 * @throws {AuthStoreError} `invalid_profile_id` (another provider), `reserved_profile_id` (`inline`).
 */
export function profileIdFor(requested: string | undefined, credential: Credential): ProfileId {
  const provider = credential.provider;
  const email = credential.type === 'oauth' ? credential.email : undefined;
  const text = requested?.trim();
  const id = text === undefined || text === '' ? formatProfileId(provider, email ?? DEFAULT_PROFILE_NAME) : text.includes(':') ? assertProfileId(text) : formatProfileId(provider, text);
  const parsed = parseProfileId(id);
  if (parsed === undefined || parsed.provider !== provider) {
    throw new AuthStoreError('invalid_profile_id', `profile id "${id}" must start with the credential's provider, e.g. "${provider}:default"`);
  }
  if (parsed.name === INLINE_PROFILE_NAME) {
    throw new AuthStoreError('reserved_profile_id', `"${id}" is reserved for the inline config key of ${provider}; pick another name`);
  }
  return id;
}

/** A stored JSON list of profile ids (`order_overrides.profile_ids`); anything else reads as empty. */
export function parseIdList(text: string): ProfileId[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
  } catch {
    return [];
  }
}
