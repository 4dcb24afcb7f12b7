/**
 * A prepared `select` whose rows come back as arrays and are turned into objects in JavaScript. better-sqlite3
 * builds each row object through the V8 API one property at a time, which costs more than the query itself on
 * a wide row; an array plus a plain loop is several µs cheaper per call on the request path. The select list
 * names each column once, so the SQL and the decoding cannot drift apart.
 */
import type Database from 'better-sqlite3';

/**
 * A select list: for every property of `Row`, the SQL expression that yields it (in the order of the object).
 * Mapped over `Row`, so a missing column does not compile.
 */
export type SelectList<Row> = { readonly [Name in keyof Row & string]-?: string };

/** The select list of plain column names (each expression is its name). */
export function plainColumns<Row>(names: readonly (keyof Row & string)[]): SelectList<Row> {
  return Object.fromEntries(names.map((name): [string, string] => [name, name])) as SelectList<Row>;
}

/** `select <list> <rest>`, prepared once in raw mode; `get`/`all` return `Row` objects. */
export class RawSelect<Params extends unknown[], Row> {
  readonly #statement: Database.Statement<Params, unknown[]>;
  readonly #names: readonly string[];

  /** @param rest - the SQL after the select list, e.g. `from sessions where key = ?`. */
  constructor(sqlite: Database.Database, list: SelectList<Row>, rest: string) {
    const columns: [string, string][] = Object.entries(list);
    this.#names = columns.map(([name]) => name);
    const expressions = columns.map(([name, expression]) => (expression === name ? name : `${expression} as ${name}`));
    this.#statement = sqlite.prepare<Params, unknown[]>(`select ${expressions.join(', ')} ${rest}`).raw();
  }

  /** The first row, or `undefined`. */
  get(...params: Params): Row | undefined {
    const values = this.#statement.get(...params);
    return values === undefined ? undefined : this.#decode(values);
  }

  /** Every row. */
  all(...params: Params): Row[] {
    return this.#statement.all(...params).map((values) => this.#decode(values));
  }

  #decode(values: readonly unknown[]): Row {
    const names = this.#names;
    const row: Record<string, unknown> = {};
    for (let index = 0; index < names.length; index += 1) row[names[index] as string] = values[index];
    return row as Row;
  }
}
