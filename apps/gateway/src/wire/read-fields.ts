/**
 * Small readers for untrusted request JSON: each names the field path and the fix in its 400, so a client
 * sees exactly what to change (`messages[2].content[0].type: …`), and sends the path as OpenAI's `param`
 * (docs/wire-mapping.md#errors). A path is written from the body's root (`''` is the body itself).
 */
import type { GatewayError, GatewayErrorCode } from '../gateway-error.js';
import { invalidRequest } from '../gateway-error.js';
import { formatPath } from './untrusted.js';

/** A JSON object (not an array, not null). */
export type JsonRecord = Readonly<Record<string, unknown>>;

/** True for a plain JSON object. */
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The path of `key` inside the value at `path` (`''`: the body itself). A key that is not a plain name (it came
 * from the client) is quoted and cut as {@link formatPath} does.
 *
 * @example fieldPath('', 'temperature') // 'temperature'
 * @example fieldPath('tools[0].function', 'name') // 'tools[0].function.name'
 */
export function fieldPath(path: string, key: string): string {
  const shown = formatPath([key]);
  if (path === '') return shown;
  return shown.startsWith('[') ? `${path}${shown}` : `${path}.${shown}`;
}

/**
 * The 400 about one body field: the message is `<field>: <problem>` and `param` is `field`, so the two cannot
 * disagree. `problem` says what is wrong and the fix; it never quotes the field's value beyond
 * `describeValue` (untrusted.ts).
 *
 * @example fieldError('messages', 'required, a non-empty array of { role, content }', 'missing_messages')
 */
export function fieldError(field: string, problem: string, code: GatewayErrorCode = 'invalid_request'): GatewayError {
  return invalidRequest(`${field}: ${problem}`, code, field);
}

/** The value as an object. @throws {GatewayError} 400 naming `path`. */
export function requireRecord(value: unknown, path: string): JsonRecord {
  if (!isRecord(value)) throw fieldError(path, 'expected an object');
  return value;
}

/** An optional string. @throws {GatewayError} 400 when present but not a string. */
export function optionalString(record: JsonRecord, key: string, path: string): string | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw fieldError(fieldPath(path, key), 'expected a string');
  return value;
}

/** A required string. @throws {GatewayError} 400 when absent or not a string. */
export function requireString(record: JsonRecord, key: string, path: string): string {
  const value = optionalString(record, key, path);
  if (value === undefined) throw fieldError(fieldPath(path, key), 'required string is missing');
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
  const field = fieldPath(path, key);
  if (typeof value !== 'number' || !Number.isFinite(value)) throw fieldError(field, 'expected a number');
  if (bounds.integer === true && !Number.isInteger(value)) throw fieldError(field, 'expected an integer');
  if (bounds.min !== undefined && value < bounds.min) throw fieldError(field, `must be at least ${bounds.min}`);
  if (bounds.max !== undefined && value > bounds.max) throw fieldError(field, `must be at most ${bounds.max}`);
  return value;
}

/** An optional boolean. @throws {GatewayError} 400 when present but not a boolean. */
export function optionalBoolean(record: JsonRecord, key: string, path: string): boolean | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw fieldError(fieldPath(path, key), 'expected true or false');
  return value;
}

/** A stop list: one string or an array of strings. @throws {GatewayError} 400 for anything else. */
export function optionalStringList(record: JsonRecord, key: string, path: string): string[] | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((entry) => typeof entry === 'string')) return [...(value as string[])];
  throw fieldError(fieldPath(path, key), 'expected a string or an array of strings');
}

/**
 * The body extension `understudy: { fallbacks: [...] }` (the caller's `fallbacksOverride`), shared by both
 * formats. @throws {GatewayError} 400 for a malformed extension.
 */
export function readUnderstudyExtension(body: JsonRecord): { readonly fallbacks: readonly string[] | undefined } {
  const extension = body['understudy'];
  if (extension === undefined || extension === null) return { fallbacks: undefined };
  if (!isRecord(extension)) throw fieldError('understudy', 'expected an object such as { "fallbacks": ["anthropic/claude-sonnet-4-5"] }');
  for (const key of Object.keys(extension)) {
    if (key !== 'fallbacks') throw fieldError(fieldPath('understudy', key), 'unknown field; the extension accepts only "fallbacks"');
  }
  const fallbacks = extension['fallbacks'];
  if (fallbacks === undefined || fallbacks === null) return { fallbacks: undefined };
  if (!Array.isArray(fallbacks) || !fallbacks.every((entry) => typeof entry === 'string' && entry.trim() !== '')) {
    throw fieldError('understudy.fallbacks', 'expected an array of "provider/model" strings or aliases ([] disables fallback)');
  }
  return { fallbacks: fallbacks.map((entry: string) => entry.trim()) };
}

/** True when `text` holds a C0 or C1 control character or DEL (U+0000–U+001F, U+007F–U+009F). */
function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code <= 0x1f || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

/**
 * The longest `model` accepted, characters. Model ids are far shorter; the name is echoed in the
 * `x-understudy-model` header, which clients cap (undici refuses headers over 16 KiB in all).
 */
const MAX_MODEL_LENGTH = 256;

/** What a `model` field may name, for its 400s. */
const MODEL_NAMES = 'name "default", an agent id, a configured alias or "provider/model" (GET /v1/models lists them)';

/**
 * The `model` field as sent: never trimmed, as the OpenAI and Anthropic APIs do not trim it (`" default "` is
 * no name of `default`, docs/contracts.md#gateway). `undefined` when absent or null: the agent's configured chain
 * runs, as for `default`.
 *
 * @throws {GatewayError} 400 `invalid_model` (`param: "model"`) when it is not a string, is empty, is only
 *   whitespace, is longer than 256 characters, or holds a control character inside it (no model id has one;
 *   surrounding whitespace gets the lookup's 404 instead).
 * @example readModelField({ model: 'default' }) // 'default'
 * @example readModelField({ model: '' }) // throws 400 "model: must not be empty; name \"default\", …"
 */
export function readModelField(body: JsonRecord): string | undefined {
  const value = body['model'];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw fieldError('model', 'expected a string such as "default" or "openai/gpt-4o"', 'invalid_model');
  if (value === '') throw fieldError('model', `must not be empty; ${MODEL_NAMES}, or leave the field out for "default"`, 'invalid_model');
  if (value.trim() === '') throw fieldError('model', `must not be only whitespace; ${MODEL_NAMES}, or leave the field out for "default"`, 'invalid_model');
  // Surrounding whitespace (a tab, a newline) is left to the lookup, whose 404 says to drop it.
  const characters = [...value].length;
  if (characters > MAX_MODEL_LENGTH) throw fieldError('model', `at most ${MAX_MODEL_LENGTH} characters (this one has ${characters}); ${MODEL_NAMES}`, 'invalid_model');
  if (hasControlCharacter(value.trim())) throw fieldError('model', `must not contain control characters (U+0000–U+001F, U+007F–U+009F); ${MODEL_NAMES}`, 'invalid_model');
  return value;
}
