/**
 * The phrase pre-test never hides a match: whenever a pattern matches a text, the text's trigram set says it may.
 * Checked on every phrase rule over every fixture text, and on random patterns over random texts (the pattern is
 * the judge: JavaScript's own regex engine).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildEvidence } from '../evidence.js';
import { LEADING_PROVIDER_RULES, TRAILING_PROVIDER_RULES } from '../rules/provider-rules.js';
import { family, firstTextMatch } from '../rules/rule.js';
import { TEXT_RULES } from '../rules/text/index.js';
import { loadFixtureRows } from '../test-support/fixtures.js';
import { literalPretest, requiredLiterals } from './required-literals.js';
import { TrigramSet, patternNeeds } from './trigrams.js';

const PHRASE_RULES = [...LEADING_PROVIDER_RULES, ...TEXT_RULES, ...TRAILING_PROVIDER_RULES];
const FIXTURE_FILES = ['provider-errors.jsonl', 'extra-cases.jsonl', 'provider-errors-2.jsonl', 'provider-errors-3.jsonl', 'provider-errors-4.jsonl'];

describe('requiredLiterals', () => {
  it('reads literal runs, optional parts, classes and quantifiers', () => {
    expect(requiredLiterals(/rate[ _-]?limit|throttl/)).toEqual([[['rate'], ['limit']], [['throttl']]]);
    expect(requiredLiterals(/credits? (?:have been )?exhausted/)).toEqual([[['credit'], ['exhausted']]]);
    expect(requiredLiterals(/abc{2,3}de/)).toEqual([[['abcc']]]);
    expect(requiredLiterals(/x(?:abc){2}y/)).toEqual([[['abc']]]);
  });

  it('reads escapes as the characters they stand for', () => {
    expect(requiredLiterals(/ai\.google\.dev\/x/)).toEqual([[['ai.google.dev/x']]]);
    expect(requiredLiterals(/a\u0062c\x64/)).toEqual([[['abcd']]]);
    expect(requiredLiterals(/abc\d{3}xyz/)).toEqual([[['abc'], ['xyz']]]);
  });

  it('keeps literals across zero-width assertions and ignores their contents', () => {
    expect(requiredLiterals(/(?<![a-z])qps(?![a-z])/)).toEqual([[['qps']]]);
    expect(requiredLiterals(/(?=abcdef)ghi/)).toEqual([[['ghi']]]);
  });

  it('splits one whole group of alternatives into alternatives, and reads a required group as a choice', () => {
    expect(requiredLiterals(/(?:aaa|bbb)|ccc/)).toEqual([[['aaa']], [['bbb']], [['ccc']]]);
    expect(requiredLiterals(/(?:daily|weekly) quota/)).toEqual([[['daily', 'weekly'], [' quota']]]);
    expect(requiredLiterals(/(?:daily|xx) quota/)).toEqual([[[' quota']]]);
  });

  it('knows nothing of alternatives without a literal, flags, or syntax it does not read', () => {
    expect(requiredLiterals(/\d{3}/)).toBeNull();
    expect(requiredLiterals(/abc|x?/)).toBeNull();
    expect(requiredLiterals(/abc/i)).toBeNull();
    expect(requiredLiterals(/(abc)\1/)).toBeNull();
    expect(requiredLiterals(/(?<name>abc)/)).toBeNull();
  });
});

describe('literalPretest', () => {
  it('looks for one literal of each alternative', () => {
    const mayMatch = literalPretest(/rate[ _-]?limit|throttl/);
    expect(mayMatch('429: rate_limit exceeded')).toBe(true);
    expect(mayMatch('you are being throttled')).toBe(true);
    expect(mayMatch('invalid api key')).toBe(false);
    expect(literalPretest(/\d{3}/)('anything')).toBe(true);
  });
});

describe('TrigramSet', () => {
  it('says a pattern may match only when the text holds its literals', () => {
    const needs = patternNeeds(/rate[ _-]?limit|throttl/);
    expect(new TrigramSet('429: rate_limit exceeded').mayMatch(needs)).toBe(true);
    expect(new TrigramSet('you are being throttled').mayMatch(needs)).toBe(true);
    expect(new TrigramSet('invalid api key').mayMatch(needs)).toBe(false);
    expect(new TrigramSet('ab').mayMatch(needs)).toBe(false);
    expect(new TrigramSet('anything').mayMatch(null)).toBe(true);
  });

  it('keeps its answers while other sets take the shared bit storage in turn', () => {
    const needs = patternNeeds(/rate[ _-]?limit|throttl/);
    const texts = ['429: rate_limit exceeded', 'invalid api key', 'you are being throttled', 'no such model', 'x'.repeat(5000), 'rate limit'];
    const sets = texts.map((text) => new TrigramSet(text));
    const expected = [true, false, true, false, false, true];
    // interleaved, more sets than slots, twice over: a set whose slot was taken is built again
    for (let round = 0; round < 2; round += 1) {
      sets.forEach((set, index) => expect(set.mayMatch(needs), texts[index]).toBe(expected[index]));
      [...sets].reverse().forEach((set, index) => expect(set.mayMatch(needs)).toBe(expected[sets.length - 1 - index]));
    }
  });

  it('every phrase rule has its pre-test, except phrases without a three-character literal', () => {
    const unknown = PHRASE_RULES.filter((rule) => rule.needs === null && rule.language === 'en').map((rule) => rule.id);
    expect(unknown).toEqual([]);
  });

  it('never hides a phrase rule that matches a fixture text', () => {
    let matches = 0;
    for (const file of FIXTURE_FILES) {
      for (const row of loadFixtureRows(file)) {
        const evidence = buildEvidence(row);
        for (const rule of PHRASE_RULES) {
          if (!rule.pattern.test(evidence.text)) continue;
          matches += 1;
          expect(evidence.trigrams.mayMatch(rule.needs ?? null), `${row.id} ${rule.id}`).toBe(true);
          for (const phrase of rule.phrases ?? []) {
            if (phrase.pattern.test(evidence.text)) expect(evidence.trigrams.mayMatch(phrase.needs), `${row.id} ${rule.id} /${phrase.pattern.source}/`).toBe(true);
          }
        }
      }
    }
    expect(matches).toBeGreaterThan(500);
  });

  /**
   * Random patterns in the syntax the phrase tables use, three levels of groups deep, over a three-letter alphabet
   * and some of its words, so that matches and known requirements are common. Unbounded quantifiers go on single
   * characters only, and patterns stay small, so no random pattern backtracks for long.
   */
  const charQuantifier = fc.constantFrom('', '', '', '?', '*', '+', '{0,2}', '{1,3}', '{2}', '{2,}', '??', '+?');
  const groupQuantifier = fc.constantFrom('', '', '', '?', '{1,2}', '{2}');
  const single = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('a', 'b', 'c', 'abc', 'bca', 'cab', 'aab', 'cc') },
    { weight: 1, arbitrary: fc.constantFrom('[ab]', '[^a]', '.', '\\.', '\\d', '\\s', '\\u0061', '\\x62') },
  );
  const leaf = fc.oneof(
    { weight: 8, arbitrary: fc.tuple(single, charQuantifier).map(([atom, count]) => atom + count) },
    { weight: 1, arbitrary: fc.constantFrom('^', '$', '\\b', '{', '}') },
  );
  const alternationOf = (term: fc.Arbitrary<string>): fc.Arbitrary<string> =>
    fc
      .array(fc.array(term, { minLength: 1, maxLength: 4 }).map((terms) => terms.join('')), { minLength: 1, maxLength: 3 })
      .map((sequences) => sequences.join('|'));
  const withGroups = (inner: fc.Arbitrary<string>): fc.Arbitrary<string> =>
    fc.oneof(
      { weight: 4, arbitrary: leaf },
      { weight: 2, arbitrary: fc.tuple(inner, groupQuantifier).map(([group, count]) => `(?:${group})${count}`) },
      { weight: 1, arbitrary: fc.tuple(inner, groupQuantifier).map(([group, count]) => `(${group})${count}`) },
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom('(?=', '(?!', '(?<=', '(?<!'), inner).map(([open, group]) => `${open}${group})`) },
    );
  const pattern = alternationOf(withGroups(alternationOf(withGroups(alternationOf(leaf)))));
  const text = fc
    .array(fc.constantFrom('abc', 'bca', 'cab', 'aab', 'cc', 'a', 'b', 'c', '.', '1', ' ', '{', '}'), { maxLength: 10 })
    .map((chunks) => chunks.join(''));

  it('never hides a match of a random pattern', () => {
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 8 }), (source, texts) => {
        let regex: RegExp;
        try {
          regex = new RegExp(source);
        } catch {
          return;
        }
        const needs = patternNeeds(regex);
        for (const sample of texts) {
          if (!regex.test(sample)) continue;
          expect(new TrigramSet(sample).mayMatch(needs), `/${source}/ on "${sample}"`).toBe(true);
          expect(literalPretest(regex)(sample), `literals of /${source}/ on "${sample}"`).toBe(true);
        }
      }),
      { numRuns: 600 },
    );
  }, 60_000); // generous: the machine running the tests may be shared

  it('a family runs only the phrases a text may hold, and matches what its alternation matches', () => {
    const evidence = buildEvidence({});
    fc.assert(
      fc.property(fc.array(pattern, { minLength: 2, maxLength: 4 }), fc.array(text, { minLength: 1, maxLength: 6 }), (sources, texts) => {
        let phrases: RegExp[];
        try {
          phrases = sources.map((source) => new RegExp(source));
        } catch {
          return;
        }
        const rules = family('text.sample', 'timeout', phrases);
        const alternation = new RegExp(sources.map((source) => `(?:${source})`).join('|'));
        for (const sample of texts) {
          const verdict = firstTextMatch(rules, evidence, { text: sample, trigrams: new TrigramSet(sample), cjk: false, hangul: false });
          expect(verdict?.matched ?? null, `${sources.join(' | ')} on "${sample}"`).toBe(alternation.exec(sample)?.[0] ?? null);
        }
      }),
      { numRuns: 400 },
    );
  }, 60_000);

  it('every phrase family matches what its alternation matches on every fixture text', () => {
    let compared = 0;
    for (const file of FIXTURE_FILES) {
      for (const row of loadFixtureRows(file)) {
        const evidence = buildEvidence(row);
        for (const rule of PHRASE_RULES) {
          if (rule.phrases === undefined || (rule.applies !== undefined && !rule.applies(evidence))) continue;
          compared += 1;
          // (the families read the text with its guesses set aside)
          const expected = rule.pattern.exec(evidence.asserted.text)?.[0].slice(0, 120) ?? null;
          expect(firstTextMatch([rule], evidence)?.matched ?? null, `${row.id} ${rule.id}`).toBe(expected);
        }
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });
});
