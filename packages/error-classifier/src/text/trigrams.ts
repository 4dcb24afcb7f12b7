/**
 * A cheap "could this pattern match here?" test for the phrase families: the trigrams (three consecutive UTF-16
 * code units) of one text, hashed into a bit set once, and for each pattern the trigrams of the literals every match
 * of it contains ({@link requiredLiterals}). A pattern some of whose required trigrams are absent cannot match and is
 * not run; otherwise it runs as before, so the test only saves work and never changes a verdict (docs/policy.md,
 * "How the classifier reads a failure", cost). Hash collisions only let a pattern run that could have been skipped;
 * the set is wide (about one bit in thirty-two set, up to 256 Ki bits), so even a random 12 KiB window leaves most
 * hashes clear.
 */
import { MIN_LITERAL_CHARS, requiredLiterals } from './required-literals.js';
import type { Requirement } from './required-literals.js';

/** Bits of a trigram hash: the widest set. @default 18 (256 Ki bits, 32 KiB) */
const HASH_BITS = 18;
/** Fewest bits of a text's set (short texts). @default 4096 (512 bytes) */
const MIN_SET_BITS = 4096;
/** Bits per character of text, so that about one bit in thirty-two is set. @default 32 */
const BITS_PER_CHAR = 32;

/** A hash of three code units into `[0, 2^HASH_BITS)`; a smaller set reads its top bits. */
function trigramHash(first: number, second: number, third: number): number {
  return Math.imul(first ^ Math.imul((second << 16) | third, 0x85ebca6b), 0x9e3779b1) >>> (32 - HASH_BITS);
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
 * each needing all of its clauses, each satisfied by any of its literals, each present when all its trigrams are,
 * laid out flat with trigram hashes — `[alternatives, (length, clauses, (length, literals, (hashes, …hash)…)…)…]` — so a
 * test walks one typed array. `keys`: the rarest trigram of each literal of each alternative's first clause, and
 * for each key (`keyStarts[k]` up to `keyStarts[k + 1]`) the offsets in `program` of the alternatives it opens
 * (`keyAlternatives`): an alternative can be met only when one of its keys is present, so only those are read.
 */
export interface PatternNeeds {
  readonly keys: Uint32Array;
  readonly keyStarts: Uint32Array;
  readonly keyAlternatives: Uint32Array;
  readonly program: Uint32Array;
  /**
   * For the needs of a family of phrases ({@link familyNeeds}): the phrase each entry of `keyAlternatives` belongs
   * to, so that {@link TrigramSet.markPhrases} can tell which phrases a text may hold; `null` for one pattern.
   */
  readonly keyPhrases: Uint32Array | null;
}

/**
 * The needs of `pattern`, or `null` when nothing is known (the pattern then always runs).
 *
 * @example patternNeeds(/rate[ _-]?limit|throttl/) // two alternatives: "rate" and "limit", or "throttl"
 */
export function patternNeeds(pattern: RegExp): PatternNeeds | null {
  return needsOf(requiredLiterals(pattern));
}

/**
 * The needs of a pattern whose alternatives' requirements are known ({@link requiredLiterals}); `null` when they
 * are not (for a family of phrases, see {@link familyNeeds}).
 *
 * @example needsOf([[['rate'], ['limit']], [['throttl']]]) // the same as patternNeeds(/rate[ _-]?limit|throttl/)
 */
export function needsOf(alternatives: readonly Requirement[] | null): PatternNeeds | null {
  return alternatives === null ? null : compileNeeds(alternatives, null);
}

/**
 * The needs of a family of phrases joined into one alternation, given each phrase's requirements
 * ({@link requiredLiterals}): what any phrase needs, with the phrase of each alternative kept (`keyPhrases`);
 * `null` when some phrase's requirements are not known (that phrase, and so the family, always runs).
 *
 * @example familyNeeds([[[['rate'], ['limit']]], [[['throttl']]]]) // mayMatch as patternNeeds(/rate[ _-]?limit|throttl/)
 */
export function familyNeeds(phrases: readonly (readonly Requirement[] | null)[]): PatternNeeds | null {
  const alternatives: Requirement[] = [];
  const phraseOf: number[] = [];
  for (const [phrase, requirements] of phrases.entries()) {
    if (requirements === null) return null;
    for (const requirement of requirements) {
      alternatives.push(requirement);
      phraseOf.push(phrase);
    }
  }
  return compileNeeds(alternatives, phraseOf);
}

/** Compiles {@link PatternNeeds} from alternatives' requirements; `phraseOf[i]`: the phrase of alternative `i`, when given. */
function compileNeeds(alternatives: readonly Requirement[], phraseOf: readonly number[] | null): PatternNeeds {
  const program: number[] = [alternatives.length];
  const opened = new Map<number, number[]>();
  const phraseAt = new Map<number, number>();
  for (const [ordinal, clauses] of alternatives.entries()) {
    const alternativeAt = program.length;
    phraseAt.set(alternativeAt, phraseOf?.[ordinal] ?? 0);
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
        const key = hashes[0];
        if (index !== 0 || key === undefined) continue;
        const list = opened.get(key) ?? [];
        if (list.at(-1) !== alternativeAt) list.push(alternativeAt);
        opened.set(key, list);
      }
      program[clauseAt] = program.length - clauseAt - 1;
    });
    program[alternativeAt] = program.length - alternativeAt - 1;
  }
  const keyStarts: number[] = [0];
  const keyAlternatives: number[] = [];
  for (const list of opened.values()) {
    keyAlternatives.push(...list);
    keyStarts.push(keyAlternatives.length);
  }
  return {
    keys: Uint32Array.from(opened.keys()),
    keyStarts: Uint32Array.from(keyStarts),
    keyAlternatives: Uint32Array.from(keyAlternatives),
    program: Uint32Array.from(program),
    keyPhrases: phraseOf === null ? null : Uint32Array.from(keyAlternatives, (at) => phraseAt.get(at) ?? 0),
  };
}

/**
 * Bit storage shared by the trigram sets, so that building a set allocates nothing: a fresh typed array per text
 * cost about as much as hashing its trigrams. A set remembers the slot it was built in; when another set has since
 * taken that slot, it is built again on its next test, so a set never reads another text's bits.
 */
interface Slot {
  bits: Int32Array;
  /** The {@link TrigramSet} whose bits the slot holds (its id), or 0. */
  owner: number;
}

/** Sets built in turn before a slot is taken again (a failure's text and its innermost error's, with room to spare). @default 4 */
const SLOT_COUNT = 4;
const SLOTS: Slot[] = [];
let nextSlot = 0;
let nextSetId = 1;

/** The next slot in turn, at least `words` long, taken for set `owner` and cleared. */
function takeSlot(owner: number, words: number): Slot {
  let slot = SLOTS[nextSlot];
  if (slot === undefined || slot.bits.length < words) {
    slot = { bits: new Int32Array(Math.max(words, slot?.bits.length ?? 0)), owner };
    SLOTS[nextSlot] = slot;
  } else {
    slot.owner = owner;
    slot.bits.fill(0, 0, words);
  }
  nextSlot = (nextSlot + 1) % SLOT_COUNT;
  return slot;
}

/** The trigram set of one text, built on first use. */
export class TrigramSet {
  private readonly id = nextSetId++;
  private slot: Slot | null = null;
  /** How far a hash is shifted right to index this set (its size is `2^(HASH_BITS - shift)` bits). */
  private shift = 0;

  /** @param text - the text whose trigrams are tested (the lower-cased evidence text). */
  constructor(private readonly text: string) {}

  /** This set's bits: the slot it was built in while it still holds them, else built (again). */
  private bits(): Int32Array {
    const { slot } = this;
    return slot !== null && slot.owner === this.id ? slot.bits : this.build();
  }

  private build(): Int32Array {
    const { text } = this;
    let size = MIN_SET_BITS;
    let shift = HASH_BITS - Math.log2(MIN_SET_BITS);
    while (shift > 0 && size < text.length * BITS_PER_CHAR) {
      size *= 2;
      shift -= 1;
    }
    const slot = takeSlot(this.id, size >>> 5);
    const { bits } = slot;
    let first = text.charCodeAt(0);
    let second = text.charCodeAt(1);
    for (let index = 2; index < text.length; index += 1) {
      const third = text.charCodeAt(index);
      const hash = trigramHash(first, second, third) >>> shift;
      bits[hash >>> 5] = (bits[hash >>> 5] as number) | (1 << (hash & 31));
      first = second;
      second = third;
    }
    this.slot = slot;
    this.shift = shift;
    return bits;
  }

  /**
   * False only when the pattern cannot match the text: no alternative whose every clause has a literal all of
   * whose trigrams occur. `null` needs (nothing known) always give true.
   */
  mayMatch(needs: PatternNeeds | null): boolean {
    if (needs === null) return true;
    if (this.text.length < MIN_LITERAL_CHARS) return false;
    const bits = this.bits();
    const { shift } = this;
    const { keys, keyStarts, keyAlternatives, program } = needs;
    for (let key = 0; key < keys.length; key += 1) {
      const hash = (keys[key] as number) >>> shift;
      if (((bits[hash >>> 5] as number) & (1 << (hash & 31))) === 0) continue;
      const end = keyStarts[key + 1] as number;
      for (let at = keyStarts[key] as number; at < end; at += 1) {
        if (alternativeMet(bits, shift, program, keyAlternatives[at] as number)) return true;
      }
    }
    return false;
  }

  /**
   * Sets `marks[p]` to 1 for every phrase `p` of a family ({@link familyNeeds}) that may match the text, leaving the
   * others as they are; the caller clears `marks`. A phrase left unmarked cannot match. Needs without
   * `keyPhrases` mark nothing.
   */
  markPhrases(needs: PatternNeeds, marks: Uint8Array): void {
    const { keys, keyStarts, keyAlternatives, program, keyPhrases } = needs;
    if (keyPhrases === null || this.text.length < MIN_LITERAL_CHARS) return;
    const bits = this.bits();
    const { shift } = this;
    for (let key = 0; key < keys.length; key += 1) {
      const hash = (keys[key] as number) >>> shift;
      if (((bits[hash >>> 5] as number) & (1 << (hash & 31))) === 0) continue;
      const end = keyStarts[key + 1] as number;
      for (let at = keyStarts[key] as number; at < end; at += 1) {
        const phrase = keyPhrases[at] as number;
        if (marks[phrase] === 0 && alternativeMet(bits, shift, program, keyAlternatives[at] as number)) marks[phrase] = 1;
      }
    }
  }
}

/** True when every clause of the alternative at `alternative` in `program` is met by a literal all of whose trigram hashes are in `bits`. */
function alternativeMet(bits: Int32Array, shift: number, program: Uint32Array, alternative: number): boolean {
  const alternativeEnd = alternative + 1 + (program[alternative] as number);
  for (let clause = alternative + 2; clause < alternativeEnd; ) {
    const clauseEnd = clause + 1 + (program[clause] as number);
    let met = false;
    for (let literal = clause + 2; literal < clauseEnd && !met; ) {
      const hashesEnd = literal + 1 + (program[literal] as number);
      met = true;
      for (let at = literal + 1; at < hashesEnd; at += 1) {
        const hash = (program[at] as number) >>> shift;
        if (((bits[hash >>> 5] as number) & (1 << (hash & 31))) === 0) {
          met = false;
          break;
        }
      }
      literal = hashesEnd;
    }
    if (!met) return false;
    clause = clauseEnd;
  }
  return true;
}
