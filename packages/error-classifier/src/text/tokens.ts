/**
 * Code-like tokens of a flattened, lower-cased failure text: the values of `type` / `code` / `status` /
 * `__type` / `exception-type` / `reason` / `name` keys in any notation (JSON, Python repr, Go `map[k:v]`, Rust
 * debug prints, boto3 dicts), every `snake_case` identifier, and exception class names such as
 * `ThrottlingException` or `APITimeoutError`. The code rules look tokens up in tables, so the shape the error
 * arrived in does not matter.
 *
 * All quantifiers are bounded, so each scan is linear in the text.
 */

/** `key: value` pairs whose value names an error type or code. */
const KEY_VALUE =
  /(?<![a-z0-9_-])["']?(?:type|code|status|error_?code|error_?type|__type|exception-?type|reason|name)["']?\s?[:=]\s?["']?([a-z][a-z0-9_.-]{1,79})/g;

/** `snake_case` identifiers: `insufficient_quota`, `und_err_headers_timeout`, `resource_exhausted`. */
const SNAKE_CASE = /(?<![a-z0-9_])[a-z][a-z0-9]{0,39}(?:_[a-z0-9]{1,40}){1,8}(?![a-z0-9_])/g;

/** Exception class names (lower-cased): `throttlingexception`, `apitimeouterror`, `modelnotreadyexception`. */
const CLASS_NAME = /(?<![a-z0-9_])[a-z]{2,48}(?:exception|error)(?![a-z0-9_])/g;

/** Finish / stop / block reasons: `finish_reason: error`, `stop reason: refusal`, `"blockReason": "SAFETY"`. */
const FINISH_REASON = /(?:finish|stop|block)[ _]?reason["']?\s?[:=]\s?["']?([a-z][a-z_]{1,39})/g;

/** Every pattern of this module, for the pattern audit test. */
export const TOKEN_PATTERNS: readonly RegExp[] = [KEY_VALUE, SNAKE_CASE, CLASS_NAME, FINISH_REASON];

function collect(pattern: RegExp, text: string, group: number, into: Set<string>): void {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const value = match[group];
    if (value !== undefined) into.add(value.replace(/[.-]$/, ''));
  }
}

/**
 * Code-like tokens of a lower-cased text.
 *
 * @example [...extractCodeTokens('{"type":"error","error":{"type":"overloaded_error"}}')] // includes 'overloaded_error'
 */
export function extractCodeTokens(lowerText: string): Set<string> {
  const tokens = new Set<string>();
  collect(KEY_VALUE, lowerText, 1, tokens);
  // Cheap gates: no underscore, no snake_case identifier; no "error"/"exception", no class name.
  if (lowerText.includes('_')) collect(SNAKE_CASE, lowerText, 0, tokens);
  if (lowerText.includes('error') || lowerText.includes('exception')) collect(CLASS_NAME, lowerText, 0, tokens);
  return tokens;
}

/**
 * Finish, stop and block reasons named in a lower-cased text (`error`, `abort`, `content_filter`, `safety` …).
 *
 * @example [...extractFinishReasons('unhandled stop reason: error')] // ['error']
 */
export function extractFinishReasons(lowerText: string): Set<string> {
  const reasons = new Set<string>();
  collect(FINISH_REASON, lowerText, 1, reasons);
  return reasons;
}
