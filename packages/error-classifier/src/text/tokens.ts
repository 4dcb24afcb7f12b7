/**
 * Code-like tokens of a flattened, lower-cased failure text: the values of `type` / `code` / `status` /
 * `__type` / `exception-type` / `reason` / `name` keys in any notation (JSON, Python repr, Go `map[k:v]`, Rust
 * debug prints, boto3 dicts), every `snake_case` identifier, and exception class names such as
 * `ThrottlingException` or `APITimeoutError`. The code rules look tokens up in tables, so the shape the error
 * arrived in does not matter.
 *
 * All quantifiers are bounded, so each scan is linear in the text. The identifier and class-name patterns are the
 * specification of one hand-written pass over the text's identifier runs ({@link identifierTokens}), which finds the
 * same tokens in the same order without running two regexes over every position.
 */

/** `key: value` pairs whose value names an error type or code (the specification of the key-value scan; tests compare the two). */
export const KEY_VALUE =
  /(?<![a-z0-9_-])["']?(?:type|code|status|error_?code|error_?type|__type|exception-?type|reason|name)["']?\s?[:=]\s?["']?([a-z][a-z0-9_.-]{1,79})/g;

/**
 * `snake_case` identifiers: `insufficient_quota`, `und_err_headers_timeout`, `resource_exhausted`. The
 * specification of {@link identifierTokens}' snake-case tokens (tests compare the two).
 */
export const SNAKE_CASE = /(?<![a-z0-9_])[a-z][a-z0-9]{0,39}(?:_[a-z0-9]{1,40}){1,8}(?![a-z0-9_])/g;

/**
 * Exception class names (lower-cased): `throttlingexception`, `apitimeouterror`, `modelnotreadyexception`. The
 * specification of {@link identifierTokens}' class-name tokens (tests compare the two).
 */
export const CLASS_NAME = /(?<![a-z0-9_])[a-z]{2,48}(?:exception|error)(?![a-z0-9_])/g;

/**
 * Finish / stop / block reasons: `finish_reason: error`, `stop reason: refusal`, `"blockReason": "SAFETY"`, Bedrock
 * Titan's `"completionReason": "CONTENT_FILTERED"`.
 */
const FINISH_REASON = /(?:finish|stop(?:ped with)?|block|completion)[ _]?reason["']?\s?[:=]\s?["']?([a-z][a-z_]{1,39})/g;

/**
 * A finish reason printed as its enum number, as Google's SDKs print a Gemini candidate (`"finish_reason": 4`, "Finish
 * reason: 3."). Only 3 and 4 are read: SAFETY and RECITATION have those numbers in both the Gemini API and Vertex AI
 * enums, whose later numbers differ.
 */
const NUMERIC_FINISH_REASON = /finish[ _]?reason["']?\s?(?:[:=]| is)\s?([34])(?!\.?\d)/g;

/** Words beside a numeric finish reason that say it is Gemini's enum. */
const GEMINI_CONTEXT = /candidate|gemini|vertex|finish[ _]?message/;

/** The names of Gemini's numbered finish reasons that are read. */
const GEMINI_FINISH_NAMES: Readonly<Record<string, string>> = { '3': 'safety', '4': 'recitation' };

/** Every pattern of this module, for the pattern audit test. */
export const TOKEN_PATTERNS: readonly RegExp[] = [KEY_VALUE, SNAKE_CASE, CLASS_NAME, FINISH_REASON, NUMERIC_FINISH_REASON, GEMINI_CONTEXT];

/** {@link KEY_VALUE} anchored where a key starts. */
const KEY_VALUE_AT = new RegExp(KEY_VALUE.source, 'y');

/**
 * Where a {@link KEY_VALUE} match can start: one of its keys followed by its separator, found without the
 * look-behind (which makes the full pattern test every position). Read from {@link KEY_VALUE}'s own source: its
 * first non-capturing group is the list of keys (letters, `_` and `-` only). `null` when that source has another
 * shape (then the full pattern scans alone).
 */
const KEY_START: RegExp | null = (() => {
  const keys = /^\(\?<!\[a-z0-9_-\]\)\["']\?\(\?:([a-z_?|-]{1,300})\)\["']\?\\s\?\[:=\]/.exec(KEY_VALUE.source)?.[1];
  return keys === undefined ? null : new RegExp(`(?:${keys})["']?\\s?[:=]`, 'g');
})();

/**
 * The values of {@link KEY_VALUE} matches in text order, as a global scan finds them: each key the cheap
 * {@link KEY_START} finds (no match of the full pattern can start inside one: a key start needs a character
 * outside `[a-z0-9_-]` before it, and a key, a quote, a space or the separator follows every inner position) is
 * checked by the full pattern anchored there, and a scan resumes after the value it took.
 */
function collectKeyValues(lowerText: string, into: Set<string>): void {
  if (KEY_START === null) {
    collect(KEY_VALUE, lowerText, 1, into);
    return;
  }
  let taken = 0;
  KEY_START.lastIndex = 0;
  for (let start = KEY_START.exec(lowerText); start !== null; start = KEY_START.exec(lowerText)) {
    if (start.index < taken) continue;
    KEY_VALUE_AT.lastIndex = start.index;
    const value = KEY_VALUE_AT.exec(lowerText)?.[1];
    if (value === undefined) continue;
    // A trailing `.` or `-` is punctuation after the code, not part of it.
    const last = value.charCodeAt(value.length - 1);
    into.add(last === DOT || last === HYPHEN ? value.slice(0, -1) : value);
    taken = KEY_VALUE_AT.lastIndex;
    if (KEY_START.lastIndex < taken) KEY_START.lastIndex = taken;
  }
}

const DOT = 0x2e;
const HYPHEN = 0x2d;
const UNDERSCORE = 0x5f;

function collect(pattern: RegExp, text: string, group: number, into: Set<string>): void {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const value = match[group];
    if (value === undefined) continue;
    // A trailing `.` or `-` is punctuation after the code, not part of it.
    const last = value.charCodeAt(value.length - 1);
    into.add(last === DOT || last === HYPHEN ? value.slice(0, -1) : value);
  }
}

function isLetter(code: number): boolean {
  return code >= 0x61 && code <= 0x7a;
}

/** Longest segment of a snake-case identifier, and most segments after the first ({@link SNAKE_CASE}). */
const MAX_SEGMENT_CHARS = 40;
const MAX_LATER_SEGMENTS = 8;
/** Shortest and longest name before an `error` / `exception` suffix ({@link CLASS_NAME}). */
const MIN_CLASS_STEM = 2;
const MAX_CLASS_STEM = 48;
const CLASS_SUFFIXES: readonly string[] = ['error', 'exception'];

/** True when `text[start, end)` — a whole identifier run — is a snake-case identifier as {@link SNAKE_CASE} reads it. */
function isSnakeCase(text: string, start: number, end: number): boolean {
  if (!isLetter(text.charCodeAt(start))) return false;
  let segmentStart = start;
  let laterSegments = 0;
  for (let index = start; index <= end; index += 1) {
    if (index < end && text.charCodeAt(index) !== UNDERSCORE) continue;
    const length = index - segmentStart;
    if (length < 1 || length > MAX_SEGMENT_CHARS) return false;
    if (index < end) laterSegments += 1;
    segmentStart = index + 1;
  }
  return laterSegments >= 1 && laterSegments <= MAX_LATER_SEGMENTS;
}

/** True when `text[start, end)` — a whole identifier run of letters only — is a class name as {@link CLASS_NAME} reads it. */
function isClassName(text: string, start: number, end: number, lettersOnly: boolean): boolean {
  if (!lettersOnly) return false;
  for (const suffix of CLASS_SUFFIXES) {
    const stem = end - start - suffix.length;
    if (stem >= MIN_CLASS_STEM && stem <= MAX_CLASS_STEM && text.startsWith(suffix, end - suffix.length)) return true;
  }
  return false;
}

/**
 * What every token run holds: a snake-case identifier an underscore, a class name its `error` / `exception`
 * suffix. The regex engine finds them faster than a loop over every character; the run around each is then read
 * whole.
 */
const TOKEN_MARK = /_|error|exception/g;

/** `[a-z0-9_]`: the characters of an identifier run (the lookarounds of {@link SNAKE_CASE} and {@link CLASS_NAME}). */
function isIdentifierCode(code: number): boolean {
  return isLetter(code) || (code >= 0x30 && code <= 0x39) || code === UNDERSCORE;
}

/**
 * The snake-case identifiers and the class names of a lower-cased text, each in text order: the matches of
 * {@link SNAKE_CASE} and of {@link CLASS_NAME}, found in one pass. Both patterns match only whole runs of
 * `[a-z0-9_]` (their lookarounds), so each run that holds a {@link TOKEN_MARK} is tested once against both shapes.
 *
 * @example identifierTokens('apiconnectionerror: rate_limit_exceeded') // { snakeCase: ['rate_limit_exceeded'], classNames: ['apiconnectionerror'] }
 */
export function identifierTokens(lowerText: string): { readonly snakeCase: string[]; readonly classNames: string[] } {
  const snakeCase: string[] = [];
  const classNames: string[] = [];
  const length = lowerText.length;
  TOKEN_MARK.lastIndex = 0;
  for (let found = TOKEN_MARK.exec(lowerText); found !== null; found = TOKEN_MARK.exec(lowerText)) {
    let start = found.index;
    while (start > 0 && isIdentifierCode(lowerText.charCodeAt(start - 1))) start -= 1;
    let index = start;
    let underscores = false;
    let lettersOnly = true;
    for (; index < length; index += 1) {
      const code = lowerText.charCodeAt(index);
      if (isLetter(code)) continue;
      if (code === UNDERSCORE) underscores = true;
      else if (!(code >= 0x30 && code <= 0x39)) break;
      lettersOnly = false;
    }
    if (underscores) {
      if (isSnakeCase(lowerText, start, index)) snakeCase.push(lowerText.slice(start, index));
    } else if (isClassName(lowerText, start, index, lettersOnly)) {
      classNames.push(lowerText.slice(start, index));
    }
    // the next mark is looked for after this run
    TOKEN_MARK.lastIndex = index;
  }
  return { snakeCase, classNames };
}

/**
 * Code-like tokens of a lower-cased text: key-value codes, then snake-case identifiers, then class names, each
 * in text order.
 *
 * @example [...extractCodeTokens('{"type":"error","error":{"type":"overloaded_error"}}')] // includes 'overloaded_error'
 */
export function extractCodeTokens(lowerText: string): Set<string> {
  const tokens = new Set<string>();
  collectKeyValues(lowerText, tokens);
  const { snakeCase, classNames } = identifierTokens(lowerText);
  for (const token of snakeCase) tokens.add(token);
  for (const token of classNames) tokens.add(token);
  return tokens;
}

/**
 * Finish, stop and block reasons named in a lower-cased text (`error`, `abort`, `content_filter`, `safety` …).
 *
 * @example [...extractFinishReasons('unhandled stop reason: error')] // ['error']
 */
export function extractFinishReasons(lowerText: string): Set<string> {
  const reasons = new Set<string>();
  // Every match holds the word "reason": without it, no scan.
  if (!lowerText.includes('reason')) return reasons;
  collect(FINISH_REASON, lowerText, 1, reasons);
  const numbers = new Set<string>();
  collect(NUMERIC_FINISH_REASON, lowerText, 1, numbers);
  if (numbers.size > 0 && GEMINI_CONTEXT.test(lowerText)) for (const number of numbers) reasons.add(GEMINI_FINISH_NAMES[number] ?? number);
  return reasons;
}
