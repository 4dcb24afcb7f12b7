/**
 * What the multi-replica end-to-end suites share (README "Running several replicas"): the test server's URL,
 * whether it answers (with `CI=true` a missing server fails the suite instead of skipping it), a store opened
 * on a test schema the way a replica opens it, the replicas' start-up environment, and one chat request.
 */
import { connectPostgresState, openAuthProfileStore } from '@understudy/auth-profile-store';
import type { AuthProfileStore } from '@understudy/auth-profile-store';
import { KEYS } from './e2e-fixture.js';
import type { GatewayProcess } from './processes.js';

/** The server of the tests: `UNDERSTUDY_TEST_POSTGRES_URL`, else the local one. */
export const TEST_POSTGRES_URL = process.env['UNDERSTUDY_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The secret key every test replica seals credentials with (an obvious test value). */
export const REPLICA_SECRET_KEY = 'test-only-replica-secret-key-0123456789';

/** A schema name of its own for one suite run. */
export function replicaSchema(label: string): string {
  return `t_${label}_${process.pid}_${Date.now().toString(36)}`;
}

/**
 * True when the test server answers (connecting creates and migrates `schema`).
 *
 * @throws {Error} with `CI=true` when no server answers: there a missing server is a failure, not a skip.
 */
export async function postgresAvailable(schema: string, url = TEST_POSTGRES_URL): Promise<boolean> {
  try {
    const state = await connectPostgresState({ url, schema, connectTimeoutMs: 3000 });
    await state.close();
    return true;
  } catch (error) {
    if (process.env['CI'] === 'true') throw new Error(`CI=true and no PostgreSQL answers at ${url}`, { cause: error });
    return false;
  }
}

/** Runs `body` with agent `main`'s store on `schema`, as a replica opens it, and closes it after. */
export async function withReplicaStore<T>(schema: string, body: (store: AuthProfileStore) => Promise<T>, secretKey = REPLICA_SECRET_KEY, url = TEST_POSTGRES_URL): Promise<T> {
  const state = await connectPostgresState({ url, schema, secretKey });
  const store = await openAuthProfileStore({ stateDir: '/nonexistent-understudy-state', agentId: 'main', postgres: state, legacyFiles: 'ignore' });
  try {
    return await body(store);
  } finally {
    await store.close();
    await state.close();
  }
}

/** Drops a test schema and everything in it (nothing when the server is gone). */
export async function dropReplicaSchema(schema: string, url = TEST_POSTGRES_URL): Promise<void> {
  const state = await connectPostgresState({ url, schema, migrations: 'none' }).catch(() => undefined);
  await state?.kysely.schema.dropSchema(schema).ifExists().cascade().execute();
  await state?.close();
}

/** The environment of a test replica on the shared state at `url`. */
export function replicaEnv(url: string): Record<string, string> {
  return { TEST_ANTHROPIC_KEY: KEYS.anthropic, UNDERSTUDY_POSTGRES_URL: url, UNDERSTUDY_SECRET_KEY: REPLICA_SECRET_KEY };
}

/** One chat answer as the replica tests read it. */
export interface ChatAnswer {
  readonly status: number;
  readonly model: string | null;
  readonly profile: string | null;
  readonly text: string;
}

/** Sends one non-streamed chat request to `replica` (on `session` when given) and reads the whole answer. */
export async function chat(replica: Pick<GatewayProcess, 'url'>, content: string, session?: string): Promise<ChatAnswer> {
  const response = await fetch(`${replica.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(session === undefined ? {} : { 'x-understudy-session': session }) },
    body: JSON.stringify({ model: 'default', messages: [{ role: 'user', content }] }),
  });
  const body = (await response.json()) as { choices?: { message?: { content?: string } }[] };
  return {
    status: response.status,
    model: response.headers.get('x-understudy-model'),
    profile: response.headers.get('x-understudy-profile'),
    text: body.choices?.[0]?.message?.content ?? JSON.stringify(body),
  };
}
