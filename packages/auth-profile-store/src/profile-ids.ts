/**
 * Profile-id checks used by the store (ids are `provider:name`, the model-failover doc "Profile IDs").
 */
import { parseProfileId } from '@understudy/contracts';
import type { ProfileId } from '@understudy/contracts';
import { AuthStoreError } from './errors.js';

/**
 * The canonical form of a profile id (provider part normalised).
 *
 * @throws {AuthStoreError} `invalid_profile_id` when it is not `provider:name`.
 * @example assertProfileId('OpenAI:work') // 'openai:work'
 */
export function assertProfileId(id: string): ProfileId {
  const parsed = typeof id === 'string' ? parseProfileId(id) : undefined;
  if (parsed === undefined || parsed.name.trim() === '') {
    throw new AuthStoreError('invalid_profile_id', `"${String(id)}" is not a profile id: use provider:name, e.g. openai:default`);
  }
  return `${parsed.provider}:${parsed.name.trim()}`;
}

/**
 * Half-open key range `[low, high)` holding every `provider:*` id, for index range scans (`;` sorts right
 * after `:`).
 */
export function providerRange(provider: string): readonly [string, string] {
  return [`${provider}:`, `${provider};`];
}
