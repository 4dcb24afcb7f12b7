/**
 * Evidence: what the rules read from one {@link ProviderFailure}, computed once per failure. Every field of the
 * failure is read defensively (callers in plain JavaScript may pass anything), every text is flattened by
 * {@link prepareText}, and the code-like tokens and the stated status are extracted once.
 */
import { normalizeProviderId } from '@understudy/contracts';
import type { AbortCause, FailurePhase, ProviderFailure } from '@understudy/contracts';
import { statedStatusDetail } from './stated-status.js';
import { completionOf, looksLikeFormattedAnswer } from './text/completion-body.js';
import type { CompletionShape } from './text/completion-body.js';
import { boundedWindow, prepareText } from './text/normalize-text.js';
import { extractCodeTokens, extractFinishReasons } from './text/tokens.js';
import { blankAccessLogReplies } from './text/access-log.js';
import { blankGuesses, mayHoldGuesses } from './text/guesses.js';
import { TrigramSet } from './text/trigrams.js';
import { unwrap } from './text/unwrap.js';
import type { InnerError } from './text/unwrap.js';

/** At most this many `details` strings are read. @default 32 */
export const MAX_DETAILS = 32;
/** Flattened text kept over all sources of one failure, in characters. @default 12288 (12 Ki) */
export const MAX_EVIDENCE_CHARS = 12 * 1024;

/**
 * The text a phrase family scans, with what its prefilters need: the whole evidence text, the text with its guesses
 * set aside, or the innermost error's.
 */
export interface ScannedText {
  readonly text: string;
  readonly trigrams: TrigramSet;
  /** True when {@link text} holds Han or kana characters (the Chinese and Japanese phrase tables are read only then). */
  readonly cjk: boolean;
  /** True when {@link text} holds Hangul (the Korean phrase tables are read only then). */
  readonly hangul: boolean;
}

/** What the rules see of one failure. */
export interface Evidence {
  /** Canonical provider id (`normalizeProviderId`), or `''` when unknown. */
  readonly provider: string;
  /** The input status when it is a number, else `null`. */
  readonly inputStatus: number | null;
  /** The status the texts state, else `null`. */
  readonly statedStatus: number | null;
  /** The status of the innermost provider error found inside a wrapper (`unwrap`), else `null`. */
  readonly innerStatus: number | null;
  /**
   * The status the rules decide on. The input status, unless it is a wrapper's status (none, a 2xx, or a generic
   * 500/502 a proxy put around the real failure): then the inner error's status, else a different status the text
   * states (`{"error":{"message":"Request failed with status code 429","code":500}}` is a 429).
   */
  readonly status: number | null;
  /** Where {@link status} came from. */
  readonly statusOrigin: 'input' | 'inner' | 'text' | null;
  /** True when the stated status is worded explicitly (`HTTP 402`, `status code 503`, `Error code: 404`). */
  readonly statedExplicit: boolean;
  /** The innermost provider error found inside a wrapper, with the layers peeled to reach it. */
  readonly inner: InnerError | null;
  readonly layers: readonly string[];
  /**
   * The innermost error as the rules read it first, when a wrapper was peeled to reach it (a prefix, a JSON string, an
   * SSE event, OpenRouter's `metadata.raw`, a message holding JSON): its message, flattened and lower-cased, and its own
   * codes with the failure's `code` and `errorType`. `null` when the failure was not wrapped.
   */
  readonly wrapped: WrappedError | null;
  /** For a completion body (no error object): whether it carried usable output; `null` for other bodies. */
  readonly completion: CompletionShape | null;
  /** Body, message and details, flattened, joined by ` | ` and lower-cased. */
  readonly text: string;
  /** The trigrams of {@link text} (built on first use): which phrase patterns cannot match it. */
  readonly trigrams: TrigramSet;
  /**
   * What the phrase families read: {@link text} with its lists of guesses, headers of guesses and status conditions
   * blanked (`blankGuesses`, docs/policy.md "Guesses and conditions name no cause"), and the reason phrases of access-log
   * replies (`blankAccessLogReplies`), with the trigrams and CJK test of {@link text} (a superset of its own: they only
   * skip patterns that cannot match). The evidence itself when the text holds neither.
   */
  readonly asserted: ScannedText;
  /** The same texts before lower-casing (retry-after dates are read from these). */
  readonly texts: readonly string[];
  /** Code-like tokens of the texts plus the failure's own `code` and `errorType`, lower-cased. */
  readonly tokens: ReadonlySet<string>;
  /** Finish / stop / block reasons named in the texts. */
  readonly finishReasons: ReadonlySet<string>;
  /** The failure's own `code` and `errorType`, lower-cased (empty strings when absent). */
  readonly code: string;
  readonly errorType: string;
  /** True when some text was an HTML page. */
  readonly html: boolean;
  /**
   * True when no error object, status of 400 or more, or code came with the failure and its body or message is laid
   * out as a model's formatted answer (Markdown headings): the model's words, not an error.
   */
  readonly formattedAnswer: boolean;
  /** True when the text holds CJK characters (the Chinese and Japanese phrase tables are read only then). */
  readonly cjk: boolean;
  /** True when the text holds Hangul (the Korean phrase tables are read only then). */
  readonly hangul: boolean;
  readonly phase: FailurePhase | null;
  readonly abortCause: AbortCause | null;
  readonly timeoutKind: string | null;
  readonly headers: Readonly<Record<string, string>> | undefined;
}

/** The innermost error of a wrapped failure, as {@link Evidence.wrapped} holds it. */
export interface WrappedError extends ScannedText {
  /** Its message and its detail sentence (`InnerError.detail`), flattened by {@link prepareText}, lower-cased, its guesses blanked (`blankGuesses`); `''` when it has none. */
  readonly text: string;
  /** The trigrams of {@link text}. */
  readonly trigrams: TrigramSet;
  /** True when {@link text} holds CJK characters. */
  readonly cjk: boolean;
  /** True when {@link text} holds Hangul. */
  readonly hangul: boolean;
  /** Its own codes and types, plus the failure's `code` and `errorType`, lower-cased. */
  readonly codes: ReadonlySet<string>;
}

/** Han, kana and CJK punctuation/fullwidth forms. */
const CJK_RANGES = '\\u3000-\\u30ff\\u3400-\\u9fff\\uf900-\\ufaff\\uff00-\\uffef';
/** Hangul jamo, compatibility jamo and syllables. */
const HANGUL_RANGES = '\\u1100-\\u11ff\\u3130-\\u318f\\uac00-\\ud7af';
const CJK = new RegExp(`[${CJK_RANGES}]`);
const HANGUL = new RegExp(`[${HANGUL_RANGES}]`);
/** Either script: one scan tells the common text, which holds neither. */
const EAST_ASIAN = new RegExp(`[${CJK_RANGES}${HANGUL_RANGES}]`);

/** Which phrase tables beyond the alphabetic ones a text can match. */
interface Scripts {
  readonly cjk: boolean;
  readonly hangul: boolean;
}

const NEITHER: Scripts = { cjk: false, hangul: false };

/** The scripts of `text`: one scan when it holds neither, as most failures' texts do. */
function scriptsOf(text: string): Scripts {
  return EAST_ASIAN.test(text) ? { cjk: CJK.test(text), hangul: HANGUL.test(text) } : NEITHER;
}

/** Layers that mean a wrapper was peeled: the innermost error is not the whole failure. */
const WRAPPER_LAYERS: ReadonlySet<string> = new Set(['prefix', 'json-string', 'metadata.raw', 'message', 'sse']);

function wrappedError(inner: InnerError | null, layers: readonly string[], code: string, errorType: string): WrappedError | null {
  if (inner === null || !layers.some((layer) => WRAPPER_LAYERS.has(layer))) return null;
  const said = inner.detail == null ? inner.message : inner.message === null ? inner.detail : `${inner.message} | ${inner.detail}`;
  const read = said === null ? '' : prepareText(boundedWindow(said)).text.toLowerCase();
  // the innermost error is read by the phrase families only: its guesses are set aside at once (its trigrams, those of
  // the whole message, a superset, only skip patterns that cannot match)
  const trigrams = new TrigramSet(read);
  const { cjk, hangul } = scriptsOf(read);
  const text = mayHoldGuesses(trigrams, cjk) ? blankGuesses(read) : read;
  const codes = new Set(inner.codes);
  if (code !== '') codes.add(code);
  if (errorType !== '') codes.add(errorType);
  return { text, trigrams, cjk, hangul, codes };
}

function isDefiniteResponse(status: number | null): boolean {
  if (status === null) return false;
  return (status >= 400 && status < 500 && status !== 408 && status !== 499) || status === 500 || status === 501;
}

/**
 * True when a definite response status — a 4xx other than 408 and 499, or a 500 / 501 — was given with the failure,
 * stated outright in its text or carried by its innermost error: a response arrived, so the connection worked and no
 * time limit fired. Time and transport words or codes around it are a client's banner, a setting or a guess ("Failed to
 * connect to … API: 500 Internal Server Error {…}", "Retrying in 5s · API_TIMEOUT_MS=…"), not the cause. Gateway
 * statuses (502–504, 52x) may wrap a broken upstream connection or a timeout and keep them (docs/policy.md, "A
 * response status rules out a broken connection").
 */
export function hasDefiniteResponse(evidence: Evidence): boolean {
  const stated = evidence.statedExplicit ? evidence.statedStatus : null;
  return isDefiniteResponse(evidence.inputStatus) || isDefiniteResponse(stated) || isDefiniteResponse(evidence.innerStatus);
}

function stringField(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

const PHASES: ReadonlySet<string> = new Set(['connect', 'headers', 'body', 'stream']);

/** At most this many header entries are read (a response carries far fewer; a hostile object may carry thousands). */
const MAX_HEADERS = 256;

function headersField(value: unknown): Readonly<Record<string, string>> | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const headers: Record<string, string> = {};
  let read = 0;
  for (const name in value as Record<string, unknown>) {
    if (!Object.hasOwn(value, name)) continue;
    if (read >= MAX_HEADERS) break;
    read += 1;
    const headerValue = (value as Record<string, unknown>)[name];
    if (typeof headerValue === 'string') headers[name.toLowerCase()] = headerValue;
    else if (typeof headerValue === 'number' && Number.isFinite(headerValue)) headers[name.toLowerCase()] = String(headerValue);
  }
  return headers;
}


/** Statuses a wrapper puts around another failure: none, a success, or a generic gateway/server failure. */
function isWrapperStatus(status: number): boolean {
  return status < 400 || status === 500 || status === 502;
}

function decisionStatus(
  input: number | null,
  inner: number | null,
  stated: number | null,
  statedExplicit: boolean,
): { readonly status: number | null; readonly origin: Evidence['statusOrigin'] } {
  if (input !== null && !isWrapperStatus(input)) return { status: input, origin: 'input' };
  // a status the text names outright ("status code 403") beats a different code inside the body, unless it is itself a
  // wrapper's (a 500 around the provider's 429)
  if (input === null && statedExplicit && stated !== null && stated >= 400 && !isWrapperStatus(stated)) return { status: stated, origin: 'text' };
  if (inner !== null && inner !== input && inner >= 400) return { status: inner, origin: 'inner' };
  if (stated !== null && stated !== input && stated >= 400) return { status: stated, origin: 'text' };
  if (input !== null) return { status: input, origin: 'input' };
  return { status: inner ?? stated, origin: inner !== null ? 'inner' : stated !== null ? 'text' : null };
}

type FailureFields = Partial<Record<keyof ProviderFailure, unknown>>;

/**
 * The evidence of one failure. The texts, the unwrapped inner error and the facts every step reads are computed
 * up front; the parts only some steps read — the code tokens, the finish reasons, the stated status (a given
 * status of its own needs none), the trigram set, the CJK test, the formatted-answer test — on first use, once.
 */
class FailureEvidence implements Evidence {
  readonly provider: string;
  readonly inputStatus: number | null;
  readonly innerStatus: number | null;
  readonly inner: InnerError | null;
  readonly layers: readonly string[];
  readonly text: string;
  readonly texts: readonly string[];
  readonly code: string;
  readonly errorType: string;
  readonly html: boolean;
  readonly phase: FailurePhase | null;
  readonly abortCause: AbortCause | null;
  readonly timeoutKind: string | null;
  readonly headers: Readonly<Record<string, string>> | undefined;
  private readonly body: string;
  private readonly message: string;
  private statedRead: { readonly stated: number | null; readonly explicit: boolean } | null = null;
  private decidedRead: { readonly status: number | null; readonly origin: Evidence['statusOrigin'] } | null = null;
  private readonly completionShape: CompletionShape | null;
  private wrappedRead: WrappedError | null | undefined = undefined;
  private tokenSet: Set<string> | null = null;
  private finishReasonSet: Set<string> | null = null;
  private trigramSet: TrigramSet | null = null;
  private scripts: Scripts | null = null;
  private formattedAnswerText: boolean | null = null;
  private assertedText: ScannedText | null = null;

  constructor(failure: FailureFields) {
    const inputStatus = typeof failure.status === 'number' ? failure.status : null;
    const body = stringField(failure.body);
    const message = stringField(failure.message);
    const bodyLayers = unwrap(body);
    const messageLayers = bodyLayers.inner === null ? unwrap(message) : bodyLayers;
    const unwrapped = bodyLayers.inner !== null ? bodyLayers : messageLayers.inner !== null ? messageLayers : bodyLayers;
    // A completion (no status, or below 400) may carry the model's own words; error statuses never do.
    // (without a body, a message that prints the answer — the AI SDK's type validation error — is read the same way)
    const answerLayers = body === '' ? messageLayers : bodyLayers;
    const completion = inputStatus === null || inputStatus < 400 ? completionOf(answerLayers.document, answerLayers.unreadAnswer) : null;
    // a completion's generated text is blanked; what a client wrote before the document still speaks
    const answerText = `${answerLayers.before ?? ''}${completion?.text ?? ''}`;
    const rawTexts: string[] = completion === null ? [bodyLayers.errorText ?? body, message] : body === '' ? [answerText] : [answerText, message];
    if (Array.isArray(failure.details)) {
      for (const detail of failure.details.slice(0, MAX_DETAILS)) if (typeof detail === 'string') rawTexts.push(detail);
    }
    const texts: string[] = [];
    let html = false;
    let budget = MAX_EVIDENCE_CHARS;
    for (const raw of rawTexts) {
      if (budget <= 0) break;
      const prepared = prepareText(raw);
      if (prepared.text === '') continue;
      const kept = prepared.text.length > budget ? prepared.text.slice(0, budget) : prepared.text;
      texts.push(kept);
      budget -= kept.length;
      html ||= prepared.html;
    }
    this.provider = typeof failure.provider === 'string' ? normalizeProviderId(failure.provider) : '';
    this.inputStatus = inputStatus;
    this.inner = unwrapped.inner;
    this.innerStatus = unwrapped.inner?.status ?? null;
    this.layers = unwrapped.layers;
    this.completionShape = completion?.shape ?? null;
    this.text = texts.join(' | ').toLowerCase();
    this.texts = texts;
    this.code = stringField(failure.code).trim().toLowerCase();
    this.errorType = stringField(failure.errorType).trim().toLowerCase();
    this.html = html;
    this.phase = typeof failure.phase === 'string' && PHASES.has(failure.phase) ? (failure.phase as FailurePhase) : null;
    this.abortCause = failure.abortCause === 'user' || failure.abortCause === 'timeout' ? failure.abortCause : null;
    this.timeoutKind = typeof failure.timeoutKind === 'string' && failure.timeoutKind !== '' ? failure.timeoutKind : null;
    this.headers = headersField(failure.headers);
    this.body = body;
    this.message = message;
  }

  /** The stated status and whether it is worded explicitly, read from the text (else the code) once. */
  private readStated(): NonNullable<FailureEvidence['statedRead']> {
    if (this.statedRead !== null) return this.statedRead;
    // a status named in a condition ("if the status code is 404, …") is no status this failure has
    const statedDetail = statedStatusDetail(this.asserted.text, this.trigrams);
    let stated = statedDetail?.status ?? null;
    if (stated === null && /^\d{3}$/.test(this.code)) {
      const fromCode = Number(this.code);
      if (fromCode >= 100 && fromCode <= 599) stated = fromCode;
    }
    this.statedRead = { stated, explicit: statedDetail?.explicit === true && statedDetail.status === stated };
    return this.statedRead;
  }

  /** The deciding status and its origin; a status of its own that no wrapper gave decides without reading the text. */
  private readDecided(): NonNullable<FailureEvidence['decidedRead']> {
    if (this.decidedRead !== null) return this.decidedRead;
    const { inputStatus } = this;
    this.decidedRead =
      inputStatus !== null && !isWrapperStatus(inputStatus)
        ? { status: inputStatus, origin: 'input' }
        : decisionStatus(inputStatus, this.innerStatus, this.readStated().stated, this.readStated().explicit);
    return this.decidedRead;
  }

  /**
   * A completion shape inside a text that states an error status outright ("Request failed with status code 400:
   * data: {…}") is no answer: the status speaks.
   */
  get completion(): CompletionShape | null {
    const shape = this.completionShape;
    if (shape === null || this.inputStatus !== null) return shape;
    const { stated, explicit } = this.readStated();
    return explicit && stated !== null && stated >= 400 ? null : shape;
  }

  get wrapped(): WrappedError | null {
    if (this.wrappedRead === undefined) this.wrappedRead = wrappedError(this.inner, this.layers, this.code, this.errorType);
    return this.wrappedRead;
  }

  get statedStatus(): number | null {
    return this.readStated().stated;
  }

  get status(): number | null {
    return this.readDecided().status;
  }

  get statusOrigin(): Evidence['statusOrigin'] {
    return this.readDecided().origin;
  }

  get statedExplicit(): boolean {
    return this.readStated().explicit;
  }

  get tokens(): ReadonlySet<string> {
    if (this.tokenSet !== null) return this.tokenSet;
    // (a code named in a list of guesses — "may be due to insufficient_quota or rate_limit_exceeded" — decides nothing)
    const tokens = extractCodeTokens(this.asserted.text);
    if (this.code !== '') tokens.add(this.code);
    if (this.errorType !== '') tokens.add(this.errorType);
    for (const innerCode of this.inner?.codes ?? []) tokens.add(innerCode);
    this.tokenSet = tokens;
    return tokens;
  }

  get finishReasons(): ReadonlySet<string> {
    this.finishReasonSet ??= extractFinishReasons(this.text);
    return this.finishReasonSet;
  }

  get trigrams(): TrigramSet {
    this.trigramSet ??= new TrigramSet(this.text);
    return this.trigramSet;
  }

  get asserted(): ScannedText {
    if (this.assertedText !== null) return this.assertedText;
    const text = blankAccessLogReplies(mayHoldGuesses(this.trigrams, this.cjk) ? blankGuesses(this.text) : this.text);
    this.assertedText = text === this.text ? this : { text, trigrams: this.trigrams, cjk: this.cjk, hangul: this.hangul };
    return this.assertedText;
  }

  get cjk(): boolean {
    this.scripts ??= scriptsOf(this.text);
    return this.scripts.cjk;
  }

  get hangul(): boolean {
    this.scripts ??= scriptsOf(this.text);
    return this.scripts.hangul;
  }

  get formattedAnswer(): boolean {
    this.formattedAnswerText ??=
      this.inner === null && (this.inputStatus === null || this.inputStatus < 400) && this.code === '' && this.errorType === '' && !this.html &&
      [this.body, this.message].some((raw) => raw !== '' && looksLikeFormattedAnswer(boundedWindow(raw)));
    return this.formattedAnswerText;
  }
}

/**
 * Reads a failure into {@link Evidence}. Never throws: fields of the wrong type are ignored.
 *
 * @example buildEvidence({ status: 429, body: 'Too Many Requests' }).status // 429
 */
export function buildEvidence(input: ProviderFailure): Evidence {
  return new FailureEvidence(input !== null && typeof input === 'object' ? (input as FailureFields) : {});
}
