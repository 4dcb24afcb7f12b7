/**
 * The shapes shared by every rule family: a verdict names the reason, the rule that decided it and the text it
 * matched; a text rule is one precompiled pattern over the lower-cased evidence text.
 */
import type { FailoverReason } from '@understudy/contracts';
import type { Evidence } from '../evidence.js';

/** The outcome of the first rule that matched. */
export interface Verdict {
  readonly reason: FailoverReason;
  /** Short rule id, e.g. `openai.insufficient_quota`, `status.429`, `text.context_overflow`. */
  readonly rule: string;
  /** The text or token that matched, for `classify --explain`; `null` for rules that read no text. */
  readonly matched: string | null;
}

/**
 * One pattern of a text family. Patterns are written in lower case (the evidence text is lower-cased) with
 * bounded quantifiers only, so a scan is linear in the text.
 */
export interface TextRule {
  readonly id: string;
  readonly reason: FailoverReason;
  readonly pattern: RegExp;
  /** Extra condition on the evidence (status range, provider); the rule is skipped when it returns false. */
  readonly applies?: (evidence: Evidence) => boolean;
}

/** The longest matched text kept in a verdict. */
const MATCH_PREVIEW_CHARS = 120;

/**
 * The first rule of `rules` (in order) whose pattern occurs in the evidence text.
 *
 * @example firstTextMatch([{ id: 'text.x', reason: 'timeout', pattern: /timed out/ }], evidence)
 */
export function firstTextMatch(rules: readonly TextRule[], evidence: Evidence): Verdict | null {
  for (const rule of rules) {
    if (rule.applies !== undefined && !rule.applies(evidence)) continue;
    const match = rule.pattern.exec(evidence.text);
    if (match !== null) {
      return { reason: rule.reason, rule: rule.id, matched: match[0].slice(0, MATCH_PREVIEW_CHARS) };
    }
  }
  return null;
}

/** Builds the text rules of one family from a list of patterns sharing an id and a reason. */
export function family(id: string, reason: FailoverReason, patterns: readonly RegExp[], applies?: (evidence: Evidence) => boolean): TextRule[] {
  return patterns.map((pattern) => (applies === undefined ? { id, reason, pattern } : { id, reason, pattern, applies }));
}
