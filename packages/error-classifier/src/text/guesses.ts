/**
 * Guesses and conditions a client prints beside a failure, set aside before the phrase families read the text
 * (docs/policy.md, "Guesses and conditions name no cause").
 *
 * A translator's "this engine is unavailable: maybe a wrong key, maybe requests too fast", a toast's "This may be due to
 * a network issue, an invalid API key, or API usage limits", a "Possible causes:" list or a notice "If the status code is
 * 400, the file exceeds the token limit" name several causes, or one that holds only under a condition; read as text,
 * the first family a guess happens to match would decide, before the status or the error that follows. These spans are
 * blanked (replaced by spaces, so offsets do not move):
 *
 * - a **list of guesses**: a hedge ("may be due to", "might be because", "possibly caused by", 可能是, возможно, "puede
 *   deberse a", "pode ser causado por", "peut être dû à", "könnte an") whose sentence offers alternatives (" or ",
 *   "and/or", "、", 或, 也可能, "•", " o ", " ou ", " oder ", または; a remark in parentheses offers none), to the
 *   sentence's end (a full stop, a semicolon, a colon before a status). A hedge that opens its sentence ("Possibly due to
 *   maintenance or high load, the service is unavailable") is only its clause, up to the first comma. A single hedged
 *   cause — "suspended, possibly due to reaching the monthly spending limit" — is the sender's explanation and stays;
 * - a **header of guesses**: one in the plural ("Possible causes:", "Here are the possible reasons:", "Common causes
 *   include", возможные причины, "posibles causas", "possíveis causas", "causes possibles", "mögliche Ursachen",
 *   原因として考えられる) announces a list; one in the singular ("Possible cause:", 可能的原因) only when it offers
 *   alternatives. Blanked up to where the failure itself is quoted again ("Here is the error message", "Error:",
 *   "Provider said", "HTTP status: 500", 错误信息：) or the next text;
 * - a **condition** on a status ("If the status code is 404, …", "if you get HTTP 413", 如果状态码为 400 …), on the
 *   failure persisting ("If the error persists, your key may be invalid or …") or on a cause in a hint ("If the model is
 *   not found, pull it first", "when you hit a rate limit, wait", "if you see 'model not found', check the name"): the
 *   rest of its sentence. (Not any sentence that opens with "If": a remedy there — "If you wish to continue on a paid
 *   basis, …" — still names the cause.)
 *
 * The cost is one scan for the leads over the bounded text and at most {@link MAX_LEADS} windows of
 * {@link MAX_SPAN_CHARS} after them; a text without leads is returned as it is.
 */
import { patternNeeds } from './trigrams.js';
import type { PatternNeeds, TrigramSet } from './trigrams.js';

/**
 * The leads (lower case: the evidence text is lower-cased, its line breaks already made spaces). Named groups: `list`, a
 * header in the plural, which announces a list; `header`, one in the singular, a list only when it offers
 * alternatives; `condition`, a condition on a status or on the failure persisting; `fronted`, an adverbial hedge
 * ("Possibly due to …") that may open its sentence; otherwise a hedge in the predicate ("may be due to", 可能是).
 * No alternative opens with a lookbehind: one that bounds a lead follows the lead's first word (`if(?<=…if)`). An
 * alternative that opened with a lookbehind kept the engine from skipping ahead to the letters a lead can start with,
 * and the scan cost twice as much.
 */
const LEADS = new RegExp(
  [
    String.raw`(?<list>(?:possible|potential|common|probable|likely) (?:causes|reasons)(?: (?:include|are|may be|could be))?:?|возможные причины:?|(?:posibles|possíveis) causas:?|causas (?:posibles|possíveis):?|causes possibles ?:?|mögliche ursachen:?|原因として考えられる(?:もの|こと)?[はがの]?)`,
    String.raw`(?<header>(?:possible|potential|probable|likely) (?:cause|reason)(?: (?:is|may be|could be))?:?|可能的?原因[:：]?|考えられる原因)`,
    String.raw`(?<condition>\b(?:if|when) (?:the )?(?:http )?(?:status|error|response)(?: code)?(?: is| equals| of)?(?: an?)?(?: http)? \d{3}\b|\b(?:if|when) you (?:get|see|receive|hit) (?:an? |the )?(?:http |status |error )?(?:code )?\d{3}\b|\bif (?:the |this )?(?:error|problem|issue|failure) (?:persists|continues|keeps happening)|\bsi el (?:error|problema) persiste|\bse o (?:erro|problema) persistir|\bsi (?:l'erreur|le problème) persiste|\bfalls (?:der fehler|das problem) (?:weiterhin )?(?:besteht|auftritt|bestehen bleibt)|如果[^，。]{0,12}(?:状态码|错误码)|\bif(?<=(?:^|[.!?;:] )if) (?:the |your |a )?model(?: [^ ,]{1,80})? (?:is |was )?not found|\bwhen you (?:hit|encounter|run into|exceed|reach) (?:a |the |your )?(?:rate limit|quota|usage limit)|\bif you (?:see|get|receive|encounter|hit|run into) ['"\x60])`,
    String.raw`(?<fronted>\b(?:possibly|probably|likely|perhaps|maybe) (?:due to|caused by|because of)|\b(?:posiblemente|probablemente) (?:debido a|causado por)|\b(?:possivelmente|provavelmente) (?:devido a|causado por))`,
    String.raw`\b(?:may|might|could|can) (?:be|have been) (?:due to|caused by|because(?: of)?|related to|(?:the |a )?result of)|\b(?:may|might|could|can) happen (?:if|when|because)|\b(?:cause|reason) (?:may|might|could) be|\b(?:may|might|could) be (?=[a-z ]{1,40} or )|\b(?:puede|podría) (?:deberse a|ser (?:causado por|debido a))|\bpode (?:ser (?:causado por|devido a)|ter sido causado por)|\bpeut (?:être|etre) (?:dû|du|causé|cause) (?:à|a|par)|\bkönnte (?:an|durch) |可能是|可能由于|可能因为|也许是|或许是|возможно(?<![а-яё]возможно),? `,
  ].join('|'),
  'g',
);

/**
 * What a text without CJK characters must hold for a lead to occur in it: every lead outside the CJK ones holds one of
 * these words. Tested on the text's trigram set (built for the phrase families anyway), it spares the lead scan to
 * the nine texts in ten that hold none ({@link mayHoldGuesses}).
 */
const LEAD_WORDS = /possib|posib|potential|common|probab|likely|возможн|if |when |perhap|maybe|may |might|could|can |causa|cause|ursache|puede|podr|pode |peut|könnte|possivelm|provavelm|persist|falls /;
const LEAD_NEEDS: PatternNeeds | null = patternNeeds(LEAD_WORDS);

/**
 * False only when a text cannot hold a lead, so {@link blankGuesses} would return it as it is: it has no CJK
 * characters and its trigrams lack every word of {@link LEAD_WORDS}.
 *
 * @param trigrams - the trigram set of the text.
 * @param cjk - whether the text holds CJK characters.
 */
export function mayHoldGuesses(trigrams: TrigramSet, cjk: boolean): boolean {
  return cjk || trigrams.mayMatch(LEAD_NEEDS);
}

/**
 * Where a hedge's or a condition's sentence ends: a full stop (not that of "e.g.", "i.e.", "etc."), other sentence
 * marks, a semicolon, the next text, or a colon before a status ("…: 401", "…: HTTP 401": the failure quoted after the guess).
 */
const SENTENCE_END = /(?<!\b(?:e\.g|i\.e|etc|vs))\.(?:\s|$)|[。！？!?;；]| \| |: (?=(?:http |status |error |code )?\d{3}\b)/g;

/** The same in a CJK sentence, which also ends where an English error label follows it ("…请检查请求参数 error 429"). */
const CJK_SENTENCE_END = /[。！？!?;；]| \| |(?<=[\u3400-\u9fff，。]) ?(?=(?:error|err|http|status)\b)/g;

/**
 * Where a header's list of guesses ends: the next text, or where the failure itself is quoted again ("Cause:", not the
 * "causes:" of the next "Possible causes:" header, which opens a list of its own).
 */
const HEADER_END =
  /。| \| |here (?:is|are) the (?:actual |original |raw |full )?(?:error|response|details)|(?:^|[\s(])(?:error|details|response|(?<!(?:possible|potential|common|probable|likely) )cause|message|erro|fehler|erreur|fehlermeldung)s?: |(?:provider|server|api|upstream|model) (?:said|says|returned|responded)|(?:http )?status(?: code)?:? \d{3}\b|错误信息[:：]|エラー(?:内容|メッセージ)[:：]/g;

/** Alternatives: what makes a hedge's sentence or a singular header a list of guesses rather than one stated cause. */
const ALTERNATIVES = / or |、|或|也可能|也许|或许|•| and\/or | или |, etc\b| o | ou | oder |または|もしくは/;

/** A numbered item's mark ("1. ", "2)", "3、"): two of them under a singular header make it a list. */
const NUMBERED_ITEM = /(?:^|[\s:：])\d[.)、]/g;

/** A remark in parentheses ("check or rotate it in your settings") offers no alternative cause. */
const REMARK = /\([^()]{0,200}\)/g;

/** The longest span blanked after one lead, in characters. */
const MAX_SPAN_CHARS = 600;

/**
 * At most this many leads are read in one text (each reads at most {@link MAX_SPAN_CHARS} after it): a text of
 * thousands of "possible reason" leads is no failure report, and the rest of it is left as it is.
 */
const MAX_LEADS = 32;

const CJK_CHAR = /[\u3400-\u9fff]/;

/** Sentence marks a fronted hedge may follow: then it opens its sentence, and its clause ends at the first comma. */
const OPENS_SENTENCE = /(?:^|[.!?:。|]) ?$/;

/**
 * The offset where `end` next matches in `text` within {@link MAX_SPAN_CHARS} after `from`, else `from +
 * MAX_SPAN_CHARS` (or the text's end). Only that window is searched, so a text of many leads costs linear time.
 */
function nextEnd(text: string, from: number, end: RegExp): number {
  const window = text.slice(from, from + MAX_SPAN_CHARS);
  end.lastIndex = 0;
  const found = end.exec(window);
  return from + (found === null ? window.length : found.index);
}

/** True when the words from `from` to `to` offer alternatives (remarks in parentheses aside). */
function offersAlternatives(text: string, from: number, to: number): boolean {
  return ALTERNATIVES.test(text.slice(from, to).replace(REMARK, ''));
}

/** Where the span of one lead ends; `start` itself when nothing is to be blanked. */
function spanEnd(text: string, lead: RegExpExecArray): number {
  const start = lead.index;
  const after = start + lead[0].length;
  const groups = lead.groups ?? {};
  const cjk = CJK_CHAR.test(lead[0]);
  if (groups['list'] !== undefined) return nextEnd(text, after, HEADER_END);
  if (groups['header'] !== undefined) {
    const end = nextEnd(text, after, HEADER_END);
    return offersAlternatives(text, after, end) || (text.slice(after, end).match(NUMBERED_ITEM)?.length ?? 0) >= 2 ? end : start;
  }
  const sentenceEnd = nextEnd(text, after, cjk ? CJK_SENTENCE_END : SENTENCE_END);
  if (groups['condition'] !== undefined) return sentenceEnd;
  let end = sentenceEnd;
  if (groups['fronted'] !== undefined && OPENS_SENTENCE.test(text.slice(Math.max(0, start - 2), start))) {
    // "Possibly due to maintenance or high load, the service is unavailable": the hedge is the clause before the comma
    const comma = text.slice(after, end).indexOf(', ');
    if (comma !== -1) end = after + comma;
  }
  // one hedged cause is the sender's explanation: only a sentence offering alternatives is a list of guesses
  // (a 可能是 after 也, "also maybe", is itself the second alternative)
  return offersAlternatives(text, after, end) || (start > 0 && text[start - 1] === '也') ? end : start;
}

/**
 * `text` with its lists of guesses, headers of guesses and status conditions blanked (each character of a span
 * replaced by a space); the same string when it holds none.
 *
 * @param text - lower-cased evidence text (already cut to the classifier's bounded window).
 * @example blankGuesses('engine unavailable: this may be due to an invalid api key or usage limits. connect econnrefused')
 * // 'engine unavailable: this ' + 48 spaces + '. connect econnrefused'
 */
export function blankGuesses(text: string): string {
  LEADS.lastIndex = 0;
  let lead = LEADS.exec(text);
  if (lead === null) return text;
  const pieces: string[] = [];
  let copied = 0;
  let read = 0;
  while (lead !== null && read < MAX_LEADS) {
    read += 1;
    const start = lead.index;
    const end = spanEnd(text, lead);
    if (end > start && start >= copied) {
      pieces.push(text.slice(copied, start), ' '.repeat(end - start));
      copied = end;
    }
    LEADS.lastIndex = Math.max(start + lead[0].length, end);
    lead = LEADS.exec(text);
  }
  if (copied === 0) return text;
  pieces.push(text.slice(copied));
  return pieces.join('');
}
