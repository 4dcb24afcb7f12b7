/**
 * Turns one raw failure text (a response body, an SDK message, a detail string) into the flat text the rules
 * read. Every step is a single forward pass, so the cost is linear in the bounded window:
 *
 * 1. window: huge bodies are cut to their head and tail (the error object is at one end or the other);
 * 2. unescape: `\"`, `\\\"`, `\n`, `\u00e9` … from JSON nested or stringified inside other JSON collapse to the
 *    characters they stand for, so a message wrapped three times reads like the original;
 * 3. HTML: tags, scripts, styles and comments of proxy error pages are dropped, leaving the visible text;
 * 4. whitespace runs (line wraps of logged payloads) become one space; curly quotes become straight ones.
 *
 * Lower-casing is left to the caller (retry-after dates are read from the original case).
 */

/** Characters kept from the start of a long text. @default 6144 (6 Ki) */
export const HEAD_WINDOW_CHARS = 6 * 1024;
/** Characters kept from the end of a long text. @default 2048 (2 Ki) */
export const TAIL_WINDOW_CHARS = 2 * 1024;

/**
 * The bounded window of a text: the whole text when short, else its first {@link HEAD_WINDOW_CHARS} and last
 * {@link TAIL_WINDOW_CHARS} characters joined by a line break.
 *
 * @example boundedWindow('short') // 'short'
 */
export function boundedWindow(text: string): string {
  if (text.length <= HEAD_WINDOW_CHARS + TAIL_WINDOW_CHARS) return text;
  // Joined into one flat string: every later pass reads it character by character.
  return [text.slice(0, HEAD_WINDOW_CHARS), text.slice(text.length - TAIL_WINDOW_CHARS)].join('\n');
}

const BACKSLASH = 0x5c;

function isHexDigit(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

/** Whitespace, and the box-drawing characters (U+2500–U+257F) CLIs frame their error panels with: a frame is no word. */
/** Characters that show nothing: the soft hyphen, zero-width space, non-joiner and joiner, word joiner, byte-order mark. */
function isInvisible(code: number): boolean {
  return code === 0xad || (code >= 0x200b && code <= 0x200d) || code === 0x2060 || code === 0xfeff;
}

function isSpace(code: number): boolean {
  return (
    code <= 0x20 ||
    (code >= 0x2500 && code <= 0x257f) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Curly quotes and primes that providers and terminals substitute for ASCII quotes. */
function straightQuote(code: number): string | undefined {
  if (code === 0x2018 || code === 0x2019 || code === 0x2032) return "'";
  if (code === 0x201c || code === 0x201d || code === 0x2033) return '"';
  return undefined;
}

/**
 * Anything {@link unescapeAndCollapse} might change beyond trimming: a backslash, a run of two spaces, or any
 * character outside printable ASCII (line breaks, tabs, control characters, odd spaces, curly quotes — and,
 * conservatively, every other non-ASCII character, which then takes the exact path).
 */
const NEEDS_WORK = /[\\]| {2}|[^ -~]/;

/**
 * One pass over `text`: decodes backslash escapes at any nesting depth (a run of backslashes before `"`, `'`,
 * `/`, `n`, `r`, `t` or `uXXXX`), straightens curly quotes, drops soft hyphens and zero-width characters, and
 * collapses whitespace runs to one space.
 * The result is trimmed.
 *
 * @example unescapeAndCollapse('{\\"error\\":\\n  \\"x\\"}') // '{"error": "x"}'
 */
export function unescapeAndCollapse(text: string): string {
  // Fast path: nothing to decode, no whitespace run, no curly quote — the text only needs trimming.
  if (!NEEDS_WORK.test(text)) return text.trim();
  const parts: string[] = [];
  // Kept characters from runStart up to the current index are written as one piece, after one space when a
  // whitespace run (or an escaped one) came before them and something was written already.
  let runStart = 0;
  let pendingSpace = false;
  let wroteAny = false;
  let index = 0;
  const length = text.length;
  while (index < length) {
    const code = text.charCodeAt(index);
    // Printable ASCII other than the backslash (most of any text) is kept as it is.
    if (code > 0x20 && code < 0x7f && code !== BACKSLASH) {
      index += 1;
      continue;
    }
    // A lone space between two kept printable characters is kept as it is too (the output is the same).
    if (code === 0x20 && index > runStart && index + 1 < length) {
      const next = text.charCodeAt(index + 1);
      if (next > 0x20 && next < 0x7f && next !== BACKSLASH) {
        index += 2;
        continue;
      }
    }
    if (isInvisible(code)) {
      // A soft hyphen or a zero-width character inside a word is dropped, so the word reads whole.
      if (index > runStart) {
        if (pendingSpace && wroteAny) parts.push(' ');
        pendingSpace = false;
        parts.push(text.slice(runStart, index));
        wroteAny = true;
      }
      index += 1;
      runStart = index;
      continue;
    }
    const straight = code === BACKSLASH || isSpace(code) ? undefined : straightQuote(code);
    if (code !== BACKSLASH && straight === undefined && !isSpace(code)) {
      // Any other character (non-ASCII letters, CJK …) is kept as it is.
      index += 1;
      continue;
    }
    if (index > runStart) {
      if (pendingSpace && wroteAny) parts.push(' ');
      pendingSpace = false;
      parts.push(text.slice(runStart, index));
      wroteAny = true;
    }
    let piece = '';
    if (code === BACKSLASH) {
      let next = index;
      while (next < length && text.charCodeAt(next) === BACKSLASH) next += 1;
      const escaped = next < length ? text.charCodeAt(next) : -1;
      if (escaped === 0x6e || escaped === 0x72 || escaped === 0x74) {
        // \n \r \t at any depth: whitespace
        pendingSpace = true;
        index = next + 1;
      } else if (
        escaped === 0x75 &&
        next + 4 < length &&
        isHexDigit(text.charCodeAt(next + 1)) &&
        isHexDigit(text.charCodeAt(next + 2)) &&
        isHexDigit(text.charCodeAt(next + 3)) &&
        isHexDigit(text.charCodeAt(next + 4))
      ) {
        const decoded = Number.parseInt(text.slice(next + 1, next + 5), 16);
        if (isSpace(decoded)) pendingSpace = true;
        else if (!isInvisible(decoded)) piece = straightQuote(decoded) ?? String.fromCharCode(decoded);
        index = next + 5;
      } else {
        // \" \' \/ and any other escaped character: keep the character, drop the backslashes
        index = next;
      }
    } else if (straight !== undefined) {
      piece = straight;
      index += 1;
    } else {
      pendingSpace = true;
      index += 1;
    }
    if (piece !== '') {
      if (pendingSpace && wroteAny) parts.push(' ');
      pendingSpace = false;
      parts.push(piece);
      wroteAny = true;
    }
    runStart = index;
  }
  if (length > runStart) {
    if (pendingSpace && wroteAny) parts.push(' ');
    parts.push(text.slice(runStart, length));
  }
  return parts.join('');
}

const HTML_MARKER = /<(?:!doctype html|html[\s>]|head>|body[\s>]|title>)/i;

/** True when the text carries an HTML page (a proxy or CDN error page), possibly after a prefix. */
export function looksLikeHtml(text: string): boolean {
  // Every marker opens with `<`: one character search before the pattern.
  return text.includes('<') && HTML_MARKER.test(text);
}

const SCRIPT_END = /<\/script/gi;
const STYLE_END = /<\/style/gi;

function startsWithIgnoringCase(text: string, index: number, lowerPrefix: string): boolean {
  if (index + lowerPrefix.length > text.length) return false;
  for (let offset = 0; offset < lowerPrefix.length; offset += 1) {
    let code = text.charCodeAt(index + offset);
    if (code >= 0x41 && code <= 0x5a) code += 0x20;
    if (code !== lowerPrefix.charCodeAt(offset)) return false;
  }
  return true;
}

function indexAfter(pattern: RegExp, text: string, from: number): number {
  pattern.lastIndex = from;
  const match = pattern.exec(text);
  if (match === null) return -1;
  const close = text.indexOf('>', match.index);
  return close === -1 ? text.length : close + 1;
}

const ENTITY = /&(?:nbsp|amp|lt|gt|quot|apos|#39|#x27|#160);/g;
const ENTITY_TEXT: Readonly<Record<string, string>> = {
  '&nbsp;': ' ',
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&apos;': "'",
  '&#39;': "'",
  '&#x27;': "'",
  '&#160;': ' ',
};

/**
 * The visible text of an HTML page (and any text around it): tags become spaces; `<script>`, `<style>` and
 * comments are dropped; a few common entities are decoded. Linear: every search moves forward.
 *
 * @example htmlToText('<p>502 Bad Gateway</p>') // ' 502 Bad Gateway ' (spaces collapse later)
 */
export function htmlToText(text: string): string {
  const parts: string[] = [];
  let index = 0;
  while (index < text.length) {
    const open = text.indexOf('<', index);
    if (open === -1) {
      parts.push(text.slice(index));
      break;
    }
    parts.push(text.slice(index, open), ' ');
    let resume: number;
    if (startsWithIgnoringCase(text, open, '<!--')) {
      const close = text.indexOf('-->', open + 4);
      resume = close === -1 ? text.length : close + 3;
    } else if (startsWithIgnoringCase(text, open, '<script')) {
      resume = indexAfter(SCRIPT_END, text, open + 7);
      if (resume === -1) resume = text.length;
    } else if (startsWithIgnoringCase(text, open, '<style')) {
      resume = indexAfter(STYLE_END, text, open + 6);
      if (resume === -1) resume = text.length;
    } else {
      const close = text.indexOf('>', open + 1);
      if (close === -1) {
        parts.push(text.slice(open + 1));
        break;
      }
      resume = close + 1;
    }
    index = resume;
  }
  return parts.join('').replace(ENTITY, (entity) => ENTITY_TEXT[entity] ?? ' ');
}

/**
 * A Python traceback frame (`File "…", line N, in f`) with the lines indented under it: its source, Python 3.13's
 * `...<N lines>...` and caret lines. Line breaks may be real (LF or CRLF) or escaped inside a JSON string (`\\n`), as
 * a server that returns its traceback in `{"detail": "Traceback …"}` writes them.
 */
const TRACEBACK_FRAME =
  /(\r?\n|(?:\\r)?\\n)([ \t]{0,8})File \\?"[^"\r\n]{1,400}", line \d{1,7}, in (?:(?!\\[rn])[^\r\n]){1,200}(?:(?:\r?\n|(?:\\r)?\\n)\2[ \t]{1,40}(?!File )(?:(?!\\[rn])[^\r\n]){1,400}){0,60}/g;

/**
 * A text with the frames of its Python tracebacks removed, each leaving its line break: a frame's file, function and
 * code (`timeout.py … in func_with_timeout`, `request_timeout=request_timeout,`) name identifiers, not the failure,
 * which the exception line after the frames states. "Traceback (most recent call last):", chained-exception lines and
 * the exception lines stay.
 *
 * @example withoutTracebackFrames('Traceback:\n  File "a.py", line 3, in f\n    timeout=timeout,\nError: 500') // 'Traceback:\n\nError: 500'
 */
export function withoutTracebackFrames(text: string): string {
  if (!text.includes('File "') && !text.includes('File \\"')) return text;
  return text.replace(TRACEBACK_FRAME, '$1');
}

/**
 * The full pipeline for one source text: window, unescape, HTML to text, collapse. Keeps the original case.
 *
 * @example prepareText('{"error":{"message":"Overloaded"}}') // '{"error":{"message":"Overloaded"}}'
 */
export function prepareText(text: string): { readonly text: string; readonly html: boolean } {
  const flat = unescapeAndCollapse(withoutTracebackFrames(boundedWindow(text)));
  if (!looksLikeHtml(flat)) return { text: flat, html: false };
  return { text: unescapeAndCollapse(htmlToText(flat)), html: true };
}
