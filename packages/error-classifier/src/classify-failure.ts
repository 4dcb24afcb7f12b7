/**
 * `classifyFailure`: one provider failure → one failover reason (docs/policy.md#failover-reasons, docs/contracts.md#classify; the model-failover doc "Cooldowns",
 * "Billing disables", "Model fallback").
 *
 * The rule families run in a fixed order and the first that matches decides:
 *
 * | step | family | why here |
 * |---|---|---|
 * | 1 | abort cause / our own timeouts | a user abort ends the turn; an abort caused by a timeout is a timeout |
 * | 2 | literal "no error details", bodiless failures | nothing else to read |
 * | 3 | provider-scoped rules and doc anchors | they overrule generic codes (`#token-limit`, Zhipu codes) |
 * | 3½ | the innermost error of a wrapped failure: its decisive codes, then specific text over its message | the provider's error names the cause; the wrapper names itself |
 * | 4 | decisive codes, finish reasons | a provider's own type beats the prose around it |
 * | 5 | specific text families | see `rules/text/index.ts` for their order |
 * | 6 | OpenRouter's bare "Provider returned error" | only when nothing more specific was said |
 * | 7 | generic transient text | timeouts, aborts, transport, server errors, empty answers |
 * | 8 | the input HTTP status | the status alone, when neither codes nor text named a cause |
 * | 9 | broad codes (SDK classes, `invalid_request_error` …) | family-level hints |
 * | 10 | a status stated in the text | weakest: wrappers add misleading prefixes |
 * | 11 | otherwise `unclassified` | the raw preview is kept by the caller |
 *
 * Cost: the texts are cut to a bounded window and every pattern has bounded quantifiers, so the work per
 * failure is linear in min(input size, window) — safe on the hot path and on multi-megabyte bodies.
 */
import type { FailureClassification, ProviderFailure } from '@understudy/contracts';
import { buildEvidence } from './evidence.js';
import type { Evidence } from './evidence.js';
import { REASON_POLICY } from './policy.js';
import { parseRetryAfter } from './retry-after.js';
import { broadCode, decisiveCode, decisiveWrappedCode, finishReasonCode } from './rules/code-rules.js';
import {
  abortOrTimeoutFact,
  bareProviderCode,
  bodilessFailure,
  completionVerdict,
  genericUnknownLiteral,
  namesNoCause,
  noErrorDetailsLiteral,
} from './rules/context-rules.js';
import { leadingProviderRule, trailingProviderRule } from './rules/provider-rules.js';
import { firstTextMatch } from './rules/rule.js';
import type { TextRule, Verdict } from './rules/rule.js';
import { statusVerdict } from './rules/status-rules.js';
import { GENERIC_TEXT_RULES, SPECIFIC_TEXT_RULES } from './rules/text/index.js';

/**
 * The text families as plain arrays, in the same order. The exported lists are frozen, and V8 does not optimise a
 * `for…of` over a frozen array (every step calls the iterator), which cost about 3 % of a failure's instructions.
 */
const SPECIFIC_RULES: readonly TextRule[] = [...SPECIFIC_TEXT_RULES];
const GENERIC_RULES: readonly TextRule[] = [...GENERIC_TEXT_RULES];

/** Options of {@link classifyFailure}. */
export interface ClassifyOptions {
  /**
   * The current time in epoch ms, used for Retry-After dates and reset times. Without it, date-based hints
   * give no `retryAfterMs` (durations still do).
   */
  readonly nowMs?: number | undefined;
}

/** Which layer of the failure decided, for `understudy classify --explain`. */
export interface DecisionTrace {
  /**
   * The wrapper layers peeled to reach the innermost provider error, outermost first (`prefix`, `sse`, `json`,
   * `error`, `metadata.raw`, `json-string`, `message` …); empty when the failure was plain text.
   */
  readonly unwrapped: readonly string[];
  /** The innermost error's own status, when a wrapper carried one. */
  readonly innerStatus: number | null;
  /** The status the rules decided on and where it came from (a wrapper's 500 yields to the inner 429). */
  readonly decidingStatus: number | null;
  readonly decidingStatusSource: 'input' | 'inner' | 'text' | null;
  /** The phrase family of a deciding text rule (`text.rate_limit`) and the language it matched in (`en`, `zh`, `ja`, `ru`, `ko`). */
  readonly phraseFamily: string | null;
  readonly language: string | null;
  /** The step that decided: `fact`, `code`, `finish_reason`, `completion`, `phrase`, `provider`, `status`, `fallback`. */
  readonly layer: string;
  /**
   * True when the deciding code or phrase was read in the innermost error of a wrapped failure, before the wrapper's
   * words (docs/policy.md, "Nested and proxy-wrapped errors").
   */
  readonly readInnermost: boolean;
}

/** A classification plus what a human needs to check it (`understudy classify --explain`). */
export interface FailureExplanation extends FailureClassification {
  /** Where `status` came from: the failure itself, its text, or nowhere. */
  readonly statusSource: 'input' | 'text' | null;
  /** The text or code that matched the deciding rule, shortened; `null` for rules that read no text. */
  readonly matched: string | null;
  /** Which layer decided: unwrapped wrappers, the inner status, the phrase family. */
  readonly trace: DecisionTrace;
}

/**
 * The innermost provider error of a wrapped failure, read before the wrapper's words: its own decisive codes, then the
 * specific phrase families over its message. A client's "aborting request", "Network error - retrying", a LiteLLM
 * exception class or a Chinese "参数错误" prefix around the provider's own error is the wrapper speaking; the
 * provider's error names the cause (docs/policy.md, "Nested and proxy-wrapped errors").
 */
function wrappedErrorFirst(evidence: Evidence): Verdict | null {
  if (evidence.wrapped === null) return null;
  const verdict = decisiveWrappedCode(evidence) ?? (evidence.wrapped.text === '' ? null : firstTextMatch(SPECIFIC_RULES, evidence, evidence.wrapped));
  return verdict === null ? null : { ...verdict, inner: true };
}

/**
 * Broad codes, except that an SDK class which only restates a bare 400/422 (`BadRequestError: 400 status code (no
 * body)`) names no cause either: left unclassified like the bare status.
 */
function broadCodeUnlessBare(evidence: Evidence): Verdict | null {
  const verdict = broadCode(evidence);
  return verdict?.reason === 'format' && evidence.inputStatus === null && bareBadRequest(evidence) ? null : verdict;
}

const STEPS: readonly ((evidence: Evidence) => Verdict | null)[] = [
  abortOrTimeoutFact,
  bareProviderCode,
  noErrorDetailsLiteral,
  bodilessFailure,
  leadingProviderRule,
  wrappedErrorFirst,
  decisiveCode,
  finishReasonCode,
  completionVerdict,
  (evidence) => firstTextMatch(SPECIFIC_RULES, evidence),
  trailingProviderRule,
  (evidence) => firstTextMatch(GENERIC_RULES, evidence),
  givenOrInnerStatus,
  broadCodeUnlessBare,
  statedOnlyStatus,
  genericUnknownLiteral,
];

/** A 400 or 422 only the text states, with nothing else said: no cause named. */
function bareBadRequest(evidence: Evidence): boolean {
  return (evidence.status === 400 || evidence.status === 422) && namesNoCause(evidence);
}

/** The failure's own status, or the innermost error's status when the failure's is a wrapper's (a 500 around a 429). */
function givenOrInnerStatus(evidence: Evidence): Verdict | null {
  if (evidence.statusOrigin === null) return null;
  // Without a given status, an explicitly worded one ("HTTP 401: {…}") decides here, before generic wrapper codes.
  if (evidence.inputStatus === null && evidence.statusOrigin === 'text' && (!evidence.statedExplicit || bareBadRequest(evidence))) return null;
  return statusVerdict(evidence.status, evidence.statusOrigin);
}

/**
 * Weakest: a status only the text states. A bare stated 400 or 422 ("400 status code (no body)") names no cause
 * and is left unclassified; other stated statuses (a 404, a 429, a 503 …) decide.
 */
function statedOnlyStatus(evidence: Evidence): Verdict | null {
  if (evidence.inputStatus !== null || evidence.statusOrigin !== 'text' || bareBadRequest(evidence)) return null;
  return statusVerdict(evidence.status, 'text');
}

const UNCLASSIFIED: Verdict = { reason: 'unclassified', rule: 'unclassified', matched: null };

function decide(evidence: Evidence): Verdict {
  for (const step of STEPS) {
    const verdict = step(evidence);
    if (verdict !== null) return verdict;
  }
  return UNCLASSIFIED;
}

/** The layer a rule id belongs to (rule ids are `family.detail`). */
function layerOf(verdict: Verdict): string {
  if (verdict.language !== undefined) return 'phrase';
  const head = verdict.rule.slice(0, verdict.rule.indexOf('.') === -1 ? undefined : verdict.rule.indexOf('.'));
  if (head === 'status' || head === 'inner_status' || head === 'text_status') return 'status';
  if (head === 'finish_reason') return 'finish_reason';
  if (head === 'completion' || head === 'empty') return 'completion';
  if (head === 'abort' || head === 'timeout' || head === 'transport' || head === 'stream' || head === 'literal') return 'fact';
  if (head === 'unclassified') return 'fallback';
  if (verdict.rule.startsWith('zhipu.') || verdict.rule.startsWith('dashscope.') || verdict.rule.startsWith('openrouter.') || verdict.rule.startsWith('google.quota')) return 'provider';
  return 'code';
}

/**
 * Classifies a failure and says why: the classification plus the status source and the matched text.
 *
 * @param failure - what the provider client observed; any field may be absent or of the wrong type.
 * @param options - `nowMs` for date-based Retry-After hints.
 * @returns the explanation; never throws.
 * @example
 * explainFailure({ status: 429, body: 'Please try again in 20s' })
 * // { reason: 'rate_limit', detail: 'status.429', retryAfterMs: 20000, statusSource: 'input', matched: '429', … }
 */
export function explainFailure(failure: ProviderFailure, options: ClassifyOptions = {}): FailureExplanation {
  const read = readFailure(failure);
  if (read === null) return unreadableExplanation(failure);
  const { evidence, verdict } = read;
  return {
    ...classification(evidence, verdict, options),
    statusSource: evidence.inputStatus !== null ? 'input' : evidence.statedStatus !== null ? 'text' : null,
    matched: verdict.matched,
    trace: {
      unwrapped: evidence.layers,
      innerStatus: evidence.innerStatus,
      decidingStatus: evidence.status,
      decidingStatusSource: evidence.statusOrigin,
      phraseFamily: verdict.language === undefined ? null : verdict.rule,
      language: verdict.language ?? null,
      layer: layerOf(verdict),
      readInnermost: verdict.inner === true,
    },
  };
}

/** The classification of a decided failure: what {@link classifyFailure} returns and {@link explainFailure} extends. */
function classification(evidence: Evidence, verdict: Verdict, options: ClassifyOptions): FailureClassification {
  const policy = REASON_POLICY[verdict.reason];
  const requestedNowMs: unknown = options?.nowMs;
  const nowMs = typeof requestedNowMs === 'number' && Number.isFinite(requestedNowMs) ? requestedNowMs : undefined;
  return {
    reason: verdict.reason,
    status: evidence.inputStatus ?? evidence.statedStatus,
    retryAfterMs: parseRetryAfter({ headers: evidence.headers, texts: evidence.texts, nowMs }),
    cooldownScope: policy.lane === 'none' ? null : policy.scope,
    detail: verdict.rule,
  };
}

/**
 * Classifies one provider failure into a failover reason (docs/policy.md#failover-reasons), with the HTTP status unchanged (else the
 * status its text states), the Retry-After in ms, the cooldown scope of the reason's policy and the id of the
 * rule that decided.
 *
 * @param failure - what the provider client observed; any field may be absent or of the wrong type.
 * @param options - `nowMs`: epoch ms for Retry-After dates and reset times (default: date hints ignored).
 * @returns the classification; never throws.
 * @example
 * classifyFailure({ provider: 'openai', status: 429, body: '{"error":{"code":"insufficient_quota"}}' })
 * // { reason: 'billing', status: 429, retryAfterMs: null, cooldownScope: 'profile', detail: 'openai.insufficient_quota' }
 */
export function classifyFailure(failure: ProviderFailure, options: ClassifyOptions = {}): FailureClassification {
  // The same evidence and decision as explainFailure, without building the explanation.
  const read = readFailure(failure);
  if (read === null) return unreadableExplanation(failure);
  return classification(read.evidence, read.verdict, options);
}

/**
 * The evidence and verdict of a failure, or `null` when the input cannot be read at all: a hostile object (a getter
 * that throws, a revoked proxy) or a value nested beyond what the engine can walk. Such a failure is `unclassified`
 * rather than an exception in the request path (the contract: never throws).
 */
function readFailure(failure: ProviderFailure): { readonly evidence: Evidence; readonly verdict: Verdict } | null {
  try {
    const evidence = buildEvidence(failure);
    return { evidence, verdict: decide(evidence) };
  } catch {
    return null;
  }
}

/** The failure's own status when it can be read at all. */
function givenStatus(failure: unknown): number | null {
  try {
    const given = (failure as { status?: unknown } | null)?.status;
    return typeof given === 'number' ? given : null;
  } catch {
    return null;
  }
}

/** The explanation of a failure that could not be read ({@link readFailure}). */
function unreadableExplanation(failure: unknown): FailureExplanation {
  const status = givenStatus(failure);
  // what the status alone says, when there is one
  const verdict = statusVerdict(status, 'input');
  const reason = verdict?.reason ?? 'unclassified';
  const policy = REASON_POLICY[reason];
  return {
    reason,
    status,
    retryAfterMs: null,
    cooldownScope: policy.lane === 'none' ? null : policy.scope,
    detail: verdict === null ? 'unreadable_input' : `unreadable_input.${verdict.rule}`,
    statusSource: status === null ? null : 'input',
    matched: null,
    trace: { unwrapped: [], innerStatus: null, decidingStatus: status, decidingStatusSource: status === null ? null : 'input', phraseFamily: null, language: null, layer: verdict === null ? 'fallback' : 'status', readInnermost: false },
  };
}
