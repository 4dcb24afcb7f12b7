/**
 * The PostgreSQL server tests run against: `UNDERSTUDY_TEST_POSTGRES_URL`, default the local one (trust auth).
 * Every test gets a schema of its own (random name, dropped afterwards), so parallel runs and other suites on
 * the same server never see each other's rows. Without a server the PostgreSQL tests are skipped, except
 * with `CI=true`, where a missing server fails the run.
 */
import crypto from 'node:crypto';
import pg from 'pg';

/** The server under test. */
export const TEST_POSTGRES_URL = process.env['UNDERSTUDY_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A secret key for tests (never used outside them). */
export const TEST_SECRET_KEY = 'test-only-secret-key-0123456789abcdef';

let availability: Promise<boolean> | undefined;

/**
 * True when the test server answers. With `CI=true` an unreachable server throws instead, so CI cannot pass
 * without running the PostgreSQL tests.
 */
export function postgresAvailable(): Promise<boolean> {
  availability ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch (error) {
      if (process.env['CI'] === 'true') {
        throw new Error(`CI=true and no PostgreSQL answers at UNDERSTUDY_TEST_POSTGRES_URL (${TEST_POSTGRES_URL}): ${(error as Error).message}`, { cause: error });
      }
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return availability;
}

/** A fresh schema name, unique across processes and runs. */
export function freshSchema(label: string): string {
  return `t_${label.replace(/[^a-z0-9_]/g, '_')}_${crypto.randomBytes(5).toString('hex')}`;
}

/** Drops test schemas (with everything in them). */
export async function dropSchemas(schemas: readonly string[]): Promise<void> {
  if (schemas.length === 0) return;
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  try {
    await client.connect();
    for (const schema of schemas) await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Runs one SQL statement on the test server with a plain client (for tests that go around the store). */
export async function adminQuery<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  try {
    await client.connect();
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}
