/**
 * Tolerant reading of one legacy credential entry (docs/configuration.md shapes): `{type:"api_key", provider, key}`,
 * `{type:"oauth", provider, access, refresh, expires, email?, projectId?, enterpriseUrl?}`,
 * `{type:"token", provider, token, expires?}`. A missing `type` is inferred from the fields present; a few
 * spellings other tools used (`apiKey`, `api_key`, `accessToken`, `refreshToken`, `expiresAt`) are accepted.
 * Unknown fields are reported by name only, never by value.
 */
import { Secret, normalizeProviderId } from '@understudy/contracts';
import type { Credential } from '@understudy/contracts';
import type { SkippedField } from '../usage-stats-codec.js';

/** A credential read from a legacy entry, plus what was dropped. */
export type LegacyCredentialResult =
  | { readonly ok: true; readonly credential: Credential; readonly skippedFields: readonly SkippedField[] }
  | { readonly ok: false; readonly reason: string };

const KNOWN_FIELDS = new Set([
  'type',
  'provider',
  'key',
  'apiKey',
  'api_key',
  'access',
  'accessToken',
  'refresh',
  'refreshToken',
  'expires',
  'expiresAt',
  'email',
  'projectId',
  'enterpriseUrl',
  'token',
]);

/**
 * Reads one legacy credential entry. `providerHint` is used when the entry names no provider (a map keyed by
 * provider, or the provider part of the profile id).
 */
export function readLegacyCredential(entry: unknown, providerHint: string | undefined): LegacyCredentialResult {
  if (typeof entry === 'string') {
    // `auth.json` may map a provider straight to its key.
    if (providerHint === undefined) return { ok: false, reason: 'a bare string with no provider' };
    return entry.trim() === ''
      ? { ok: false, reason: 'empty key' }
      : { ok: true, credential: { type: 'api_key', provider: providerHint, key: new Secret(entry) }, skippedFields: [] };
  }
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    return { ok: false, reason: 'not an object' };
  }
  const fields = entry as Record<string, unknown>;
  const providerText = stringField(fields, 'provider') ?? providerHint;
  if (providerText === undefined || normalizeProviderId(providerText) === '') {
    return { ok: false, reason: 'no provider' };
  }
  const provider = normalizeProviderId(providerText);
  const skippedFields = Object.keys(fields)
    .filter((name) => !KNOWN_FIELDS.has(name))
    .map((name): SkippedField => ({ field: name, reason: 'unknown field' }));

  const key = stringField(fields, 'key') ?? stringField(fields, 'apiKey') ?? stringField(fields, 'api_key');
  const access = stringField(fields, 'access') ?? stringField(fields, 'accessToken');
  const refresh = stringField(fields, 'refresh') ?? stringField(fields, 'refreshToken');
  const token = stringField(fields, 'token');
  const expires = epochMsField(fields, 'expires') ?? epochMsField(fields, 'expiresAt');
  const declared = stringField(fields, 'type')?.trim().toLowerCase().replace(/-/g, '_');
  const type = declared ?? (key !== undefined ? 'api_key' : token !== undefined ? 'token' : access !== undefined || refresh !== undefined ? 'oauth' : undefined);
  if (fields['expires'] !== undefined && epochMsField(fields, 'expires') === undefined) {
    skippedFields.push({ field: 'expires', reason: 'not epoch milliseconds' });
  }

  switch (type) {
    case 'api_key':
      if (key === undefined || key.trim() === '') return { ok: false, reason: 'api_key without a key' };
      return { ok: true, credential: { type: 'api_key', provider, key: new Secret(key) }, skippedFields };
    case 'token': {
      const value = token ?? access;
      if (value === undefined || value.trim() === '') return { ok: false, reason: 'token without a token' };
      return {
        ok: true,
        credential: { type: 'token', provider, token: new Secret(value), ...(expires === undefined ? {} : { expires }) },
        skippedFields,
      };
    }
    case 'oauth': {
      const hasAccess = access !== undefined && access.trim() !== '';
      const hasRefresh = refresh !== undefined && refresh.trim() !== '';
      if (!hasAccess && !hasRefresh) return { ok: false, reason: 'oauth without an access or refresh token' };
      const email = stringField(fields, 'email');
      const projectId = stringField(fields, 'projectId');
      const enterpriseUrl = stringField(fields, 'enterpriseUrl');
      return {
        ok: true,
        credential: {
          type: 'oauth',
          provider,
          ...(hasAccess ? { access: new Secret(access) } : {}),
          ...(hasRefresh ? { refresh: new Secret(refresh) } : {}),
          ...(expires === undefined ? {} : { expires }),
          ...(email === undefined ? {} : { email }),
          ...(projectId === undefined ? {} : { projectId }),
          ...(enterpriseUrl === undefined ? {} : { enterpriseUrl }),
        },
        skippedFields,
      };
    }
    case undefined:
      return { ok: false, reason: 'no key, token or oauth tokens' };
    default:
      return { ok: false, reason: `unknown credential type ${JSON.stringify(type)}` };
  }
}

function stringField(fields: Record<string, unknown>, name: string): string | undefined {
  const value = fields[name];
  return typeof value === 'string' ? value : undefined;
}

/** A finite epoch-ms number (or a string of digits). */
function epochMsField(fields: Record<string, unknown>, name: string): number | undefined {
  const value = fields[name];
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value.trim());
  return undefined;
}
