export {
  CONFIG_PATH_ENV,
  ConfigFileError,
  loadConfig,
  parseConfigText,
  resolveConfigLocation,
} from './config-loader.js';
export type { ConfigFileErrorCode, ConfigLocation, ConfigPathSource, LoadedConfig } from './config-loader.js';
export { systemClock, systemRandom } from './system-clock.js';
