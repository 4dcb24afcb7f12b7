export {
  ConfigFileError,
  loadConfig,
  parseConfigText,
  resolveConfigLocation,
} from './config-loader.js';
export type { ConfigFileErrorCode, ConfigLocation, ConfigPathSource, LoadedConfig } from './config-loader.js';
export { RuntimeEnvError, fallbackSkipTtlMsOf, otlpTracesUrlOf, parseRuntimeEnv } from './runtime-env.js';
/** Re-exported from contracts, its one owner (the runner and the scheduler default to it too). */
export { DEFAULT_SDK_RETRY_MAX_WAIT_MS } from '@understudy/contracts';
export type { EnvironmentRecord, RuntimeEnv } from './runtime-env.js';
export { homeDirOf } from './home-dir.js';
export { systemClock, systemRandom } from './system-clock.js';
export { POSTGRES_URL_ENV, SECRET_KEY_ENV, SharedStateSettingsError, resolveSharedState } from './shared-state.js';
export type { SharedStateSettings } from './shared-state.js';
