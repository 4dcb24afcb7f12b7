/**
 * One redaction of URLs for everything that shows or logs one (admin status, CLI output, log lines): the
 * userinfo (`user:password@`) and the values of secret-looking query parameters (`key`, `api_key`, `token`,
 * `sig`, …) become `***`; everything else stays as written, so the URL still says where it points. Works on
 * text that does not parse as a URL too, and never throws.
 */

const MASK = '***';

/** Query parameter names whose value is treated as a secret (matched anywhere in the name, any case). */
const SECRET_PARAM = /key|token|secret|pass|pwd|sig|auth|credential|session|code/i;

/** `scheme://` at the start of a URL. */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/** URLs inside a longer text (a log message, an error). */
const URL_IN_TEXT = /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s"'<>`]+/g;

function redactQuery(query: string): string {
  return query.replace(/([^=&;]*)=([^&;]*)/g, (whole, name: string, value: string) => (value !== '' && SECRET_PARAM.test(name) ? `${name}=${MASK}` : whole));
}

/**
 * The URL with its userinfo and secret-looking query values replaced by `***`.
 *
 * @example redactUrl('http://user:PASS@host/v1?key=abc&x=1') // 'http://***@host/v1?key=***&x=1'
 * @example redactUrl('https://api.openai.com/v1') // unchanged
 */
export function redactUrl(url: string): string {
  let rest = url;
  let head = '';
  const scheme = SCHEME.exec(rest);
  if (scheme !== null) {
    head = scheme[0];
    rest = rest.slice(head.length);
    const authorityEnd = rest.search(/[/?#]/);
    const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
    const at = authority.lastIndexOf('@');
    if (at !== -1) {
      head += `${MASK}@`;
      rest = rest.slice(at + 1);
    }
  }
  const queryStart = rest.indexOf('?');
  if (queryStart === -1) return head + rest;
  const fragmentStart = rest.indexOf('#', queryStart);
  const queryEnd = fragmentStart === -1 ? rest.length : fragmentStart;
  return `${head}${rest.slice(0, queryStart + 1)}${redactQuery(rest.slice(queryStart + 1, queryEnd))}${rest.slice(queryEnd)}`;
}

/**
 * A text with every URL in it passed through {@link redactUrl} (the same string when it holds none).
 *
 * @example redactUrlsInText('connect to http://u:p@h:1/x failed') // 'connect to http://***@h:1/x failed'
 */
export function redactUrlsInText(text: string): string {
  if (!text.includes('://')) return text;
  return text.replace(URL_IN_TEXT, (url) => redactUrl(url));
}
