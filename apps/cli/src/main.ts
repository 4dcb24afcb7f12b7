/**
 * The `understudy` command: one commander program; each command lives in `commands/<name>.ts` and registers
 * itself here.
 */
import fs from 'node:fs';
import { Command, CommanderError } from 'commander';
import { redactCommanderMessage } from './commander-output.js';
import { CliError, ExitCode, writeLine } from './io.js';
import type { CliIo } from './io.js';
import { registerClassifyCommand } from './commands/classify.js';
import { registerConfigCommands } from './commands/config.js';
import { registerDoctorCommand } from './commands/doctor.js';
import { registerGatewayCommand } from './commands/gateway.js';
import { registerModelsCommands } from './commands/models.js';
import { registerSimulateCommand } from './commands/simulate.js';
import { registerStateCommands } from './commands/state.js';

/** A command module: adds its subcommand(s) to the program. Actions set `state.exitCode`. */
export type RegisterCommand = (program: Command, io: CliIo, state: { exitCode: number }) => void;

const commands: readonly RegisterCommand[] = [registerClassifyCommand, registerModelsCommands, registerDoctorCommand, registerConfigCommands, registerSimulateCommand, registerGatewayCommand, registerStateCommands];

/**
 * The version of the installed `@understudy/cli` package, read from its own `package.json` (one directory above
 * both `src/` and `dist/`), which `understudy --version` prints.
 */
export function cliVersion(): string {
  const manifest = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof manifest.version === 'string' ? manifest.version : '0.0.0';
}

/**
 * Runs the CLI with `argv` (without `node` and the script path) and returns the exit code.
 * Never throws: errors are written to `io.stderr` as one line.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const state = { exitCode: ExitCode.ok as number };
  const program = new Command('understudy')
    .description('LLM model failover: classify provider failures, simulate fallback, manage auth profiles, run the gateway.')
    .version(cliVersion(), '-V, --version', 'print the version of understudy')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(redactCommanderMessage(text)),
    });
  for (const register of commands) register(program, io, state);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return state.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    if (CliError.isInstance(error)) {
      writeLine(io.stderr, `understudy: ${error.message}`);
      return error.exitCode;
    }
    writeLine(io.stderr, `understudy: ${error instanceof Error ? error.message : String(error)}`);
    return ExitCode.failure;
  }
}
