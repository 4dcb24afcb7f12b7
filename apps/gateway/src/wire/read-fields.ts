/**
 * Small readers for untrusted request JSON: each names the field path and the fix in its 400, so a client
 * sees exactly what to change (`messages[2].content[0].type: …`).
 */
import { invalidRequest } from '../gateway-error.js';

/** A JSON object (not an array, not null). */
export type JsonRecord = Readonly<Record<string, unknown>>;

/** True for a plain JSON object. */
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as an object. @throws {GatewayError} 400 naming `path`. */
export function requireRecord(value: unknown, path: string): JsonRecord {
  if (!isRecord(value)) throw invalidRequest(`${path}: expected an object`);
  return value;
}

/** An optional string. @throws {GatewayError} 400 when present but not a string. */
export function optionalString(record: JsonRecord, key: string, path: string): string | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidRequest(`${path}.${key}: expected a string`);
  return value;
}

/** A required string. @throws {GatewayError} 400 when absent or not a string. */
export function requireString(record: JsonRecord, key: string, path: string): string {
  const value = optionalString(record, key, path);
  if (value === undefined) throw invalidRequest(`${path}.${key}: required string is missing`);
  return value;
}

/** An optional finite number within bounds. @throws {GatewayError} 400 otherwise. */
export function optionalNumber(
  record: JsonRecord,
  key: string,
  path: string,
  bounds: { readonly min?: number; readonly max?: number; readonly integer?: boolean } = {},
): number | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalidRequest(`${path}.${key}: expected a number`);
  if (bounds.integer === true && !Number.isInteger(value)) throw invalidRequest(`${path}.${key}: expected an integer`);
  if (bounds.min !== undefined && value < bounds.min) throw invalidRequest(`${path}.${key}: must be at least ${bounds.min}`);
  if (bounds.max !== undefined && value > bounds.max) throw invalidRequest(`${path}.${key}: must be at most ${bounds.max}`);
  return value;
}

/** An optional boolean. @throws {GatewayError} 400 when present but not a boolean. */
export function optionalBoolean(record: JsonRecord, key: string, path: string): boolean | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalidRequest(`${path}.${key}: expected true or false`);
  return value;
}

/** A stop list: one string or an array of strings. */
export function optionalStringList(record: JsonRecord, key: string, path: string): string[] | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((entry) => typeof entry === 'string')) return [...(value as string[])];
  throw invalidRequest(`${path}.${key}: expected a string or an array of strings`);
}

/**
 * The body extension `understudy: { fallbacks: [...] }` (the caller's `fallbacksOverride`), shared by both
 * formats. @throws {GatewayError} 400 for a malformed extension.
 */
export function readUnderstudyExtension(body: JsonRecord): { readonly fallbacks: readonly string[] | undefined } {
  const extension = body['understudy'];
  if (extension === undefined || extension === null) return { fallbacks: undefined };
  if (!isRecord(extension)) throw invalidRequest('understudy: expected an object such as { "fallbacks": ["anthropic/claude-sonnet-4-5"] }');
  for (const key of Object.keys(extension)) {
    if (key !== 'fallbacks') throw invalidRequest(`understudy.${key}: unknown field; the extension accepts only "fallbacks"`);
  }
  const fallbacks = extension['fallbacks'];
  if (fallbacks === undefined || fallbacks === null) return { fallbacks: undefined };
  if (!Array.isArray(fallbacks) || !fallbacks.every((entry) => typeof entry === 'string' && entry.trim() !== '')) {
    throw invalidRequest('understudy.fallbacks: expected an array of "provider/model" strings or aliases ([] disables fallback)');
  }
  return { fallbacks: fallbacks.map((entry: string) => entry.trim()) };
}

/** The `model` field, trimmed, `undefined` when absent or blank. */
export function readModelField(body: JsonRecord): string | undefined {
  const value = body['model'];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidRequest('model: expected a string such as "default" or "openai/gpt-4o"', 'invalid_model');
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}
