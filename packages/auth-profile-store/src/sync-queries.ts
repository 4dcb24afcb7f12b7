/**
 * Runs kysely-built queries synchronously on the better-sqlite3 connection. Kysely gives typed SQL; running it
 * synchronously lets a whole read-modify-write sit inside one `BEGIN IMMEDIATE` transaction with no `await`
 * in the middle, so nothing else on this connection can slip in and other processes wait on the lock.
 */
import type Database from 'better-sqlite3';
import type { Compilable } from 'kysely';

/** Parameters better-sqlite3 accepts. */
type SqlValue = string | number | bigint | Buffer | null;

/** Typed synchronous execution of compiled kysely queries, with a prepared-statement cache. */
export class SyncQueries {
  readonly #sqlite: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();

  constructor(sqlite: Database.Database) {
    this.#sqlite = sqlite;
  }

  /** Every row of a query. */
  all<Row>(query: Compilable<Row>): Row[] {
    const compiled = query.compile();
    return this.#prepare(compiled.sql).all(...toParameters(compiled.parameters)) as Row[];
  }

  /** The first row of a query, or `undefined`. */
  first<Row>(query: Compilable<Row>): Row | undefined {
    const compiled = query.compile();
    return this.#prepare(compiled.sql).get(...toParameters(compiled.parameters)) as Row | undefined;
  }

  /** Runs a write; returns how many rows changed. */
  run(query: Compilable<unknown>): number {
    const compiled = query.compile();
    return this.#prepare(compiled.sql).run(...toParameters(compiled.parameters)).changes;
  }

  /**
   * Runs `body` in one `BEGIN IMMEDIATE` transaction: the write lock is taken first (waiting up to the busy
   * timeout for other processes), so a read-modify-write can never lose an update. A throw rolls back.
   */
  immediate<T>(body: () => T): T {
    return this.#sqlite.transaction(body).immediate();
  }

  /** Runs `body` in one read transaction, so several reads see the same snapshot. */
  read<T>(body: () => T): T {
    return this.#sqlite.transaction(body).deferred();
  }

  #prepare(text: string): Database.Statement {
    let statement = this.#statements.get(text);
    if (statement === undefined) {
      statement = this.#sqlite.prepare(text);
      this.#statements.set(text, statement);
    }
    return statement;
  }
}

function toParameters(parameters: readonly unknown[]): SqlValue[] {
  return parameters.map((value) => {
    if (value === undefined) return null;
    if (typeof value === 'boolean') return value ? 1 : 0;
    return value as SqlValue;
  });
}
