/**
 * Linear time by construction: every pattern the classifier runs on provider text uses bounded quantifiers only
 * (`{m,n}`, `?`), never `*`, `+` or `{m,}`, so no pattern can backtrack catastrophically and each scan is linear
 * in the (already bounded) text. This audit fails when an unbounded quantifier slips into a rule.
 */
import { describe, expect, it } from 'vitest';
import { RETRY_AFTER_PATTERNS } from '../retry-after.js';
import { LEADING_REASON_PHRASE, STATUS_PATTERNS } from '../stated-status.js';
import { FORMATTED_ANSWER_PATTERNS } from '../text/completion-body.js';
import { TOKEN_PATTERNS } from '../text/tokens.js';
import { ANSWER_HEAD_PATTERNS } from '../text/unwrap.js';
import { BARE_CODE_PATTERNS, CONTEXT_PATTERNS } from './context-rules.js';
import { LEADING_PROVIDER_RULES, TRAILING_PROVIDER_RULES } from './provider-rules.js';
import { TEXT_RULES } from './text/index.js';

/** The unbounded quantifiers in a regex source, outside character classes and escapes. */
function unboundedQuantifiers(source: string): string[] {
  const found: string[] = [];
  let inClass = false;
  for (let index = 0; index < source.length; index += 1) {
    const char = source[index];
    if (char === '\\') {
      index += 1;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      continue;
    }
    if (char === '[') inClass = true;
    else if (char === '*' || char === '+') found.push(`${char} at ${index}`);
    else if (char === '{' && /^\{\d+,\}/.test(source.slice(index))) found.push(`{n,} at ${index}`);
  }
  return found;
}

const audited: readonly (readonly [string, RegExp])[] = [
  ...TEXT_RULES.map((rule) => [rule.id, rule.pattern] as const),
  ...LEADING_PROVIDER_RULES.map((rule) => [rule.id, rule.pattern] as const),
  ...TRAILING_PROVIDER_RULES.map((rule) => [rule.id, rule.pattern] as const),
  ...STATUS_PATTERNS.map(({ pattern }) => ['stated-status', pattern] as const),
  ['stated-status', LEADING_REASON_PHRASE] as const,
  ...TOKEN_PATTERNS.map((pattern) => ['tokens', pattern] as const),
  ...RETRY_AFTER_PATTERNS.map((pattern) => ['retry-after', pattern] as const),
  ...CONTEXT_PATTERNS.map((pattern) => ['context', pattern] as const),
  ...BARE_CODE_PATTERNS.map((pattern) => ['bare-code', pattern] as const),
  ...FORMATTED_ANSWER_PATTERNS.map((pattern) => ['formatted-answer', pattern] as const),
  ...ANSWER_HEAD_PATTERNS.map((pattern) => ['answer-head', pattern] as const),
];

describe('pattern audit', () => {
  it('the auditor itself spots unbounded quantifiers and ignores escaped or bracketed ones', () => {
    expect(unboundedQuantifiers('a+b')).toHaveLength(1);
    expect(unboundedQuantifiers('a{2,}')).toHaveLength(1);
    expect(unboundedQuantifiers('[+*]\\+\\*a{1,5}b?')).toEqual([]);
  });

  it.each(audited.map(([id, pattern]) => [`${id} /${pattern.source.slice(0, 60)}/`, pattern] as const))(
    '%s has only bounded quantifiers',
    (_name, pattern) => {
      expect(unboundedQuantifiers(pattern.source)).toEqual([]);
    },
  );

  it('text patterns are written in lower case (the evidence text is lower-cased)', () => {
    for (const rule of [...TEXT_RULES, ...LEADING_PROVIDER_RULES, ...TRAILING_PROVIDER_RULES]) {
      const literalUpper = rule.pattern.source.replace(/\\./g, '').replace(/\[[^\]]{0,200}\]/g, '').match(/[A-Z]/);
      expect(literalUpper, `${rule.id} /${rule.pattern.source}/`).toBeNull();
    }
  });

});
