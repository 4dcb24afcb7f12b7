/**
 * Rules that read the facts around a failure before its text: why a request was aborted, which of our own
 * timeouts fired, the literal "no error details" message, and failures that carry no text at all.
 *
 * docs/policy.md#what-each-reason-does: an abort caused by a timeout is a `timeout`, not an `abort`. Seed 002, "Model fallback":
 * `empty_response` means no usable message or status; `no_error_details` means the provider explicitly said
 * "Unknown error (no error details in response)"; a 404 without any body names no cause either.
 */
import type { Evidence } from '../evidence.js';
import { literalPretest } from '../text/required-literals.js';
import type { Verdict } from './rule.js';

/** `abortCause` and `timeoutKind` set by the provider client decide before anything else. */
export function abortOrTimeoutFact(evidence: Evidence): Verdict | null {
  if (evidence.abortCause === 'user') return { reason: 'abort', rule: 'abort.user', matched: null };
  if (evidence.abortCause === 'timeout') {
    const kind = evidence.timeoutKind ?? 'request';
    return { reason: 'timeout', rule: `abort.timeout.${kind}`, matched: null };
  }
  if (evidence.timeoutKind !== null) return { reason: 'timeout', rule: `timeout.${evidence.timeoutKind}`, matched: null };
  return null;
}

/** The runtime's literal, and a client saying outright that the provider gave no details ("failed response without any error details"). */
const NO_ERROR_DETAILS = /unknown error \(no error details in response\)|(?:without any|with no|no) error details(?! (?:were|was) (?:logged|recorded))/;
const GENERIC_UNKNOWN = /llm request failed with an unknown error/;

/** A string search for the literals every match of {@link NO_ERROR_DETAILS} holds, before the pattern runs. */
const NO_ERROR_DETAILS_MAY_MATCH = literalPretest(NO_ERROR_DETAILS);

/** The literal message some runtimes emit when the provider gave no details. */
export function noErrorDetailsLiteral(evidence: Evidence): Verdict | null {
  if (!NO_ERROR_DETAILS_MAY_MATCH(evidence.text)) return null;
  const match = NO_ERROR_DETAILS.exec(evidence.text);
  return match === null ? null : { reason: 'no_error_details', rule: 'literal.no_error_details', matched: match[0] };
}

/**
 * Words that carry no cause: what is left of "404 status code (no body)", "HTTP 404 Not Found", `{}`, `null`
 * once they are removed is nothing.
 */
const BOILERPLATE =
  /(?<![a-z0-9])(?:\d{3}|https?|status|code|error|errors|api|llm|request|failed|response|no body|body|no|not found|bad request|null|undefined|none|nil|with)(?![a-z0-9])|[^a-z\u00c0-\uffff]/g;

/**
 * What a client, a log or an error page wraps around a status without adding a cause: stack frames, file paths and
 * URLs, bracketed log prefixes, request ids, SDK class names with their module paths (`requests.exceptions.HTTPError`)
 * and "<name> error:" labels, httpx's and requests' "for url", generic hints ("please check
 * the error message and your parameters", "an error occurred, please contact the administrator"), the server software
 * of an error page, and CJK words for "request failed".
 */
const WRAPPING =
  /please (?:check|verify|review) (?:the |your )?(?:error message|parameters|request|input)(?: and (?:the |your )?(?:error message|parameters|request|input))?|(?:an )?(?:unexpected )?error (?:has )?occurr?ed|(?<![a-z])for url(?![a-z])|(?<![a-z_.])[a-z_]{1,40}(?:\.[a-z_]{1,40}){0,6}\.(?=[a-z_]{0,40}(?:error|exception)(?![a-z]))|please (?:contact|ask) (?:the |your )?(?:administrator|admin|support|developer)s?|(?<![a-z])at (?:async )?[a-z0-9_.$<>]{1,120} \([^()]{0,300}\)|(?<![a-z])at (?:\/|node:|file:)[^\s()]{1,300}|(?:file|https?):\/\/[^\s)]{1,300}|\[[^\]]{0,80}\]|(?:client )?request[ _-]?id:? ?[a-z0-9:-]{4,80}|(?:[a-z]{1,20} )?failed:|(?<![a-z])[a-z]{0,40}(?:error|exception)(?![a-z])|(?:[a-z]{1,20} ){1,2}(?=error)|(?<![a-z])(?:cloudflare|nginx|openresty|apache|envoy)(?![a-z])|请求失败|调用失败|请求错误|错误|失败|异常/g;

/** Codes a client puts on every response of a status class (axios's ERR_BAD_REQUEST on any 4xx): they name no cause. */
const STATUS_CLASS_CODES: ReadonlySet<string> = new Set(['err_bad_request', 'err_bad_response']);

/** Only texts this short are read for {@link namesNoCause} (longer ones say more than a status). */
const NO_CAUSE_MAX_CHARS = 4096;

/**
 * True when a failure whose status is stated only in its text says nothing beyond that status: once the wrapping
 * ({@link WRAPPING}) and the boilerplate are removed, nothing is left, and no code or error type came with it. "BadRequestError:
 * 400 status code (no body) at APIError.generate (file:///…)", an nginx "400 Bad Request" page behind "ChatGPT error 400:",
 * "400 - Bad request. Please check error message and your parameters" name no cause (docs/policy.md: a bare stated 400/422
 * stays unclassified); "400 field MaxTokens invalid" names one.
 */
export function namesNoCause(evidence: Evidence): boolean {
  if (isBodiless(evidence)) return true;
  const namingCode = evidence.code !== '' && !STATUS_CLASS_CODES.has(evidence.code);
  if (namingCode || evidence.errorType !== '' || evidence.text.length > NO_CAUSE_MAX_CHARS) return false;
  return evidence.text.replace(WRAPPING, ' ').replace(BOILERPLATE, '') === '';
}

/** Every pattern of this module, for the pattern audit test. */
export const CONTEXT_PATTERNS: readonly RegExp[] = [NO_ERROR_DETAILS, BOILERPLATE, GENERIC_UNKNOWN, WRAPPING];


/** Only texts this short can be bodiless. */
const BODILESS_MAX_CHARS = 160;

/** True when the failure carries no text beyond a status and boilerplate, and no code or error type. */
export function isBodiless(evidence: Evidence): boolean {
  if (evidence.code !== '' || evidence.errorType !== '') return false;
  // an answer with output is never bodiless, even when none of it could be read (too long to parse)
  if (evidence.completion === 'content') return false;
  if (evidence.text === '') return true;
  if (evidence.text.length > BODILESS_MAX_CHARS) return false;
  return onlyBoilerplate(evidence.text);
}

/** {@link BOILERPLATE} anchored where the previous word ended. */
const BOILERPLATE_AT = new RegExp(BOILERPLATE.source, 'y');

/**
 * True when removing every {@link BOILERPLATE} match leaves nothing: each match starts where the one before it
 * ended (a global scan takes the same match at each of those positions), so the scan stops at the first word
 * that names something instead of rewriting the whole text.
 */
function onlyBoilerplate(text: string): boolean {
  BOILERPLATE_AT.lastIndex = 0;
  while (BOILERPLATE_AT.lastIndex < text.length) {
    if (!BOILERPLATE_AT.test(text)) return false;
  }
  return true;
}

/**
 * The verdict for a failure without any text: a bare 404 names no cause (`no_error_details`); without a status (or
 * with a 2xx) an early-ended stream or a broken connection is a timeout and anything else an
 * `empty_response`. Other statuses are left to the status rules.
 */
export function bodilessFailure(evidence: Evidence): Verdict | null {
  if (!isBodiless(evidence)) return null;
  const { status } = evidence;
  // Nothing at all beside a 404 names no cause; "404 status code (no body)" is the status speaking (a missing model).
  if (status === 404) return evidence.text === '' ? { reason: 'no_error_details', rule: 'status.404.no_body', matched: null } : null;
  if (status !== null && (status < 200 || status >= 300)) return null;
  if (evidence.phase === 'stream') return { reason: 'timeout', rule: 'stream.ended_early', matched: null };
  if (evidence.phase === 'connect' || evidence.phase === 'headers') {
    return { reason: 'timeout', rule: `transport.${evidence.phase}_failed`, matched: null };
  }
  // "Bad request" names no cause, but a response arrived: left to the rules after (unclassified), also after "failed"
  if (/bad request/.test(evidence.text)) return null;
  // "Request failed" and nothing else: the request did not complete, a transient failure without details.
  if (/(?<![a-z])failed(?![a-z])/.test(evidence.text)) return { reason: 'timeout', rule: 'transport.failed_without_details', matched: 'failed' };
  return { reason: 'empty_response', rule: 'empty.no_body', matched: null };
}


/**
 * Seed 002: the runtime's generic fallback text "LLM request failed with an unknown error." stays
 * conservative — it is recorded as `unclassified` with its own rule id, never promoted to a failover reason.
 */
export function genericUnknownLiteral(evidence: Evidence): Verdict | null {
  const match = GENERIC_UNKNOWN.exec(evidence.text);
  return match === null ? null : { reason: 'unclassified', rule: 'text.generic_unknown', matched: match[0] };
}

/** Codes the runtime itself observed (transport, TLS, aborts): they stand on their own without a message. */
const RUNTIME_CODE = /^(?:e[a-z]{3,20}|und_err_[a-z_]{1,40}|err_[a-z_]{1,60}|[a-z_]{0,40}cert[a-z_]{0,40}|abort_err|aborterror|apiuseraborterror|\d{4})$/;

/**
 * A provider's structured type or code with nothing around it — no status, no message, no details — is a
 * fragment of an error whose response was lost; it is left `unclassified` (the reference system's vectors do the
 * same: its core defers such fragments to the provider's own adapter). Codes the runtime observed itself
 * (`ECONNRESET`, `UND_ERR_*`, TLS codes, aborts, provider business codes such as Zhipu's `1113`) still decide.
 */
export function bareProviderCode(evidence: Evidence): Verdict | null {
  if (evidence.inputStatus !== null || evidence.text !== '') return null;
  const codes = [evidence.code, evidence.errorType].filter((value) => value !== '');
  if (codes.length === 0 || codes.some((value) => RUNTIME_CODE.test(value))) return null;
  return { reason: 'unclassified', rule: 'code.without_context', matched: codes.join(' ') };
}

/** The bare-code pattern, for the pattern audit test. */
export const BARE_CODE_PATTERNS: readonly RegExp[] = [RUNTIME_CODE];

/**
 * A completion body (no error object) read from its parsed shape: blocked before any output (Gemini
 * `promptFeedback.blockReason`) is a `refusal`; no usable output at all is an `empty_response`; a plain text laid
 * out as a formatted answer (Markdown headings) is the model's words and stays `unclassified`. Finish reasons
 * (`content_filter`, `SAFETY`, `error` …) are read before this step.
 */
export function completionVerdict(evidence: Evidence): Verdict | null {
  if (evidence.completion === 'blocked') return { reason: 'refusal', rule: 'completion.blocked', matched: null };
  if (evidence.completion === 'empty') return { reason: 'empty_response', rule: 'completion.empty', matched: null };
  if (evidence.formattedAnswer) return { reason: 'unclassified', rule: 'completion.formatted_answer', matched: null };
  return null;
}
