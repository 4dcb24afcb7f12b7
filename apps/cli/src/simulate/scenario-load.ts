/**
 * Reading a scenario file (JSON5) and validating it, config included. Every problem becomes a `CliError` with
 * exit status 2 whose message names the path of the bad field (`turns[0].outcomes[1].results[0].status`,
 * `config.agents.defaults.model.primary`, …).
 */
import fs from 'node:fs';
import JSON5 from 'json5';
import type { UnderstudyConfig } from '@understudy/config';
import { ConfigError, configIssuesFromZod, safeParseConfig } from '@understudy/config';
import { UnderstudyError } from '@understudy/contracts';
import { CliError, ExitCode } from '../io.js';
import type { Scenario } from './scenario-schema.js';
import { scenarioSchema } from './scenario-schema.js';

/** A scenario ready to run. */
export interface LoadedScenario {
  readonly path: string;
  readonly scenario: Scenario;
  readonly config: UnderstudyConfig;
}

/** A scenario field that passed the schema but cannot be used (e.g. a profile the store rejects). */
export class ScenarioFieldError extends UnderstudyError<'invalid_scenario_field'> {
  /** Path of the field in the scenario, e.g. `profiles[1]` or `turns[0].request.model`. */
  readonly path: string;

  constructor(path: string, message: string, cause?: unknown) {
    super('invalid_scenario_field', message, { cause });
    this.path = path;
  }
}

/** An invalid scenario: one line per bad field, `<path>: <what is wrong>`. */
export function invalidScenario(file: string, problems: readonly { readonly path: string; readonly message: string }[], cause?: unknown): CliError {
  const lines = problems.map((problem) => `  - ${problem.path}: ${problem.message}`);
  return new CliError(`invalid scenario ${file}:\n${lines.join('\n')}`, {
    exitCode: ExitCode.usage,
    code: 'invalid_scenario',
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * Reads, parses and validates a scenario file.
 *
 * @throws {CliError} exit 2 when the file cannot be read, is not JSON5, or has a bad field (named by its path).
 */
export function loadScenario(file: string): LoadedScenario {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'cannot be read';
    throw new CliError(`scenario ${file}: ${reason}`, { exitCode: ExitCode.usage, code: 'scenario_unreadable', cause: error });
  }
  let document: unknown;
  try {
    document = JSON5.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const where = error instanceof SyntaxError ? error.message.replace(/^JSON5: /, '') : 'not JSON5';
    throw invalidScenario(file, [{ path: '(file)', message: `not valid JSON5: ${where}` }], error);
  }
  const parsed = scenarioSchema.safeParse(document, { reportInput: true });
  if (!parsed.success) {
    throw invalidScenario(file, configIssuesFromZod(parsed.error), parsed.error);
  }
  const config = safeParseConfig(parsed.data.config, { source: `${file} (config)` });
  if (!config.success) {
    const issues = ConfigError.isInstance(config.error) ? config.error.issues : [];
    throw invalidScenario(
      file,
      issues.map((issue) => ({ path: configPath(issue.path), message: issue.message })),
      config.error,
    );
  }
  return { path: file, scenario: parsed.data, config: config.config };
}

/** A config path as a path of the scenario (`agents.x` → `config.agents.x`, `(root)` → `config`). */
function configPath(path: string): string {
  if (path === '(root)') return 'config';
  return path.startsWith('[') ? `config${path}` : `config.${path}`;
}
