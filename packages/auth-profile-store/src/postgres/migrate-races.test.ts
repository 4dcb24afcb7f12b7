/**
 * Migrating while another schema of the same database is dropped: kysely's migrator lists the tables of every
 * schema to find its own migration table, so a schema (or table) that vanishes during that listing fails the
 * run with `3F000` / `42P01` although our own schema is there and locked. Such a run is started again.
 */
import pg from 'pg';
import type { Migrator } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { connectPostgresState } from '../index.js';
import { TEST_POSTGRES_URL, TEST_SECRET_KEY, dropSchemas, freshSchema, postgresAvailable } from '../test-support/test-postgres.js';
import { migrateDespiteOthersDrops } from './postgres-state.js';

const available = await postgresAvailable();
const schemas: string[] = [];

afterAll(async () => {
  await dropSchemas(schemas);
});

type Outcome = Awaited<ReturnType<Migrator['migrateToLatest']>>;

function scripted(outcomes: Outcome[]): { migrator: Migrator; runs: () => number } {
  let runs = 0;
  const migrator = {
    migrateToLatest: async (): Promise<Outcome> => {
      const outcome = outcomes[Math.min(runs, outcomes.length - 1)] as Outcome;
      runs += 1;
      return outcome;
    },
  } as unknown as Migrator;
  return { migrator, runs: () => runs };
}

const vanished = (code: string): Outcome => ({ error: Object.assign(new Error('schema "t_other" does not exist'), { code }) });
const done: Outcome = { results: [{ migrationName: '0001_initial', direction: 'Up', status: 'Success' }] };

describe('migrateDespiteOthersDrops', () => {
  it('runs again after a schema or table vanished under the table listing, and returns the run that got through', async () => {
    for (const code of ['3F000', '42P01']) {
      const { migrator, runs } = scripted([vanished(code), done]);
      expect(await migrateDespiteOthersDrops(migrator)).toBe(done);
      expect(runs()).toBe(2);
    }
  });

  it('gives up after five runs, and never repeats any other failure or a run that had started migrating', async () => {
    const always = scripted([vanished('3F000')]);
    expect((await migrateDespiteOthersDrops(always.migrator)).error).toMatchObject({ code: '3F000' });
    expect(always.runs()).toBe(5);
    const other = scripted([{ error: Object.assign(new Error('permission denied'), { code: '42501' }) }, done]);
    expect((await migrateDespiteOthersDrops(other.migrator)).error).toMatchObject({ code: '42501' });
    expect(other.runs()).toBe(1);
    const started: Outcome = { error: Object.assign(new Error('gone'), { code: '42P01' }), results: [{ migrationName: '0001_initial', direction: 'Up', status: 'Error' }] };
    const midway = scripted([started, done]);
    expect(await migrateDespiteOthersDrops(midway.migrator)).toBe(started);
    expect(midway.runs()).toBe(1);
  });
});

describe.skipIf(!available)('migrating on a real server while other schemas come and go', () => {
  it('every fresh schema migrates while another connection creates and drops schemas with tables', { timeout: 120_000 }, async () => {
    const churn = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await churn.connect();
    let stop = false;
    const churning = (async () => {
      for (let round = 0; !stop; round += 1) {
        const name = freshSchema(`churn${round % 10}`);
        await churn.query(`create schema ${name}`);
        await churn.query(`create table ${name}.t (id serial primary key, a text, b text, c text)`);
        await churn.query(`drop schema ${name} cascade`);
        // A pause between rounds: a drop now and then, as on a shared server, not a drop under every listing.
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    try {
      for (let index = 0; index < 8; index += 1) {
        const schema = freshSchema('race');
        schemas.push(schema);
        const state = await connectPostgresState({ url: TEST_POSTGRES_URL, schema, secretKey: TEST_SECRET_KEY, poolSize: 1 });
        await state.close();
      }
    } finally {
      stop = true;
      await churning;
      await churn.end();
    }
  });
});
