/**
 * How a failing agent store becomes an HTTP error: bad input the store refused (an invalid profile or agent id)
 * is a 400 naming the rule; a store that cannot be opened or read (a corrupted or unreadable SQLite file, a
 * failed migration, a full disk) is a 503 `store_unavailable` telling the operator to run `understudy doctor`.
 * The client never sees the database path or SQLite's own words; the gateway log does.
 */
import { AuthStoreError } from '@understudy/auth-profile-store';
import { GatewayError } from '../gateway-error.js';

/** Store error codes that mean the caller's input was wrong, not the store. */
const BAD_INPUT_CODES: ReadonlySet<string> = new Set(['invalid_agent_id', 'invalid_profile_id', 'invalid_credential', 'invalid_order', 'reserved_profile_id']);

/** An error better-sqlite3 (or SQLite through it) raised: `SqliteError` with a `SQLITE_*` code. */
function isSqliteError(error: unknown): error is Error & { readonly code: string } {
  if (!(error instanceof Error)) return false;
  const code = (error as { readonly code?: unknown }).code;
  return error.name === 'SqliteError' || (typeof code === 'string' && code.startsWith('SQLITE_'));
}

/**
 * True when `error` says the agent's state store itself is unusable (as opposed to bad input or a bug): an
 * `AuthStoreError` about the database, or a raw SQLite error from a store call.
 */
function isStoreFailure(error: unknown): boolean {
  if (AuthStoreError.isInstance(error)) return !BAD_INPUT_CODES.has(error.code) && error.code !== 'profile_not_found';
  return isSqliteError(error);
}

/** The command that checks (and where it can, repairs) an agent's store. */
function doctorCommand(agentId: string | undefined): string {
  return agentId === undefined || agentId === 'main' ? 'understudy doctor' : `understudy doctor --agent ${agentId}`;
}

/**
 * The 503 for an agent whose store cannot be used. The message names the agent and the command to run; the
 * cause (kept for the log) has the path and SQLite's words.
 *
 * @example storeUnavailable('coder', sqliteError).message // 'state store unavailable for agent coder: run `understudy doctor --agent coder` (SQLITE_NOTADB)'
 */
export function storeUnavailable(agentId: string | undefined, cause: unknown): GatewayError {
  const code = isSqliteError(cause) ? cause.code : AuthStoreError.isInstance(cause) ? cause.code : undefined;
  const who = agentId === undefined ? 'the agent' : `agent ${agentId}`;
  return new GatewayError(503, 'unavailable', `state store unavailable for ${who}: run \`${doctorCommand(agentId)}\`${code === undefined ? '' : ` (${code})`}`, {
    code: 'store_unavailable',
    cause,
  });
}

/**
 * The 503 for a write that needs the shared PostgreSQL state while it cannot be reached (`/model`, admin
 * session and profile changes). Chat requests are not refused: they are answered from the last known state.
 */
function stateUnreachable(cause: unknown): GatewayError {
  return new GatewayError(
    503,
    'unavailable',
    'the shared state store (PostgreSQL) is unreachable, so this change cannot be saved for every replica: retry in a few seconds (chat requests are still served)',
    { code: 'state_store_unreachable', cause },
  );
}

/** The 503 for a request that reached a store the shutting-down gateway already closed. */
export function shuttingDown(cause?: unknown): GatewayError {
  return new GatewayError(503, 'unavailable', 'the gateway is shutting down; retry on another instance', { code: 'shutting_down', cause });
}

/**
 * The HTTP error for an error a store call threw, or `undefined` when it is not a store error: 400 for input
 * the store refused, 503 {@link storeUnavailable} for a store that cannot be used.
 */
export function storeError(error: unknown, agentId: string | undefined): GatewayError | undefined {
  if (AuthStoreError.isInstance(error) && BAD_INPUT_CODES.has(error.code)) {
    return new GatewayError(400, 'invalid_request', error.message, { code: error.code, cause: error });
  }
  if (AuthStoreError.isInstance(error) && error.code === 'store_closed') return shuttingDown(error);
  if (AuthStoreError.isInstance(error) && error.code === 'state_unreachable') return stateUnreachable(error);
  return isStoreFailure(error) ? storeUnavailable(agentId, error) : undefined;
}

function errorFacts(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const code = (error as { readonly code?: unknown }).code;
  return { name: error.name, ...(typeof code === 'string' ? { code } : {}), message: error.message };
}

/**
 * What to log about a {@link storeUnavailable} error: the cause's name, code and message, and its own cause's
 * (SQLite's words, the database path). No stack (log `err` at debug for that); the logger scrubs the strings.
 *
 * @example log.error({ agent, ...storeFailureFacts(error) }, error.message)
 */
export function storeFailureFacts(error: GatewayError): Record<string, unknown> {
  const cause = error.cause ?? error;
  const root = cause instanceof Error && cause.cause !== undefined ? { rootCause: errorFacts(cause.cause) } : {};
  return { cause: errorFacts(cause), ...root };
}
