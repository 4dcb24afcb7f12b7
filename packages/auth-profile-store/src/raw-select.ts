/**
 * A prepared `select` whose rows come back as arrays and are turned into objects in JavaScript. better-sqlite3
 * builds each row object through the V8 API one property at a time, which costs more than the query itself on
 * a wide row; an array plus a plain loop is several µs cheaper per call on the request path. The select list
 * names each column once, so the SQL and the decoding cannot drift apart.
 */
import type Database from 'better-sqlite3';

/** A select list: each column's name in the row object, with the SQL expression that yields it. */
export type SelectList<Row> = readonly (readonly [name: keyof Row & string, expression: string])[];

/** A select list of plain column names (the expression is the name). */
export function plainColumns<Row>(names: readonly (keyof Row & string)[]): SelectList<Row> {
  return names.map((name) => [name, name] as const);
}

/** `select <list> <rest>`, prepared once in raw mode; `get`/`all` return `Row` objects. */
export class RawSelect<Params extends unknown[], Row> {
  readonly #statement: Database.Statement<Params, unknown[]>;
  readonly #names: readonly string[];

  /** @param rest - the SQL after the select list, e.g. `from sessions where key = ?`. */
  constructor(sqlite: Database.Database, list: SelectList<Row>, rest: string) {
    this.#names = list.map(([name]) => name);
    const expressions = list.map(([name, expression]) => (expression === name ? name : `${expression} as ${name}`));
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
