#!/usr/bin/env node
/**
 * `understudy-gateway [--config F] [--host H] [--port N]` (also `pnpm start` and `understudy gateway`): loads the
 * config (or builds one from provider keys in the environment), starts the gateway, prints
 * `{"url":"http://127.0.0.1:4317"}` as one JSON line on stdout once it listens (logs go to stderr), and shuts
 * down gracefully on SIGINT / SIGTERM (a second signal, a second or more later, exits at once). Shutdown ends
 * within `gateway.shutdownGraceMs` plus a few seconds whatever the log destination does (a closed stderr pipe
 * included): flushing the log waits at most a second.
 *
 * Exit codes: 0 after a clean shutdown, 1 when it cannot start (port taken, store unavailable), 2 for bad flags
 * or an invalid config.
 */
import { parseArgs } from 'node:util';
import { ConfigError } from '@understudy/config';
import { ConfigFileError, RuntimeEnvError, homeDirOf, parseRuntimeEnv } from '@understudy/runtime';
import { GatewayStartError, createGateway } from './gateway.js';
import { createLogger, flushLogger } from './logger.js';
import { KNOWN_PROVIDERS } from './default-config.js';
import type { GatewayFlags } from './startup-config.js';
import { loadStartupConfig } from './startup-config.js';

const USAGE = `usage: understudy gateway [--config FILE] [--host HOST] [--port N]
  --config  config file (default: $UNDERSTUDY_CONFIG, else ~/.understudy/understudy.json5; when that file does
            not exist, providers come from keys in the environment such as OPENAI_API_KEY)
  --host    bind address (default 127.0.0.1; any other address needs gateway.auth.token)
  --port    bind port (default 4317; 0 picks a free one)`;

function fail(message: string, code: number): never {
  process.stderr.write(`understudy gateway: ${message}\n`);
  process.exit(code);
}

function readFlags(): GatewayFlags {
  let values;
  try {
    ({ values } = parseArgs({
      options: { config: { type: 'string' }, host: { type: 'string' }, port: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`, 2);
  }
  if (values.help === true) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  let port: number | undefined;
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!/^\d+$/.test(values.port.trim()) || port > 65535) fail(`--port: expected 0 to 65535, got ${JSON.stringify(values.port)}`, 2);
  }
  const host = values.host?.trim();
  if (host !== undefined && host === '') fail('--host: expected an address such as 127.0.0.1', 2);
  return { config: values.config, host, port };
}

async function main(): Promise<void> {
  const flags = readFlags();
  const env = process.env;
  const homeDir = homeDirOf(env);
  let startup;
  let settings;
  try {
    settings = parseRuntimeEnv(env);
    startup = loadStartupConfig(flags, env, settings, homeDir);
  } catch (error) {
    if (RuntimeEnvError.isInstance(error) || ConfigFileError.isInstance(error) || ConfigError.isInstance(error)) fail(error.message, 2);
    throw error;
  }
  const { config } = startup;
  const logger = createLogger({ level: config.gateway.logLevel, pretty: process.stderr.isTTY === true });
  if (startup.file !== undefined) logger.info({ config: startup.file }, 'config loaded');
  else if ((startup.fromEnvironment?.found.length ?? 0) > 0) {
    logger.info(
      { providers: startup.fromEnvironment?.found.map((entry) => `${entry.provider} (${entry.keyEnv})`), model: config.agents.defaults.model },
      'no config file: providers configured from API keys in the environment',
    );
  } else {
    const variables = [...new Set(KNOWN_PROVIDERS.flatMap((provider) => provider.keyEnv))].join(', ');
    logger.warn(
      `no config file and no provider key in the environment: requests have no model to go to. Set one of ${variables}, or write ~/.understudy/understudy.json5 (models.providers + agents.defaults.model), then restart.`,
    );
  }

  let gateway;
  try {
    gateway = createGateway({ config, settings, env, homeDir, logger });
  } catch (error) {
    if (GatewayStartError.isInstance(error)) fail(error.message, 2);
    throw error;
  }
  let info;
  try {
    info = await gateway.listen();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    await gateway.close({ graceMs: 0 });
    if (code === 'EADDRINUSE') fail(`${config.gateway.host}:${config.gateway.port} is already in use: stop the other process or pass --port`, 1);
    if (code === 'EACCES') fail(`not allowed to listen on ${config.gateway.host}:${config.gateway.port}: pick a port above 1023`, 1);
    if (code === 'EADDRNOTAVAIL') fail(`cannot bind ${config.gateway.host}: no such local address`, 1);
    if (GatewayStartError.isInstance(error)) fail(error.message, 1);
    throw error;
  }
  // The start-up lines are out before the ready line (the log destination buffers lines: see logger.ts).
  await flushLogger(logger);
  process.stdout.write(`${JSON.stringify({ url: info.url })}\n`);

  let stoppingSinceMs: number | undefined;
  // Whatever the log destination does, the process is gone by the end of the drain plus this margin.
  const exitMarginMs = 3000;
  const exit = (code: number, flushMs: number): void => {
    void flushLogger(logger, flushMs).finally(() => process.exit(code));
  };
  const stop = (signal: NodeJS.Signals): void => {
    if (stoppingSinceMs !== undefined) {
      // A wrapper (pnpm, `understudy gateway`) forwards the terminal's Ctrl-C that this process got too: one press.
      if (Date.now() - stoppingSinceMs < 1000) return;
      logger.warn({ signal }, 'second signal: exiting now');
      exit(1, 100);
      return;
    }
    stoppingSinceMs = Date.now();
    logger.info({ signal }, 'shutting down');
    const graceMs = config.gateway.shutdownGraceMs;
    // The drain aborts what is left after the grace period and closes the stores; should anything still hang
    // (a database close, a destination that takes no more log lines), this timer ends the process anyway.
    setTimeout(() => {
      logger.error({ graceMs }, 'shutdown did not finish in time: exiting');
      exit(1, 100);
    }, graceMs + exitMarginMs);
    gateway.close().then(
      () => exit(0, 1000),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        exit(1, 1000);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`understudy gateway: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
