/**
 * Child process of the multi-process tests: opens the store of agent `main` under a state root and records
 * `count` failure marks on one profile, each one `updateUsageStats` call (one `BEGIN IMMEDIATE` transaction).
 * Prints `ready` once open and then one line per committed mark, so a parent can kill it mid-loop knowing what
 * was committed. `count` 0 means forever.
 *
 * With a PostgreSQL URL and schema after them, the marks go to the shared PostgreSQL state instead (each
 * one a row-locked transaction).
 *
 * Usage: node mark-failures-child.mjs <stateRoot> <profileId> <count> [<postgresUrl> <schema>]
 */
import { connectPostgresState, openAuthProfileStore } from '../index.js';

const [stateDir, profileId, countText, postgresUrl, schema] = process.argv.slice(2);
if (stateDir === undefined || profileId === undefined || countText === undefined) {
  process.stderr.write('usage: mark-failures-child <stateRoot> <profileId> <count>\n');
  process.exit(2);
}
const count = Number(countText);
const postgres = postgresUrl === undefined ? undefined : await connectPostgresState({ url: postgresUrl, schema, poolSize: 2 });
const store = await openAuthProfileStore({ stateDir, agentId: 'main', busyTimeoutMs: 30_000, postgres });
process.stdout.write('ready\n');
for (let mark = 1; count === 0 || mark <= count; mark += 1) {
  await store.updateUsageStats(profileId, (stats) => ({
    ...stats,
    errorCount: (stats.errorCount ?? 0) + 1,
    failureCounts: { ...stats.failureCounts, rate_limit: (stats.failureCounts?.rate_limit ?? 0) + 1 },
    lastFailureAt: mark,
  }));
  process.stdout.write(`${mark}\n`);
}
await store.close();
await postgres?.close();
