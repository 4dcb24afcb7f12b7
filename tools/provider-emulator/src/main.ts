#!/usr/bin/env node
/**
 * `pnpm --silent emulator --port N --script FILE [--host H] [--verbose]`: starts the provider emulator and
 * prints `{"url":"http://127.0.0.1:PORT"}` as one JSON line on stdout once it listens. Logs go to stderr.
 * Stops on SIGINT / SIGTERM.
 */
import { parseArgs } from 'node:util';
import { readyLine } from './control.js';
import { EmulatorScriptError } from './script.js';
import { startEmulator } from './server.js';

const USAGE = `usage: emulator [--port N] [--host H] [--script FILE.json5] [--verbose]
  --port     port to listen on; 0 picks a free one (default 0)
  --host     address to bind (default 127.0.0.1)
  --script   JSON5 script of routes and steps (default: every request gets an echo answer)
  --verbose  log one line per request to stderr`;

function fail(message: string): never {
  process.stderr.write(`emulator: ${message}\n${USAGE}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '0' },
        host: { type: 'string', default: '127.0.0.1' },
        script: { type: 'string' },
        verbose: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port: expected 0 to 65535, got ${JSON.stringify(values.port)}`);
  let emulator;
  try {
    emulator = await startEmulator({
      port,
      host: values.host,
      scriptFile: values.script,
      log: values.verbose ? (line) => process.stderr.write(`${line}\n`) : undefined,
    });
  } catch (error) {
    if (EmulatorScriptError.isInstance(error)) fail(`--script ${values.script ?? ''}: ${error.message}`);
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT') fail(`--script: no such file ${values.script ?? ''}`);
    fail((error as Error).message);
  }
  process.stdout.write(`${readyLine(emulator.url)}\n`);
  const stop = (): void => {
    void emulator.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

await main();
