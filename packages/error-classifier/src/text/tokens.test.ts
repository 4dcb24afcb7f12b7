/**
 * The one-pass identifier scan against its specification: the snake-case and class-name patterns, run as global
 * regexes over the same texts, must find the same tokens in the same order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadFixtureRows } from '../test-support/fixtures.js';
import { CLASS_NAME, KEY_VALUE, SNAKE_CASE, extractCodeTokens, identifierTokens } from './tokens.js';

function byPattern(pattern: RegExp, text: string): string[] {
  return [...text.matchAll(new RegExp(pattern.source, 'g'))].map((match) => match[0]);
}

function expectSameAsPatterns(text: string): void {
  const scanned = identifierTokens(text);
  expect(scanned.snakeCase).toEqual(byPattern(SNAKE_CASE, text));
  expect(scanned.classNames).toEqual(byPattern(CLASS_NAME, text));
}

/** Texts made of the characters the two patterns care about: letters, digits, underscores and separators. */
const identifierish = fc
  .array(
    fc.oneof(
      fc.constantFrom('_', '__', ' ', '-', '.', ':', '"', 'é', 'A', '0', '9'),
      fc.constantFrom('error', 'exception', 'rate', 'limit', 'x', 'ab', 'quota'),
      fc.string({ unit: fc.constantFrom('a', 'b', 'z', '1', '_'), maxLength: 60 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

describe('identifierTokens', () => {
  it('finds the snake-case identifiers and class names the patterns find, in order', () => {
    expectSameAsPatterns('apiconnectionerror: rate_limit_exceeded; _x a__b c_ d_1 e1_f ab_error xerror abexception');
    expectSameAsPatterns(`${'a'.repeat(40)}_b ${'a'.repeat(41)}_b a${'_b'.repeat(8)} a${'_b'.repeat(9)} ${'a'.repeat(48)}error ${'a'.repeat(49)}error`);
  });

  it('agrees with the patterns on every fixture text', () => {
    for (const file of ['provider-errors.jsonl', 'extra-cases.jsonl', 'provider-errors-2.jsonl', 'provider-errors-3.jsonl']) {
      for (const row of loadFixtureRows(file)) expectSameAsPatterns(`${row.body ?? ''} ${row.message ?? ''}`.toLowerCase());
    }
  });

  it('agrees with the patterns on arbitrary identifier-like texts', () => {
    fc.assert(fc.property(fc.oneof(identifierish, fc.string()), (text) => expectSameAsPatterns(text)), { numRuns: 2000 });
  });
});

/** The tokens as the global patterns find them: key-value codes, then snake-case identifiers, then class names. */
function tokensByPatterns(text: string): string[] {
  const keyValues = [...text.matchAll(new RegExp(KEY_VALUE.source, 'g'))].map((match) => {
    const value = match[1] ?? '';
    return value.endsWith('.') || value.endsWith('-') ? value.slice(0, -1) : value;
  });
  return [...new Set([...keyValues, ...byPattern(SNAKE_CASE, text), ...byPattern(CLASS_NAME, text)])];
}

/** Texts made of keys, separators, quotes and values, so that key-value pairs start, overlap and nest often. */
const keyValueish = fc
  .array(
    fc.oneof(
      fc.constantFrom('type', 'code', 'status', 'error_code', 'errortype', '__type', 'exception-type', 'reason', 'name', 'x'),
      fc.constantFrom(':', '=', ' ', '"', "'", '-', '_', '.', ',', '{', '}', '1', 'é'),
      fc.string({ unit: fc.constantFrom('a', 'z', '0', '_', '.', '-'), maxLength: 12 }),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

describe('extractCodeTokens', () => {
  it('finds the key-value codes the KEY_VALUE pattern finds, in order, on every fixture text', () => {
    for (const file of ['provider-errors.jsonl', 'extra-cases.jsonl', 'provider-errors-2.jsonl', 'provider-errors-3.jsonl']) {
      for (const row of loadFixtureRows(file)) {
        const text = `${row.body ?? ''} ${row.message ?? ''}`.toLowerCase();
        expect([...extractCodeTokens(text)]).toEqual(tokensByPatterns(text));
      }
    }
  });

  it('agrees with the patterns on arbitrary key-value-like texts', () => {
    fc.assert(
      fc.property(fc.oneof(keyValueish, fc.string()), (text) => {
        expect([...extractCodeTokens(text)]).toEqual(tokensByPatterns(text));
      }),
      { numRuns: 3000 },
    );
  });
});
