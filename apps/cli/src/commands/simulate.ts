/**
 * `understudy simulate <scenario.json>` (docs/contracts.md#simulate): runs a scenario — scripted provider outcomes on a
 * simulated clock against the real chain builder, cooldown scheduler, fallback runner and a temporary SQLite
 * store — and prints one JSON document `{ turns, usageStats, session }` on stdout. `--trace` also writes each
 * fallback decision to stderr. Exit 0 when the scenario ran (whatever its outcome), 2 for an invalid scenario
 * (the message names the path of the bad field).
 */
import { writeLine } from '../io.js';
import type { CliIo } from '../io.js';
import type { RegisterCommand } from '../main.js';
import { ExitCode } from '../io.js';
import { ScenarioFieldError, invalidScenario, loadScenario } from '../simulate/scenario-load.js';
import { runScenario } from '../simulate/run-scenario.js';
import { traceLine } from '../simulate/trace.js';

/** Options of `understudy simulate`, as commander parses them. */
export interface SimulateCommandOptions {
  readonly trace?: boolean | undefined;
}

/**
 * Runs a scenario file and prints its output document.
 *
 * @returns the exit code (0).
 * @throws {CliError} exit 2 for an invalid scenario.
 */
async function runSimulate(io: CliIo, file: string, options: SimulateCommandOptions): Promise<number> {
  const loaded = loadScenario(file);
  try {
    const output = await runScenario(loaded, {
      env: io.env,
      ...(options.trace === true ? { onDecision: (event, turnIndex) => writeLine(io.stderr, traceLine(event, turnIndex)) } : {}),
    });
    io.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
    return ExitCode.ok;
  } catch (error) {
    if (ScenarioFieldError.isInstance(error)) throw invalidScenario(file, [{ path: error.path, message: error.message }], error);
    throw error;
  }
}

/** Registers `understudy simulate`. */
export const registerSimulateCommand: RegisterCommand = (program, io, state) => {
  program
    .command('simulate')
    .description('Run a failover scenario (scripted provider outcomes, simulated clock, temporary store) and print the decisions as JSON.')
    .argument('<scenario>', 'scenario file (JSON or JSON5), see docs/contracts.md#simulate')
    .option('--trace', 'also print every fallback decision to stderr')
    .action(async (file: string, options: SimulateCommandOptions) => {
      state.exitCode = await runSimulate(io, file, options);
    });
};
