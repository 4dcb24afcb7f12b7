/**
 * Finding, reading and validating the config file (docs/configuration.md): the path comes from `--config`, else
 * `UNDERSTUDY_CONFIG`, else `~/.understudy/understudy.json5`; the file is JSON5; `${ENV}` placeholders are
 * expanded from the environment passed in; `@understudy/config` validates it and fills defaults. A missing
 * default file means an empty config; a missing file that was asked for by flag or variable is an error.
 *
 * Nothing here knows about the CLI, so the gateway can load its config the same way.
 */
import fs from 'node:fs';
import path from 'node:path';
import JSON5 from 'json5';
import { ConfigError, expandEnvPlaceholders, parseConfig } from '@understudy/config';
import type { UnderstudyConfig } from '@understudy/config';
import { UnderstudyError } from '@understudy/contracts';
import type { RuntimeEnv } from './runtime-env.js';

/** The environment variable naming the config file. */
export const CONFIG_PATH_ENV = 'UNDERSTUDY_CONFIG';

/** Where the config path came from. */
export type ConfigPathSource = 'flag' | 'env' | 'default';

/** The config file to read and why. */
export interface ConfigLocation {
  /** Absolute path. */
  readonly path: string;
  readonly source: ConfigPathSource;
}

/** A loaded config. */
export interface LoadedConfig extends ConfigLocation {
  /** False when the default file does not exist and defaults apply. */
  readonly found: boolean;
  readonly config: UnderstudyConfig;
}

/** Why a config file could not be loaded (before validation). */
export type ConfigFileErrorCode = 'config_not_found' | 'config_unreadable' | 'config_syntax';

/**
 * The config file is missing (when asked for explicitly), unreadable, or not valid JSON5. Invalid content
 * (unknown keys, bad values, unset `${ENV}`) is `@understudy/config`'s `ConfigError` instead.
 */
export class ConfigFileError extends UnderstudyError<ConfigFileErrorCode> {
  readonly path: string;

  constructor(code: ConfigFileErrorCode, filePath: string, message: string, options: { readonly cause?: unknown } = {}) {
    super(code, message, options);
    this.path = filePath;
  }
}

/**
 * Which config file to read: `flag` (the `--config` value) wins, then `UNDERSTUDY_CONFIG` (as parsed by
 * `parseRuntimeEnv`), then `<homeDir>/.understudy/understudy.json5`. Relative paths resolve against the working
 * directory.
 *
 * @example resolveConfigLocation({ settings: parseRuntimeEnv({}), homeDir: '/home/ada' }) // { path: '/home/ada/.understudy/understudy.json5', source: 'default' }
 */
export function resolveConfigLocation(options: {
  readonly flag?: string | undefined;
  readonly settings: Pick<RuntimeEnv, 'configPath'>;
  readonly homeDir: string;
}): ConfigLocation {
  const flag = options.flag?.trim();
  if (flag !== undefined && flag !== '') return { path: path.resolve(expandHome(flag, options.homeDir)), source: 'flag' };
  const fromEnv = options.settings.configPath;
  if (fromEnv !== undefined) return { path: path.resolve(expandHome(fromEnv, options.homeDir)), source: 'env' };
  return { path: path.join(options.homeDir, '.understudy', 'understudy.json5'), source: 'default' };
}

/**
 * Reads, expands and validates the config at `location`.
 *
 * @throws {ConfigFileError} `config_not_found` (only for a `flag`/`env` path), `config_unreadable`, `config_syntax`
 * (with line and column).
 * @throws {ConfigError} (from `@understudy/config`) for invalid content, naming each bad path.
 * @example loadConfig(resolveConfigLocation({ settings: parseRuntimeEnv(process.env), homeDir: os.homedir() }), process.env).config.gateway.port
 */
export function loadConfig(location: ConfigLocation, env: Readonly<Record<string, string | undefined>>): LoadedConfig {
  let text: string;
  try {
    text = fs.readFileSync(location.path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && location.source === 'default') {
      return { ...location, found: false, config: parseConfig({}) };
    }
    if (code === 'ENOENT') {
      const named = location.source === 'flag' ? '--config' : CONFIG_PATH_ENV;
      throw new ConfigFileError('config_not_found', location.path, `config file ${location.path} (from ${named}) does not exist`, { cause: error });
    }
    throw new ConfigFileError('config_unreadable', location.path, `cannot read config file ${location.path} (${code ?? 'error'})`, { cause: error });
  }
  return { ...location, found: true, config: parseConfigText(text, location.path, env) };
}

/**
 * Parses config text: JSON5, then `${ENV}` expansion, then validation. An empty file is an empty config; a
 * root that is not an object (`null`, an array, a number) is an error.
 *
 * @throws {ConfigFileError} `config_syntax`; {ConfigError} for invalid content.
 */
export function parseConfigText(text: string, source: string, env: Readonly<Record<string, string | undefined>>): UnderstudyConfig {
  let document: unknown;
  try {
    document = text.trim() === '' ? {} : JSON5.parse(text);
  } catch (error) {
    const where = error instanceof SyntaxError && 'lineNumber' in error ? ` at line ${String(error.lineNumber)}, column ${String((error as { columnNumber?: unknown }).columnNumber)}` : '';
    throw new ConfigFileError('config_syntax', source, `config file ${source} is not valid JSON5${where}`, { cause: error });
  }
  // An empty file is an empty config; a file that holds `null`, a list or a number is a mistake.
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    const found = document === null ? 'null' : Array.isArray(document) ? 'an array' : `a ${typeof document}`;
    throw new ConfigError([{ path: '(root)', message: `expected an object such as { models: { … }, agents: { … } }, got ${found}` }], { source });
  }
  return parseConfig(expandEnvPlaceholders(document, env, { source }), { source });
}

function expandHome(file: string, homeDir: string): string {
  if (file === '~') return homeDir;
  return file.startsWith('~/') ? path.join(homeDir, file.slice(2)) : file;
}
