/**
 * `@understudy/auth-profile-store`: one SQLite database per agent (or one shared PostgreSQL schema for every agent
 * of several gateway replicas) holding auth profiles and their credentials,
 * usage stats, per-provider order overrides, sessions and probe throttles (docs/configuration.md), implementing the
 * runner's `AuthStorePort`, plus legacy import and diagnosis for `understudy doctor`.
 */
export { openAuthProfileStore } from './auth-profile-store.js';
export type {
  AuthProfileRecord,
  AuthProfileStore,
  InlineKey,
  OpenAuthProfileStoreOptions,
  SaveRefreshedCredentialResult,
  StoreStatus,
  UpsertProfileInput,
} from './store-api.js';
export {
  DEFAULT_CACHE_MAX_AGE_MS,
  DEFAULT_PG_POOL_SIZE,
  DEFAULT_PG_SCHEMA,
  POSTGRES_URL_FORMS,
  PostgresState,
  connectPostgresState,
  describePostgresUrl,
  isOutageError,
  parsePostgresUrl,
  schemaProblem,
} from './postgres/postgres-state.js';
export type { ConnectPostgresStateOptions, PostgresStateStatus, PostgresUrlParts } from './postgres/postgres-state.js';
export { STATE_COPY_KINDS, STATE_COPY_LOCK, copyStateToPostgres } from './postgres/state-copy.js';
export type { AgentStateCopyReport, CopyStateToPostgresOptions, StateCopyCount, StateCopyKind, StateCopyReport } from './postgres/state-copy.js';
export { MIN_SECRET_KEY_LENGTH, SECRET_KEY_HINT } from './postgres/secret-box.js';
export { PG_MIGRATION_NAMES } from './postgres/pg-migrations.js';
export { AuthStoreError, LegacyAuthFilesError } from './errors.js';
export type { AuthStoreErrorCode, BlockingLegacyFile } from './errors.js';
export {
  DEFAULT_AGENT_ID,
  assertAgentId,
  listAgentIds,
  resolveStatePaths,
  resolveStateRoot,
  statePathsUnder,
} from './state-paths.js';
export type { StatePaths } from './state-paths.js';
export { DATABASE_FILE_MODE, DIRECTORY_MODE } from './agent-database.js';
export { CREDENTIAL_TYPES } from './credential-rows.js';
export { findLegacyAuthFiles } from './legacy/legacy-files.js';
export type { LegacyFileContent, LegacyFileKind, LegacyFileStatus, LegacyProfile, LegacySkip } from './legacy/legacy-files.js';
export { importLegacyAuthFiles } from './legacy/legacy-import.js';
export type { ImportLegacyAuthFilesOptions, LegacyImportAction, LegacyImportReport } from './legacy/legacy-import.js';
export { diagnoseAuthStore, repairAuthStorePermissions } from './store-diagnosis.js';
export type { AuthStoreDiagnosis, DatabaseDiagnosis, PermissionProblem } from './store-diagnosis.js';
