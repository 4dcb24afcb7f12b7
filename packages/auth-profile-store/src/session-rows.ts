/**
 * Session entries ↔ `sessions` rows. Scalar fields are columns; the fallback notice state and the pending live
 * switch are JSON. A patch sets a field (value), clears it (`null`) or leaves it alone (absent).
 */
import type { SessionEntry, SessionFields, SessionPatch } from '@understudy/contracts';
import type { SessionsTable } from './schema.js';

type FieldColumns = Omit<SessionsTable, 'key' | 'revision' | 'created_at' | 'updated_at'>;

interface FieldMapping {
  readonly column: keyof FieldColumns;
  readonly json?: true;
}

/** Where each session field is stored. */
const FIELD_COLUMNS: { readonly [K in keyof Required<SessionFields>]: FieldMapping } = {
  providerOverride: { column: 'provider_override' },
  modelOverride: { column: 'model_override' },
  modelOverrideSource: { column: 'model_override_source' },
  modelOverrideOrigin: { column: 'model_override_origin' },
  authProfileOverride: { column: 'auth_profile_override' },
  authProfileOverrideSource: { column: 'auth_profile_override_source' },
  authProfileOverrideCompactionCount: { column: 'auth_profile_override_compaction_count' },
  compactionCount: { column: 'compaction_count' },
  chatType: { column: 'chat_type' },
  fallbackNotice: { column: 'fallback_notice', json: true },
  pendingLiveSwitch: { column: 'pending_live_switch', json: true },
  lastOriginProbeAt: { column: 'last_origin_probe_at' },
};

/** Every session field name. */
export const SESSION_FIELD_NAMES = Object.freeze(Object.keys(FIELD_COLUMNS)) as readonly (keyof SessionFields)[];

/** Every column of `sessions`, `key` first (for SQL written once). */
export const SESSION_COLUMN_NAMES: readonly (keyof SessionsTable)[] = Object.freeze([
  'key',
  'revision',
  'created_at',
  'updated_at',
  ...SESSION_FIELD_NAMES.map((field) => FIELD_COLUMNS[field].column),
]);

/** The entry a row stands for; null columns are absent fields. */
export function sessionFromRow(row: SessionsTable): SessionEntry {
  const entry: Record<string, unknown> = {
    key: row.key,
    revision: row.revision,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  for (const field of SESSION_FIELD_NAMES) {
    const mapping = FIELD_COLUMNS[field];
    const value = row[mapping.column];
    const decoded = value === null ? undefined : mapping.json === true ? parseJson(value) : value;
    if (decoded !== undefined) entry[field] = decoded;
  }
  return entry as unknown as SessionEntry;
}

/** Column values of a row after applying `patch` to `current` (all fields null when there is no row yet). */
export function applySessionPatch(current: SessionsTable | undefined, patch: SessionPatch): FieldColumns {
  const columns: Record<string, string | number | null> = {};
  for (const field of SESSION_FIELD_NAMES) {
    const mapping = FIELD_COLUMNS[field];
    const existing = current === undefined ? null : current[mapping.column];
    if (!Object.hasOwn(patch, field) || patch[field] === undefined) {
      columns[mapping.column] = existing;
      continue;
    }
    const value = patch[field];
    columns[mapping.column] = value === null ? null : mapping.json === true ? JSON.stringify(value) : (value as string | number);
  }
  return columns as unknown as FieldColumns;
}

/**
 * The compare-and-set step of a session write, the same in every store (docs/architecture.md, the store port):
 * given the stored row (`undefined`: none yet) and the revision the writer read (`null`: it read no row), either the
 * conflict with the entry as stored now, or the next row — revision + 1, `created_at` kept, `updated_at` = `nowMs`
 * (epoch ms), `patch` applied. The store writes the row inside the transaction that read `current`.
 */
export function nextSessionRow(
  key: string,
  current: SessionsTable | undefined,
  expectedRevision: number | null,
  patch: SessionPatch,
  nowMs: number,
): { readonly ok: false; readonly current: SessionEntry | undefined } | { readonly ok: true; readonly row: SessionsTable } {
  if ((current?.revision ?? null) !== expectedRevision) {
    return { ok: false, current: current === undefined ? undefined : sessionFromRow(current) };
  }
  return {
    ok: true,
    row: { key, revision: (current?.revision ?? 0) + 1, created_at: current?.created_at ?? nowMs, updated_at: nowMs, ...applySessionPatch(current, patch) },
  };
}

/** Column values with every field cleared except `keep`. */
export function resetSessionColumns(current: SessionsTable, keep: readonly (keyof SessionFields)[]): FieldColumns {
  const columns: Record<string, string | number | null> = {};
  for (const field of SESSION_FIELD_NAMES) {
    const column = FIELD_COLUMNS[field].column;
    columns[column] = keep.includes(field) ? current[column] : null;
  }
  return columns as unknown as FieldColumns;
}

function parseJson(value: string | number): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}
