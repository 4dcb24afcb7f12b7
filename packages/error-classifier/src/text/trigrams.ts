/**
 * A cheap "could this pattern match here?" test for the phrase families: the trigrams (three consecutive UTF-16
 * code units) of one text, hashed into a bit set once, and for each pattern the trigrams of the literals every
 * match of it contains ({@link requiredLiterals}). A pattern some of whose required trigrams are absent cannot
 * match and is not run; otherwise it runs as before, so the test only saves work and never changes a verdict
 * (docs/policy.md, "How the classifier reads a failure", cost). Hash collisions only let a pattern run that
 * could have been skipped.
 */
import { MIN_LITERAL_CHARS, requiredLiterals } from './required-literals.js';

/** Most bits of a text's trigram set (long texts); hashes are this wide. @default 8192 (1 KiB) */
const MAX_SET_BITS = 8192;
/** Fewest bits of a trigram set (short texts). @default 512 */
const MIN_SET_BITS = 512;
/** Bits per character of text, so that about one bit in eight is set. @default 8 */
const BITS_PER_CHAR = 8;
const SHIFT = 32 - Math.log2(MAX_SET_BITS);

/**
 * A hash of three code units into `[0, MAX_SET_BITS)`: the units packed (exact for ASCII), then the top bits of a
 * multiplicative hash. A smaller set uses the hash's low bits.
 */
function trigramHash(first: number, second: number, third: number): number {
  return Math.imul((first << 14) ^ (second << 7) ^ third, 0x9e3779b1) >>> SHIFT;
}

/** Characters of English text, most frequent first: trigrams of rarer characters are tested first. */
const FREQUENT_CHARACTERS = ' etaoinsrhldcumfpgwybvk';

function rarity(literal: string, index: number): number {
  let score = 0;
  for (let offset = 0; offset < 3; offset += 1) {
    const rank = FREQUENT_CHARACTERS.indexOf(literal.charAt(index + offset));
    score += rank === -1 ? FREQUENT_CHARACTERS.length : rank;
  }
  return score;
}

/** The trigram hashes of one literal (at least {@link MIN_LITERAL_CHARS} characters long), rarest first. */
function literalTrigrams(literal: string): number[] {
  const starts: number[] = [];
  for (let index = 0; index + 2 < literal.length; index += 1) starts.push(index);
  starts.sort((left, right) => rarity(literal, right) - rarity(literal, left) || left - right);
  return [...new Set(starts.map((index) => trigramHash(literal.charCodeAt(index), literal.charCodeAt(index + 1), literal.charCodeAt(index + 2))))];
}

/**
 * What one pattern needs of a text, compiled for {@link TrigramSet.mayMatch}. `program`: any of its alternatives,
 * each needing all of its clauses, each satisfied by any of its literals, each present when all its trigram hashes
 * are, laid out flat — `[alternatives, (length, clauses, (length, literals, (hashes, …hash)…)…)…]` — so a test
 * walks one typed array. `keys`: the rarest trigram of each literal of each alternative's first clause; a text
 * holding none of them satisfies no alternative, which one tight loop tells before the program runs.
 */
export interface PatternNeeds {
  readonly keys: Uint16Array;
  readonly program: Uint16Array;
}

/**
 * The needs of `pattern`, or `null` when nothing is known (the pattern then always runs).
 *
 * @example patternNeeds(/rate[ _-]?limit|throttl/) // two alternatives: "rate" and "limit", or "throttl"
 */
export function patternNeeds(pattern: RegExp): PatternNeeds | null {
  const alternatives = requiredLiterals(pattern);
  if (alternatives === null) return null;
  const program: number[] = [alternatives.length];
  const keys = new Set<number>();
  for (const clauses of alternatives) {
    const alternativeAt = program.length;
    program.push(0, clauses.length);
    // Most telling clause first (one literal before a choice of several, then the longer literal), so that an
    // alternative the text lacks is usually refused on its first trigram.
    const ordered = [...clauses].sort((left, right) => left.length - right.length || (right[0]?.length ?? 0) - (left[0]?.length ?? 0));
    ordered.forEach((literals, index) => {
      const clauseAt = program.length;
      program.push(0, literals.length);
      for (const literal of literals) {
        const hashes = literalTrigrams(literal);
        program.push(hashes.length, ...hashes);
        if (index === 0 && hashes[0] !== undefined) keys.add(hashes[0]);
      }
      program[clauseAt] = program.length - clauseAt - 1;
    });
    program[alternativeAt] = program.length - alternativeAt - 1;
  }
  return { keys: Uint16Array.from(keys), program: Uint16Array.from(program) };
}

/** The trigram set of one text, built on first use. */
export class TrigramSet {
  private bits: Int32Array | null = null;
  private mask = 0;

  /** @param text - the text whose trigrams are tested (the lower-cased evidence text). */
  constructor(private readonly text: string) {}

  private build(): Int32Array {
    const { text } = this;
    let size = MIN_SET_BITS;
    while (size < MAX_SET_BITS && size < text.length * BITS_PER_CHAR) size *= 2;
    const bits = new Int32Array(size >>> 5);
    const mask = size - 1;
    let first = text.charCodeAt(0);
    let second = text.charCodeAt(1);
    for (let index = 2; index < text.length; index += 1) {
      const third = text.charCodeAt(index);
      const hash = trigramHash(first, second, third) & mask;
      bits[hash >>> 5] |= 1 << (hash & 31);
      first = second;
      second = third;
    }
    this.bits = bits;
    this.mask = mask;
    return bits;
  }

  /**
   * False only when the pattern cannot match the text: no alternative whose every clause has a literal all of
   * whose trigrams occur. `null` needs (nothing known) always give true.
   */
  mayMatch(needs: PatternNeeds | null): boolean {
    if (needs === null) return true;
    if (this.text.length < MIN_LITERAL_CHARS) return false;
    const bits = this.bits ?? this.build();
    const { mask } = this;
    const { keys } = needs;
    let anyKey = false;
    for (let index = 0; index < keys.length && !anyKey; index += 1) {
      const hash = (keys[index] as number) & mask;
      anyKey = ((bits[hash >>> 5] as number) & (1 << (hash & 31))) !== 0;
    }
    if (!anyKey) return false;
    return programMet(bits, mask, needs.program);
  }
}

/** True when some alternative of `needs` has every clause met by a literal all of whose hashes are in `bits`. */
function programMet(bits: Int32Array, mask: number, needs: Uint16Array): boolean {
  const alternatives = needs[0] as number;
  let alternative = 1;
  for (let left = alternatives; left > 0; left -= 1) {
    const alternativeEnd = alternative + 1 + (needs[alternative] as number);
    let clause = alternative + 2;
    let met = true;
    while (met && clause < alternativeEnd) {
      const clauseEnd = clause + 1 + (needs[clause] as number);
      met = false;
      for (let literal = clause + 2; literal < clauseEnd && !met; ) {
        const hashesEnd = literal + 1 + (needs[literal] as number);
        met = true;
        for (let at = literal + 1; at < hashesEnd; at += 1) {
          const hash = (needs[at] as number) & mask;
          if (((bits[hash >>> 5] as number) & (1 << (hash & 31))) === 0) {
            met = false;
            break;
          }
        }
        literal = hashesEnd;
      }
      clause = clauseEnd;
    }
    if (met) return true;
    alternative = alternativeEnd;
  }
  return false;
}
