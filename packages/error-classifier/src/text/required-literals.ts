/**
 * What a phrase pattern cannot match without: for each top-level alternative of a regular expression, the literal
 * strings every match of that alternative contains. The phrase families use it to skip a pattern over a text
 * that lacks them (`trigrams.ts`), which is most patterns over most texts; the pattern itself still decides
 * whenever it could match, so no classification depends on this analysis (docs/policy.md, "How the classifier
 * reads a failure", cost).
 *
 * The analysis reads the pattern's source and is conservative: anything it does not understand (flags, escapes
 * it does not know, malformed groups) yields `null`, "no requirement known", and the pattern is always run.
 */

/**
 * What every match of one alternative contains: all of `clauses`, each satisfied by any one of its literals.
 * A clause of one literal is a literal run of the alternative itself; a clause of several comes from a required
 * group (`(?:daily|weekly) limit` needs "limit" and one of "daily", "weekly").
 */
export type Requirement = readonly (readonly string[])[];

/** Literals shorter than this are not kept (too common to tell texts apart). @default 3 */
export const MIN_LITERAL_CHARS = 3;

interface Node {
  /** The exact text every match of the node is, when it is a fixed string; else `null`. */
  readonly exact: string | null;
  /** Clauses every match of the node satisfies (for a fixed string: the string itself, when long enough). */
  readonly clauses: readonly (readonly string[])[];
  /** The node's alternatives, when it is a group of several: their own requirements. */
  readonly alternatives: readonly Requirement[] | null;
}

class Unsupported extends Error {}

const NOTHING: Node = { exact: null, clauses: [], alternatives: null };
const EMPTY: Node = { exact: '', clauses: [], alternatives: null };

/** Escaped letters that stand for one fixed character. */
const CONTROL_ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', f: '\f', v: '\v' };
/** Escaped letters that stand for a class of characters. */
const CLASS_ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S']);
/** Escaped letters that match no character (word boundaries). */
const ASSERTION_ESCAPES = new Set(['b', 'B']);
const HEX = /^[0-9a-fA-F]+$/;
const QUANTIFIER = /^\{(\d{1,9})(?:(,)(\d{0,9}))?\}/;

/** A small recursive-descent reader of the regular-expression syntax the phrase tables use. */
class Reader {
  private index = 0;

  constructor(private readonly source: string) {}

  /** The requirements of each top-level alternative, flattening alternatives that are one whole group. */
  topLevel(): Requirement[] {
    const alternatives = this.alternation();
    if (this.index !== this.source.length) throw new Unsupported('unbalanced');
    return alternatives;
  }

  /** `a|b|c` up to `)` or the end: the requirement of each alternative. */
  private alternation(): Requirement[] {
    const alternatives: Requirement[] = this.sequence();
    while (this.source[this.index] === '|') {
      this.index += 1;
      alternatives.push(...this.sequence());
    }
    return alternatives;
  }

  /**
   * One alternative: its terms in order, as one requirement. An alternative that is one whole group without a
   * quantifier (`(?:a|b)` in `(?:a|b)|c`) stands for the group's own alternatives, so it yields each of them.
   */
  private sequence(): Requirement[] {
    const clauses: (readonly string[])[] = [];
    let run = '';
    let terms = 0;
    let lone: Node | null = null;
    const flush = (): void => {
      if (run.length >= MIN_LITERAL_CHARS) clauses.push([run]);
      run = '';
    };
    while (this.index < this.source.length && this.source[this.index] !== '|' && this.source[this.index] !== ')') {
      const atom = this.atom();
      const [min, max] = this.quantifier();
      terms += 1;
      lone = min === 1 && max === 1 ? atom : null;
      if (atom.exact !== null && min === max) {
        run += atom.exact.repeat(min);
        continue;
      }
      if (atom.exact !== null && min >= 1) {
        run += atom.exact.repeat(min);
        flush();
        continue;
      }
      flush();
      if (min >= 1) clauses.push(...atom.clauses, ...alternativesClause(atom));
    }
    if (terms === 1 && lone !== null && lone.alternatives !== null) return [...lone.alternatives];
    flush();
    return [clauses];
  }

  /** `?`, `*`, `+`, `{m}`, `{m,}`, `{m,n}` (each optionally lazy) as [min, max]; [1, 1] when none. */
  private quantifier(): [number, number] {
    const char = this.source[this.index];
    let range: [number, number];
    if (char === '?') range = [0, 1];
    else if (char === '*') range = [0, Infinity];
    else if (char === '+') range = [1, Infinity];
    else if (char === '{') {
      const match = QUANTIFIER.exec(this.source.slice(this.index));
      if (match === null) return [1, 1]; // a literal brace (Annex B)
      const min = Number(match[1]);
      range = [min, match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3])];
      this.index += match[0].length - 1;
    } else return [1, 1];
    this.index += 1;
    if (this.source[this.index] === '?') this.index += 1;
    return range;
  }

  private atom(): Node {
    const char = this.source[this.index];
    if (char === undefined) throw new Unsupported('end');
    if (char === '(') return this.group();
    if (char === '[') {
      this.characterClass();
      return NOTHING;
    }
    this.index += 1;
    if (char === '\\') return this.escape();
    if (char === '.') return NOTHING;
    if (char === '^' || char === '$') return EMPTY;
    if (char === '*' || char === '+' || char === '?') throw new Unsupported('quantifier without atom');
    return { exact: char, clauses: [], alternatives: null };
  }

  private group(): Node {
    this.index += 1;
    const rest = this.source.slice(this.index, this.index + 3);
    let assertion = false;
    if (rest.startsWith('?:')) this.index += 2;
    else if (rest.startsWith('?=') || rest.startsWith('?!')) {
      this.index += 2;
      assertion = true;
    } else if (rest.startsWith('?<=') || rest.startsWith('?<!')) {
      this.index += 3;
      assertion = true;
    } else if (rest.startsWith('?')) {
      throw new Unsupported('group kind');
    }
    const alternatives = this.alternation();
    if (this.source[this.index] !== ')') throw new Unsupported('unclosed group');
    this.index += 1;
    if (assertion) return EMPTY;
    if (alternatives.length === 1) {
      const only = alternatives[0] ?? [];
      return { exact: null, clauses: only, alternatives };
    }
    return { exact: null, clauses: [], alternatives };
  }

  private characterClass(): void {
    this.index += 1;
    if (this.source[this.index] === '^') this.index += 1;
    // A `]` first in a class closes it (an empty class), as in JavaScript.
    while (this.index < this.source.length && this.source[this.index] !== ']') {
      this.index += this.source[this.index] === '\\' ? 2 : 1;
    }
    if (this.source[this.index] !== ']') throw new Unsupported('unclosed class');
    this.index += 1;
  }

  private escape(): Node {
    const char = this.source[this.index];
    if (char === undefined) throw new Unsupported('trailing backslash');
    this.index += 1;
    if (CONTROL_ESCAPES[char] !== undefined) return { exact: CONTROL_ESCAPES[char], clauses: [], alternatives: null };
    if (CLASS_ESCAPES.has(char)) return NOTHING;
    if (ASSERTION_ESCAPES.has(char)) return EMPTY;
    if (char === 'u' || char === 'x') {
      const digits = this.source.slice(this.index, this.index + (char === 'u' ? 4 : 2));
      if (digits.length !== (char === 'u' ? 4 : 2) || !HEX.test(digits)) throw new Unsupported('escape');
      this.index += digits.length;
      return { exact: String.fromCharCode(Number.parseInt(digits, 16)), clauses: [], alternatives: null };
    }
    // Letters and digits have meanings (back references, \c, \k, \p …) this reader does not model.
    if (/[a-zA-Z0-9]/.test(char)) throw new Unsupported('escape');
    return { exact: char, clauses: [], alternatives: null };
  }
}

/**
 * A clause from a required group of several alternatives: every match satisfies one alternative, hence one of
 * that alternative's clauses, so the union of one clause per alternative is a clause of the group. None when some
 * alternative requires nothing known.
 */
function alternativesClause(node: Node): (readonly string[])[] {
  if (node.alternatives === null || node.alternatives.length < 2) return [];
  const literals = new Set<string>();
  for (const alternative of node.alternatives) {
    const best = bestClause(alternative);
    if (best === null) return [];
    for (const literal of best) literals.add(literal);
  }
  return [[...literals]];
}

/** The most telling clause of a requirement: the fewest literals, then the longest shortest literal. */
function bestClause(requirement: Requirement): readonly string[] | null {
  let best: readonly string[] | null = null;
  let bestShortest = 0;
  for (const clause of requirement) {
    const shortest = Math.min(...clause.map((literal) => literal.length));
    if (best === null || clause.length < best.length || (clause.length === best.length && shortest > bestShortest)) {
      best = clause;
      bestShortest = shortest;
    }
  }
  return best;
}

/**
 * For each top-level alternative of `pattern` (a lone group of alternatives counts as its alternatives), the
 * clauses every match of it satisfies; `null` when some alternative requires nothing known, or the pattern has
 * flags or syntax this analysis does not read.
 *
 * @example requiredLiterals(/rate[ _-]?limit|throttl/) // [[['rate'], ['limit']], [['throttl']]]
 * @example requiredLiterals(/(?:daily|weekly) quota/) // [[[' quota'], ['daily', 'weekly']]]
 * @example requiredLiterals(/\d{3}/) // null
 */
export function requiredLiterals(pattern: RegExp): Requirement[] | null {
  if (pattern.flags !== '') return null;
  let alternatives: Requirement[];
  try {
    alternatives = new Reader(pattern.source).topLevel();
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
  return alternatives.every((clauses) => clauses.length > 0) ? alternatives : null;
}

/**
 * A cheap "could `pattern` match here?" test by the engine's string search, for a pattern run once per failure
 * (the phrase families use the trigram set instead): true when, for some alternative, one literal of its most
 * telling clause occurs in the text. False only when the pattern cannot match; always true when nothing is known
 * ({@link requiredLiterals} gives `null`). Read from the pattern itself, so it follows any edit of the pattern.
 *
 * @example literalPretest(/rate[ _-]?limit|throttl/)('you are being throttled') // true
 * @example literalPretest(/rate[ _-]?limit|throttl/)('invalid api key') // false
 */
export function literalPretest(pattern: RegExp): (text: string) => boolean {
  const alternatives = requiredLiterals(pattern);
  if (alternatives === null) return () => true;
  const clauses = alternatives.map((alternative) => bestClause(alternative) ?? []);
  if (clauses.some((clause) => clause.length === 0)) return () => true;
  const literals = [...new Set(clauses.flat())];
  return (text) => literals.some((literal) => text.includes(literal));
}
