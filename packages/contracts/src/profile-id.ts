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

/**
 * The profile id a user meant for a model of `provider`: a full id (`provider:name`) normalised, a bare name
 * (`work`) as `provider:name`. Whether that profile exists is the store's question.
 *
 * @example qualifyProfileId('openai', 'work') // 'openai:work'
 * @example qualifyProfileId('openai', ' OpenAI:ada@example.com ') // 'openai:ada@example.com'
 */
export function qualifyProfileId(provider: string, text: string): ProfileId {
  const trimmed = text.trim();
  return parseProfileId(trimmed) === undefined ? formatProfileId(provider, trimmed) : normalizeProfileId(trimmed);
}

/** `provider:name` right after an `@`: the start of a profile id. */
const PROFILE_ID_START = /^[A-Za-z0-9][A-Za-z0-9._-]*:\S/;

/**
 * Splits a user's `ref@profile` (`/model`, `sessions.patch`'s `model`, a simulated live switch). The profile part
 * starts at the first `@` that is followed by `provider:`, so profile ids holding an email
 * (`openai:ada@example.com`) and model ids holding `@` (`vertex/claude@20240620@vertex:work`) both read right.
 * Without such an `@`, the text after the last `@` is taken as a bare profile name (see {@link qualifyProfileId});
 * a trailing `@` names no profile and stays in `model`.
 *
 * @example splitModelAndProfile('openai/gpt-4o@openai:work') // { model: 'openai/gpt-4o', profile: 'openai:work' }
 * @example splitModelAndProfile('openai/gpt-4o') // { model: 'openai/gpt-4o' }
 */
export function splitModelAndProfile(argument: string): { readonly model: string; readonly profile?: string } {
  for (let index = argument.indexOf('@'); index !== -1; index = argument.indexOf('@', index + 1)) {
    const rest = argument.slice(index + 1);
    if (index > 0 && PROFILE_ID_START.test(rest)) return { model: argument.slice(0, index), profile: rest };
  }
  const last = argument.lastIndexOf('@');
  if (last > 0 && last < argument.length - 1) return { model: argument.slice(0, last), profile: argument.slice(last + 1) };
  return { model: argument };
}
