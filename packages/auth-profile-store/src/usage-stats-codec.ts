/**
 * Usage stats as stored: the JSON of `ProfileUsageStats`, persisted as the cooldown scheduler returns it. Reading
 * is tolerant (legacy imports and older rows): known fields of the right type are kept, anything else is
 * reported and dropped.
 */
import { isFailoverReason } from '@understudy/contracts';
import type { FailoverReason, ProfileUsageStats } from '@understudy/contracts';

/** A field that was not kept. `field` is a dotted path inside the value. */
export interface SkippedField {
  readonly field: string;
  readonly reason: string;
}

/** Result of reading stored or legacy usage stats. */
export interface DecodedUsageStats {
  readonly stats: ProfileUsageStats;
  /** Fields that were dropped, and why. */
  readonly skipped: readonly SkippedField[];
}

const TIMESTAMP_FIELDS = ['lastUsed', 'cooldownUntil', 'disabledUntil', 'lastFailureAt', 'lastProbeAt'] as const;
const REASON_FIELDS = ['cooldownReason', 'disabledReason'] as const;

/**
 * Keeps the known fields of a usage-stats value with the right types.
 *
 * @example decodeUsageStats({ errorCount: 2, color: 'red' }) // { stats: { errorCount: 2 }, skipped: [{ field: 'color', reason: 'unknown field' }] }
 */
export function decodeUsageStats(raw: unknown): DecodedUsageStats {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { stats: {}, skipped: [{ field: '', reason: 'not an object' }] };
  }
  const input = raw as Record<string, unknown>;
  const stats: Record<string, unknown> = {};
  const skipped: SkippedField[] = [];
  for (const [field, value] of Object.entries(input)) {
    if (value === undefined || value === null) continue;
    if ((TIMESTAMP_FIELDS as readonly string[]).includes(field)) {
      if (isFiniteNumber(value)) stats[field] = value;
      else skipped.push({ field, reason: 'not a number' });
    } else if (field === 'errorCount') {
      if (isFiniteNumber(value) && value >= 0) stats[field] = Math.trunc(value);
      else skipped.push({ field, reason: 'not a count' });
    } else if ((REASON_FIELDS as readonly string[]).includes(field)) {
      if (isFailoverReason(value)) stats[field] = value;
      else skipped.push({ field, reason: `unknown failover reason ${JSON.stringify(value)}` });
    } else if (field === 'cooldownModel') {
      if (typeof value === 'string' && value.trim() !== '') stats[field] = value;
      else skipped.push({ field, reason: 'not a model id' });
    } else if (field === 'cooldownNamed') {
      if (typeof value === 'boolean') stats[field] = value;
      else skipped.push({ field, reason: 'not a boolean' });
    } else if (field === 'failureCounts') {
      const counts = decodeFailureCounts(value, skipped);
      if (counts !== undefined) stats[field] = counts;
    } else {
      skipped.push({ field, reason: 'unknown field' });
    }
  }
  return { stats: stats as ProfileUsageStats, skipped };
}

/**
 * Reads a stored `usage_stats.stats` column as it was written (the store persists transition results as-is);
 * a value that is not a JSON object reads as empty stats.
 */
export function parseStoredUsageStats(text: string): ProfileUsageStats {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as ProfileUsageStats) : {};
  } catch {
    return {};
  }
}

/** JSON of usage stats for the `usage_stats.stats` column (undefined fields dropped). */
export function serializeUsageStats(stats: ProfileUsageStats): string {
  return JSON.stringify(stats);
}

function decodeFailureCounts(
  value: unknown,
  skipped: SkippedField[],
): Partial<Record<FailoverReason, number>> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    skipped.push({ field: 'failureCounts', reason: 'not an object' });
    return undefined;
  }
  const counts: Partial<Record<FailoverReason, number>> = {};
  for (const [reason, count] of Object.entries(value as Record<string, unknown>)) {
    if (!isFailoverReason(reason)) skipped.push({ field: `failureCounts.${reason}`, reason: 'unknown failover reason' });
    else if (!isFiniteNumber(count) || count < 0) skipped.push({ field: `failureCounts.${reason}`, reason: 'not a count' });
    else counts[reason] = Math.trunc(count);
  }
  return counts;
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
