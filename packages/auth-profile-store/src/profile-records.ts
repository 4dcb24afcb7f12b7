/**
 * Rows of `profiles` joined with `credentials` as secret-free records, and the rules every backend of the store
 * applies the same way (the model-failover doc "Profile IDs"): ids, inline keys, refreshed credentials, stored
 * orders, closed and read-only stores.
 */
import { DEFAULT_PROFILE_NAME, INLINE_PROFILE_NAME, formatProfileId, normalizeProviderId, parseProfileId } from '@understudy/contracts';
import type { Credential, OAuthCredential, ProfileId, TokenCredential } from '@understudy/contracts';
import { assertStorableCredential, factsFromRow } from './credential-rows.js';
import { AuthStoreError } from './errors.js';
import { assertProfileId } from './profile-ids.js';
import type { CredentialsTable, ProfilesTable } from './schema.js';
import type { AuthProfileRecord, InlineKey, SaveRefreshedCredentialResult, UpsertProfileInput } from './store-api.js';

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

/** The record of an inline config key (`<provider>:inline`, the model-failover doc "Profile IDs"); never stored. */
export function inlineRecord(id: ProfileId, inline: InlineKey | undefined): AuthProfileRecord | undefined {
  if (inline === undefined) return undefined;
  return {
    id,
    provider: inline.provider,
    type: 'api_key',
    facts: { type: 'api_key', hasSecret: !inline.key.isBlank(), hasRefresh: false },
    source: 'inline',
  };
}

/**
 * What `listProfiles` answers: the stored records (in the backend's order) and the inline keys of `provider`
 * (every provider when `undefined`), sorted by provider, keeping the order within one provider.
 */
export function withInlineRecords(
  stored: readonly AuthProfileRecord[],
  inline: ReadonlyMap<ProfileId, InlineKey>,
  provider: string | undefined,
): AuthProfileRecord[] {
  const inlineRecords = [...inline.entries()]
    .map(([id, key]) => inlineRecord(id, key))
    .filter((record): record is AuthProfileRecord => record !== undefined && (provider === undefined || record.provider === provider));
  return [...stored, ...inlineRecords].sort((a, b) => (a.provider === b.provider ? 0 : a.provider < b.provider ? -1 : 1));
}

/** A credential about to be stored: its normalized provider, its profile id and the email column. */
export interface ProfileToStore {
  readonly provider: string;
  readonly credential: Credential;
  readonly id: ProfileId;
  readonly email: string | null;
}

/**
 * Checks and normalizes an `upsertProfile` input, the same for every backend.
 *
 * @throws {AuthStoreError} `invalid_credential` (see `assertStorableCredential`), `invalid_profile_id`,
 *   `reserved_profile_id` (see {@link profileIdFor}).
 */
export function profileToStore(input: UpsertProfileInput): ProfileToStore {
  assertStorableCredential(input.credential);
  const provider = normalizeProviderId(input.credential.provider);
  const credential = { ...input.credential, provider } as Credential;
  return { provider, credential, id: profileIdFor(input.id, credential), email: credential.type === 'oauth' ? (credential.email ?? null) : null };
}

/**
 * Refuses to remove an inline config key: it lives in the config, not in the store.
 *
 * @throws {AuthStoreError} `reserved_profile_id`.
 */
export function assertRemovable(id: ProfileId, inline: ReadonlyMap<ProfileId, InlineKey>): void {
  if (inline.has(id) || parseProfileId(id)?.name === INLINE_PROFILE_NAME) {
    throw new AuthStoreError('reserved_profile_id', `"${id}" is an inline config key: remove models.providers.<id>.apiKey from the config instead`);
  }
}

/**
 * Whether a refreshed credential replaces the stored one (`saveRefreshedCredential`): not when the stored one
 * expires later (another process refreshed meanwhile).
 *
 * @param stored - the stored credential's type and `expires_at` (epoch ms), `undefined` when there is none.
 * @throws {AuthStoreError} `profile_not_found` (nothing stored), `invalid_credential` (another credential type).
 */
export function refreshedCredentialVerdict(
  id: ProfileId,
  stored: { readonly type: string; readonly expires_at: number | null } | undefined,
  credential: OAuthCredential | TokenCredential,
): SaveRefreshedCredentialResult {
  if (stored === undefined) throw new AuthStoreError('profile_not_found', `no stored profile "${id}" to save a refreshed credential for`);
  if (stored.type !== credential.type) {
    throw new AuthStoreError('invalid_credential', `profile "${id}" holds a ${stored.type} credential, not ${credential.type}`);
  }
  if (stored.expires_at !== null && credential.expires !== undefined && stored.expires_at > credential.expires) {
    return { saved: false, reason: 'stored_is_newer' };
  }
  return { saved: true };
}

/**
 * Checks a stored rotation order (`setOrderOverride`): bare names get the provider's prefix, duplicates go,
 * and every id must belong to the provider.
 *
 * @returns the normalized provider id and the ids in order.
 * @throws {AuthStoreError} `invalid_order` (empty provider, another provider's id, no id at all),
 *   `invalid_profile_id` (a malformed id).
 */
export function checkOrderOverride(provider: string, profileIds: readonly string[]): { readonly provider: string; readonly ids: ProfileId[] } {
  const normalized = normalizeProviderId(provider);
  if (normalized === '') throw new AuthStoreError('invalid_order', 'the provider id is empty');
  const ids: ProfileId[] = [];
  for (const raw of profileIds) {
    const id = raw.includes(':') ? assertProfileId(raw) : formatProfileId(normalized, raw);
    if (parseProfileId(id)?.provider !== normalized) {
      throw new AuthStoreError('invalid_order', `profile "${id}" does not belong to provider "${normalized}"`);
    }
    if (!ids.includes(id)) ids.push(id);
  }
  if (ids.length === 0) {
    throw new AuthStoreError('invalid_order', `an order for "${normalized}" needs at least one profile id (clear it to remove it)`);
  }
  return { provider: normalized, ids };
}

/** The error of a call on a closed store. */
export function storeClosedError(agentId: string): AuthStoreError {
  return new AuthStoreError('store_closed', `the auth-profile store of agent "${agentId}" is closed`);
}

/** The error of a write on a store opened read-only. */
export function storeReadOnlyError(agentId: string): AuthStoreError {
  return new AuthStoreError('store_read_only', `the auth-profile store of agent "${agentId}" was opened read-only`);
}
