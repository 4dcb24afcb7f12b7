/**
 * Errors of the auth-profile store, on the one error base of `@understudy/contracts` (brand, snake_case `code`,
 * `cause`, duplicate-install-safe `isInstance`). Messages never contain a secret.
 */
import { UnderstudyError } from '@understudy/contracts';

/** Why a store operation failed. */
export type AuthStoreErrorCode =
  | 'invalid_agent_id'
  | 'invalid_profile_id'
  | 'invalid_credential'
  | 'invalid_order'
  | 'profile_not_found'
  | 'reserved_profile_id'
  | 'store_not_found'
  | 'store_not_migrated'
  | 'store_read_only'
  | 'store_closed'
  | 'store_unavailable'
  | 'migration_failed'
  | 'invalid_secret_key'
  | 'secret_key_missing'
  | 'secret_key_mismatch'
  | 'credential_corrupt'
  | 'invalid_postgres_options'
  /** The shared PostgreSQL state cannot be reached right now (the store serves its last known state). */
  | 'state_unreachable'
  /** The PostgreSQL server refused the connection or a read (wrong database, user, rights); the message carries its reason and SQLSTATE. */
  | 'state_refused'
  /** Another `state copy` into the same schema holds the copy lock; nothing was written. */
  | 'state_busy'
  /** A `state copy` stopped part-way: the agents named in the message were copied, the rest were not. */
  | 'copy_incomplete'
  | 'legacy_auth_files';

/**
 * A store operation failed: bad input (the message names the field and the fix), a read-only or closed store,
 * or an SQLite failure (kept as `cause`).
 */
export class AuthStoreError extends UnderstudyError<Exclude<AuthStoreErrorCode, 'legacy_auth_files'>> {
  constructor(code: Exclude<AuthStoreErrorCode, 'legacy_auth_files'>, message: string, options: { readonly cause?: unknown } = {}) {
    super(code, message, options);
  }
}

/** One legacy file that blocks an agent until `understudy doctor --fix` imports it. */
export interface BlockingLegacyFile {
  /** Absolute path of the file. */
  readonly path: string;
  /** Why it blocks: it holds credentials, or it could not be read (so it may hold some). */
  readonly why: 'credentials' | 'unreadable';
}

/**
 * The agent has credential-bearing legacy files (`auth-profiles.json`, `credentials/oauth.json`, `auth.json`)
 * that were never imported. The store fails closed rather than silently ignoring or reading them
 * (the model-failover doc "Auth storage"); the message names the command that imports them.
 */
export class LegacyAuthFilesError extends UnderstudyError<'legacy_auth_files'> {
  readonly agentId: string;
  readonly files: readonly BlockingLegacyFile[];

  constructor(agentId: string, files: readonly BlockingLegacyFile[]) {
    const names = files.map((file) => file.path).join(', ');
    super(
      'legacy_auth_files',
      `agent "${agentId}" has legacy auth files that are not imported yet (${names}); ` +
        `run \`understudy doctor --fix${agentId === 'main' ? '' : ` --agent ${agentId}`}\` to import them`,
    );
    this.agentId = agentId;
    this.files = files;
  }
}
