/**
 * Where the gateway replicas' shared state lives (docs/configuration.md, README "Running several replicas"):
 * `UNDERSTUDY_POSTGRES_URL` (else `state.postgres.url`), the schema and pool size of `state.postgres`, and the
 * secret key that seals stored credentials, read from `UNDERSTUDY_SECRET_KEY` or the variable
 * `state.secretKeyEnv` names. The environment is read here, at the edge; the store takes plain values.
 */
import type { UnderstudyConfig } from '@understudy/config';
import { UnderstudyError } from '@understudy/contracts';

/** The variable that names the PostgreSQL URL (wins over `state.postgres.url`). */
export const POSTGRES_URL_ENV = 'UNDERSTUDY_POSTGRES_URL';
/** The default variable holding the secret key. */
export const SECRET_KEY_ENV = 'UNDERSTUDY_SECRET_KEY';

/** Settings of the shared PostgreSQL state. */
export interface SharedStateSettings {
  /** `postgres://…`; may hold a password: never log it. */
  readonly url: string;
  /** @default 'understudy' (left to the store when absent) */
  readonly schema?: string | undefined;
  readonly poolSize?: number | undefined;
  /** The secret key text, when the variable is set and not blank. */
  readonly secretKey?: string | undefined;
  /** The variable the key is read from (for messages). */
  readonly secretKeyEnv: string;
}

/** A shared-state variable holds a value that cannot be used; the message names it and the fix. */
export class SharedStateSettingsError extends UnderstudyError<'invalid_shared_state'> {
  constructor(message: string) {
    super('invalid_shared_state', message);
  }
}

/**
 * The shared-state settings, or `undefined` when neither `UNDERSTUDY_POSTGRES_URL` nor `state.postgres.url`
 * is set (state stays in one SQLite file per agent).
 *
 * @throws {SharedStateSettingsError} when `UNDERSTUDY_POSTGRES_URL` is not a `postgres://` URL.
 * @example resolveSharedState(config, { UNDERSTUDY_POSTGRES_URL: 'postgres://u@db/understudy', UNDERSTUDY_SECRET_KEY: key })
 */
export function resolveSharedState(config: UnderstudyConfig, env: Readonly<Record<string, string | undefined>>): SharedStateSettings | undefined {
  const fromEnv = env[POSTGRES_URL_ENV]?.trim();
  if (fromEnv !== undefined && fromEnv !== '' && !/^postgres(ql)?:\/\//.test(fromEnv)) {
    throw new SharedStateSettingsError(`${POSTGRES_URL_ENV} must be a PostgreSQL URL such as postgres://user@host:5432/db`);
  }
  const url = fromEnv !== undefined && fromEnv !== '' ? fromEnv : config.state.postgres?.url;
  if (url === undefined) return undefined;
  const secretKeyEnv = config.state.secretKeyEnv ?? SECRET_KEY_ENV;
  const key = env[secretKeyEnv];
  return {
    url,
    schema: config.state.postgres?.schema,
    poolSize: config.state.postgres?.poolSize,
    ...(key === undefined || key.trim() === '' ? {} : { secretKey: key }),
    secretKeyEnv,
  };
}
