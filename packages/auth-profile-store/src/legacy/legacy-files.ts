/**
 * Finding and reading the legacy auth files of one agent (docs/configuration.md):
 * - `<agentDir>/auth-profiles.json`: `{ version?, profiles: { <id>: credential }, order?, lastGood?, usageStats? }`
 *   (the older layout kept `usageStats` and `order` here);
 * - `<agentDir>/auth-state.json`: `{ order?, lastGood?, usageStats? }` (routing state, no credentials);
 * - `<agentDir>/auth.json`: `{ <provider>: credential | "<api key>" }` (the profile becomes `<provider>:default`,
 *   or `<provider>:<email>` for an OAuth entry with an email);
 * - `<stateRoot>/credentials/oauth.json`: `{ <provider>: { access, refresh, expires, email? } }`, global; it
 *   belongs to agent `main`, the agent of the older single-agent layout.
 * Reading is tolerant: what cannot be used is reported with its JSON path, never with a secret.
 */
import fs from 'node:fs';
import { DEFAULT_PROFILE_NAME, formatProfileId, isInlineProfileId, normalizeProviderId, parseProfileId } from '@understudy/contracts';
import type { Credential, ProfileId, ProfileUsageStats } from '@understudy/contracts';
import { DEFAULT_AGENT_ID } from '../state-paths.js';
import type { StatePaths } from '../state-paths.js';
import { decodeUsageStats } from '../usage-stats-codec.js';
import type { SkippedField } from '../usage-stats-codec.js';
import { readLegacyCredential } from './legacy-credential.js';

/** Which legacy file. */
export type LegacyFileKind = 'auth-profiles.json' | 'auth-state.json' | 'auth.json' | 'credentials/oauth.json';

/** Something in a legacy file that was not imported, and why. */
export interface LegacySkip {
  readonly file: string;
  /** JSON path inside the file, e.g. `profiles["openai:a"].color`. */
  readonly at: string;
  readonly reason: string;
}

/** A credential found in a legacy file. */
export interface LegacyProfile {
  readonly id: ProfileId;
  readonly credential: Credential;
  readonly file: string;
}

/** What one readable legacy file holds. */
export interface LegacyFileContent {
  readonly kind: LegacyFileKind;
  readonly path: string;
  readonly profiles: readonly LegacyProfile[];
  /** Per-provider orders. */
  readonly orders: Readonly<Record<string, readonly ProfileId[]>>;
  readonly usageStats: Readonly<Record<ProfileId, ProfileUsageStats>>;
  readonly skipped: readonly LegacySkip[];
}

/** One legacy file on disk, as `understudy doctor` reports it. */
export interface LegacyFileStatus {
  readonly kind: LegacyFileKind;
  readonly path: string;
  /** Parsed content, or `undefined` when the file is not valid JSON of the expected shape. */
  readonly content?: LegacyFileContent | undefined;
  /** Why the file could not be read. */
  readonly error?: string | undefined;
  /** True when the agent must not run before the file is imported: it holds credentials or cannot be read. */
  readonly blocking: boolean;
}

/** The legacy files of an agent that exist, in import order (most specific first). */
export function findLegacyAuthFiles(paths: StatePaths): LegacyFileStatus[] {
  const candidates: [LegacyFileKind, string][] = [
    ['auth-profiles.json', paths.legacy.authProfiles],
    ['auth-state.json', paths.legacy.authState],
    ['auth.json', paths.legacy.authJson],
  ];
  if (paths.agentId === DEFAULT_AGENT_ID) candidates.push(['credentials/oauth.json', paths.legacy.oauthJson]);
  return candidates.filter(([, file]) => fs.existsSync(file)).map(([kind, file]) => readLegacyFile(kind, file));
}

/** Reads and parses one legacy file. */
export function readLegacyFile(kind: LegacyFileKind, file: string): LegacyFileStatus {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    const message = error instanceof SyntaxError ? 'not valid JSON' : `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
    return { kind, path: file, error: message, blocking: kind !== 'auth-state.json' };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { kind, path: file, error: 'not a JSON object', blocking: kind !== 'auth-state.json' };
  }
  const content = parseLegacyContent(kind, file, raw as Record<string, unknown>);
  return { kind, path: file, content, blocking: content.profiles.length > 0 };
}

/** Parses the JSON object of a legacy file. */
export function parseLegacyContent(kind: LegacyFileKind, file: string, raw: Record<string, unknown>): LegacyFileContent {
  const collector = new Collector(kind, file);
  switch (kind) {
    case 'auth-profiles.json':
      for (const [field, value] of Object.entries(raw)) {
        if (field === 'profiles') collector.profileMap(value);
        else if (field === 'order') collector.orders(value);
        else if (field === 'usageStats') collector.usageStats(value);
        else if (field === 'lastGood') collector.skip('lastGood', 'not imported: rotation order and session pins replace it');
        else if (field !== 'version') collector.skip(field, 'unknown field');
      }
      break;
    case 'auth-state.json':
      for (const [field, value] of Object.entries(raw)) {
        if (field === 'order') collector.orders(value);
        else if (field === 'usageStats') collector.usageStats(value);
        else if (field === 'lastGood') collector.skip('lastGood', 'not imported: rotation order and session pins replace it');
        else if (field !== 'version') collector.skip(field, 'unknown field');
      }
      break;
    case 'auth.json':
    case 'credentials/oauth.json':
      for (const [provider, value] of Object.entries(raw)) collector.providerEntry(provider, value);
      break;
  }
  return collector.result();
}

/** Accumulates what a legacy file holds. */
class Collector {
  readonly #profiles: LegacyProfile[] = [];
  readonly #orders: Record<string, ProfileId[]> = {};
  readonly #usageStats: Record<ProfileId, ProfileUsageStats> = {};
  readonly #skipped: LegacySkip[] = [];

  constructor(
    readonly kind: LegacyFileKind,
    readonly file: string,
  ) {}

  skip(at: string, reason: string): void {
    this.#skipped.push({ file: this.file, at, reason });
  }

  /** `profiles: { <id>: credential }`. */
  profileMap(value: unknown): void {
    if (!isObject(value)) return this.skip('profiles', 'not an object');
    for (const [rawId, entry] of Object.entries(value)) {
      const at = `profiles[${JSON.stringify(rawId)}]`;
      const parsedId = parseProfileId(rawId);
      const entryProvider = isObject(entry) && typeof entry['provider'] === 'string' ? entry['provider'] : undefined;
      const read = readLegacyCredential(entry, entryProvider ?? parsedId?.provider);
      if (!read.ok) {
        this.skip(at, read.reason);
        continue;
      }
      const provider = read.credential.provider;
      const id = parsedId === undefined ? formatProfileId(provider, rawId) : `${parsedId.provider}:${parsedId.name}`;
      if (parsedId !== undefined && parsedId.provider !== provider) {
        this.skip(at, `the id names provider "${parsedId.provider}" but the entry says "${provider}"`);
        continue;
      }
      this.#add(at, id, read.credential, read.skippedFields);
    }
  }

  /** `auth.json` / `oauth.json`: `{ <provider>: credential }`. */
  providerEntry(providerKey: string, entry: unknown): void {
    const at = JSON.stringify(providerKey);
    const provider = normalizeProviderId(providerKey);
    if (provider === '') return this.skip(at, 'empty provider id');
    const forced = this.kind === 'credentials/oauth.json' && isObject(entry) ? { type: 'oauth', ...entry } : entry;
    const read = readLegacyCredential(forced, provider);
    if (!read.ok) return this.skip(at, read.reason);
    const email = read.credential.type === 'oauth' ? read.credential.email : undefined;
    this.#add(at, formatProfileId(provider, email ?? DEFAULT_PROFILE_NAME), read.credential, read.skippedFields);
  }

  /** `order: { <provider>: [ids] }`. */
  orders(value: unknown): void {
    if (!isObject(value)) return this.skip('order', 'not an object');
    for (const [providerKey, ids] of Object.entries(value)) {
      const at = `order[${JSON.stringify(providerKey)}]`;
      const provider = normalizeProviderId(providerKey);
      if (!Array.isArray(ids)) {
        this.skip(at, 'not a list of profile ids');
        continue;
      }
      const kept: ProfileId[] = [];
      ids.forEach((id, index) => {
        const parsed = typeof id === 'string' ? parseProfileId(id) : undefined;
        if (parsed === undefined) this.skip(`${at}[${index}]`, 'not a profile id');
        else if (parsed.provider !== provider) this.skip(`${at}[${index}]`, `belongs to provider "${parsed.provider}"`);
        else if (!kept.includes(`${parsed.provider}:${parsed.name}`)) kept.push(`${parsed.provider}:${parsed.name}`);
      });
      if (kept.length > 0) this.#orders[provider] = kept;
    }
  }

  /** `usageStats: { <id>: stats }`. */
  usageStats(value: unknown): void {
    if (!isObject(value)) return this.skip('usageStats', 'not an object');
    for (const [rawId, raw] of Object.entries(value)) {
      const at = `usageStats[${JSON.stringify(rawId)}]`;
      const parsed = parseProfileId(rawId);
      if (parsed === undefined) {
        this.skip(at, 'not a profile id');
        continue;
      }
      const decoded = decodeUsageStats(raw);
      for (const skipped of decoded.skipped) this.skip(skipped.field === '' ? at : `${at}.${skipped.field}`, skipped.reason);
      this.#usageStats[`${parsed.provider}:${parsed.name}`] = decoded.stats;
    }
  }

  result(): LegacyFileContent {
    return { kind: this.kind, path: this.file, profiles: this.#profiles, orders: this.#orders, usageStats: this.#usageStats, skipped: this.#skipped };
  }

  #add(at: string, id: ProfileId, credential: Credential, skippedFields: readonly SkippedField[]): void {
    if (isInlineProfileId(id)) return this.skip(at, `"${id}" is reserved for inline config keys`);
    for (const skipped of skippedFields) this.skip(`${at}.${skipped.field}`, skipped.reason);
    this.#profiles.push({ id, credential, file: this.file });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
