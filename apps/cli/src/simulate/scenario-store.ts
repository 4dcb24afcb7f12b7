/**
 * The store of a simulation: a real auth-profile store (SQLite) in a temporary state root, seeded with the
 * scenario's profiles (placeholder credentials of their type), initial usage stats and session, and removed
 * afterwards.
 *
 * The store refuses to hold a credential without a secret (a blank key, an OAuth profile without tokens), yet a
 * scenario may describe one to check the eligibility rules. Such profiles are kept beside the store and merged
 * into what it reports for their provider; their usage stats still live in the store.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AuthProfileStore } from '@understudy/auth-profile-store';
import { openAuthProfileStore } from '@understudy/auth-profile-store';
import type { UnderstudyConfig } from '@understudy/config';
import { inlineKeysOf } from '@understudy/config';
import type {
  AuthProfileView,
  AuthStorePort,
  Credential,
  ProfileId,
  ProfileUsageStats,
  ProviderAuthState,
  SessionEntry,
  SessionPatch,
  SessionWriteResult,
  UsageStatsTransition,
} from '@understudy/contracts';
import {
  Secret,
  credentialFacts,
  normalizeProfileId,
  normalizeProviderId,
  parseModelRef,
  parseProfileId,
  providerOfProfileId,
  qualifyProfileId,
} from '@understudy/contracts';
import { ScenarioFieldError } from './scenario-load.js';
import type { ScenarioProfile, ScenarioSession } from './scenario-schema.js';

/** The placeholder credential of a scenario profile: a valid one of its type unless the scenario says otherwise. */
function placeholderCredential(profile: ScenarioProfile, provider: string): Credential {
  const secret = (value: string | null | undefined, fallback: string): Secret | undefined =>
    value === null ? undefined : new Secret(value ?? fallback);
  const placeholder = `sim-${profile.type}-${profile.id}`;
  const expires = profile.expires ?? undefined;
  switch (profile.type) {
    case 'api_key':
      return { type: 'api_key', provider, key: new Secret(profile.key === null ? '' : (profile.key ?? placeholder)) };
    case 'token':
      return { type: 'token', provider, token: secret(profile.token, placeholder) ?? new Secret(''), ...(expires === undefined ? {} : { expires }) };
    case 'oauth': {
      const access = secret(profile.access, `${placeholder}-access`);
      const refresh = secret(profile.refresh, `${placeholder}-refresh`);
      return {
        type: 'oauth',
        provider,
        ...(access === undefined ? {} : { access }),
        ...(refresh === undefined ? {} : { refresh }),
        ...(expires === undefined ? {} : { expires }),
        ...(profile.email === undefined ? {} : { email: profile.email }),
        ...(profile.projectId === undefined ? {} : { projectId: profile.projectId }),
        ...(profile.enterpriseUrl === undefined ? {} : { enterpriseUrl: profile.enterpriseUrl }),
      };
    }
  }
}

function storable(credential: Credential): boolean {
  const facts = credentialFacts(credential);
  return facts.hasSecret || facts.hasRefresh;
}

/** The store port of a simulation: the real store plus the profiles it cannot hold. */
class ScenarioStorePort implements AuthStorePort {
  readonly #store: AuthProfileStore;
  readonly #unstorable: ReadonlyMap<ProfileId, { readonly view: AuthProfileView; readonly credential: Credential }>;

  constructor(store: AuthProfileStore, unstorable: ReadonlyMap<ProfileId, { readonly view: AuthProfileView; readonly credential: Credential }>) {
    this.#store = store;
    this.#unstorable = unstorable;
  }

  async loadProviderAuthState(provider: string): Promise<ProviderAuthState> {
    const state = await this.#store.loadProviderAuthState(provider);
    const extra = [...this.#unstorable.values()].filter((entry) => entry.view.provider === state.provider).map((entry) => entry.view);
    return extra.length === 0 ? state : { ...state, profiles: [...state.profiles, ...extra] };
  }

  async resolveCredential(profileId: ProfileId): Promise<Credential | undefined> {
    return this.#unstorable.get(normalizeProfileId(profileId))?.credential ?? this.#store.resolveCredential(profileId);
  }

  updateUsageStats(profileId: ProfileId, transition: UsageStatsTransition): Promise<ProfileUsageStats> {
    return this.#store.updateUsageStats(profileId, transition);
  }

  tryAcquireProbe(key: string, nowMs: number, throttleMs: number): Promise<boolean> {
    return this.#store.tryAcquireProbe(key, nowMs, throttleMs);
  }

  releaseProbe(key: string, takenAtMs: number): Promise<void> {
    return this.#store.releaseProbe(key, takenAtMs);
  }

  tryAcquireRefreshLock(profileId: ProfileId, holder: string, nowMs: number, leaseMs: number): Promise<boolean> {
    return this.#store.tryAcquireRefreshLock(profileId, holder, nowMs, leaseMs);
  }

  releaseRefreshLock(profileId: ProfileId, holder: string): Promise<void> {
    return this.#store.releaseRefreshLock(profileId, holder);
  }

  getSession(key: string): Promise<SessionEntry | undefined> {
    return this.#store.getSession(key);
  }

  writeSession(key: string, expectedRevision: number | null, patch: SessionPatch, nowMs: number): Promise<SessionWriteResult> {
    return this.#store.writeSession(key, expectedRevision, patch, nowMs);
  }
}

/** A seeded simulation store. */
export interface ScenarioStore {
  /** What the runner uses. */
  readonly port: AuthStorePort;
  /** The real store, for reading the final state. */
  readonly store: AuthProfileStore;
  /** Scenario profile ids, in scenario order. */
  readonly profileIds: readonly ProfileId[];
  /** Closes the store and removes the temporary state root. */
  dispose(): Promise<void>;
}

/** The session patch of the scenario's initial session. */
function initialSessionPatch(session: ScenarioSession, nowMs: number): SessionPatch {
  const { pendingLiveSwitch, fallbackNotice, ...fields } = session;
  const patch: Record<string, unknown> = {};
  for (const key of [
    'providerOverride',
    'modelOverride',
    'modelOverrideSource',
    'modelOverrideOrigin',
    'authProfileOverride',
    'authProfileOverrideSource',
    'authProfileOverrideCompactionCount',
    'compactionCount',
    'chatType',
    'lastOriginProbeAt',
  ] as const) {
    if (fields[key] !== undefined) patch[key] = fields[key];
  }
  if (fallbackNotice !== undefined) {
    patch['fallbackNotice'] = { selected: fallbackNotice.selected, active: fallbackNotice.active, reason: fallbackNotice.reason, since: fallbackNotice.since ?? nowMs };
  }
  if (pendingLiveSwitch !== undefined) {
    const ref = pendingLiveSwitch.ref !== undefined ? parseModelRef(pendingLiveSwitch.ref) : pendingLiveSwitch;
    if (ref !== undefined) {
      patch['pendingLiveSwitch'] = {
        provider: normalizeProviderId(ref.provider),
        model: ref.model,
        ...(pendingLiveSwitch.authProfile === undefined ? {} : { authProfile: pendingLiveSwitch.authProfile }),
        requestedAt: pendingLiveSwitch.requestedAt ?? nowMs,
      };
    }
  }
  return patch as SessionPatch;
}

const USAGE_FIELDS = [
  'lastUsed',
  'cooldownUntil',
  'cooldownModel',
  'cooldownReason',
  'cooldownNamed',
  'errorCount',
  'disabledUntil',
  'disabledReason',
  'failureCounts',
  'lastFailureAt',
  'lastProbeAt',
] as const;

/**
 * Opens a store in a fresh temporary state root and seeds it.
 *
 * @param options.nowMs - the simulated clock (store stamps).
 */
export async function openScenarioStore(options: {
  readonly agentId: string;
  readonly config: UnderstudyConfig;
  readonly profiles: readonly ScenarioProfile[];
  readonly usageStats: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly session?: { readonly key: string; readonly fields: ScenarioSession } | undefined;
  readonly nowMs: () => number;
}): Promise<ScenarioStore> {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-simulate-'));
  const remove = (): void => fs.rmSync(stateDir, { recursive: true, force: true });
  let store: AuthProfileStore | undefined;
  try {
    store = await openAuthProfileStore({ stateDir, agentId: options.agentId, inlineProfiles: inlineKeysOf(options.config), nowMs: options.nowMs, legacyFiles: 'ignore' });
    const unstorable = new Map<ProfileId, { view: AuthProfileView; credential: Credential }>();
    const profileIds: ProfileId[] = [];
    for (const profile of options.profiles) {
      const provider = normalizeProviderId(profile.provider ?? providerOfProfileId(profile.id) ?? '');
      const id = qualifyProfileId(provider, profile.id);
      const credential = placeholderCredential(profile, provider);
      const earlier = profileIds.indexOf(id);
      if (earlier !== -1) throw new ScenarioFieldError(`profiles[${profileIds.length}].id`, `"${id}" is already profiles[${earlier}]: list each auth profile once`);
      profileIds.push(id);
      if (storable(credential)) {
        try {
          await store.upsertProfile({ id, credential });
        } catch (error) {
          throw new ScenarioFieldError(`profiles[${profileIds.length - 1}]`, error instanceof Error ? error.message : String(error), error);
        }
      } else {
        unstorable.set(id, {
          view: { id, provider, facts: credentialFacts(credential), source: 'store', ...(profile.email === undefined ? {} : { email: profile.email }) },
          credential,
        });
      }
    }
    for (const [rawId, raw] of Object.entries(options.usageStats)) {
      const stats: Record<string, unknown> = {};
      for (const field of USAGE_FIELDS) if (raw[field] !== undefined) stats[field] = raw[field];
      const id = parseProfileId(rawId) === undefined ? profileIds.find((known) => known.slice(known.indexOf(':') + 1) === rawId.trim()) : normalizeProfileId(rawId);
      if (id === undefined) throw new ScenarioFieldError(`usageStats.${rawId}`, 'not an auth profile id ("provider:name") nor the name of a scenario profile');
      await store.updateUsageStats(id, () => stats as ProfileUsageStats);
    }
    if (options.session !== undefined) {
      await store.writeSession(options.session.key, null, initialSessionPatch(options.session.fields, options.nowMs()), options.nowMs());
    }
    const opened = store;
    return {
      port: new ScenarioStorePort(opened, unstorable),
      store: opened,
      profileIds,
      dispose: async () => {
        await opened.close();
        remove();
      },
    };
  } catch (error) {
    await store?.close();
    remove();
    throw error;
  }
}
