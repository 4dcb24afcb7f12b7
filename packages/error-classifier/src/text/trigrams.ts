/**
 * A cheap "could this pattern match here?" test for the phrase families: for each pattern, the trigrams (three
 * consecutive UTF-16 code units) of the literals every match of it contains ({@link requiredLiterals}), interned
 * once into a table of known trigrams; for each text, which known trigrams it holds, found in one pass over it. A
 * pattern some of whose required trigrams are absent cannot match and is not run; otherwise it runs as before, so
 * the test only saves work and never changes a verdict (docs/policy.md, "How the classifier reads a failure",
 * cost). The trigrams are compared exactly (no hash collision lets a pattern run that could have been skipped), so
 * random or long texts, which hold most hashes of a hashed set, are refused as well as short ones.
 */
import { MIN_LITERAL_CHARS, requiredLiterals } from './required-literals.js';

/**
 * The known trigrams: each interned one has an id (its index here), its first code unit and its other two packed
 * into one number; an open-addressing table of `id + 1` (0: empty) finds the id of a text's trigram. Patterns are
 * compiled once, when their rule families are built; the table only grows.
 */
let firstUnits = new Uint16Array(1024);
let restUnits = new Int32Array(1024);
let knownCount = 0;
/**
 * Bits of the table index; the table grows to stay at most a quarter full, so most unknown trigrams meet an empty
 * slot, and no larger, so it stays in the first-level cache (the phrase tables know about 1 900 trigrams: 8 192
 * slots, 32 KiB).
 */
let tableBits = 10;
let table = new Uint32Array(1 << tableBits);

/** The table slot where the search for a trigram starts: a multiplicative hash of its three code units. */
function slotOf(first: number, rest: number, bits: number): number {
  return Math.imul(first ^ Math.imul(rest, 0x85ebca6b), 0x9e3779b1) >>> (32 - bits);
}

function insert(into: Uint32Array, bits: number, id: number): void {
  const mask = (1 << bits) - 1;
  let slot = slotOf(firstUnits[id] as number, restUnits[id] as number, bits);
  while (into[slot] !== 0) slot = (slot + 1) & mask;
  into[slot] = id + 1;
}

/** The id of the trigram at `index` of `text`, interned when new. */
function internTrigram(text: string, index: number): number {
  const first = text.charCodeAt(index);
  const rest = (text.charCodeAt(index + 1) << 16) | text.charCodeAt(index + 2);
  const mask = (1 << tableBits) - 1;
  let slot = slotOf(first, rest, tableBits);
  for (let entry = table[slot] as number; entry !== 0; entry = table[slot] as number) {
    if (firstUnits[entry - 1] === first && restUnits[entry - 1] === rest) return entry - 1;
    slot = (slot + 1) & mask;
  }
  if (knownCount === firstUnits.length) {
    const firsts = new Uint16Array(knownCount * 2);
    firsts.set(firstUnits);
    firstUnits = firsts;
    const rests = new Int32Array(knownCount * 2);
    rests.set(restUnits);
    restUnits = rests;
  }
  const id = knownCount;
  firstUnits[id] = first;
  restUnits[id] = rest;
  knownCount += 1;
  if (knownCount * 4 > table.length) {
    tableBits += 1;
    table = new Uint32Array(1 << tableBits);
    for (let known = 0; known < knownCount; known += 1) insert(table, tableBits, known);
  } else {
    table[slot] = id + 1;
  }
  return id;
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

/** The trigram ids of one literal (at least {@link MIN_LITERAL_CHARS} characters long), rarest first. */
function literalTrigrams(literal: string): number[] {
  const starts: number[] = [];
  for (let index = 0; index + 2 < literal.length; index += 1) starts.push(index);
  starts.sort((left, right) => rarity(literal, right) - rarity(literal, left) || left - right);
  return [...new Set(starts.map((index) => internTrigram(literal, index)))];
}

/**
 * What one pattern needs of a text, compiled for {@link TrigramSet.mayMatch}. `program`: any of its alternatives,
 * each needing all of its clauses, each satisfied by any of its literals, each present when all its trigrams are,
 * laid out flat with trigram ids — `[alternatives, (length, clauses, (length, literals, (ids, …id)…)…)…]` — so a
 * test walks one typed array. `keys`: the rarest trigram of each literal of each alternative's first clause, and
 * for each key (`keyStarts[k]` up to `keyStarts[k + 1]`) the offsets in `program` of the alternatives it opens
 * (`keyAlternatives`): an alternative can be met only when one of its keys is present, so only those are read.
 * `newest`: the highest trigram id it reads.
 */
export interface PatternNeeds {
  readonly keys: Uint32Array;
  readonly keyStarts: Uint32Array;
  readonly keyAlternatives: Uint32Array;
  readonly program: Uint32Array;
  readonly newest: number;
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
  const opened = new Map<number, number[]>();
  let newest = 0;
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
        const ids = literalTrigrams(literal);
        program.push(ids.length, ...ids);
        for (const id of ids) newest = Math.max(newest, id);
        const key = ids[0];
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
    newest,
  };
}

/** The known trigrams one text holds, found on first use. */
export class TrigramSet {
  private present: Int32Array | null = null;
  /** How many trigrams were known when the set was built: a newer one is not looked for, so it may be present. */
  private known = 0;

  /** @param text - the text whose trigrams are tested (the lower-cased evidence text). */
  constructor(private readonly text: string) {}

  private build(): Int32Array {
    const { text } = this;
    const present = new Int32Array((knownCount + 31) >>> 5);
    const firsts = firstUnits;
    const rests = restUnits;
    const slots = table;
    const bits = tableBits;
    const mask = (1 << bits) - 1;
    let first = text.charCodeAt(0);
    let second = text.charCodeAt(1);
    for (let index = 2; index < text.length; index += 1) {
      const third = text.charCodeAt(index);
      const rest = (second << 16) | third;
      for (let slot = slotOf(first, rest, bits); ; slot = (slot + 1) & mask) {
        const entry = slots[slot] as number;
        if (entry === 0) break;
        if (firsts[entry - 1] === first && rests[entry - 1] === rest) {
          present[(entry - 1) >>> 5] |= 1 << ((entry - 1) & 31);
          break;
        }
      }
      first = second;
      second = third;
    }
    this.present = present;
    this.known = knownCount;
    return present;
  }

  /**
   * False only when the pattern cannot match the text: no alternative whose every clause has a literal all of
   * whose trigrams occur. `null` needs (nothing known) always give true.
   */
  mayMatch(needs: PatternNeeds | null): boolean {
    if (needs === null) return true;
    if (this.text.length < MIN_LITERAL_CHARS) return false;
    const present = this.present ?? this.build();
    if (needs.newest >= this.known) return true;
    const { keys, keyStarts, keyAlternatives, program } = needs;
    for (let key = 0; key < keys.length; key += 1) {
      const id = keys[key] as number;
      if (((present[id >>> 5] as number) & (1 << (id & 31))) === 0) continue;
      const end = keyStarts[key + 1] as number;
      for (let at = keyStarts[key] as number; at < end; at += 1) {
        if (alternativeMet(present, program, keyAlternatives[at] as number)) return true;
      }
    }
    return false;
  }
}

/** True when every clause of the alternative at `alternative` in `program` is met by a literal all of whose trigrams are in `present`. */
function alternativeMet(present: Int32Array, program: Uint32Array, alternative: number): boolean {
  const alternativeEnd = alternative + 1 + (program[alternative] as number);
  for (let clause = alternative + 2; clause < alternativeEnd; ) {
    const clauseEnd = clause + 1 + (program[clause] as number);
    let met = false;
    for (let literal = clause + 2; literal < clauseEnd && !met; ) {
      const idsEnd = literal + 1 + (program[literal] as number);
      met = true;
      for (let at = literal + 1; at < idsEnd; at += 1) {
        const id = program[at] as number;
        if (((present[id >>> 5] as number) & (1 << (id & 31))) === 0) {
          met = false;
          break;
        }
      }
      literal = idsEnd;
    }
    if (!met) return false;
    clause = clauseEnd;
  }
  return true;
}
