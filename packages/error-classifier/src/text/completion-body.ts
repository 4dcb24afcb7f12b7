/**
 * A successful-looking completion body (HTTP 200 with `choices`, `candidates`, `content` or `output` and no
 * `error`) can still reach the classifier: empty, cut short, or blocked. Its generated text is the model's
 * words, not the provider's, so an answer that talks about "rate limits" must not read as a rate limit. This
 * blanks the generated text and keeps the structure (finish reasons, empty lists, block reasons, usage).
 */

/** Bodies longer than this are not parsed (they are windowed as text instead). @default 65536 */
const MAX_PARSED_CHARS = 64 * 1024;

const COMPLETION_KEYS = ['choices', 'candidates', 'content', 'output', 'delta'];
const ERROR_KEYS = ['error', 'errors', 'err', 'error_msg', 'errorMessage'];
const GENERATED_TEXT_KEYS: ReadonlySet<string> = new Set([
  'content',
  'text',
  'reasoning',
  'reasoning_content',
  'thinking',
  'arguments',
  'partial_json',
  'output_text',
]);

/** Depth limit of the walk (JSON.parse output is a tree, but keep the walk bounded anyway). */
const MAX_DEPTH = 32;

function blankGeneratedText(value: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => blankGeneratedText(item, depth + 1));
  const result: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
    result[key] = GENERATED_TEXT_KEYS.has(key) && typeof entry === 'string' ? '' : blankGeneratedText(entry, depth + 1);
  }
  return result;
}

/**
 * The body with the model's generated text blanked when it is a JSON completion without an error object;
 * otherwise the body unchanged.
 *
 * @example withoutGeneratedText('{"choices":[{"message":{"content":"rate limits explained"},"finish_reason":"stop"}]}')
 * // '{"choices":[{"message":{"content":""},"finish_reason":"stop"}]}'
 */
export function withoutGeneratedText(body: string): string {
  if (body.length > MAX_PARSED_CHARS) return body;
  const start = body.trimStart();
  if (!start.startsWith('{')) return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return body;
  const record = parsed as Record<string, unknown>;
  if (ERROR_KEYS.some((key) => key in record)) return body;
  if (!COMPLETION_KEYS.some((key) => key in record)) return body;
  return JSON.stringify(blankGeneratedText(record, 0));
}
