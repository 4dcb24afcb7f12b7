/**
 * The config the gateway starts with: the config file (`--config`, `UNDERSTUDY_CONFIG`, else
 * `~/.understudy/understudy.json5`), or — when the default file does not exist — one built from provider keys
 * in the environment; then `--host` / `--port` override `gateway.host` / `gateway.port`.
 */
import type { UnderstudyConfig } from '@understudy/config';
import { loadConfig, resolveConfigLocation } from '@understudy/runtime';
import type { RuntimeEnv } from '@understudy/runtime';
import type { EnvironmentConfig } from './default-config.js';
import { defaultConfigFromEnv } from './default-config.js';

/** The gateway's command-line flags. */
export interface GatewayFlags {
  readonly config?: string | undefined;
  readonly host?: string | undefined;
  readonly port?: number | undefined;
}

/** The config to start with and where it came from. */
export interface StartupConfig {
  readonly config: UnderstudyConfig;
  /** The file read, or `undefined` when the config was built from the environment. */
  readonly file?: string | undefined;
  /** Set when the config was built from the environment. */
  readonly fromEnvironment?: EnvironmentConfig | undefined;
}

/**
 * Loads the startup config.
 *
 * @param env - the raw environment, for `${VAR}` placeholders and the provider keys of a config built from it.
 * @param settings - the environment parsed once (`UNDERSTUDY_CONFIG`).
 * @throws {ConfigFileError | ConfigError} for a missing (explicit), unreadable or invalid config file. Flags are
 *   checked by the caller.
 */
export function loadStartupConfig(
  flags: GatewayFlags,
  env: Readonly<Record<string, string | undefined>>,
  settings: Pick<RuntimeEnv, 'configPath'>,
  homeDir: string,
): StartupConfig {
  const loaded = loadConfig(resolveConfigLocation({ flag: flags.config, settings, homeDir }), env);
  const fromEnvironment = loaded.found ? undefined : defaultConfigFromEnv(env);
  const base = fromEnvironment?.config ?? loaded.config;
  const config: UnderstudyConfig =
    flags.host === undefined && flags.port === undefined
      ? base
      : Object.freeze({
          ...base,
          gateway: Object.freeze({
            ...base.gateway,
            ...(flags.host === undefined ? {} : { host: flags.host }),
            ...(flags.port === undefined ? {} : { port: flags.port }),
          }),
        });
  return { config, ...(loaded.found ? { file: loaded.path } : {}), ...(fromEnvironment === undefined ? {} : { fromEnvironment }) };
}
