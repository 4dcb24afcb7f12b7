export {
  CONFIG_PATH_ENV,
  ConfigFileError,
  loadConfig,
  parseConfigText,
  resolveConfigLocation,
} from './config-loader.js';
export type { ConfigFileErrorCode, ConfigLocation, ConfigPathSource, LoadedConfig } from './config-loader.js';
export { systemClock, systemRandom } from './system-clock.js';
export { POSTGRES_URL_ENV, SECRET_KEY_ENV, SharedStateSettingsError, resolveSharedState } from './shared-state.js';
export type { SharedStateSettings } from './shared-state.js';
