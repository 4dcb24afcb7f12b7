/**
 * `understudy classify` (docs/contracts.md#classify): JSON Lines of provider failures on stdin → one JSON line per input line on
 * stdout, in order: `{"reason","status","advancesFallback","rotatesProfile","cooldownScope","retryAfterMs","detail"}`.
 *
 * - A line that is not valid JSON (or not an object, or with a field of the wrong type, or blank) prints
 *   `{"error":"<what is wrong>","line":N}` in its place; the rest go on and the exit status is 2. `N` counts every
 *   physical line, so it points at the line in the input file; the newline ending the last line starts no new line.
 * - `--now <epoch ms>`: the time Retry-After dates and reset times are measured from (default: the current time).
 * - `--provider <id>`: the provider of lines that carry none.
 * - `--explain`: a human-readable account per line (reason, rule and matched text, status and its source,
 *   retry-after, cooldown, policy) instead of JSON.
 *
 * Input is streamed line by line and output respects back-pressure, so inputs of any size run in constant memory.
 */
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import { explainFailure } from '@understudy/error-classifier';
import { CliError, ExitCode } from '../io.js';
import type { CliIo } from '../io.js';
import type { RegisterCommand } from '../main.js';
import { colorsFor } from '../output.js';
import { parseClassifyLine } from './classify-input.js';
import { classificationLine, explanationText, invalidExplanationText, invalidLine } from './classify-output.js';

/** Options of `understudy classify`, as commander parses them. */
export interface ClassifyCommandOptions {
  readonly now?: string | undefined;
  readonly provider?: string | undefined;
  readonly explain?: boolean | undefined;
}

/**
 * `--now` as epoch ms.
 *
 * @throws {CliError} (exit 2) when it is not a non-negative integer.
 */
function parseNowOption(value: string | undefined, fallbackMs: number): number {
  if (value === undefined) return fallbackMs;
  if (!/^\s*\d{1,16}\s*$/.test(value)) {
    throw new CliError(`--now must be a time in epoch milliseconds (e.g. 1767225600000), got "${value}"`, {
      exitCode: ExitCode.usage,
      code: 'invalid_now',
    });
  }
  return Number(value);
}

async function writeText(stream: Writable, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

/**
 * Classifies every line of `io.stdin` and writes the results to `io.stdout`.
 *
 * @returns the exit code: 0, or 2 when at least one line could not be read.
 */
async function runClassify(io: CliIo, options: ClassifyCommandOptions): Promise<number> {
  const nowMs = parseNowOption(options.now, Date.now());
  const provider = options.provider?.trim() === '' ? undefined : options.provider;
  const explain = options.explain === true;
  const colors = colorsFor(io.stdout, io.env);
  const lines = createInterface({ input: io.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  let lineNumber = 0;
  let exitCode: number = ExitCode.ok;
  for await (const rawLine of lines) {
    lineNumber += 1;
    const line = lineNumber === 1 ? rawLine.replace(/^\uFEFF/, '') : rawLine;
    const input = parseClassifyLine(line, { provider });
    if (input.kind === 'invalid') {
      exitCode = ExitCode.usage;
      await writeText(io.stdout, `${explain ? invalidExplanationText(input.error, lineNumber, colors) : invalidLine(input.error, lineNumber)}\n`);
      continue;
    }
    const result = explainFailure(input.failure, { nowMs });
    await writeText(io.stdout, `${explain ? explanationText(result, lineNumber, input.label, colors) : classificationLine(result)}\n`);
  }
  return exitCode;
}

/** Registers `understudy classify`. */
export const registerClassifyCommand: RegisterCommand = (program, io, state) => {
  program
    .command('classify')
    .description(
      'Classify provider failures: JSON Lines on stdin (one failure per line), one JSON line per input line on stdout. ' +
        'An unreadable or blank line prints {"error","line"} in its place and the exit status is 2.',
    )
    .option('--now <epochMs>', 'epoch ms that Retry-After dates are measured from (default: the current time)')
    .option('--provider <id>', 'provider id for lines that carry none')
    .option('--explain', 'print a human-readable explanation (reason, rule, status, retry-after) instead of JSON')
    .action(async (options: ClassifyCommandOptions) => {
      state.exitCode = await runClassify(io, options);
    });
};
