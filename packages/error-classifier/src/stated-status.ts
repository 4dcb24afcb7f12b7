/**
 * The HTTP status a failure text states, for failures that arrive without one (docs/contracts.md#classify: "`status` is the
 * input's status, else a status the text states (`429 …`, `HTTP 402:`, `status code 503`), else null").
 *
 * Patterns are tried strongest first; the first that yields a status in range wins. Explicit wordings
 * (`status code 503`, `Error code: 404`, `HTTP/1.1 404`) accept 100–599. Loose positional ones (a number at the
 * start of the text or after a colon) accept only 400–599, so counts such as "limit: 100 requests" are not read
 * as statuses. A wrapper prefix (`500: … Error code: 404 …`) loses to the explicit inner wording.
 */
import { patternNeeds } from './text/trigrams.js';
import type { PatternNeeds, TrigramSet } from './text/trigrams.js';

interface StatusPattern {
  readonly pattern: RegExp;
  readonly min: number;
  /** Explicit wordings (`HTTP 402`, `status code 503`, `Error code: 404`, `503 Service Unavailable`) name a status outright. */
  readonly explicit?: boolean;
}

const REASON_PHRASES =
  'bad request|unauthori[sz]ed|authorization required|payment required|forbidden|not found|method not allowed|request time-?out|conflict|gone|' +
  'payload too large|request entity too large|unprocessable entity|too many requests|internal server error|' +
  'bad gateway|service (?:temporarily )?unavailable|gateway time-?out|web server is (?:down|returning an unknown error)|' +
  'connection timed out|origin is unreachable|a timeout occurred|ssl handshake failed|invalid ssl certificate|' +
  'site is overloaded|overloaded|client closed request|status code';

const THREE_DIGITS = /\d{3}/;

/** Strongest first. Every quantifier is bounded (linear scan). Exported for the pattern audit test. */
export const STATUS_PATTERNS: readonly StatusPattern[] = [
  // "HTTP 429", "HTTP/1.1 404", "HTTP/2 429", "HTTP 402:", "HTTP code 401 from API" (the legacy OpenAI Python SDK)
  { pattern: /(?<![a-z])http(?:\/[0-9.]{1,3})?(?: code)?\s?(\d{3})(?!\d)/, min: 100, explicit: true },
  // "status code 503", "status code: 429", "status 400", "'status_code': 400", "http_status": 403, "a status of
  // 404 ()"; a sentence-ending period after the digits ("… with status code 429.") is no decimal point
  {
    pattern: /(?<![a-z])(?:http[ _])?status(?:[ _]?code| of)?["']?\s?[:=]?\s?["']?(\d{3})(?!\d|\.\d)/,
    min: 100,
    explicit: true,
  },
  // "Error code: 404", "error code 524"
  { pattern: /(?<![a-z])error[ _]code["']?\s?[:=]?\s?(\d{3})(?!\d)/, min: 100, explicit: true },
  // a relay's bad_response_status_code names the upstream's status in `param` (one-api, new-api)
  { pattern: /["']param["']\s?:\s?["'](\d{3})["']\s?,\s?["']code["']\s?:\s?["']bad_response_status_code/, min: 100, explicit: true },
  // "524: A timeout occurred", "520: Web server is returning an unknown error", "503 Service Unavailable"
  { pattern: new RegExp(`(?<!\\d)(\\d{3}):?\\s(?:${REASON_PHRASES})`), min: 100, explicit: true },
  // "API Error: 401", "Error: 400 {", "Ollama API error 400:", "Error response 401 while", "API Error (520 <"
  { pattern: /(?<![a-z])error(?: response)?\W{1,3}(\d{3})(?!\d|\.\d)/, min: 100 },
  // Gemini / OpenRouter JSON: "code": 429
  { pattern: /["']code["']\s?:\s?(\d{3})(?!\d|\.\d)/, min: 100 },
  // the status column of a Go gin access-log line (one-api / new-api relays): "[GIN] 2024/05/25 - 02:20:27 | <request id> | 429 |"
  { pattern: /\[gin\] [0-9/ :-]{10,30}\|(?: [0-9a-z]{8,40} \|)? {0,3}(\d{3}) {0,3}\|/, min: 400 },
  // the status after the request line of a common / combined access-log line: "POST /v1/chat/completions HTTP/1.1" 503
  { pattern: /"(?:get|post|put|patch|delete) [^"\s]{1,200} http\/[0-9.]{1,3}" (\d{3})(?!\d)/, min: 400 },
  // "[400] Bad Request", "<400>"
  { pattern: /[[<](\d{3})[\]>]/, min: 400 },
  // "429 Rate limit reached …", "529 {…}", "401 status code (no body)"
  { pattern: /^[^a-z0-9]{0,8}(\d{3})(?=[\s:{(["]|$)(?!\s(?:items?|records?|rooms?|rows?|files?|results?|users?|tokens?|bytes?|entries|messages?|lines?|days?|hours?|minutes?|seconds?)(?![a-z]))/, min: 400 },
  // "(Attempt 1/3): 400 Provider returned error"
  { pattern: /:\s(\d{3})\s(?=[a-z{(["])/, min: 400 },
  // "returned 402", "received a 402 response", "got a 402 from the API"
  { pattern: /(?<![a-z])(?:returned|received|got)(?: an?)? (\d{3})(?![\d.])(?= from| response|\s?$|[.,;])/, min: 400 },
];

/** What each of {@link STATUS_PATTERNS} needs of a text (`patternNeeds`), in the same order. */
const STATUS_NEEDS: readonly (PatternNeeds | null)[] = STATUS_PATTERNS.map(({ pattern }) => patternNeeds(pattern));

/**
 * The status a lower-cased, flattened failure text states, or `null`.
 *
 * @example statedStatus('api responded with status code: 429. response text: …') // 429
 * @example statedStatus('500: azureexception notfounderror - error code: 404 - …') // 404
 * @example statedStatus('limit: 100 requests') // null
 */
export function statedStatus(lowerText: string): number | null {
  return statedStatusDetail(lowerText)?.status ?? null;
}

/**
 * The stated status and whether its wording is explicit (`HTTP 402`, `status code 503`, `Error code: 404`,
 * `503 Service Unavailable`), or `null`. An explicit status decides like a given one; a positional one is weakest.
 * With the text's `trigrams`, patterns whose literals it lacks are skipped (the answer is the same).
 *
 * @example statedStatusDetail('http 401: {…}') // { status: 401, explicit: true }
 */
export function statedStatusDetail(
  lowerText: string,
  trigrams?: TrigramSet,
): { readonly status: number; readonly explicit: boolean } | null {
  if (!THREE_DIGITS.test(lowerText)) return null;
  for (let index = 0; index < STATUS_PATTERNS.length; index += 1) {
    const { pattern, min, explicit } = STATUS_PATTERNS[index] as StatusPattern;
    // A pattern whose literals the text lacks cannot match: not run (the same as no match).
    if (trigrams !== undefined && !trigrams.mayMatch(STATUS_NEEDS[index] ?? null)) continue;
    const match = pattern.exec(lowerText);
    const digits = match?.[1];
    if (digits === undefined) continue;
    const status = Number(digits);
    if (status >= min && status <= 599) return { status, explicit: explicit === true };
  }
  return null;
}
