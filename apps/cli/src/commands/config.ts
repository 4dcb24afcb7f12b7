/**
 * `understudy config validate` (the config file parses, expands and validates; every bad path is listed with its
 * fix) and `understudy config schema` (the JSON Schema of the file, docs/configuration.md).
 */
import { ConfigError, configJsonSchema } from '@understudy/config';
import { ExitCode, settingsOf, writeLine } from '../io.js';
import type { RegisterCommand } from '../main.js';
import { writeJson } from '../output.js';
import { ConfigFileError, homeDirOf, loadConfig, resolveConfigLocation } from '@understudy/runtime';
import { addCommonOptions, cliAction, toCliError } from '../store-context.js';
import type { CommonOptions } from '../store-context.js';

/** Registers `config validate` and `config schema`. */
export const registerConfigCommands: RegisterCommand = (program, io, state) => {
  const config = program.command('config').description('The config file: validate it, print its JSON Schema.');

  addCommonOptions(config.command('validate').description('Check the config file: JSON5 syntax, ${ENV} placeholders, keys and values.')).action(
    cliAction(async (options: CommonOptions) => {
      const location = resolveConfigLocation({ flag: options.config, settings: settingsOf(io), homeDir: homeDirOf(io.env) });
      try {
        const loaded = loadConfig(location, io.env);
        if (options.json === true) writeJson(io.stdout, { valid: true, path: loaded.path, found: loaded.found, issues: [] });
        else writeLine(io.stdout, loaded.found ? `Config OK: ${loaded.path}` : `No config file at ${loaded.path}: defaults apply.`);
      } catch (error) {
        if (options.json !== true || !(ConfigError.isInstance(error) || ConfigFileError.isInstance(error))) throw toCliError(error);
        const issues = ConfigError.isInstance(error) ? error.issues : [{ path: '(file)', message: error.message }];
        writeJson(io.stdout, { valid: false, path: location.path, found: !(ConfigFileError.isInstance(error) && error.code === 'config_not_found'), issues });
        state.exitCode = toCliError(error).exitCode;
      }
    }),
  );

  config
    .command('schema')
    .description('Print the JSON Schema of the config file (for editors: "$schema").')
    .action(
      cliAction(async () => {
        writeJson(io.stdout, configJsonSchema());
        state.exitCode = ExitCode.ok;
      }),
    );
};
