/**
 * What `understudy classify` prints: the docs/contracts.md#classify JSON line (fixed key order) or, with `--explain`, a short
 * human-readable account of the decision.
 */
import { REASON_POLICY } from '@understudy/error-classifier';
import type { FailureExplanation } from '@understudy/error-classifier';
import type { Colors } from '../output.js';

/**
 * The docs/contracts.md#classify output line of one classification (no trailing newline). `rotatesProfile` is true when the
 * reason's policy allows any rotation to another profile of the same provider.
 *
 * @example classificationLine(explanation) // '{"reason":"rate_limit","status":429,"advancesFallback":true,…}'
 */
export function classificationLine(result: FailureExplanation): string {
  const policy = REASON_POLICY[result.reason];
  return JSON.stringify({
    reason: result.reason,
    status: result.status,
    advancesFallback: policy.advancesFallback,
    rotatesProfile: policy.rotation !== 'none',
    cooldownScope: result.cooldownScope,
    retryAfterMs: result.retryAfterMs,
    detail: result.detail,
  });
}

/** The error line for an input line that could not be read (docs/contracts.md#classify). */
export function invalidLine(error: string, lineNumber: number): string {
  return JSON.stringify({ error, line: lineNumber });
}

/**
 * A duration for people: `174 ms`, `20 s`, `1 min 30 s`, `24 h`.
 *
 * @example humanDuration(90_000) // '1 min 30 s'
 */
export function humanDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  const parts = [hours > 0 ? `${hours} h` : '', minutes > 0 ? `${minutes} min` : '', rest > 0 && hours === 0 ? `${rest} s` : ''];
  return parts.filter((part) => part !== '').join(' ');
}

/** Where the deciding status came from, in words. */
const STATUS_SOURCE: Readonly<Record<string, string>> = {
  input: 'given',
  inner: 'the inner error\'s',
  text: 'stated in the text',
};

/**
 * The third `--explain` line: which layer decided (`fact`, `code`, `finish_reason`, `completion`, `phrase`,
 * `provider`, `status`, `fallback`), the wrapper layers peeled to reach the provider's own error, the inner
 * status, the status the rules decided on and where it came from, and the phrase family with its language.
 *
 * @example traceText(explanation) // 'decided by phrase · unwrapped prefix › json › error · inner status 429 · …'
 */
function traceText(result: FailureExplanation): string {
  const trace = result.trace;
  const parts = [`decided by ${trace.layer}`];
  parts.push(trace.unwrapped.length === 0 ? 'no wrapper' : `unwrapped ${trace.unwrapped.join(' › ')}`);
  if (trace.readInnermost) parts.push('read in the innermost error first');
  if (trace.innerStatus !== null) parts.push(`inner status ${trace.innerStatus}`);
  if (trace.decidingStatus !== null && trace.decidingStatusSource !== null) {
    parts.push(`deciding status ${trace.decidingStatus} (${STATUS_SOURCE[trace.decidingStatusSource] ?? trace.decidingStatusSource})`);
  }
  if (trace.phraseFamily !== null) parts.push(`phrase family ${trace.phraseFamily} (${trace.language ?? 'en'})`);
  return parts.join(' · ');
}

/** The `--explain` text of one classification (three lines, no trailing newline). */
export function explanationText(result: FailureExplanation, lineNumber: number, label: string | null, colors: Colors): string {
  const policy = REASON_POLICY[result.reason];
  const where = label === null ? `line ${lineNumber}` : `line ${lineNumber} (${label})`;
  const matched = result.matched === null ? '' : `, matched ${JSON.stringify(result.matched)}`;
  const status =
    result.status === null ? 'no status' : `status ${result.status} (${result.statusSource === 'input' ? 'given' : 'stated in the text'})`;
  const facts = [
    status,
    result.retryAfterMs === null ? 'no retry-after' : `retry after ${humanDuration(result.retryAfterMs)}`,
    result.cooldownScope === null ? 'no cooldown' : `cooldown: ${result.cooldownScope}`,
    policy.advancesFallback ? 'advances fallback' : 'ends the turn',
    policy.rotation === 'none' ? 'no profile rotation' : 'rotates profile',
  ];
  return `${where}: ${colors.bold(result.reason)}  (rule ${result.detail}${matched})\n  ${facts.join(' · ')}\n  ${traceText(result)}`;
}

/** The `--explain` text of an input line that could not be read. */
export function invalidExplanationText(error: string, lineNumber: number, colors: Colors): string {
  return `line ${lineNumber}: ${colors.red('invalid input')}: ${error}`;
}
