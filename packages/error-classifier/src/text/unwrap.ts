/**
 * Wrapper unwrapping: proxies, SDKs and agent runtimes wrap the provider's own error in their own — a prefix
 * (`API Error: 402 {…}`, `Error code: 429 - {…}`), a JSON envelope whose `message` is itself a JSON string, an
 * OpenRouter `metadata.raw`, an SSE `data:` line inside an HTTP 200, a Vertex `error.message` holding Anthropic's
 * error. The provider's innermost error names the cause; the wrapper mostly names itself (`api_error`,
 * `upstream_error`, a generic 500). This module finds the innermost error object of one raw failure text and says
 * which layers were peeled, so the rules can read the inner status and `classify --explain` can show the path
 * (docs/architecture.md, error classifier).
 *
 * Cost: only texts up to {@link MAX_UNWRAP_CHARS} are parsed whole; an event stream of any length is read by at most
 * {@link MAX_SSE_EVENTS} events from its start and {@link MAX_SSE_TAIL_EVENTS} from its end, parsing at most
 * {@link MAX_UNWRAP_CHARS} characters at each end; a longer JSON text is judged by its head and its last 4 KiB
 * ({@link opensAsAnswer});
 * the walk is depth-bounded. The work is linear in min(text size, bound).
 */
import { holds, isSuccessEnvelope } from './completion-body.js';
import type { UnreadAnswer } from './completion-body.js';

/**
 * Texts longer than this are not parsed whole (they are read as windowed text), and an event stream parses at most
 * this many characters of its events. @default 32768 (32 Ki)
 */
export const MAX_UNWRAP_CHARS = 32 * 1024;
/** At most this many SSE `data:` events are parsed from the start of a text. @default 16 */
export const MAX_SSE_EVENTS = 16;
/** And at most this many from its end, when it has more. @default 8 */
export const MAX_SSE_TAIL_EVENTS = 8;
/** The JSON document must start within this many characters of the text start (after a wrapper prefix). @default 512 */
const MAX_PREFIX_CHARS = 512;
/** Depth limit of the walk through nested error objects and JSON strings. @default 12 */
const MAX_DEPTH = 12;

/** The innermost provider error found in a wrapped failure text. */
export interface InnerError {
  /** Its message, when it has one. */
  readonly message: string | null;
  /** Its HTTP status (a numeric `code`/`status`/`statusCode`/`http_status` in 100–599), else `null`. */
  readonly status: number | null;
  /** Its type or code strings (`invalid_request_error`, `RESOURCE_EXHAUSTED`, `1113` …), lower-cased. */
  readonly codes: readonly string[];
  /**
   * A sentence beside the message that names the cause more precisely, when the error has one: IBM's
   * `extensions.reason` ("input tokens (35000) … must be < 4096" under "Invalid argument or out of range"), OAuth's
   * `error_description`, or a `reason` written as a sentence (not a `hint`: a hint suggests, it does not report); else `null`.
   */
  readonly detail?: string | null;
}

/** What unwrapping one raw text found. */
export interface Unwrapped {
  /**
   * The layers peeled, outermost first: `prefix` (text before the JSON), `sse` (an SSE `data:` event), `json`,
   * a key path such as `error`, `error.metadata.raw`, `json-string` (a JSON document inside a string).
   */
  readonly layers: readonly string[];
  /** The innermost error object, or `null` when the text holds no parseable error object. */
  readonly inner: InnerError | null;
  /** The parsed top-level JSON value when the text was a JSON document without an error object (a completion). */
  readonly document: unknown;
  /**
   * With a {@link document}: the text before it (a client's "Request failed with status code 400: " before a streamed
   * chunk), which still speaks when the document is read as a completion; `''` when the document opens the text.
   */
  readonly before?: string;
  /** True when the document is a stream of which only the first and last events were read. */
  readonly partial?: boolean;
  /**
   * The part of the text that speaks for the failure when it is not the whole: for an event stream whose error event
   * was found, that event (after what a client wrote before the stream); for an answer too long to parse that an error
   * object closes, that object. The model's words before it are not read as the error.
   */
  readonly errorText?: string;
  /**
   * Set when part of a success answer was too long to parse — a JSON completion over {@link MAX_UNWRAP_CHARS}, or
   * stream events past their parse budget — and its head shows it is an answer ({@link answerBeyondWindow}): `'output'`,
   * the answer carries output whatever the unread part says; `'reasoning-only'`, its content is empty beside a long
   * reasoning and it stopped at its length limit. None of its words are read.
   */
  readonly unreadAnswer?: UnreadAnswer;
}

const NOTHING: Unwrapped = Object.freeze({ layers: [], inner: null, document: undefined });

/** How much of the head and of the tail of a text too long to parse is read. @default 1024 and 4096 */
const ANSWER_HEAD_CHARS = 1024;
const TAIL_CHARS = 4096;

/**
 * The head of a success answer: a chat or text completion or one of its stream chunks (OpenAI and compatible
 * `choices`, `delta`, `object: chat.completion…`), Gemini `candidates`, Anthropic's `message` and content-block events,
 * an assistant or model turn (Ollama's `message`, Gemini's `role: model`), Ollama's `created_at` beside `response`,
 * Bedrock Converse's `output.message`, TGI's `generated_text`, Titan's `outputText`, Llama's `generation`, the legacy
 * `completion`, Hunyuan's `Choices`, PaLM's `predictions`, Cohere's `generations`, Cloudflare's `result.response`, Cohere's
 * `generation_id`, a completed Responses object and the Responses stream's output events. (A Responses object that did
 * not complete is left out: it echoes the request's instructions and tools, which are not output.)
 */
const ANSWER_HEAD =
  /"object"\s{0,16}:\s{0,16}"(?:chat\.completion(?:\.chunk)?|text_completion)"|"(?:choices|candidates)"\s{0,16}:\s{0,16}\[\s{0,16}\{|"delta"\s{0,16}:\s{0,16}\{|"type"\s{0,16}:\s{0,16}"(?:message|content_block_(?:start|delta)|response\.(?:output_text|output_item|content_part|reasoning|completed|in_progress|created)[a-z_.]{0,40})"|"role"\s{0,16}:\s{0,16}"(?:assistant|model)"|"created_at"\s{0,16}:\s{0,16}"[^"]{1,40}",\s{0,16}"response"\s{0,16}:\s{0,16}"|"output"\s{0,16}:\s{0,16}\{\s{0,16}"message"\s{0,16}:\s{0,16}\{|"(?:generated_text|outputText|generation|completion)"\s{0,16}:\s{0,16}"|"(?:Choices|predictions|generations)"\s{0,16}:\s{0,16}\[|"result"\s{0,16}:\s{0,16}\{\s{0,16}"response"\s{0,16}:\s{0,16}"|"generation_id"\s{0,16}:\s{0,16}"|"response_id"\s{0,16}:\s{0,16}"[^"]{1,80}"\s{0,16},\s{0,16}"text"\s{0,16}:|"object"\s{0,16}:\s{0,16}"response"\s{0,16},[^{}]{0,200}"status"\s{0,16}:\s{0,16}"completed"/;

/** An error key holding an object, a string or a non-empty list, or an error type: such a head is no answer. */
const ERROR_IN_HEAD =
  /"(?:error|errors|error_msg|errorMessage)"\s{0,16}:\s{0,16}(?:\{|\[\s{0,16}[^\]\s]|"[^"])|"object"\s{0,16}:\s{0,16}"error"|"type"\s{0,16}:\s{0,16}"error"/;

/** An answer whose content is empty beside its reasoning (OpenAI-compatible `message`/`delta`), in its head. */
const EMPTY_BESIDE_REASONING = /"content"\s{0,16}:\s{0,16}(?:""|null)\s{0,16},\s{0,16}"(?:reasoning_content|reasoning)"\s{0,16}:\s{0,16}"/;

/** A stop at the length limit, in the tail. */
const LENGTH_STOP = /"finish_reason"\s{0,16}:\s{0,16}"length"/;

/** An error object that closes a text (the last element of a chunk array, the error a stream ended with). */
const CLOSING_ERROR = /\{\s{0,16}"error"\s{0,16}:/g;

/** The answer-head patterns, for the pattern audit test. */
export const ANSWER_HEAD_PATTERNS: readonly RegExp[] = [ANSWER_HEAD, ERROR_IN_HEAD, EMPTY_BESIDE_REASONING, LENGTH_STOP, CLOSING_ERROR];

/**
 * True when a JSON text too long to parse opens as a success answer: an object, or an array of them (Gemini's chunk
 * array), whose first {@link ANSWER_HEAD_CHARS} characters hold one of the {@link ANSWER_HEAD} marks and no error key.
 * Its unread rest is the model's output (or more of it), never an error to read words from. Reads only that head.
 *
 * @example opensAsAnswer('{"id":"chatcmpl-1","object":"chat.completion","choices":[{"message":{"content":"…') // true
 * @example opensAsAnswer('{"error":{"message":"…') // false
 */
export function opensAsAnswer(text: string): boolean {
  // leading white space is read up to the head's length: a text padded further is no answer read here
  let first = firstNonSpace(text, 0, ANSWER_HEAD_CHARS);
  if (text.charCodeAt(first) === 0x5b) first = firstNonSpace(text, first + 1, ANSWER_HEAD_CHARS);
  if (text.charCodeAt(first) !== 0x7b) return false;
  const head = text.slice(first, first + ANSWER_HEAD_CHARS);
  return ANSWER_HEAD.test(head) && !ERROR_IN_HEAD.test(head);
}

/**
 * What a JSON text too long to parse shows of itself at its ends, or `null` when it is no answer by its head: an error
 * object that closes it (Gemini's 503 as the last element of its chunk array) is returned as that error; an answer
 * whose head shows empty content beside reasoning and whose tail stops at the length limit is `'reasoning-only'`; any
 * other answer `'output'`. Reads the head and the last {@link TAIL_CHARS} characters only.
 */
function answerBeyondWindow(text: string): Unwrapped | null {
  return opensAsAnswer(text) ? answerByEnds(text) : null;
}

/** {@link answerBeyondWindow} for a text already known to open as an answer. */
function answerByEnds(text: string): Unwrapped {
  const tail = text.slice(-TAIL_CHARS);
  const closing = closingError(tail);
  if (closing !== null) return closing;
  const head = text.slice(0, ANSWER_HEAD_CHARS * 2);
  const unreadAnswer: UnreadAnswer = EMPTY_BESIDE_REASONING.test(head) && LENGTH_STOP.test(tail) ? 'reasoning-only' : 'output';
  return { layers: ['json'], inner: null, document: undefined, unreadAnswer };
}

/** The error object that closes `tail` (up to its last `}`), when there is one. */
function closingError(tail: string): Unwrapped | null {
  CLOSING_ERROR.lastIndex = 0;
  let last = -1;
  for (let match = CLOSING_ERROR.exec(tail); match !== null; match = CLOSING_ERROR.exec(tail)) last = match.index;
  if (last === -1) return null;
  const closing = tail.slice(last, tail.lastIndexOf('}') + 1);
  const parsed = tryParse(closing);
  const found = parsed !== undefined && looksLikeError(parsed) ? dig(parsed, 0, ['json']) : null;
  return found === null ? null : { layers: found.layers, inner: found.inner, document: undefined, errorText: closing };
}

/**
 * True when `code` can open a JSON value inside an array, or close an empty one: `"`, `{`, `[`, `]`, `-`, a digit,
 * or the first letter of `true`, `false`, `null`. Log prefixes such as `[API Error: …]` or `[2025-08-13 …]` fail
 * here instead of in JSON.parse.
 */
function opensArrayItem(code: number): boolean {
  return (
    code === 0x22 || code === 0x7b || code === 0x5b || code === 0x5d || code === 0x2d || (code >= 0x30 && code <= 0x39) ||
    code === 0x74 || code === 0x66 || code === 0x6e
  );
}

/**
 * Any raw control character (anything below U+0020, written as the complement of the rest); only texts with one
 * need the string scan of {@link controlCharacterInString}.
 */
const CONTROL_CHARACTER = /[^ -\uffff]/;

/**
 * True when a raw control character (below U+0020) sits inside a string literal, which JSON forbids: logged
 * payloads whose messages were line-wrapped. Only quotes and backslashes are tracked, so this is exact for valid
 * JSON (which it never rejects) and saves the thrown exception for such texts.
 */
function controlCharacterInString(text: string): boolean {
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1;
      else if (code === 0x22) inString = false;
      else if (code < 0x20) return true;
    } else if (code === 0x22) {
      inString = true;
    }
  }
  return false;
}

/**
 * JSON.parse, or `undefined`. Cheap shape checks first (an object or array that opens with a key, a value or its
 * end, closes with its bracket, and holds no raw control character inside a string), so Python reprs, log lines,
 * line-wrapped payloads and prose never pay for a thrown exception. Each check only rejects texts JSON.parse
 * would reject too.
 */
function tryParse(text: string): unknown {
  const first = firstNonSpace(text, 0);
  const open = text.charCodeAt(first);
  if (open !== 0x7b && open !== 0x5b) return undefined;
  const second = text.charCodeAt(firstNonSpace(text, first + 1));
  if (open === 0x7b ? second !== 0x22 && second !== 0x7d : !opensArrayItem(second)) return undefined;
  const last = lastNonSpace(text);
  if (text.charCodeAt(last) !== (open === 0x7b ? 0x7d : 0x5d)) return undefined;
  if (open === 0x5b && isScalarCode(second) && !firstScalarFits(text, firstNonSpace(text, first + 1), last)) return undefined;
  if (CONTROL_CHARACTER.test(text) && controlCharacterInString(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `[0-9a-zA-Z.+-]`: the characters of a JSON number or of `true`, `false`, `null`. */
function isScalarCode(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x2e || code === 0x2b || code === 0x2d;
}

/** A JSON number, for tokens of at most {@link MAX_SCALAR_CHARS} characters. */
const JSON_NUMBER = /^-?\d{1,64}(?:\.\d{1,64})?(?:[eE][+-]?\d{1,64})?$/;
const MAX_SCALAR_CHARS = 64;

/**
 * For an array whose first item opens with a scalar's character (at `from`): false when that item is no JSON number,
 * `true`, `false` or `null`, or is followed by anything but `,` or the `]` that ends the text (at `last`) — log
 * prefixes such as `[2025-08-13 …]`, `[78.86s]` or `[0] at …`, which JSON.parse would reject with a costly exception.
 * True for every valid JSON text (and for long tokens, left to JSON.parse).
 */
function firstScalarFits(text: string, from: number, last: number): boolean {
  let end = from;
  while (end < text.length && isScalarCode(text.charCodeAt(end))) end += 1;
  if (end - from > MAX_SCALAR_CHARS) return true;
  const token = text.slice(from, end);
  if (token !== 'true' && token !== 'false' && token !== 'null' && !JSON_NUMBER.test(token)) return false;
  const next = firstNonSpace(text, end);
  return text.charCodeAt(next) === 0x2c || next === last;
}

function isSpaceCode(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

function firstNonSpace(text: string, from: number, limit: number = text.length): number {
  const end = Math.min(text.length, limit);
  let index = from;
  while (index < end && isSpaceCode(text.charCodeAt(index))) index += 1;
  return index;
}

function lastNonSpace(text: string): number {
  let index = text.length - 1;
  while (index > 0 && isSpaceCode(text.charCodeAt(index))) index -= 1;
  return index;
}

/** At most this many opening brackets within {@link MAX_PREFIX_CHARS} are tried as the start of the document. */
const MAX_DOCUMENT_STARTS = 4;

/** The Vercel AI SDK's `TypeValidationError` before the value it could not validate. */
const TYPE_VALIDATION_VALUE = 'Type validation failed: Value: ';

/**
 * The index just past the bracket that closes the JSON object or array opening at `start` (brackets inside strings
 * skipped), or -1 when it does not close. One pass over at most the rest of the text.
 */
function closingBracketEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) depth += 1;
    else if (code === 0x7d || code === 0x5d) {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

/**
 * The value the Vercel AI SDK printed in a `TypeValidationError` ("Type validation failed: Value: {…}. Error message:
 * [{…}]"): the provider's answer or stream chunk that did not match the SDK's schema, read as the document (an error,
 * or a completion whose shape says whether it was empty). The schema's issues after it are the SDK's, not the
 * provider's, and are not read as an error. `null` when the text holds no such value.
 */
function validatedValue(text: string): { readonly value: unknown; readonly prefix: number } | 'cut' | null {
  // searched for in the head only, as a wrapper prefix is: the search costs nothing on long texts
  const marker = text.lastIndexOf(TYPE_VALIDATION_VALUE, MAX_PREFIX_CHARS);
  if (marker === -1) return null;
  const start = marker + TYPE_VALIDATION_VALUE.length;
  const open = text.charCodeAt(start);
  if (open !== 0x7b && open !== 0x5b) return null;
  const end = closingBracketEnd(text, start);
  // a value a logger cut before it closed: an answer by its head is the model's words, never an error's
  if (end === -1) return opensAsAnswer(text.slice(start)) ? 'cut' : null;
  const value = tryParse(text.slice(start, end));
  return value === undefined ? null : { value, prefix: start };
}

/**
 * A JSON answer cut short: a text that opens as an answer ({@link opensAsAnswer}) whose opening bracket never closes
 * (a client or a logger stopped it mid-answer) is judged by its ends like an answer too long to parse
 * ({@link answerBeyondWindow}): its words are the model's. A text whose value closes (placeholders such as `[...]` in
 * it, JSON Lines of events) is not cut and is read as it is. `null` when the text is no such answer.
 */
function cutAnswer(text: string): Unwrapped | null {
  // the head first (at most 1 KiB read), then the scan for the closing bracket
  if (!opensAsAnswer(text)) return null;
  return closingBracketEnd(text, firstNonSpace(text, 0, MAX_PREFIX_CHARS)) === -1 ? answerByEnds(text) : null;
}

/**
 * A Python literal (`repr` of a dict or list: `{'error': {'message': 'Model Not Exist', 'param': None}}`) rewritten
 * as JSON, or `undefined` when it is not one. Single-quoted strings become double-quoted, `None` / `True` / `False`
 * become `null` / `true` / `false`; one forward pass, so the cost is linear in the text.
 */
export function pythonLiteralToJson(text: string): string | undefined {
  const open = text.charCodeAt(0);
  if (open !== 0x7b && open !== 0x5b) return undefined;
  // Characters copied as they are accumulate from `copied` and are written as one slice before each rewrite.
  const parts: string[] = [];
  let copied = 0;
  let quote = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    let rewritten: string;
    let skip = 0;
    if (quote !== 0) {
      if (code === 0x5c) {
        const next = text[index + 1] ?? '';
        // \' is no JSON escape; every other escape of Python's string literals is one JSON also reads
        rewritten = next === "'" ? "'" : `\\${next}`;
        skip = 1;
      } else if (code === quote) {
        rewritten = '"';
        quote = 0;
      } else if (code === 0x22) rewritten = '\\"';
      else if (code === 0x0a) rewritten = '\\n';
      else continue;
    } else if (code === 0x27 || code === 0x22) {
      quote = code;
      if (code === 0x22) continue;
      rewritten = '"';
    } else if (code === 0x4e || code === 0x54 || code === 0x46) {
      // `None`, `True`, `False` as whole words
      const word = text.startsWith('None', index) ? 'None' : text.startsWith('True', index) ? 'True' : text.startsWith('False', index) ? 'False' : null;
      if (word === null) continue;
      const before = text.charCodeAt(index - 1);
      const after = text.charCodeAt(index + word.length);
      if (isWordCode(before) || isWordCode(after)) return undefined;
      rewritten = word === 'None' ? 'null' : word === 'True' ? 'true' : 'false';
      skip = word.length - 1;
    } else continue;
    if (index > copied) parts.push(text.slice(copied, index));
    parts.push(rewritten);
    index += skip;
    copied = index + 1;
  }
  if (quote !== 0) return undefined;
  if (copied < text.length) parts.push(text.slice(copied));
  return parts.join('');
}

function isWordCode(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f;
}

/** Python literals longer than this are not rewritten (SDKs print short dicts; a long one is read as text). @default 8192 */
const MAX_PYTHON_CHARS = 8 * 1024;

/**
 * A JSON document, or — when `python` allows and a quote opens it (`{'`) — a Python literal read as one; `undefined`
 * when neither parses.
 */
function parseDocument(text: string, python: boolean): unknown {
  const parsed = tryParse(text);
  if (parsed !== undefined || !python || text.length > MAX_PYTHON_CHARS) return parsed;
  const opening = text.charCodeAt(firstNonSpace(text, 1));
  if (opening !== 0x27 && !(opening === 0x7b && text.includes("{'"))) return undefined;
  const converted = pythonLiteralToJson(text.trimStart());
  return converted === undefined ? undefined : tryParse(converted);
}

/**
 * The document at `start`: the rest of the text, else cut at the last closing bracket (a wrapper suffix follows it).
 * `python`: whether a Python literal may be rewritten (once per text: the first start that could open one).
 */
function documentAt(text: string, start: number, python: boolean): unknown {
  const whole = parseDocument(text.slice(start), python);
  if (whole !== undefined) return whole;
  // A wrapper suffix (`) · Retrying in 5 seconds…`, a stack trace): cut at the last closing brace.
  const closer = text.charCodeAt(start) === 0x7b ? '}' : ']';
  const end = text.lastIndexOf(closer);
  if (end <= start) return undefined;
  // Nothing after the last closer but spaces: the cut is the text already refused above.
  if (lastNonSpace(text) === end) return undefined;
  return parseDocument(text.slice(start, end + 1), python);
}

/**
 * The JSON document (or Python literal) that starts near the beginning of `text`, with the length of the prefix before
 * it. Up to {@link MAX_DOCUMENT_STARTS} opening brackets are tried, so a log prefix such as `[handleAbortError]`
 * before the error object does not hide it.
 */
function leadingJson(text: string): { readonly value: unknown; readonly prefix: number } | null {
  const limit = Math.min(text.length, MAX_PREFIX_CHARS);
  let tried = 0;
  let pythonTried = false;
  // The next `{` and the next `[` from where the search resumes, found by the engine's string search (not a character loop).
  let brace = text.indexOf('{');
  let bracket = text.indexOf('[');
  for (let from = 0; tried < MAX_DOCUMENT_STARTS; ) {
    if (brace !== -1 && brace < from) brace = text.indexOf('{', from);
    if (bracket !== -1 && bracket < from) bracket = text.indexOf('[', from);
    const index = brace === -1 ? bracket : bracket === -1 ? brace : Math.min(brace, bracket);
    if (index === -1 || index >= limit) break;
    from = index + 1;
    tried += 1;
    // one start only may be read as a Python literal: the first whose opening bracket is followed by a quote
    const python: boolean = !pythonTried && text.charCodeAt(firstNonSpace(text, index + 1)) === 0x27;
    pythonTried ||= python;
    const value = documentAt(text, index, python);
    if (value !== undefined) return { value, prefix: index };
  }
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function httpStatus(value: unknown): number | null {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\d{3}$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(number) && number >= 100 && number <= 599 ? number : null;
}

const MESSAGE_KEYS = ['message', 'msg', 'error_msg', 'errorMessage', 'error_message', 'detail', 'title', 'text', 'status_msg', 'Message'];
const CODE_KEYS = ['type', 'code', 'status', 'error_code', 'errorType', 'error_type', '__type', 'name', 'reason', 'Code'];
const STATUS_KEYS = ['status', 'statusCode', 'status_code', 'http_status', 'httpStatus', 'http_code', 'raw_status_code', 'code'];
/** Where a wrapper keeps the wrapped error, in the order they are tried. */
const NESTED_KEYS = ['error', 'errors', 'innererror', 'inner_error', 'cause', 'detail', 'details', 'data', 'body', 'responseBody', 'response', 'metadata', 'base_resp', 'Response', 'Error', 'status_details'];

interface Found {
  readonly inner: InnerError;
  readonly layers: string[];
}

/** The keys {@link ownError} reads, one bit each, so a record's own keys are looked at once instead of each name being tried. */
const OWN_KEY_BITS: ReadonlyMap<string, number> = new Map(
  [...new Set([...MESSAGE_KEYS, 'error', ...CODE_KEYS, ...STATUS_KEYS, '$metadata', 'extensions', 'error_description'])].map(
    (key, index) => [key, 1 << index],
  ),
);
const bitsOf = (keys: readonly string[]): number[] => keys.map((key) => OWN_KEY_BITS.get(key) ?? 0);
const MESSAGE_BITS = bitsOf(MESSAGE_KEYS);
const CODE_BITS = bitsOf(CODE_KEYS);
const STATUS_BITS = bitsOf(STATUS_KEYS);
const [ERROR_BIT = 0, METADATA_BIT = 0] = bitsOf(['error', '$metadata']);
/** Keys that may hold a sentence naming the cause beside the message ({@link InnerError.detail}), in the order tried. */
const DETAIL_KEYS = ['extensions', 'error_description', 'reason'];
const DETAIL_BITS = bitsOf(DETAIL_KEYS);
const [EXTENSIONS_BIT = 0] = bitsOf(['extensions']);

/** Which of the keys {@link ownError} reads the record holds (a parsed JSON object: own keys only). */
function keysHeld(record: Record<string, unknown>): number {
  let held = 0;
  for (const key in record) held |= OWN_KEY_BITS.get(key) ?? 0;
  return held;
}

/** {@link NESTED_KEYS}, one bit each by position. */
const NESTED_KEY_BITS: ReadonlyMap<string, number> = new Map(NESTED_KEYS.map((key, index) => [key, 1 << index]));

/**
 * Which of {@link NESTED_KEYS} the record holds, by position, read from its own keys once instead of testing each name
 * (a parsed JSON object has no other keys).
 */
function nestedKeysHeld(record: Record<string, unknown>): number {
  let held = 0;
  for (const key in record) held |= NESTED_KEY_BITS.get(key) ?? 0;
  return held;
}

function ownError(record: Record<string, unknown>): InnerError | null {
  const held = keysHeld(record);
  if (held === 0) return null;
  let message: string | null = null;
  for (let index = 0; index < MESSAGE_KEYS.length; index += 1) {
    if ((held & (MESSAGE_BITS[index] as number)) === 0) continue;
    const value = record[MESSAGE_KEYS[index] as string];
    if (typeof value === 'string' && value.trim() !== '') {
      message = value;
      break;
    }
  }
  const errorValue = (held & ERROR_BIT) === 0 ? undefined : record.error;
  if (message === null && typeof errorValue === 'string' && errorValue.trim() !== '') message = errorValue;
  const codes: string[] = [];
  for (let index = 0; index < CODE_KEYS.length; index += 1) {
    if ((held & (CODE_BITS[index] as number)) === 0) continue;
    const value = record[CODE_KEYS[index] as string];
    if (typeof value === 'string' && value !== '' && value.length <= 80 && !/\s/.test(value)) codes.push(value.toLowerCase());
    else if (typeof value === 'number' && Number.isInteger(value) && (value < 100 || value > 599)) codes.push(String(value));
  }
  // GraphQL-style errors (IBM's among them) keep their code in `extensions.code`
  const extensions = (held & EXTENSIONS_BIT) === 0 ? undefined : record.extensions;
  const extensionCode = isRecord(extensions) ? extensions.code : undefined;
  if (typeof extensionCode === 'string' && extensionCode !== '' && extensionCode.length <= 80 && !/\s/.test(extensionCode)) codes.push(extensionCode.toLowerCase());
  let status: number | null = null;
  for (let index = 0; index < STATUS_KEYS.length && status === null; index += 1) {
    if ((held & (STATUS_BITS[index] as number)) !== 0) status = httpStatus(record[STATUS_KEYS[index] as string]);
  }
  const meta = (held & METADATA_BIT) === 0 ? undefined : record.$metadata;
  if (status === null && isRecord(meta)) status = httpStatus(meta.httpStatusCode);
  if (message === null && codes.length === 0 && status === null) return null;
  return { message, status, codes, detail: detailSentence(record, held, message) };
}

/** A string with a space in it, other than `message`: a sentence rather than a code. */
function sentence(value: unknown, message: string | null): string | null {
  return typeof value === 'string' && /\s/.test(value.trim()) && value !== message && value.length <= MAX_DETAIL_CHARS ? value : null;
}

/** At most this many characters of a detail sentence are read. @default 2048 */
const MAX_DETAIL_CHARS = 2048;

/** {@link InnerError.detail} of one record whose own keys {@link keysHeld} found. */
function detailSentence(record: Record<string, unknown>, held: number, message: string | null): string | null {
  for (let index = 0; index < DETAIL_KEYS.length; index += 1) {
    if ((held & (DETAIL_BITS[index] as number)) === 0) continue;
    const value = record[DETAIL_KEYS[index] as string];
    const found = isRecord(value) ? (sentence(value.reason, message) ?? sentence(value.message, message)) : sentence(value, message);
    if (found !== null) return found;
  }
  return null;
}

/** A deeper error replaces the wrapper's, but a status only the wrapper states is kept (Vertex's 400 around Anthropic's). */
function under(found: Found, wrapper: InnerError | null): Found {
  if (wrapper === null || found.inner.status !== null || wrapper.status === null) return found;
  return { inner: { ...found.inner, status: wrapper.status }, layers: found.layers };
}

/** Google's `details` list adds reasons (`API_KEY_INVALID`, `RATE_LIMIT_EXCEEDED`) to the error that holds it. */
function detailCodes(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const codes: string[] = [];
  for (const item of value.slice(0, 8)) {
    if (!isRecord(item)) continue;
    for (const key of ['reason', 'code', 'type']) {
      const code = item[key];
      if (typeof code === 'string' && code !== '' && code.length <= 80 && !/\s/.test(code)) codes.push(code.toLowerCase());
    }
  }
  return codes;
}

/** Depth-first: the deepest error object under `value`, with the key path to it. */
function dig(value: unknown, depth: number, path: string[]): Found | null {
  if (depth > MAX_DEPTH) return null;
  if (typeof value === 'string') {
    const trimmed = value.trimStart();
    if (trimmed.length > MAX_UNWRAP_CHARS) return null;
    if (trimmed[0] !== '{' && trimmed[0] !== '[') {
      // A message such as "Error code: 429 - {…}" or "status 403 Forbidden: {…}" may hold JSON after a prefix.
      const inner = leadingJson(trimmed);
      if (inner === null || inner.prefix === 0) return null;
      return dig(inner.value, depth + 1, [...path, 'json-string']);
    }
    const parsed = tryParse(trimmed);
    return parsed === undefined ? null : dig(parsed, depth + 1, [...path, 'json-string']);
  }
  if (Array.isArray(value)) {
    for (const item of value.slice(0, 4)) {
      const found = dig(item, depth + 1, path);
      if (found !== null) return found;
    }
    return null;
  }
  if (!isRecord(value)) return null;
  const own = ownError(value);
  const held = nestedKeysHeld(value);
  for (let index = 0; index < NESTED_KEYS.length; index += 1) {
    const key = NESTED_KEYS[index] as string;
    if ((held & (1 << index)) === 0 || key === 'details') continue;
    const nested = value[key];
    if (key === 'metadata') {
      const raw = isRecord(nested) ? nested.raw : undefined;
      const found = typeof raw === 'string' ? dig(raw, depth + 1, [...path, 'metadata.raw']) : null;
      if (found !== null) return under(found, own);
      continue;
    }
    if (typeof nested === 'string' && key !== 'error' && key !== 'body' && key !== 'responseBody') continue;
    const found = dig(nested, depth + 1, [...path, key]);
    if (found !== null) return under(found, own);
  }
  if (own === null) return null;
  if (own.message !== null) {
    const inMessage = dig(own.message, depth + 1, [...path, 'message']);
    if (inMessage !== null) return under(inMessage, own);
  }
  const extra = detailCodes(value.details);
  return { inner: extra.length === 0 ? own : { ...own, codes: [...own.codes, ...extra] }, layers: path };
}

/** MiniMax answers its errors in an HTTP 200 with `base_resp.status_code` set (0 is success). */
function failedBaseResponse(record: Record<string, unknown>): boolean {
  const base = record.base_resp;
  return isRecord(base) && typeof base.status_code === 'number' && base.status_code !== 0;
}

/** True when the parsed top-level value carries an error of its own (an error envelope, not a completion). */
function looksLikeError(value: unknown): boolean {
  // an array is judged by its first item, one level deep (a deeply nested array is no error envelope)
  const first = Array.isArray(value) ? value[0] : value;
  if (!isRecord(first)) return false;
  return looksLikeErrorRecord(first);
}

/** {@link looksLikeError} for one record. */
function looksLikeErrorRecord(value: Record<string, unknown>): boolean {
  if (isSuccessEnvelope(value)) return false;
  if (holds(value, 'error') || holds(value, 'errors') || holds(value, 'error_msg') || holds(value, 'errorMessage') || failedBaseResponse(value)) return true;
  const response = value.Response;
  if (isRecord(response) && isRecord(response.Error)) return true;
  if (value.type === 'error' || value.object === 'error') return true;
  // a Realtime response that failed: `{"object": "realtime.response", "status": "failed", "status_details": {"error": …}}`
  if (isRecord(value.status_details) && isRecord(value.status_details.error)) return true;
  // Poe's bot error: `{"allow_retry": true, "text": "…"}`, the text being the error
  if (typeof value.allow_retry === 'boolean' && typeof value.text === 'string') return true;
  // FastChat's worker: `{"text": "…", "error_code": 50001}`, where 0 is success and the text is then the error
  if (typeof value.error_code === 'number' && value.error_code !== 0 && typeof value.text === 'string') return true;
  if (typeof value.message === 'string' || typeof value.detail === 'string' || typeof value.detail === 'object') return true;
  return httpStatus(value.status) !== null && httpStatus(value.status) !== 200;
}

/**
 * The events of an SSE text: the innermost error of the first `error`-shaped event, else — when every `data:` event
 * was read (at most {@link MAX_SSE_EVENTS}) — the parsed events as an array `document`, so a stream of completion
 * chunks is read like one completion (`completionOf`); `null` when the text is not an event stream.
 */
function unwrapSse(text: string): Unwrapped | null {
  // Every event line holds `data:` and the first opens within the head (after any keep-alive comment lines): a search
  // of the head alone rules most texts out before the pattern runs (searching a whole 1 MiB text would cost more than
  // the rest of the reading).
  const start = afterCommentLines(text);
  const head = text.slice(start, start + MAX_PREFIX_CHARS);
  if (!head.includes('data:') || !/^(?:event: ?[a-z_.]{1,40}\s{1,4})?data: ?[{[]/m.test(head)) return null;
  const before = text.slice(start, Math.max(start, text.indexOf('data:', start)));
  const withBefore = (found: Unwrapped | null): Unwrapped | null =>
    found === null || before === '' ? found : { ...found, errorText: `${before}${found.errorText ?? ''}` };
  const chunks: unknown[] = [];
  // the first and the last events each get a budget, so a long head cannot hide the error a stream ended with
  const budget = newBudget();
  let events = 0;
  let from = start;
  while (events < MAX_SSE_EVENTS) {
    const at = text.indexOf('data:', from);
    if (at === -1) break;
    const lineEnd = text.indexOf('\n', at);
    from = lineEnd === -1 ? text.length : lineEnd + 1;
    events += 1;
    const found = readEvent(text.slice(at + 5, lineEnd === -1 ? text.length : lineEnd), chunks, budget);
    if (found !== null) return withBefore(found);
  }
  // A longer stream: its last events too (where a stream closes, or reports the error that ended it); the middle is
  // not read, so the stream is judged on its head and tail.
  const readToEnd = text.indexOf('data:', from) === -1;
  // where the last event's line ends: what follows it may be an error written without `data:`
  let lastEventEnd = from;
  let partial = false;
  if (!readToEnd) {
    partial = true;
    const tail: string[] = [];
    let to = text.length;
    while (tail.length < MAX_SSE_TAIL_EVENTS) {
      const at = text.lastIndexOf('data:', to - 1);
      if (at < from) break;
      const lineEnd = text.indexOf('\n', at);
      if (tail.length === 0) lastEventEnd = lineEnd === -1 ? text.length : lineEnd + 1;
      tail.unshift(text.slice(at + 5, lineEnd === -1 ? text.length : lineEnd));
      to = at;
    }
    // the last event first: the budget goes to the event a stream ended with
    const tailBudget = newBudget();
    for (let index = tail.length - 1; index >= 0; index -= 1) {
      const found = readEvent(tail[index] as string, chunks, tailBudget);
      if (found !== null) return withBefore(found);
    }
    budget.unreadOutput ||= tailBudget.unreadOutput;
    budget.unreadOther ||= tailBudget.unreadOther;
  }
  // An event too long to parse that is not the model's output may be the error: the text is read as text.
  if (budget.unreadOther) return null;
  // An error object written after the last event without a `data:` line (Gemini's 503 breaking its own stream)
  const trailing = text.slice(lastEventEnd).trim();
  if (trailing.startsWith('{') && trailing.length <= MAX_UNWRAP_CHARS) {
    const parsed = tryParse(trailing);
    const found = parsed !== undefined && looksLikeError(parsed) ? dig(parsed, 0, ['sse', 'json']) : null;
    if (found !== null) return { layers: found.layers, inner: found.inner, document: undefined, errorText: `${before}${trailing}` };
  }
  if (budget.unreadOutput) return { layers: ['sse'], inner: null, document: chunks, before, partial, unreadAnswer: 'output' };
  return chunks.length > 0 ? { layers: ['sse'], inner: null, document: chunks, before, partial } : null;
}

/** At most this many SSE comment lines (`: keep-alive`, OpenRouter's `: OPENROUTER PROCESSING`) are skipped. @default 64 */
const MAX_COMMENT_LINES = 64;

/**
 * Where a text starts after its leading blank lines and SSE comment lines (at most {@link MAX_COMMENT_LINES}, and at
 * most {@link MAX_PREFIX_CHARS} of white space before each).
 */
function afterCommentLines(text: string): number {
  let at = firstNonSpace(text, 0, MAX_PREFIX_CHARS);
  for (let line = 0; line < MAX_COMMENT_LINES && text.charCodeAt(at) === 0x3a; line += 1) {
    const end = text.indexOf('\n', at);
    if (end === -1) return text.length;
    at = firstNonSpace(text, end + 1, end + 1 + MAX_PREFIX_CHARS);
  }
  return at;
}

/** What an event stream may still parse, and what the events it could not afford were. */
interface ParseBudget {
  /** Characters of event payloads still to parse. */
  left: number;
  /** An event over the budget opened as the model's output. */
  unreadOutput: boolean;
  /** An event over the budget did not. */
  unreadOther: boolean;
}

/** A fresh {@link ParseBudget} of {@link MAX_UNWRAP_CHARS} characters. */
function newBudget(): ParseBudget {
  return { left: MAX_UNWRAP_CHARS, unreadOutput: false, unreadOther: false };
}

/**
 * Reads one `data:` payload: its innermost error when it is one, else the parsed event is added to `chunks`. A payload
 * longer than what `budget` has left is not parsed; its head says whether it was the model's output.
 */
function readEvent(raw: string, chunks: unknown[], budget: ParseBudget): Unwrapped | null {
  const payload = raw.trim();
  if (payload === '' || payload === '[DONE]') return null;
  if (payload.length > budget.left) {
    if (opensAsAnswer(payload)) budget.unreadOutput = true;
    else budget.unreadOther = true;
    return null;
  }
  budget.left -= payload.length;
  const parsed = tryParse(payload);
  if (parsed === undefined) return null;
  if (!looksLikeError(parsed)) {
    chunks.push(parsed);
    return null;
  }
  const found = dig(parsed, 0, ['sse', 'json']);
  return found === null ? null : { layers: found.layers, inner: found.inner, document: undefined, errorText: payload };
}

/** A line inside a terminal's box frame: spaces, then the frame's vertical bar. */
const FRAMED_LINE = /^[ \t]{0,8}│ ?/gm;

/**
 * The document inside a terminal's box frame — a CLI that prints the error JSON with `│ ` before every line — read with
 * the frame taken off (layer `frame`); `null` when fewer than two lines are framed or the unframed text holds no
 * document.
 */
function framedDocument(text: string): Unwrapped | null {
  const first = text.indexOf('│');
  if (first === -1 || text.indexOf('│', first + 1) === -1) return null;
  const unframed = text.replace(FRAMED_LINE, '');
  if (unframed.length > text.length - 2) return null;
  // (read once: a frame inside the frame is not taken off again, so a hostile text of nested bars costs one pass)
  const inside = unwrapText(unframed, false);
  if (inside.inner === null && inside.document === undefined) return null;
  return { ...inside, layers: ['frame', ...inside.layers] };
}

/**
 * The innermost provider error of one raw failure text and the layers around it; {@link NOTHING} for texts that
 * are not (prefixed) JSON or hold no error object, and for texts too long to parse that are neither an event stream nor
 * a success answer by their head ({@link Unwrapped.unreadAnswer}). Never throws.
 *
 * @example unwrap('API Error: 402 {"error":{"message":"Insufficient credits","code":402}}')
 * // { layers: ['prefix', 'json', 'error'], inner: { message: 'Insufficient credits', status: 402, codes: [] }, … }
 */
export function unwrap(text: string): Unwrapped {
  return unwrapText(text, true);
}

/** {@link unwrap}, taking a terminal's frame off only when `framed` allows it. */
function unwrapText(text: string, framed: boolean): Unwrapped {
  if (text.length === 0) return NOTHING;
  if (text.length > MAX_UNWRAP_CHARS) return unwrapSse(text) ?? answerBeyondWindow(text) ?? NOTHING;
  const sse = unwrapSse(text);
  if (sse !== null) return sse;
  const validated = validatedValue(text);
  if (validated === 'cut') return { layers: ['prefix', 'json'], inner: null, document: undefined, unreadAnswer: 'output' };
  const json = validated ?? leadingJson(text);
  if (json === null) return (framed ? framedDocument(text) : null) ?? cutAnswer(text) ?? NOTHING;
  const head = json.prefix > 0 ? ['prefix', 'json'] : ['json'];
  if (!looksLikeError(json.value)) return { layers: head, inner: null, document: json.value, before: text.slice(0, json.prefix) };
  const found = dig(json.value, 0, head);
  return found === null ? { layers: head, inner: null, document: undefined } : { layers: found.layers, inner: found.inner, document: undefined };
}
