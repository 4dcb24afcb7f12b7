/**
 * The one rule for session keys, shared by the chat header `x-understudy-session` and the admin API's
 * `/admin/sessions/:key`, so the admin API never creates a session the chat API cannot address.
 */
import type { GatewayError } from '../gateway-error.js';
import { invalidRequest } from '../gateway-error.js';

/** 1-256 printable ASCII characters, the first not a space. */
const SESSION_KEY = /^[\x21-\x7e][\x20-\x7e]{0,255}$/;

/** True when `key` is a valid session key. @example isValidSessionKey('chat-42') // true */
function isValidSessionKey(key: string): boolean {
  return SESSION_KEY.test(key);
}

/**
 * Checks a session key. The key itself is not echoed (it may hold control characters).
 *
 * @param where - where the key came from, as the message names it (`x-understudy-session`, `the session key in the path`).
 * @throws {GatewayError} 400 `invalid_session_key`.
 * @example checkSessionKey('chat-42', 'x-understudy-session') // 'chat-42'
 */
export function checkSessionKey(key: string, where: string): string {
  if (!isValidSessionKey(key)) throw sessionKeyError(where);
  return key;
}

function sessionKeyError(where: string): GatewayError {
  return invalidRequest(`${where}: use 1-256 printable ASCII characters (letters, digits, punctuation, spaces after the first)`, 'invalid_session_key');
}
