/**
 * Guesses and conditions a client prints beside a failure, set aside before the phrase families read the text
 * (docs/policy.md, "Guesses and conditions name no cause").
 *
 * A translator's "this engine is unavailable: maybe a wrong key, maybe requests too fast", a toast's "This may be due to
 * a network issue, an invalid API key, or API usage limits", a "Possible causes:" list or a notice "If the status code is
 * 400, the file exceeds the token limit" name several causes, or one that holds only under a condition; read as text,
 * the first family a guess happens to match would decide, before the status or the error that follows. Three kinds of
 * span are blanked (replaced by spaces, so offsets do not move):
 *
 * - a **list of guesses**: a hedge ("may be due to", "possibly caused by", 可能是) whose sentence offers alternatives
 *   (" or ", "、", 或, 也可能, "; "). A single hedged cause — "suspended, possibly due to reaching the monthly spending
 *   limit" — is the sender's explanation and stays;
 * - a **header of guesses** ("Possible causes:", "Here are the possible reasons:", "Common causes include") over a list:
 *   everything up to the paragraph's end or to where the failure itself is quoted again ("Here is the error message",
 *   "Error:"). A header over one cause ("错误可能原因：请求速度过快") is the sender's explanation and stays;
 * - a **status condition** ("If the status code is 404, …", 如果状态码为 400 …): the rest of its sentence.
 *
 * The cost is one scan for the leads over the bounded text; a text without them is returned as it is.
 */

/**
 * The leads of the three kinds (lower case; the evidence text is lower-cased). Group 1: a header; group 2: a status
 * condition; otherwise a hedge.
 */
const LEADS =
  /((?:possible|potential|common|probable|likely) (?:causes?|reasons?)(?: (?:include|are|is|may be|could be))?:?|возможные причины:?|可能的?原因[:：]?|考えられる原因)|((?:\bif|\bwhen) (?:the )?(?:http )?(?:status|error|response)(?: code)?(?: is| was| equals| of)?(?: an?)?(?: http)? \d{3}\b|(?:\bif|\bwhen) you (?:get|see|receive|hit) (?:an? |the )?(?:http |status |error )?(?:code )?\d{3}\b|如果[^，。\n]{0,12}(?:状态码|错误码))|(?:may|might|could|can) (?:be|have been) (?:due to|caused by|because of|(?:the |a )?result of)|(?:possibly|probably|likely|perhaps|maybe) (?:due to|caused by|because of)|可能是|可能由于|可能因为|原因可能/g;

/** Where a hedge's or a condition's sentence ends (a CJK text breaks lines inside sentences). */
const SENTENCE_END = /\.(?:\s|$)|[。！？!?]|\n| \| /g;
const CJK_SENTENCE_END = /[。！？!?]|\n\n| \| /g;

/** Where a header's list of guesses ends: a blank line, the next text, or the failure itself quoted again. */
const HEADER_END = /\n\n| \| |here (?:is|are) the (?:actual |original |raw |full )?(?:error|response|details)|(?:^|[\s(])(?:error|details|response|cause|message)s?: /g;

/** Alternatives in a hedge's sentence: what makes it a list of guesses rather than one stated cause. */
const ALTERNATIVES = / or |、|或|也可能|; |•/;

/** Items of a header's list besides {@link ALTERNATIVES}: English commas, numbered or dashed items. */
const LISTED = /, |(?:^|\s)(?:\d[.)]|[-*]) /;

/** The longest span blanked after one lead, in characters. */
const MAX_SPAN_CHARS = 600;

const CJK_CHAR = /[\u3400-\u9fff]/;

/** The offset where `end` next matches in `text` at or after `from`, else the end of the text; at most `from + MAX_SPAN_CHARS`. */
function nextEnd(text: string, from: number, end: RegExp): number {
  end.lastIndex = from;
  const found = end.exec(text);
  const at = found === null ? text.length : found.index;
  return Math.min(at, from + MAX_SPAN_CHARS);
}

/**
 * `text` with its lists of guesses, headers of guesses and status conditions blanked (each character of a span
 * replaced by a space); the same string when it holds none.
 *
 * @param text - lower-cased evidence text (already cut to the classifier's bounded window).
 * @example blankGuesses('engine unavailable: this may be due to an invalid api key or usage limits. connect econnrefused')
 * // 'engine unavailable: ' + spaces + '. connect econnrefused'
 */
export function blankGuesses(text: string): string {
  LEADS.lastIndex = 0;
  let lead = LEADS.exec(text);
  if (lead === null) return text;
  const pieces: string[] = [];
  let copied = 0;
  while (lead !== null) {
    const start = lead.index;
    const after = start + lead[0].length;
    let end: number;
    if (lead[1] !== undefined) {
      end = nextEnd(text, after, HEADER_END);
      // a header over one cause ("错误可能原因：请求速度过快") explains like a single hedge; a list of causes guesses
      if (!ALTERNATIVES.test(text.slice(after, end)) && !LISTED.test(text.slice(after, end))) end = start;
    } else if (lead[2] !== undefined) end = nextEnd(text, after, CJK_CHAR.test(lead[0]) ? CJK_SENTENCE_END : SENTENCE_END);
    else {
      end = nextEnd(text, after, CJK_CHAR.test(lead[0]) ? CJK_SENTENCE_END : SENTENCE_END);
      // one hedged cause is the sender's explanation: only a sentence offering alternatives is a list of guesses
      if (!ALTERNATIVES.test(text.slice(after, end))) end = start;
    }
    if (end > start && start >= copied) {
      pieces.push(text.slice(copied, start), ' '.repeat(end - start));
      copied = end;
    }
    LEADS.lastIndex = Math.max(after, end);
    lead = LEADS.exec(text);
  }
  if (copied === 0) return text;
  pieces.push(text.slice(copied));
  return pieces.join('');
}
