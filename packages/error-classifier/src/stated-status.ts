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
  /** For a number followed by a reason phrase: the phrase must be that status's own ("Batch ID 408 not found" states no 408). */
  readonly phraseMustMatch?: boolean;
}

/** The standard reason phrases that belong to exactly one status. */
const OWN_REASON_PHRASE: Readonly<Record<string, number>> = {
  'bad request': 400,
  unauthorized: 401,
  unauthorised: 401,
  'payment required': 402,
  forbidden: 403,
  'not found': 404,
  'method not allowed': 405,
  'request timeout': 408,
  'request time-out': 408,
  conflict: 409,
  gone: 410,
  'payload too large': 413,
  'request entity too large': 413,
  'unprocessable entity': 422,
  'too many requests': 429,
  'internal server error': 500,
  'bad gateway': 502,
  'gateway timeout': 504,
  'gateway time-out': 504,
  // google-api-core prints a gRPC DEADLINE_EXCEEDED as "504 Deadline Exceeded"
  'deadline exceeded': 504,
};

/** True when the reason phrase after the digits is no other status's own phrase. */
function phraseFits(status: number, phrase: string): boolean {
  const own = OWN_REASON_PHRASE[phrase];
  return own === undefined || own === status;
}

/**
 * The request line of a common / combined access-log line, up to its closing quote (`"post /v1/chat/completions
 * http/1.1"`, lower case, a regular-expression source): the status after it is the reply that server sent its own client.
 */
export const ACCESS_LOG_REQUEST = String.raw`"(?:get|post|put|patch|delete|head|options) [^"\s]{1,200} http\/[0-9.]{1,3}"`;

/** The reason phrases a status may be written with (lower case, a regular-expression alternation). */
export const REASON_PHRASES =
  'bad request|unauthori[sz]ed|authorization required|payment required|forbidden|not found|method not allowed|request time-?out|conflict|gone|' +
  'payload too large|request entity too large|unprocessable entity|too many requests|internal server error|' +
  'bad gateway|service (?:temporarily )?unavailable|gateway time-?out|deadline exceeded|web server is (?:down|returning an unknown error)|' +
  'connection timed out|origin is unreachable|a timeout occurred|ssl handshake failed|invalid ssl certificate|' +
  'site is overloaded|overloaded|client closed request|status code';

const THREE_DIGITS = /\d{3}/;

/** Strongest first. Every quantifier is bounded (linear scan). Exported for the pattern audit test. */
export const STATUS_PATTERNS: readonly StatusPattern[] = [
  // "HTTP 429", "HTTP/1.1 404", "HTTP/2 429", "HTTP 402:", "HTTP code 401 from API" (the legacy OpenAI Python SDK),
  // "HTTP code: 500" (LangChain's inference API errors)
  { pattern: /(?<![a-z])http(?:\/[0-9.]{1,3})?(?: code)?:?\s?(\d{3})(?!\d)/, min: 100, explicit: true },
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
  // "524: A timeout occurred", "520: Web server is returning an unknown error", "503 Service Unavailable" — not a port
  // ("… port 443: Connection timed out", "api.openai.com:443: Connection timed out" are transport failures), nor the
  // status column of an access-log line (a loose status of its own, below)
  { pattern: new RegExp(`(?<!\\d)(?<!port:? )(?<![a-z0-9\\]]:)(?<!http\\/[0-9.]{1,3}" )(\\d{3}):?\\s(${REASON_PHRASES})`), min: 100, explicit: true, phraseMustMatch: true },
  // Go's net/http default body for a route it does not have ("404 page not found"), after whatever prefix a log line put
  { pattern: /(?<!\d)(404) page not found/, min: 100, explicit: true },
  // httpx's "Server error '529 ' for url …", "Client error '429 Too Many Requests' for url …"
  { pattern: /(?<![a-z])(?:client|server) error '(\d{3})(?!\d)/, min: 400, explicit: true },
  // "API Error: 529 {…}", "API Error (429):" — an API client naming the status it got back
  { pattern: /(?<![a-z])api error\s?[:(]\s?(\d{3})(?!\d|\.\d)/, min: 100, explicit: true },
  // "API Error: 401", "Error: 400 {", "Ollama API error 400:", "Error response 401 while", "API Error (520 <"
  // (not an operating system's error number: "Connection timed out (os error 110)")
  { pattern: /(?<![a-z])(?<!os )error(?: response)?\W{1,3}(\d{3})(?!\d|\.\d)/, min: 100 },
  // Gemini / OpenRouter JSON: "code": 429
  { pattern: /["']code["']\s?:\s?(\d{3})(?!\d|\.\d)/, min: 100 },
  // the status column of a Go gin access-log line (one-api / new-api relays): "[GIN] 2024/05/25 - 02:20:27 | <request id> | 429 |"
  { pattern: /\[gin\] [0-9/ :-]{10,30}\|(?: [0-9a-z]{8,40} \|)? {0,3}(\d{3}) {0,3}\|/, min: 400 },
  // the status after the request line of a common / combined access-log line: "POST /v1/chat/completions HTTP/1.1" 503
  { pattern: new RegExp(`${ACCESS_LOG_REQUEST} (\\d{3})(?!\\d)`), min: 400 },
  // "[400] Bad Request", "<400>"
  { pattern: /[[<](\d{3})[\]>]/, min: 400 },
  // "429 Rate limit reached …", "529 {…}", "401 status code (no body)"
  { pattern: /^[^a-z0-9]{0,8}(\d{3})(?=[\s:{(["]|\.\s|$)(?!\s(?:items?|records?|rooms?|rows?|files?|results?|users?|tokens?|bytes?|entries|messages?|lines?|days?|hours?|minutes?|seconds?)(?![a-z]))/, min: 400 },
  // "(Attempt 1/3): 400 Provider returned error"
  { pattern: /:\s(\d{3})\s(?=[a-z{(["])/, min: 400 },
  // "returned 402", "received a 402 response", "got a 402 from the API"
  { pattern: /(?<![a-z])(?:returned|received|got)(?: an?)? (\d{3})(?![\d.])(?= from| response|\s?$|[.,;])/, min: 400 },
  // "ResponseStatusError: Response 502: <html>", "Unexpected response 429 from"
  { pattern: /(?<![a-z])response\W{1,3}(\d{3})(?!\d|\.\d)/, min: 400 },
  // Chinese clients: "错误码: 429", "状态码：503", "请求限制(429)"
  { pattern: /(?:错误码|状态码|错误代码)[:：]? ?(\d{3})(?!\d)/, min: 100, explicit: true },
  { pattern: /(?:请求限制|请求失败)[(（](\d{3})[)）]/, min: 400 },
  // "the response has a status code of 500"
  { pattern: /status code of (\d{3})(?!\d)/, min: 100, explicit: true },
  // "OpenRouter request failed: 429", "request failed 503"
  { pattern: /request failed:? (\d{3})(?!\d|\.\d)/, min: 400 },
  // "OpenAI Compatible request failed (502)", "HTTP error (401)"
  { pattern: /(?:failed|error|status)\s?\((\d{3})\)/, min: 400 },
  // a status alone after an exception class: "NonTransientAiException: 404", "HttpClientErrorException: 401 - Unauthorized"
  { pattern: /exception\W{1,3}(\d{3})(?!\d|\.\d)(?=\s?$|\s?[-:(])/, min: 400 },
];

/** The statuses of reason phrases that open a text on their own ("Not Found: {…}", "Bad Gateway"). */
const LEADING_REASON_PHRASES: readonly (readonly [phrase: string, status: number])[] = [
  ['bad request', 400],
  ['unauthorized', 401],
  ['payment required', 402],
  ['forbidden', 403],
  ['not found', 404],
  ['request timeout', 408],
  ['too many requests', 429],
  ['internal server error', 500],
  ['bad gateway', 502],
  ['service unavailable', 503],
  ['gateway timeout', 504],
];

/**
 * A reason phrase that opens the text (or follows "HTTP Error:", or is the whole message of an error class) and is
 * followed by its body, a colon, a stack frame or nothing (a client printing `statusText: body`, a connector's "HTTP
 * Error: Not Found", an SDK's "APICallError [AI_APICallError]: Not Found at …"). Exported for the pattern audit test.
 */
export const LEADING_REASON_PHRASE = new RegExp(
  `(?:^[^a-z0-9]{0,8}|http error:? |(?:error|exception)(?: \\[[a-z_]{1,40}\\])?: | :: )(${LEADING_REASON_PHRASES.map(([phrase]) => phrase.replaceAll(' ', ' ?')).join('|')})(?=\\s?[:({[-]|\\s?["'$]|\\s?$| at (?:[/(]|node:|file:|async |[a-z_$][a-z0-9_$.<>\\x60]{0,120} ?\\())`,
);

/** The default error body Starlette (and so FastAPI) sends for an unknown path or method, also escaped inside a JSON string. */
const STARLETTE_DEFAULT_BODY = /\{\s?\\{0,3}"(?:detail|message)\\{0,3}"\s?:\s?\\{0,3}"(not found|method not allowed)\\{0,3}"\s?\}/;

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
  if (THREE_DIGITS.test(lowerText)) {
    for (let index = 0; index < STATUS_PATTERNS.length; index += 1) {
      const { pattern, min, explicit, phraseMustMatch } = STATUS_PATTERNS[index] as StatusPattern;
      // A pattern whose literals the text lacks cannot match: not run (the same as no match).
      if (trigrams !== undefined && !trigrams.mayMatch(STATUS_NEEDS[index] ?? null)) continue;
      const match = pattern.exec(lowerText);
      const digits = match?.[1];
      if (digits === undefined) continue;
      const status = Number(digits);
      if (phraseMustMatch === true && !phraseFits(status, match?.[2] ?? '')) continue;
      if (status >= min && status <= 599) return { status, explicit: explicit === true };
    }
  }
  // No digits stated: a reason phrase opening the text names its status ("Not Found: {…}" is a 404), loosely; so does
  // the default error body of Starlette / FastAPI servers (vLLM, LiteLLM, local runtimes): `{"detail":"Not Found"}`.
  const phrase = LEADING_REASON_PHRASE.exec(lowerText)?.[1]?.replaceAll(' ', '');
  const entry = phrase === undefined ? undefined : LEADING_REASON_PHRASES.find(([known]) => known.replaceAll(' ', '') === phrase);
  if (entry !== undefined) return { status: entry[1], explicit: false };
  const starlette = STARLETTE_DEFAULT_BODY.exec(lowerText)?.[1];
  return starlette === undefined ? null : { status: starlette === 'not found' ? 404 : 405, explicit: false };
}
