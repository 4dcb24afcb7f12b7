/**
 * The shapes shared by every rule family: a verdict names the reason, the rule that decided it and the text it
 * matched; a text rule is one precompiled pattern over the lower-cased evidence text.
 */
import type { FailoverReason } from '@understudy/contracts';
import type { Evidence, ScannedText } from '../evidence.js';
import { requiredLiterals } from '../text/required-literals.js';
import { familyNeeds, needsOf, patternNeeds } from '../text/trigrams.js';
import type { PatternNeeds } from '../text/trigrams.js';

/** The outcome of the first rule that matched. */
export interface Verdict {
  readonly reason: FailoverReason;
  /** Short rule id, e.g. `openai.insufficient_quota`, `status.429`, `text.context_overflow`. */
  readonly rule: string;
  /** The text or token that matched, for `classify --explain`; `null` for rules that read no text. */
  readonly matched: string | null;
  /** For a phrase-family verdict, the language of the phrase that matched (`en`, `zh`, `ja`, `ru`, `ko`). */
  readonly language?: PhraseLanguage;
  /** True when the code or phrase was read in the innermost error of a wrapped failure, before the wrapper's words. */
  readonly inner?: boolean;
}

/** Languages of the phrase tables. */
export type PhraseLanguage = 'en' | 'zh' | 'ja' | 'ru' | 'ko';

/** The phrases of one family, by language. Patterns are lower case with bounded quantifiers only. */
export type PhraseSet = Readonly<Partial<Record<PhraseLanguage, readonly RegExp[]>>>;

/**
 * One pattern of a text family. Patterns are written in lower case (the evidence text is lower-cased) with
 * bounded quantifiers only, so a scan is linear in the text.
 */
export interface TextRule {
  readonly id: string;
  readonly reason: FailoverReason;
  readonly pattern: RegExp;
  /** The language of the phrase. */
  readonly language: PhraseLanguage;
  /** Extra condition on the evidence (status range, provider); the rule is skipped when it returns false. */
  readonly applies?: (evidence: Evidence) => boolean;
  /**
   * The trigrams a text must hold for `pattern` to match (`patternNeeds`), set by {@link family}; the pattern is
   * not run over a text that lacks them. Absent or `null`: always run.
   */
  readonly needs?: PatternNeeds | null;
  /**
   * For a family of several phrases: each phrase on its own, in order, with its own needs. `pattern` is their
   * alternation; {@link firstTextMatch} runs only the phrases whose needs the text meets and keeps the leftmost
   * match (the first phrase on a tie) — what the alternation matches, without trying every phrase at every
   * position of the text. Absent: `pattern` runs whole.
   */
  readonly phrases?: readonly Phrase[];
}

/** One phrase of a family, with the trigrams a text must hold for it to match (`null`: always run). */
export interface Phrase {
  readonly pattern: RegExp;
  readonly needs: PatternNeeds | null;
}

/** The longest matched text kept in a verdict. */
const MATCH_PREVIEW_CHARS = 120;

/**
 * The first rule of `rules` (in order) whose pattern occurs in the evidence text with its guesses set aside
 * (`Evidence.asserted`) — or in `scanned` when given (the innermost error's message); `applies` conditions still read
 * the whole evidence (its status, its provider).
 *
 * @example firstTextMatch([{ id: 'text.x', reason: 'timeout', pattern: /timed out/ }], evidence)
 */
export function firstTextMatch(rules: readonly TextRule[], evidence: Evidence, scanned: ScannedText = evidence.asserted): Verdict | null {
  for (const rule of rules) {
    // Chinese, Japanese and Korean phrases cannot match a text without their script: skip the scan. Their words are
    // mostly one or two characters, shorter than the trigram literals, so most have no needs to test. (Russian phrases
    // are left to the trigram test, which refuses a text without Cyrillic letters at once.)
    if (rule.language === 'ko' ? !scanned.hangul : (rule.language === 'zh' || rule.language === 'ja') && !scanned.cjk) continue;
    // A text without the literals every match needs cannot match: skip the scan (never changes the verdict).
    if (rule.needs !== undefined && !scanned.trigrams.mayMatch(rule.needs)) continue;
    if (rule.applies !== undefined && !rule.applies(evidence)) continue;
    const match = rule.phrases === undefined ? rule.pattern.exec(scanned.text) : leftmostPhraseMatch(rule.phrases, rule.needs, scanned);
    if (match !== null) {
      return { reason: rule.reason, rule: rule.id, matched: match[0].slice(0, MATCH_PREVIEW_CHARS), language: rule.language };
    }
  }
  return null;
}

/**
 * Which phrases of a family may match, by index ({@link leftmostPhraseMatch}); grown to the largest family. One buffer
 * serves every call: leftmostPhraseMatch calls nothing that could call it again before it has read the marks.
 */
let phraseMarks = new Uint8Array(64);

/**
 * The match the alternation of `phrases` would give over `scanned.text`: the leftmost, and at one position the
 * earliest phrase's. A phrase whose needs the text lacks cannot match and is not run; which phrases may match is
 * read in one pass over the family's `needs` when they are known, else phrase by phrase.
 */
function leftmostPhraseMatch(phrases: readonly Phrase[], needs: PatternNeeds | null | undefined, scanned: ScannedText): RegExpExecArray | null {
  if (phraseMarks.length < phrases.length) phraseMarks = new Uint8Array(phrases.length);
  const marks = phraseMarks;
  const marked = needs !== undefined && needs !== null && needs.keyPhrases !== null;
  if (marked) {
    marks.fill(0, 0, phrases.length);
    scanned.trigrams.markPhrases(needs, marks);
  }
  let best: RegExpExecArray | null = null;
  for (let index = 0; index < phrases.length; index += 1) {
    const phrase = phrases[index] as Phrase;
    if (marked ? marks[index] === 0 : phrase.needs !== null && !scanned.trigrams.mayMatch(phrase.needs)) continue;
    const match = phrase.pattern.exec(scanned.text);
    if (match === null || (best !== null && match.index >= best.index)) continue;
    best = match;
    // No later phrase can match further left than the text's start, and an earlier phrase wins a tie.
    if (best.index === 0) break;
  }
  return best;
}

const LANGUAGES: readonly PhraseLanguage[] = ['en', 'zh', 'ja', 'ru', 'ko'];

/**
 * Builds the text rules of one phrase family: patterns sharing an id and a reason, given as a list (English) or
 * by language (`{ en: […], zh: […], ja: […], ru: […], ko: […] }`). Within a family the order is the list order, languages
 * in the order `en`, `zh`, `ja`, `ru`, `ko`.
 *
 * @example family('text.rate_limit', 'rate_limit', { en: [/rate[ _-]?limit/], zh: [/限流/] })
 */
export function family(
  id: string,
  reason: FailoverReason,
  phrases: readonly RegExp[] | PhraseSet,
  applies?: (evidence: Evidence) => boolean,
): TextRule[] {
  const byLanguage: PhraseSet = Array.isArray(phrases) ? { en: phrases as readonly RegExp[] } : (phrases as PhraseSet);
  const rules: TextRule[] = [];
  for (const language of LANGUAGES) {
    const patterns = byLanguage[language] ?? [];
    if (patterns.length === 0) continue;
    if (patterns.length === 1) {
      const pattern = patterns[0] as RegExp;
      const needs = patternNeeds(pattern);
      rules.push(applies === undefined ? { id, reason, pattern, language, needs } : { id, reason, pattern, language, applies, needs });
      continue;
    }
    // The family is the alternation of its phrases (same reason, same condition): one test of its needs rejects
    // most texts at once; a text that passes runs only the phrases it may hold. Flags are dropped, as the
    // alternation drops them.
    const pattern = new RegExp(patterns.map((each) => `(?:${each.source})`).join('|'));
    const bare = patterns.map((each) => new RegExp(each.source));
    const requirements = bare.map((each) => requiredLiterals(each));
    const phrases = bare.map((each, index): Phrase => ({ pattern: each, needs: needsOf(requirements[index] ?? null) }));
    const needs = familyNeeds(requirements);
    rules.push(
      applies === undefined ? { id, reason, pattern, language, needs, phrases } : { id, reason, pattern, language, applies, needs, phrases },
    );
  }
  return rules;
}
