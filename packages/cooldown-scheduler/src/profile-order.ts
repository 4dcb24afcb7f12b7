/**
 * The order in which a provider's auth profiles are tried (the model-failover doc "Rotation order", "Session stickiness";
 * docs/policy.md#retries-probes-and-rotation "Rotation").
 */
import type {
  AuthProfileView,
  CredentialType,
  FailoverReason,
  ProfileId,
  ProviderAuthState,
} from '@understudy/contracts';
import { normalizeProfileId, normalizeProviderId } from '@understudy/contracts';
import type { WindowLane } from './availability.js';
import { profileUnavailability } from './availability.js';

/** Why a profile in the base list cannot be used at all (independent of cooldowns). */
export type IneligibleReason =
  | 'missing_credential'
  | 'provider_mismatch'
  | 'mode_mismatch'
  | 'blank_key'
  | 'blank_token'
  | 'expired_token'
  | 'no_oauth_tokens';

/** Verdict of {@link checkProfileEligibility}. */
export type Eligibility = { readonly eligible: true } | { readonly eligible: false; readonly why: IneligibleReason };

/**
 * Whether a profile may be used for a provider at all (the model-failover doc "Rotation order"): a credential is present, its
 * provider matches, the configured `auth.profiles[id].mode` (when set) equals the credential type, an API key is
 * non-blank, a token is non-blank and unexpired, an OAuth credential has an access or a refresh token (an
 * expired access token stays eligible: the runtime refreshes it).
 *
 * @example checkProfileEligibility(undefined, { provider: 'openai', nowMs: 0 }) // { eligible: false, why: 'missing_credential' }
 */
export function checkProfileEligibility(
  profile: AuthProfileView | undefined,
  options: { readonly provider: string; readonly configMode?: CredentialType | undefined; readonly nowMs: number },
): Eligibility {
  if (profile === undefined) return { eligible: false, why: 'missing_credential' };
  if (normalizeProviderId(profile.provider) !== normalizeProviderId(options.provider)) {
    return { eligible: false, why: 'provider_mismatch' };
  }
  const facts = profile.facts;
  if (options.configMode !== undefined && options.configMode !== facts.type) return { eligible: false, why: 'mode_mismatch' };
  switch (facts.type) {
    case 'api_key':
      return facts.hasSecret ? { eligible: true } : { eligible: false, why: 'blank_key' };
    case 'token':
      if (!facts.hasSecret) return { eligible: false, why: 'blank_token' };
      if (facts.expiresAt !== undefined && facts.expiresAt <= options.nowMs) return { eligible: false, why: 'expired_token' };
      return { eligible: true };
    case 'oauth':
      return facts.hasSecret || facts.hasRefresh ? { eligible: true } : { eligible: false, why: 'no_oauth_tokens' };
  }
}

/** An `auth.profiles.<id>` entry as rotation reads it (metadata only). */
export interface ConfiguredProfile {
  readonly provider: string;
  readonly mode?: CredentialType | undefined;
}

/** A pinned auth profile of a session: `user` (`/model …@id`) or `auto` (session stickiness). */
export interface ProfilePin {
  readonly profileId: ProfileId;
  readonly source: 'user' | 'auto';
}

/** Inputs of {@link resolveProfileOrder}. */
export interface ProfileOrderInput {
  /** The provider's profiles (stored and inline), stored order override and usage stats. */
  readonly state: ProviderAuthState;
  /** `auth.order[provider]` from the config. */
  readonly configOrder?: readonly ProfileId[] | undefined;
  /** The config's whole `auth.profiles` map; entries of other providers are ignored. */
  readonly configProfiles?: Readonly<Record<ProfileId, ConfiguredProfile>> | undefined;
  /** The session's pinned profile, tried first while eligible and available. */
  readonly pinned?: ProfilePin | undefined;
  /** The model id the request is for: a model-scoped cooldown of another model does not make a profile unavailable. */
  readonly model?: string | undefined;
  /** Current time, epoch ms. */
  readonly nowMs: number;
}

/** Which list the base set came from, by precedence. */
export type ProfileOrderSource = 'stored_order' | 'config_order' | 'config_profiles' | 'stored_profiles';

/** One eligible profile in order. */
export interface OrderedProfile {
  readonly profileId: ProfileId;
  readonly profile: AuthProfileView;
  /** No active window blocks it for the model. */
  readonly available: boolean;
  /** When unavailable: when it becomes usable again, epoch ms. */
  readonly unavailableUntilMs?: number | undefined;
  /** When unavailable: the reason of the window that ends last. */
  readonly unavailableReason?: FailoverReason | undefined;
  /** When unavailable: the lane of that window. */
  readonly unavailableLane?: WindowLane | undefined;
  /** It is the session's pinned profile (and came first because it is available). */
  readonly pinned: boolean;
}

/** The resolved order of one provider. */
export interface ProfileOrder {
  readonly provider: string;
  readonly source: ProfileOrderSource;
  /** Eligible profiles: available ones first, then unavailable ones by soonest `unavailableUntilMs`. */
  readonly profiles: readonly OrderedProfile[];
  /** Profiles of the base list that are not eligible, with why (for `/status` and decision logs). */
  readonly ineligible: readonly { readonly profileId: ProfileId; readonly why: IneligibleReason }[];
  /** What happened to the pin: `first`, `unavailable` (kept but tried later), `ineligible`, or `none`. */
  readonly pin: 'first' | 'unavailable' | 'ineligible' | 'none';
}

/** Round-robin tier by credential type (seed: OAuth with a usable token, expired OAuth, token, API key). */
function typeTier(profile: AuthProfileView, nowMs: number): number {
  const facts = profile.facts;
  switch (facts.type) {
    case 'oauth':
      return facts.hasSecret && (facts.expiresAt === undefined || facts.expiresAt > nowMs) ? 0 : 1;
    case 'token':
      return 2;
    case 'api_key':
      return 3;
  }
}

function dedupe(ids: readonly ProfileId[]): ProfileId[] {
  const seen = new Set<ProfileId>();
  const out: ProfileId[] = [];
  for (const raw of ids) {
    const id = normalizeProfileId(raw);
    if (id === '' || seen.has(id)) continue;
    seen.add(id);
    out.push(id);
  }
  return out;
}

/**
 * The ordered, eligible auth profiles of a provider (the model-failover doc "Rotation order"). The base list is the stored
 * order override, else `auth.order[provider]`, else the `auth.profiles` entries of the provider (plus the
 * provider's inline profile), else the stored profiles. With an explicit order (the first two) the listed order
 * is kept; otherwise round robin: OAuth with a usable token, expired OAuth, static token, API key, then oldest
 * `lastUsed` first. Unavailable (cooling or disabled) profiles go last, soonest expiry first. A pinned profile
 * comes first while it is eligible and available. The result is a permutation of the eligible profiles of the
 * base list.
 *
 * @example resolveProfileOrder({ state, nowMs }).profiles.map((p) => p.profileId) // ['openai:oauth', 'openai:key']
 */
export function resolveProfileOrder(input: ProfileOrderInput): ProfileOrder {
  const provider = normalizeProviderId(input.state.provider);
  const { nowMs } = input;
  const byId = new Map<ProfileId, AuthProfileView>();
  for (const profile of input.state.profiles) byId.set(normalizeProfileId(profile.id), profile);
  const configured = Object.entries(input.configProfiles ?? {})
    .filter(([, entry]) => normalizeProviderId(entry.provider) === provider)
    .map(([id, entry]) => [normalizeProfileId(id), entry] as const);
  const configModes = new Map<ProfileId, CredentialType | undefined>(configured.map(([id, entry]) => [id, entry.mode]));

  let source: ProfileOrderSource;
  let base: ProfileId[];
  if (input.state.storedOrder !== undefined && input.state.storedOrder.length > 0) {
    source = 'stored_order';
    base = dedupe(input.state.storedOrder);
  } else if (input.configOrder !== undefined && input.configOrder.length > 0) {
    source = 'config_order';
    base = dedupe(input.configOrder);
  } else if (configured.length > 0) {
    source = 'config_profiles';
    const inline = input.state.profiles.filter((profile) => profile.source === 'inline').map((profile) => profile.id);
    base = dedupe([...configured.map(([id]) => id), ...inline]);
  } else {
    source = 'stored_profiles';
    base = dedupe(input.state.profiles.map((profile) => profile.id));
  }
  const explicit = source === 'stored_order' || source === 'config_order';

  const ineligible: { profileId: ProfileId; why: IneligibleReason }[] = [];
  const eligible: { id: ProfileId; profile: AuthProfileView; index: number }[] = [];
  base.forEach((id, index) => {
    const profile = byId.get(id);
    const verdict = checkProfileEligibility(profile, { provider, configMode: configModes.get(id), nowMs });
    if (!verdict.eligible) ineligible.push({ profileId: id, why: verdict.why });
    else if (profile !== undefined) eligible.push({ id, profile, index });
  });

  const entries = eligible.map(({ id, profile, index }) => {
    const block = profileUnavailability(input.state.usageStats[id], { nowMs, model: input.model });
    return { id, profile, index, block, lastUsed: input.state.usageStats[id]?.lastUsed ?? 0 };
  });
  type Entry = (typeof entries)[number];
  const available = entries.filter((entry) => entry.block === undefined);
  const unavailable = entries.filter((entry) => entry.block !== undefined);
  if (!explicit) {
    available.sort(
      (a, b) =>
        typeTier(a.profile, nowMs) - typeTier(b.profile, nowMs) || a.lastUsed - b.lastUsed || a.index - b.index,
    );
  }
  unavailable.sort((a, b) => (a.block?.untilMs ?? 0) - (b.block?.untilMs ?? 0) || a.index - b.index);

  const pinnedId = input.pinned === undefined ? undefined : normalizeProfileId(input.pinned.profileId);
  let pin: ProfileOrder['pin'] = 'none';
  if (pinnedId !== undefined) {
    const at = available.findIndex((entry) => entry.id === pinnedId);
    if (at >= 0) {
      const [entry] = available.splice(at, 1);
      if (entry !== undefined) available.unshift(entry);
      pin = 'first';
    } else {
      pin = unavailable.some((entry) => entry.id === pinnedId) ? 'unavailable' : 'ineligible';
    }
  }

  const toOrdered = (entry: Entry): OrderedProfile => ({
    profileId: entry.id,
    profile: entry.profile,
    available: entry.block === undefined,
    ...(entry.block === undefined
      ? {}
      : { unavailableUntilMs: entry.block.untilMs, unavailableReason: entry.block.reason, unavailableLane: entry.block.lane }),
    pinned: pin === 'first' && entry.id === pinnedId,
  });

  return {
    provider,
    source,
    profiles: Object.freeze([...available, ...unavailable].map(toOrdered)),
    ineligible: Object.freeze(ineligible),
    pin,
  };
}
