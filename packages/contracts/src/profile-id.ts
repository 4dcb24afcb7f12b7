/**
 * Auth profile ids: `provider:name`, e.g. `openai:default`, `openai:user@example.com` (the model-failover doc "Profile IDs").
 */
import { normalizeProviderId } from './model-ref.js';

/** An auth profile id, `provider:name`. A plain string at runtime. */
export type ProfileId = string;

/** The name used for a profile that has no better one (`provider:default`). */
export const DEFAULT_PROFILE_NAME = 'default';

/** The name of the profile that stands for an inline config key (`models.providers.<id>.apiKey`). */
export const INLINE_PROFILE_NAME = 'inline';

/**
 * Splits a profile id into provider and name; the provider id is normalised.
 *
 * @returns `undefined` when there is no `:` or either side is empty.
 * @example parseProfileId('OpenAI:user@example.com') // { provider: 'openai', name: 'user@example.com' }
 */
export function parseProfileId(id: string): { readonly provider: string; readonly name: string } | undefined {
  const text = id.trim();
  const colon = text.indexOf(':');
  if (colon <= 0 || colon === text.length - 1) return undefined;
  return { provider: normalizeProviderId(text.slice(0, colon)), name: text.slice(colon + 1) };
}

/** Builds `provider:name` with a normalised provider id. @example formatProfileId('OpenAI', 'default') // 'openai:default' */
export function formatProfileId(provider: string, name: string): ProfileId {
  return `${normalizeProviderId(provider)}:${name.trim()}`;
}

/** Canonical form of a profile id (normalised provider part), or the trimmed input when it is not `provider:name`. */
export function normalizeProfileId(id: string): ProfileId {
  const parsed = parseProfileId(id);
  return parsed ? `${parsed.provider}:${parsed.name}` : id.trim();
}

/** The provider id a profile id belongs to, or `undefined` when it is malformed. */
export function providerOfProfileId(id: string): string | undefined {
  return parseProfileId(id)?.provider;
}

/** The id of the inline-config-key profile of a provider: `<provider>:inline`. */
export function inlineProfileId(provider: string): ProfileId {
  return formatProfileId(provider, INLINE_PROFILE_NAME);
}

/** True for `<provider>:inline` ids (docs/policy.md#windows: inline keys get fresh 10 min billing windows, no doubling). */
export function isInlineProfileId(id: string): boolean {
  return parseProfileId(id)?.name === INLINE_PROFILE_NAME;
}
