/**
 * One input line of `understudy classify` (docs/contracts.md#classify) → a {@link ProviderFailure}, or a clear error naming
 * the field and the fix. Fields the contract does not know (`id`, `expect`, `why` …) are ignored. Obvious
 * spellings are accepted rather than rejected: a numeric-string status, numeric header values and codes, a
 * parsed JSON object as `body`, a single string as `details`.
 */
import type { FailurePhase, ProviderFailure } from '@understudy/contracts';
import { TIMEOUT_CODES } from '@understudy/contracts';

/** A parsed input line. */
export type ClassifyInput =
  | { readonly kind: 'failure'; readonly failure: ProviderFailure; readonly label: string | null }
  | { readonly kind: 'invalid'; readonly error: string };

/** Options applied to every line. */
export interface ClassifyInputDefaults {
  /** Provider for lines that carry none (`--provider`). */
  readonly provider?: string | undefined;
}

class FieldError extends Error {}

const PHASES: ReadonlySet<string> = new Set<FailurePhase>(['connect', 'headers', 'body', 'stream']);
/** The timeout kinds the providers report: the keys of the one list of timeout codes. */
const TIMEOUT_KINDS: ReadonlySet<string> = new Set(Object.keys(TIMEOUT_CODES));

/** JSON text of a parsed value; a value nested too deeply to write back is the field's error, not the run's. */
function jsonText(value: unknown, field: string): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    throw new FieldError(`"${field}" is nested too deeply to read: send it as a string`);
  }
}

function optionalString(record: Record<string, unknown>, field: string, { allowNumber = false, allowJson = false } = {}): string | undefined {
  const value = record[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (allowNumber && typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (allowJson && typeof value === 'object') return jsonText(value, field);
  throw new FieldError(`"${field}" must be a string${allowNumber ? ' or a number' : ''}, got ${describe(value)}`);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'number' && !Number.isFinite(value)) return `number ${String(value)}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}

function statusOf(record: Record<string, unknown>): number | null | undefined {
  const value = record['status'];
  if (value === undefined || value === null) return value as null | undefined;
  // Like the numeric-string spelling: a whole number of up to three digits (0 is what some SDKs report for no response).
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 999) return value;
  if (typeof value === 'string' && /^\s*\d{1,3}\s*$/.test(value)) return Number(value);
  throw new FieldError(`"status" must be a whole number from 0 to 999 or null (an HTTP status such as 429), got ${describe(value)}`);
}

function headersOf(record: Record<string, unknown>): Record<string, string> | undefined {
  const value = record['headers'];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new FieldError(`"headers" must be an object of header names to string values, got ${describe(value)}`);
  }
  const headers: Record<string, string> = {};
  for (const [name, headerValue] of Object.entries(value as Record<string, unknown>)) {
    if (typeof headerValue === 'string') headers[name] = headerValue;
    else if (typeof headerValue === 'number' && Number.isFinite(headerValue)) headers[name] = String(headerValue);
    else throw new FieldError(`"headers.${name}" must be a string, got ${describe(headerValue)}`);
  }
  return headers;
}

function detailsOf(record: Record<string, unknown>): string[] | undefined {
  const value = record['details'];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) throw new FieldError(`"details" must be an array of strings, got ${describe(value)}`);
  return value.map((detail, index) => (typeof detail === 'string' ? detail : jsonText(detail, `details[${index}]`)));
}

/** Fields of {@link ProviderFailure} beyond docs/contracts.md#classify: kept when valid, ignored otherwise. */
function transportFacts(record: Record<string, unknown>): Partial<Record<'phase' | 'abortCause' | 'timeoutKind' | 'outputStarted', unknown>> {
  const facts: Partial<Record<'phase' | 'abortCause' | 'timeoutKind' | 'outputStarted', unknown>> = {};
  if (typeof record['phase'] === 'string' && PHASES.has(record['phase'])) facts.phase = record['phase'];
  if (record['abortCause'] === 'user' || record['abortCause'] === 'timeout') facts.abortCause = record['abortCause'];
  if (typeof record['timeoutKind'] === 'string' && TIMEOUT_KINDS.has(record['timeoutKind'])) facts.timeoutKind = record['timeoutKind'];
  if (typeof record['outputStarted'] === 'boolean') facts.outputStarted = record['outputStarted'];
  return facts;
}

/**
 * Parses one input line. A blank line (empty or white space only) is invalid like any other text that is not a JSON
 * object: the contract answers every input line in its place (docs/contracts.md#classify).
 *
 * @example parseClassifyLine('{"status":429}', {}) // { kind: 'failure', failure: { status: 429 }, label: null }
 * @example parseClassifyLine('{oops', {}).kind // 'invalid'
 * @example parseClassifyLine('  ', {}).kind // 'invalid'
 */
export function parseClassifyLine(text: string, defaults: ClassifyInputDefaults): ClassifyInput {
  if (text.trim() === '') return { kind: 'invalid', error: 'blank line: expected one JSON object (one provider failure) per line; remove the blank line' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'invalid', error: `invalid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { kind: 'invalid', error: `expected a JSON object (one provider failure per line), got ${describe(value)}` };
  }
  const record = value as Record<string, unknown>;
  try {
    const provider = optionalString(record, 'provider') ?? defaults.provider;
    const failure: ProviderFailure = {
      ...(provider === undefined ? {} : { provider }),
      ...definedEntries({
        model: optionalString(record, 'model'),
        status: statusOf(record),
        headers: headersOf(record),
        body: optionalString(record, 'body', { allowJson: true }),
        message: optionalString(record, 'message'),
        code: optionalString(record, 'code', { allowNumber: true }),
        errorType: optionalString(record, 'errorType'),
        details: detailsOf(record),
      }),
      ...(transportFacts(record) as Partial<ProviderFailure>),
    };
    const id = record['id'];
    return { kind: 'failure', failure, label: typeof id === 'string' || typeof id === 'number' ? String(id) : null };
  } catch (error) {
    if (error instanceof FieldError) return { kind: 'invalid', error: error.message };
    throw error;
  }
}

function definedEntries<T extends Record<string, unknown>>(entries: T): Partial<T> {
  return Object.fromEntries(Object.entries(entries).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
