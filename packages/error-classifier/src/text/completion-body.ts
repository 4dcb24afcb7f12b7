/**
 * A successful-looking completion body (HTTP 200, or no status, with `choices`, `candidates`, `content`,
 * `output`, `text` … and no error object) can still reach the classifier: empty, cut short, or blocked. Two facts
 * are read from its parsed shape, never from its words:
 *
 * - its generated text is the model's, not the provider's, so it is blanked before the rules read the body (an
 *   answer that talks about "rate limits" is not a rate limit);
 * - whether it carries any usable output at all (the model-failover doc: `empty_response`) or was refused (Gemini
 *   `promptFeedback.blockReason`, or no output beside a model's non-blank `refusal` text): no choices, a choice
 *   whose message has neither text nor tool calls, Gemini candidates without parts or a response with neither
 *   candidates nor prompt feedback, a Responses API `output: []`, an Anthropic `content: []`, `{"text": ""}`.
 */

const COMPLETION_KEYS = ['choices', 'candidates', 'content', 'output', 'delta', 'text', 'usageMetadata', 'promptFeedback'];

/** Ollama's native answers: `/api/chat` `{ message: { role, content }, done }` and `/api/generate` `{ response, done }`. */
function isOllamaAnswer(value: Record<string, unknown>): boolean {
  if (typeof value.done !== 'boolean') return false;
  const message = value.message;
  return typeof value.response === 'string' || (message !== null && typeof message === 'object' && !Array.isArray(message) && 'role' in message);
}

/**
 * A reasoning model's message printed on its own, as a client logs the choice it got: `{ message: { content,
 * reasoning_content }, usage }` — a `message` object with a `content` key beside a reasoning key. (A relay's choice
 * whose assistant `content` is an error text it wrapped is not taken for one: only reasoning marks the model's turn.)
 */
function isPrintedMessage(value: Record<string, unknown>): boolean {
  const message = value.message;
  if (message === null || typeof message !== 'object' || Array.isArray(message) || !('content' in message)) return false;
  return Object.keys(message).some((key) => REASONING_KEYS.has(key));
}

const ERROR_KEYS = ['error', 'errors', 'err', 'error_msg', 'errorMessage'];

/**
 * True when `key` of `record` holds something: not absent, `null`, `''`, `false` or `[]` (an OpenAI Responses object
 * carries `"error": null` on every success, some APIs `"error": false`).
 */
export function holds(record: Record<string, unknown>, key: string): boolean {
  const value = record[key];
  return value !== undefined && value !== null && value !== '' && value !== false && !(Array.isArray(value) && value.length === 0);
}

/** True when `record` carries an error of its own: an error key that {@link holds} something. */
function hasErrorKey(record: Record<string, unknown>): boolean {
  return ERROR_KEYS.some((key) => holds(record, key));
}

/** The words of a success envelope's message ("Success", "ok", 成功). */
const SUCCESS_MESSAGE = /^\s{0,4}(?:success|succeeded|successful|ok|成功)[.!]?\s{0,4}$/i;

/**
 * True when a record is a success envelope: a `message` or `msg` that says success, a success code (0 or 200) or none,
 * and no error set — iFlytek Spark's `"code":0,"message":"Success"` on every answer and stream chunk, the
 * `{"code":200,"msg":"success","data":{…}}` of many Chinese APIs. Such a record is an answer, never an error envelope.
 */
export function isSuccessEnvelope(record: Record<string, unknown>): boolean {
  const message = record.message ?? record.msg;
  if (typeof message !== 'string' || !SUCCESS_MESSAGE.test(message)) return false;
  const code = record.code ?? record.status ?? record.status_code;
  return (code === undefined || code === 0 || code === 200 || code === '0' || code === '200') && !hasErrorKey(record);
}
/**
 * Keys whose string (or list of strings) in a completion record is the model's generated text: the common ones, and
 * those of the native answers {@link isNativeAnswer} knows (Titan's `outputText`, Llama's `generation`, the legacy
 * `completion`, Hugging Face's `generated_text`, Replicate's `output`, PaLM's string `predictions`, ERNIE's `result`,
 * Hunyuan's `Content`).
 */
const GENERATED_TEXT_KEYS: ReadonlySet<string> = new Set([
  'content',
  'delta',
  'response',
  'text',
  'reasoning',
  'reasoning_content',
  'thinking',
  'arguments',
  'partial_json',
  'output_text',
  'outputText',
  'generation',
  'completion',
  'generated_text',
  'output',
  'predictions',
  'result',
  'Content',
]);

/** True when `value` is Hugging Face's list of generations (`[{"generated_text": "…"}]`), without an error in it. */
function isGeneratedTextList(value: unknown): value is Record<string, unknown>[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => isRecord(item) && typeof item.generated_text === 'string' && !hasErrorKey(item));
}

/** True when `value` is a list of strings (Replicate's streamed tokens, PaLM's string predictions). */
function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string');
}

/** True when `value` is a list holding some record for which `test` holds. */
function someRecord(value: unknown, test: (item: Record<string, unknown>) => boolean): boolean {
  return Array.isArray(value) && value.some((item) => isRecord(item) && test(item));
}

/**
 * A provider's native success answer that the common completion keys do not mark, each a whole body:
 * Bedrock Titan text `{ results: [{ outputText, completionReason }] }`, Bedrock Llama `{ generation, stop_reason }`,
 * Anthropic's legacy text completion `{ completion, stop_reason }`, Bedrock Mistral `{ outputs: [{ text, stop_reason }] }`,
 * Hugging Face `{ generated_text }`, Vertex PaLM `{ predictions: [{ content }] }` (or strings), Cohere generate
 * `{ generations: [{ text }] }` and chat v2 `{ message: { role: 'assistant', content: [parts] }, finish_reason }` (a relay's
 * printed choice with a string `content` may hold the error it wrapped, so it is not one), AI21
 * `{ completions: [{ data: { text } }] }`, a Replicate prediction that succeeded `{ status: 'succeeded', output }`,
 * Cloudflare Workers AI `{ success: true, result: { response } }` and Tencent Hunyuan's `{ Response: { Choices } }`
 * (its stream chunks carry `Choices` at the top). Their words are the model's, never an error's.
 */
function isNativeAnswer(value: Record<string, unknown>): boolean {
  return (
    typeof value.generated_text === 'string' ||
    (typeof value.generation === 'string' && ('stop_reason' in value || 'generation_token_count' in value)) ||
    (typeof value.completion === 'string' && ('stop_reason' in value || value.type === 'completion')) ||
    someRecord(value.results, (item) => typeof item.outputText === 'string') ||
    someRecord(value.outputs, (item) => typeof item.text === 'string' && 'stop_reason' in item) ||
    someRecord(value.generations, (item) => typeof item.text === 'string') ||
    someRecord(value.completions, (item) => isRecord(item.data) && typeof item.data.text === 'string') ||
    isStringList(value.predictions) ||
    someRecord(value.predictions, (item) => typeof item.content === 'string') ||
    (value.status === 'succeeded' && 'output' in value) ||
    (isRecord(value.message) && value.message.role === 'assistant' && Array.isArray(value.message.content) && typeof value.finish_reason === 'string') ||
    (value.success === true && isRecord(value.result) && typeof value.result.response === 'string') ||
    Array.isArray(value.Choices) ||
    (isRecord(value.Response) && Array.isArray(value.Response.Choices))
  );
}

/**
 * Generated text the caller never sees as an answer: a model's reasoning. It is blanked like the answer, but an answer
 * holding only reasoning (DeepSeek's `reasoning_content` beside an empty `content`, Anthropic `thinking` blocks and no
 * text) carries no usable output.
 */
const REASONING_KEYS: ReadonlySet<string> = new Set(['reasoning', 'reasoning_content', 'thinking', 'reasoning_details', 'reasoningContent', 'reasoning_text']);

/** A part or item that is reasoning, whatever text it holds (Gemini `thought: true`, Responses `type: "reasoning"`). */
function isReasoningPart(record: Record<string, unknown>): boolean {
  return record.thought === true || record.type === 'reasoning' || record.type === 'thinking' || record.type === 'redacted_thinking';
}

/** Depth limit of the walks (JSON.parse output is a tree, but keep the walks bounded anyway). */
const MAX_DEPTH = 32;

/** What a parsed completion carries. */
export type CompletionShape = 'empty' | 'blocked' | 'content';

/** What the head (and tail) of an answer too long to parse shows: output, or only reasoning (text/unwrap.ts). */
export type UnreadAnswer = 'output' | 'reasoning-only';

/** A completion body read from its parsed JSON. */
export interface Completion {
  /** The body with the model's generated text blanked (JSON). */
  readonly text: string;
  /** Whether it carries usable output, was blocked before any, or carries none. */
  readonly shape: CompletionShape;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function blankGeneratedText(value: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => blankGeneratedText(item, depth + 1));
  const result: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
    if (GENERATED_TEXT_KEYS.has(key) && (typeof entry === 'string' || isStringList(entry))) result[key] = typeof entry === 'string' ? '' : entry.map(() => '');
    else result[key] = blankGeneratedText(entry, depth + 1);
  }
  return result;
}

/** True when `value` holds some generated output: non-blank text (reasoning aside), a tool or function call, an image, audio. */
function hasOutput(value: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  if (Array.isArray(value)) return value.some((item) => hasOutput(item, depth + 1));
  if (!isRecord(value) || isReasoningPart(value)) return false;
  for (const [key, entry] of Object.entries(value)) {
    // reasoning is no answer; a prompt the API echoes back (AI21's `prompt.text`) is the caller's words
    if (REASONING_KEYS.has(key) || key === 'prompt') continue;
    if (GENERATED_TEXT_KEYS.has(key) && typeof entry === 'string' && entry.trim() !== '') return true;
    if (GENERATED_TEXT_KEYS.has(key) && isStringList(entry) && entry.some((item) => item.trim() !== '')) return true;
    if ((key === 'tool_calls' || key === 'function_call' || key === 'functionCall' || key === 'tool_use') && entry !== null && entry !== undefined) {
      if (!Array.isArray(entry) || entry.length > 0) return true;
    }
    if ((key === 'type' && (entry === 'tool_use' || entry === 'function_call' || entry === 'image')) || key === 'inlineData' || key === 'audio') return true;
    if (typeof entry === 'object' && hasOutput(entry, depth + 1)) return true;
  }
  return false;
}

/** True when `value` holds a model's stated refusal: a non-blank `refusal` string (OpenAI messages and Responses output items). */
function hasRefusal(value: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  if (Array.isArray(value)) return value.some((item) => hasRefusal(item, depth + 1));
  if (!isRecord(value)) return false;
  for (const [key, entry] of Object.entries(value)) {
    if (key === 'refusal' && typeof entry === 'string' && entry.trim() !== '') return true;
    if (typeof entry === 'object' && hasRefusal(entry, depth + 1)) return true;
  }
  return false;
}

/** True when a PaLM prediction says its safety filter blocked it (`safetyAttributes.blocked: true`). */
function hasBlockedPrediction(record: Record<string, unknown>): boolean {
  return someRecord(record.predictions, (item) => isRecord(item.safetyAttributes) && item.safetyAttributes.blocked === true);
}

function shapeOf(record: Record<string, unknown>): CompletionShape {
  const feedback = record.promptFeedback;
  // (Gemini's BLOCK_REASON_UNSPECIFIED is the enum's default: no block)
  if (isRecord(feedback) && typeof feedback.blockReason === 'string' && feedback.blockReason !== '' && feedback.blockReason !== 'BLOCK_REASON_UNSPECIFIED') return 'blocked';
  if (hasOutput(record, 0)) return 'content';
  // No output, but the model or the provider's filter said why: a refusal, not an empty answer.
  if (hasBlockedPrediction(record) || hasRefusal(record, 0)) return 'blocked';
  return 'empty';
}

/** True when a parsed record is a completion (or a streamed chunk of one) and carries no error object. */
function isCompletionRecord(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value) || hasErrorKey(value)) return false;
  return (
    COMPLETION_KEYS.some((key) => key in value) ||
    (value.object === 'response' && 'status' in value) ||
    // a whole chat or text completion by its object type, even when a relay dropped its `choices` (not a stream's chunk)
    value.object === 'chat.completion' ||
    value.object === 'text_completion' ||
    isOllamaAnswer(value) ||
    isPrintedMessage(value) ||
    isNativeAnswer(value)
  );
}

/** Stream event types that close an answer (Anthropic, OpenAI Responses). */
const TERMINAL_EVENT_TYPES: ReadonlySet<string> = new Set(['message_stop', 'response.completed', 'response.incomplete', 'response.done']);

/** The keys of a stop or finish reason (Hunyuan's `FinishReason`, Titan's `completionReason` among them). */
const STOP_REASON_KEYS: ReadonlySet<string> = new Set(['finish_reason', 'finishReason', 'stop_reason', 'FinishReason', 'completionReason']);

/** True when `value` holds a stop or finish reason ({@link STOP_REASON_KEYS}) that is set. */
function hasStopReason(value: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  if (Array.isArray(value)) return value.some((item) => hasStopReason(item, depth + 1));
  if (!isRecord(value)) return false;
  for (const [key, entry] of Object.entries(value)) {
    if (STOP_REASON_KEYS.has(key) && typeof entry === 'string' && entry !== '') return true;
    if (typeof entry === 'object' && hasStopReason(entry, depth + 1)) return true;
  }
  return false;
}

/**
 * A streamed answer read as a whole: its chunks (SSE `data:` events, or Gemini's JSON array of chunks) carry output
 * when any chunk does, were refused when one says so, and are empty only when the stream visibly finished (a chunk
 * with a stop reason or a closing event) without any output — a stream cut before its end is not an empty answer.
 */
function streamOf(chunks: readonly unknown[]): Completion | null {
  if (chunks.length === 0 || !chunks.every(isRecord) || !chunks.some(isCompletionRecord)) return null;
  if (chunks.some((chunk) => hasErrorKey(chunk as Record<string, unknown>))) return null;
  const text = JSON.stringify(blankGeneratedText(chunks, 0));
  const shapes = chunks.map((chunk) => shapeOf(chunk as Record<string, unknown>));
  if (shapes.includes('content')) return { text, shape: 'content' };
  if (shapes.includes('blocked')) return { text, shape: 'blocked' };
  const shape: CompletionShape = 'empty';
  const finished = chunks.some((chunk) => TERMINAL_EVENT_TYPES.has(String((chunk as Record<string, unknown>).type)) || hasStopReason(chunk, 0));
  return finished ? { text, shape } : null;
}

/** Keys under which a success envelope's `data` carries the model's answer as one string (`{"data":{"answer":"…"}}`). */
const ENVELOPE_ANSWER_KEYS: readonly string[] = ['answer', 'result', 'reply', 'output_text'];

/**
 * A success envelope whose `data` carries the answer as a string under {@link ENVELOPE_ANSWER_KEYS}: an answer (its
 * words blanked, as a completion's are), empty when every such string is blank; `null` when `data` holds none.
 */
function envelopeAnswer(envelope: Record<string, unknown>, data: Record<string, unknown>): Completion | null {
  const keys = ENVELOPE_ANSWER_KEYS.filter((key) => typeof data[key] === 'string');
  if (keys.length === 0) return null;
  const blanked: Record<string, unknown> = { ...data };
  for (const key of keys) blanked[key] = '';
  const shape: CompletionShape = keys.some((key) => (data[key] as string).trim() !== '') ? 'content' : 'empty';
  return { text: JSON.stringify({ ...envelope, data: blanked }), shape };
}

/**
 * The completion read from a parsed body (the `document` that {@link unwrap} returns for JSON without an error
 * object: one completion, or the chunks of a streamed one), or `null` when the value is not a completion. With
 * `unreadAnswer` (unwrap's: part of a success answer was too long to parse) it is an answer whose words are blanked:
 * with output (`'output'`), or empty (`'reasoning-only'`).
 *
 * @example completionOf({ choices: [{ message: { content: '' }, finish_reason: 'stop' }] })?.shape // 'empty'
 * @example completionOf([{ choices: [{ delta: { content: '' } }] }, { choices: [{ delta: {}, finish_reason: 'stop' }] }])?.shape // 'empty'
 */
export function completionOf(document: unknown, unreadAnswer?: UnreadAnswer): Completion | null {
  if (unreadAnswer !== undefined) {
    // part of the answer was too long to read, and its ends showed what it is, whatever the read part holds
    const read = Array.isArray(document) ? streamOf(document) : null;
    return { text: read?.text ?? '', shape: unreadAnswer === 'output' ? 'content' : 'empty' };
  }
  if (isGeneratedTextList(document)) {
    // Hugging Face's list of generations is one whole answer, not a stream: empty when every text is blank
    return { text: JSON.stringify(blankGeneratedText(document, 0)), shape: hasOutput(document, 0) ? 'content' : 'empty' };
  }
  if (Array.isArray(document)) return streamOf(document);
  // a success envelope around the answer (`{"code":200,"msg":"success","data":{"choices":[…]}}`) is read through its data
  const data = isRecord(document) && isSuccessEnvelope(document) ? document.data : undefined;
  if (data !== undefined && !isCompletionRecord(document) && isCompletionRecord(data)) return completionOf(data);
  if (isRecord(data) && !isCompletionRecord(document)) {
    const answer = envelopeAnswer(document as Record<string, unknown>, data);
    if (answer !== null) return answer;
  }
  if (!isCompletionRecord(document)) return null;
  return { text: JSON.stringify(blankGeneratedText(document, 0)), shape: shapeOf(document) };
}

/**
 * The body with the model's generated text blanked when it is a JSON completion without an error object;
 * otherwise the body unchanged.
 *
 * @example withoutGeneratedText('{"choices":[{"message":{"content":"rate limits explained"},"finish_reason":"stop"}]}')
 * // '{"choices":[{"message":{"content":""},"finish_reason":"stop"}]}'
 */
export function withoutGeneratedText(body: string): string {
  const start = body.trimStart();
  if (!start.startsWith('{') || body.length > 64 * 1024) return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  return completionOf(parsed)?.text ?? body;
}

/**
 * A Markdown heading line ("## Payment Integration"): the layout of a model's formatted answer. A heading that names a
 * section of a failure report ("### Traceback", "### App Versions", "## Error details", "## Steps to reproduce", an issue
 * template's "## Describe the bug") is an error page's or a bug report's layout (Frappe's error report), not an
 * answer's, and does not count.
 */
const MARKDOWN_HEADING =
  /(?:^|\n)[ \t]{0,3}#{1,4}[ \t](?![ \t]{0,3}(?:\*\*)?(?:traceback|stack ?trace|backtrace|errors?\b|exceptions?\b|details? of the error|(?:app |package |library )?versions?\b|route\b|logs?\b|request\b|response\b|environment\b|system info(?:rmation)?|steps to reproduce|expected|actual|describe the bug|bug description|to reproduce|reproduction|what happened|screenshots?|additional (?:context|information)|desktop|smartphone|os\b|operating system)(?![a-z]))[^\n]{1,200}/gi;

/** Heading lines a text needs to read as a formatted answer rather than an error. */
const ANSWER_MIN_HEADINGS = 2;

/**
 * True when a plain text (no JSON completion around it) is laid out as a model's formatted answer: two or more
 * Markdown heading lines. Provider errors, proxy pages and SDK messages are never laid out that way, so such a
 * text reached the classifier as the model's words (docs/policy.md, "How the classifier reads a failure": generated
 * text is never read as an error message). Reads at most `window.length` characters once (the caller passes a
 * bounded window).
 *
 * @example looksLikeFormattedAnswer('Sure!\n\n## Setup\n\nFirst …\n\n## Credits\n\nBuy more credits …') // true
 * @example looksLikeFormattedAnswer('Error: insufficient credits') // false
 */
export function looksLikeFormattedAnswer(window: string): boolean {
  MARKDOWN_HEADING.lastIndex = 0;
  let headings = 0;
  while (MARKDOWN_HEADING.exec(window) !== null) {
    headings += 1;
    if (headings >= ANSWER_MIN_HEADINGS) return true;
  }
  return false;
}

/** The formatted-answer pattern, for the pattern audit test. */
export const FORMATTED_ANSWER_PATTERNS: readonly RegExp[] = [MARKDOWN_HEADING];
