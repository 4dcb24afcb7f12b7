/**
 * A server's access-log line names the status that server sent its own client, not a provider's answer
 * (docs/policy.md, "How the classifier reads a failure": an access log's status is the weakest). An app that failed to
 * reach its provider logs `INFO: 127.0.0.1:11643 - "GET /v1/ollama/tags HTTP/1.1" 500 Internal Server Error` beside the
 * provider's own failure; the reason phrase after that status would read as the cause ("internal server error"). It
 * is blanked here (spaces, so offsets do not move) before the phrase families read the text; the status itself stays
 * for the stated-status patterns, which read it as a loose status (one that proves no response of the provider's).
 */
import { ACCESS_LOG_REQUEST, REASON_PHRASES } from '../stated-status.js';

/** The reason phrase after the status of a common-log request line (lower case; line breaks already spaces). */
const ACCESS_LOG_REPLY = new RegExp(`(${ACCESS_LOG_REQUEST} \\d{3} )(${REASON_PHRASES})`, 'g');

/**
 * `text` with the reason phrase of every access-log reply blanked; the same string when it holds none.
 *
 * @param text - lower-cased evidence text.
 * @example blankAccessLogReplies('"get /tags http/1.1" 500 internal server error server error: all connection attempts failed')
 * // '"get /tags http/1.1" 500 ' + 21 spaces + ' server error: all connection attempts failed'
 */
export function blankAccessLogReplies(text: string): string {
  if (!text.includes(' http/')) return text;
  return text.replace(ACCESS_LOG_REPLY, (_line, request: string, phrase: string) => `${request}${' '.repeat(phrase.length)}`);
}
