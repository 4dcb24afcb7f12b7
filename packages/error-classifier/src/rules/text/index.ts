/**
 * The text families in the order they are read. The order is the precedence between causes that share
 * wording (each step cites the the model-failover doc rule it protects):
 *
 * 1. refusal — a content block can hide behind any status or an "InternalError" code name; then what a client states
 *    outright: an empty answer, or token arithmetic over the model's maximum (a UI banner's "high traffic" around it
 *    is not the cause);
 * 2. quota windows in Chinese (配额, 额度), usage windows that say when they reset, billing, then other
 *    periodic usage windows — a limit that resets is a window even when it mentions credits, credit exhaustion
 *    wins over a mention of a monthly limit, and all run before auth so billing text under 401/403 stays billing;
 * 3. permanent auth — a ban or deactivation is not a plain auth failure;
 * 4. overloaded, then rate limit — capacity wording inside a rate-limit wrapper is capacity; TPM ceilings
 *    ("Request too large … tokens per minute") are rate limits and run before context overflow;
 * 5. context overflow, session expiry, wrong API keys, format, missing model — what a 404 or 400 body can
 *    name (a wrong key under a 400 is still a wrong key);
 * 6. TLS, auth, then a relay's hint to check the parameters (a remedy, read when nothing named a cause);
 * 7. time words ("timed out", "aborted due to timeout"), then explicit aborts, then a local runtime that lost its model
 *    runner (a server error in transport words), then transport failures and server errors (an abort reported
 *    through a "stream error" wrapper stays an abort);
 * 8. empty answers (only without a usable status).
 */
import type { TextRule } from '../rule.js';
import { AUTH_KEY_RULES, AUTH_PERMANENT_RULES, AUTH_RULES, LOGIN_FAILED_RULES, TLS_RULES } from './access-rules.js';
import {
  BILLING_REMEDY_RULES,
  BILLING_RULES,
  OPENAI_QUOTA_RULES,
  OVERLOADED_RULES,
  PAYMENT_REQUIRED_RULES,
  QUOTA_WINDOW_RULES,
  RATE_LIMIT_RULES,
  RESETTING_WINDOW_RULES,
  USAGE_WINDOW_RULES,
} from './quota-rules.js';
import {
  CONTEXT_OVERFLOW_RULES,
  FORMAT_HINT_RULES,
  FORMAT_RULES,
  MODEL_NOT_FOUND_RULES,
  REFUSAL_RULES,
  SESSION_EXPIRED_RULES,
  STATED_OVERFLOW_RULES,
} from './request-rules.js';
import {
  ABORT_RULES,
  EMPTY_RESPONSE_RULES,
  PRINTED_EMPTY_RULES,
  REPORTED_FINISH_ERROR_RULES,
  RUNNER_LOST_RULES,
  SERVER_ERROR_RULES,
  STATED_EMPTY_RULES,
  TIMEOUT_RULES,
  TRANSPORT_RULES,
} from './transport-rules.js';

/** Text rules that name a specific cause, in precedence order (steps 1–6 above). */
export const SPECIFIC_TEXT_RULES: readonly TextRule[] = Object.freeze([
  ...REFUSAL_RULES,
  ...STATED_EMPTY_RULES,
  ...REPORTED_FINISH_ERROR_RULES,
  ...STATED_OVERFLOW_RULES,
  ...QUOTA_WINDOW_RULES,
  ...RESETTING_WINDOW_RULES,
  ...BILLING_RULES,
  ...BILLING_REMEDY_RULES,
  ...OPENAI_QUOTA_RULES,
  ...USAGE_WINDOW_RULES,
  ...AUTH_PERMANENT_RULES,
  ...OVERLOADED_RULES,
  ...RATE_LIMIT_RULES,
  ...PAYMENT_REQUIRED_RULES,
  ...CONTEXT_OVERFLOW_RULES,
  ...SESSION_EXPIRED_RULES,
  ...AUTH_KEY_RULES,
  ...FORMAT_RULES,
  ...MODEL_NOT_FOUND_RULES,
  ...TLS_RULES,
  ...AUTH_RULES,
  ...FORMAT_HINT_RULES,
]);

/**
 * Text rules for generic transient wording (steps 7–8 above). Provider-scoped wrappers such as OpenRouter's
 * bare "Provider returned error" are read between the specific and these generic rules.
 */
export const GENERIC_TEXT_RULES: readonly TextRule[] = Object.freeze([
  ...TIMEOUT_RULES,
  ...ABORT_RULES,
  ...RUNNER_LOST_RULES,
  ...TRANSPORT_RULES,
  ...SERVER_ERROR_RULES,
  ...LOGIN_FAILED_RULES,
  ...EMPTY_RESPONSE_RULES,
  ...PRINTED_EMPTY_RULES,
]);

/** Every text rule, in the order they are read (specific, then generic). */
export const TEXT_RULES: readonly TextRule[] = Object.freeze([...SPECIFIC_TEXT_RULES, ...GENERIC_TEXT_RULES]);
