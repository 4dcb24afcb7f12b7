/**
 * Retry-After, parsed once at the edge (the model-failover doc "SDK retry-after caps"): how long the provider asked
 * us to wait, in milliseconds. Capping the wait is policy and lives elsewhere; this only reads what was said.
 *
 * Sources, strongest first:
 * 1. headers: `retry-after-ms` (milliseconds), then `retry-after` (seconds, or an HTTP-date relative to `nowMs`);
 * 2. structured body fields: Gemini `"retryDelay": "20s"`, `retry_after` (s), `retry_after_ms`,
 *    `resets_in_seconds`, `resets_at` (epoch s or ms);
 * 3. phrases: "Please try again in 174ms", "try again in 1m30s", "retry after 20s", "Retry-After: 30",
 *    "resets in 3h 12m";
 * 4. reset times with a zone: "resets at 2026-09-09T05:38:28Z", "Access resets at 10:57 PM GMT-3". A reset
 *    time without a zone is unusable (it could be any zone), so it gives nothing.
 *
 * Date-based hints need `nowMs`; without it they give nothing. Times in the past give 0.
 */


/** Everything a Retry-After can be read from. */
export interface RetryAfterSources {
  /** Response headers; names are matched case-insensitively. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Body text, SDK message, detail strings (already flattened or raw; both work). */
  readonly texts?: readonly string[] | undefined;
  /** Epoch ms that dates are measured from. Without it, date hints are ignored. */
  readonly nowMs?: number | undefined;
}

const UNIT = '(?:milliseconds?|millis|msecs?|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d)(?![a-z])';
const PART = `\\d{1,9}(?:\\.\\d{1,9})?\\s?${UNIT}`;
const DURATION = `${PART}(?:(?:\\s|,\\s?|\\sand\\s)?${PART}){0,3}`;
const DURATION_PART = new RegExp(`(\\d{1,9}(?:\\.\\d{1,9})?)\\s?(${UNIT})`, 'gi');

function unitMs(unit: string): number {
  const lower = unit.toLowerCase();
  if (lower.startsWith('mil') || lower.startsWith('ms')) return 1;
  if (lower.startsWith('m')) return 60_000;
  if (lower.startsWith('h')) return 3_600_000;
  if (lower.startsWith('d')) return 86_400_000;
  return 1000;
}

/**
 * Milliseconds of a duration text such as `174ms`, `1m30s`, `6m0s`, `2.5 seconds`, `1 hour and 30 minutes`;
 * `null` when nothing parses.
 *
 * @example parseDurationMs('1m30s') // 90000
 */
export function parseDurationMs(text: string): number | null {
  let total = 0;
  let found = false;
  DURATION_PART.lastIndex = 0;
  for (let match = DURATION_PART.exec(text); match !== null; match = DURATION_PART.exec(text)) {
    const amount = Number(match[1]);
    const unit = match[2] ?? 's';
    if (!Number.isFinite(amount)) continue;
    total += amount * unitMs(unit);
    found = true;
  }
  return found ? Math.ceil(total) : null;
}

const NUMERIC_SECONDS = /^\s{0,8}(\d{1,12}(?:\.\d{1,9})?)\s{0,8}$/;

function finiteNonNegative(value: number): number | null {
  return Number.isFinite(value) && value >= 0 ? Math.ceil(value) : null;
}

/**
 * One `retry-after` header value: delta-seconds (`"20"`, `"1.5"`) or an HTTP-date relative to `nowMs`.
 *
 * @example parseRetryAfterHeader('20') // 20000
 * @example parseRetryAfterHeader('Wed, 21 Oct 2015 07:28:00 GMT', Date.UTC(2015, 9, 21, 7, 27, 0)) // 60000
 */
export function parseRetryAfterHeader(value: string, nowMs?: number): number | null {
  const numeric = NUMERIC_SECONDS.exec(value);
  if (numeric?.[1] !== undefined) return finiteNonNegative(Number(numeric[1]) * 1000);
  // an HTTP-date names its day or month in letters; a bare number that is no delta-seconds ("-5") is no date
  if (nowMs === undefined || value.length > 64 || !/[a-z]/i.test(value)) return null;
  const at = Date.parse(value);
  if (!Number.isFinite(at)) return null;
  return Math.max(0, at - nowMs);
}

/** At most this many header entries are searched for a name not found as given (a response carries far fewer). */
const MAX_HEADER_ENTRIES = 256;

/** The value of header `name` (lower case): looked up directly, else among the first entries whatever their case. */
function headerValue(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  const direct = Object.hasOwn(headers, name) ? headers[name] : undefined;
  if (typeof direct === 'string') return direct;
  let seen = 0;
  for (const key in headers) {
    if (!Object.hasOwn(headers, key)) continue;
    if (seen >= MAX_HEADER_ENTRIES) break;
    seen += 1;
    const value = headers[key];
    if (key.toLowerCase() === name && typeof value === 'string') return value;
  }
  return undefined;
}

/** Zone abbreviations with one unambiguous offset (minutes east of UTC). `CST`/`IST` are ambiguous: unknown. */
const ZONE_OFFSETS_MIN: Readonly<Record<string, number>> = {
  z: 0,
  utc: 0,
  gmt: 0,
  pst: -480,
  pdt: -420,
  mst: -420,
  mdt: -360,
  cdt: -300,
  est: -300,
  edt: -240,
  cet: 60,
  cest: 120,
  eet: 120,
  eest: 180,
  jst: 540,
  kst: 540,
  hkt: 480,
  sgt: 480,
  aest: 600,
  aedt: 660,
};

const ZONE = '(?:(?:utc|gmt)\\s?[+-]\\d{1,2}(?::?\\d{2})?|[+-]\\d{2}:?\\d{2}|z|utc|gmt|pst|pdt|mst|mdt|cdt|est|edt|cet|cest|eet|eest|jst|kst|hkt|sgt|aest|aedt)(?![a-z])';
const OFFSET = /([+-])(\d{1,2})(?::?(\d{2}))?$/;

function zoneOffsetMin(zone: string): number | null {
  const lower = zone.toLowerCase().replace(/\s/g, '');
  const known = ZONE_OFFSETS_MIN[lower];
  if (known !== undefined) return known;
  const offset = OFFSET.exec(lower);
  if (offset === null) return null;
  const hours = Number(offset[2]);
  const minutes = offset[3] === undefined ? 0 : Number(offset[3]);
  if (hours > 14 || minutes > 59) return null;
  return (offset[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

const RESET_WORD = '(?:resets?|reset time|available again|try again|retry)(?:\\s(?:is|will be))?(?:\\s(?:at|on|after))?:?\\s?';
const RESET_DATE_TIME = new RegExp(
  `${RESET_WORD}(\\d{4})-(\\d{2})-(\\d{2})[t ](\\d{2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d{1,9}))?)?\\s?(${ZONE})?`,
  'i',
);
const RESET_TIME_OF_DAY = new RegExp(
  `${RESET_WORD}(\\d{1,2}):(\\d{2})(?::(\\d{2}))?\\s?(am|pm|a\\.m\\.|p\\.m\\.)?\\s?(${ZONE})?`,
  'i',
);

function resetDateTimeMs(text: string, nowMs: number): number | null | undefined {
  const match = RESET_DATE_TIME.exec(text);
  if (match === null) return undefined;
  const zone = match[8];
  if (zone === undefined) return null;
  const offsetMin = zoneOffsetMin(zone);
  if (offsetMin === null) return null;
  const fraction = match[7] === undefined ? 0 : Number(`0.${match[7]}`) * 1000;
  const localMs = Date.UTC(
    Number(match[1]),
    Number(match[2]) - 1,
    Number(match[3]),
    Number(match[4]),
    Number(match[5]),
    match[6] === undefined ? 0 : Number(match[6]),
    fraction,
  );
  if (!Number.isFinite(localMs)) return null;
  return Math.max(0, Math.ceil(localMs - offsetMin * 60_000 - nowMs));
}

function resetTimeOfDayMs(text: string, nowMs: number): number | null | undefined {
  const match = RESET_TIME_OF_DAY.exec(text);
  if (match === null) return undefined;
  const zone = match[5];
  if (zone === undefined) return null;
  const offsetMin = zoneOffsetMin(zone);
  if (offsetMin === null) return null;
  let hours = Number(match[1]);
  const minutes = Number(match[2]);
  const seconds = match[3] === undefined ? 0 : Number(match[3]);
  const meridiem = match[4]?.toLowerCase().replace(/\./g, '');
  if (meridiem !== undefined) {
    if (hours < 1 || hours > 12) return null;
    hours = (hours % 12) + (meridiem === 'pm' ? 12 : 0);
  }
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  const dayMs = 86_400_000;
  const localNow = nowMs + offsetMin * 60_000;
  let target = Math.floor(localNow / dayMs) * dayMs + ((hours * 60 + minutes) * 60 + seconds) * 1000;
  if (target <= localNow) target += dayMs;
  return target - localNow;
}

/** One structured field: the pattern of its key and value, and what the value means (ms per unit, a duration text, or an epoch time). */
interface FieldHint {
  readonly pattern: RegExp;
  readonly scale: number | 'duration' | 'epoch';
}

/** The key of a field, written as the body writes it: quoted or not, then `:` or `=`. */
function fieldKey(key: string): string {
  return `["']?${key}["']?\\s?[:=]`;
}

/** Field keys and the values they carry, strongest first. */
const FIELDS: readonly { readonly key: string; readonly value: string; readonly scale: FieldHint['scale'] }[] = [
  { key: 'retry_?delay', value: '(\\d{1,9}(?:\\.\\d{1,9})?\\s?(?:ms|s)?)', scale: 'duration' },
  { key: 'retry[_-]after[_-]ms', value: '(\\d{1,12}(?:\\.\\d{1,9})?)', scale: 1 },
  { key: 'retry[_-]after(?:[_-]seconds)?', value: '(\\d{1,9}(?:\\.\\d{1,9})?)(?![\\d.]|\\s?[a-z])', scale: 1000 },
  { key: 'resets?_in_seconds', value: '(\\d{1,9}(?:\\.\\d{1,9})?)', scale: 1000 },
  { key: 'resets?_at', value: '(\\d{10,13})(?!\\d)', scale: 'epoch' },
];

/** Structured fields inside bodies, strongest first. */
const FIELD_HINTS: readonly FieldHint[] = FIELDS.map(({ key, value, scale }) => ({
  pattern: new RegExp(`${fieldKey(key)}\\s?["']?${value}`, 'i'),
  scale,
}));

/** Any field key of {@link FIELDS}: one scan tells whether a text holds a field at all (most hold none). */
const FIELD_KEY = new RegExp(FIELDS.map(({ key }) => fieldKey(key)).join('|'), 'i');

/** Phrases that carry a duration. */
const PHRASE_HINT = new RegExp(
  `(?:try again|retry|retrying|wait|resets?|available again)(?:\\s(?:after|in|for))?:?\\s?(${DURATION})`,
  'i',
);

/**
 * Every text hint above holds a digit and one of these words (`retry_delay`, `retry-after`, `resets_in_seconds`,
 * "try again in", "wait", "available again at" …), so a text without both gives nothing and is not scanned further.
 */
const HINT_WORD = /retry|reset|wait|try again|available again/i;
const DIGIT = /\d/;
/** A clock time (`5:38`, `05:38:28`): both reset-time patterns need one, so a text without it skips them. */
const CLOCK_TIME = /\d:\d\d/;

/** Every pattern of this module, for the pattern audit test. */
export const RETRY_AFTER_PATTERNS: readonly RegExp[] = [
  HINT_WORD,
  DIGIT,
  DURATION_PART,
  NUMERIC_SECONDS,
  OFFSET,
  RESET_DATE_TIME,
  RESET_TIME_OF_DAY,
  PHRASE_HINT,
  CLOCK_TIME,
  FIELD_KEY,
  ...FIELD_HINTS.map((hint) => hint.pattern),
];

/**
 * Milliseconds a single text asks to wait, or `null`.
 *
 * @example retryAfterFromText('Please try again in 174ms.') // 174
 * @example retryAfterFromText('Your limit will reset at 2026-09-09 05:38:28', 0) // null (no zone)
 */
export function retryAfterFromText(text: string, nowMs?: number): number | null {
  if (!DIGIT.test(text) || !HINT_WORD.test(text)) return null;
  // The field patterns run only over a text that holds some field key (one scan for all five).
  for (const { pattern, scale } of FIELD_KEY.test(text) ? FIELD_HINTS : []) {
    const value = pattern.exec(text)?.[1];
    if (value === undefined) continue;
    if (scale === 'duration') {
      const trimmed = value.trim();
      const parsed = /\d$/.test(trimmed) ? finiteNonNegative(Number(trimmed) * 1000) : parseDurationMs(trimmed);
      if (parsed !== null) return parsed;
      continue;
    }
    if (scale === 'epoch') {
      if (nowMs === undefined) continue;
      const epoch = Number(value);
      const atMs = value.length <= 10 ? epoch * 1000 : epoch;
      return Math.max(0, atMs - nowMs);
    }
    const parsed = finiteNonNegative(Number(value) * scale);
    if (parsed !== null) return parsed;
  }
  const phrase = PHRASE_HINT.exec(text)?.[1];
  if (phrase !== undefined) {
    const parsed = parseDurationMs(phrase);
    if (parsed !== null) return parsed;
  }
  if (nowMs === undefined) return null;
  if (!CLOCK_TIME.test(text)) return null;
  const dated = resetDateTimeMs(text, nowMs);
  if (dated !== undefined) return dated;
  return resetTimeOfDayMs(text, nowMs) ?? null;
}

/**
 * How long the provider asked to wait, in ms, from headers first and then body hints; `null` when it did not
 * say (or said it in a way that cannot be placed in time, such as a reset time without a zone).
 *
 * @param sources - headers, texts and the current time in epoch ms.
 * @returns milliseconds (integer, ≥ 0) or `null`. Never capped: capping is policy.
 * @example parseRetryAfter({ headers: { 'retry-after-ms': '1500' } }) // 1500
 * @example parseRetryAfter({ headers: { 'Retry-After': '20' } }) // 20000
 * @example parseRetryAfter({ texts: ['Please try again in 1m30s.'] }) // 90000
 */
export function parseRetryAfter(sources: RetryAfterSources): number | null {
  const { headers, texts, nowMs } = sources;
  if (headers !== undefined && headers !== null && typeof headers === 'object') {
    const milliseconds = headerValue(headers, 'retry-after-ms');
    if (milliseconds !== undefined) {
      const numeric = NUMERIC_SECONDS.exec(milliseconds)?.[1];
      const parsed = numeric === undefined ? null : finiteNonNegative(Number(numeric));
      if (parsed !== null) return parsed;
    }
    const retryAfter = headerValue(headers, 'retry-after');
    if (retryAfter !== undefined) {
      const parsed = parseRetryAfterHeader(retryAfter, nowMs);
      if (parsed !== null) return parsed;
    }
  }
  for (const text of texts ?? []) {
    if (typeof text !== 'string' || text === '') continue;
    const parsed = retryAfterFromText(text, nowMs);
    if (parsed !== null) return parsed;
  }
  return null;
}
