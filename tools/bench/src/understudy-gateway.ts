/**
 * The understudy gateway under test: the built app entry (`apps/gateway/dist/main.js`) started as its own
 * process with a config file, a temp state root and a temp home, on an ephemeral loopback port. Tools never
 * import apps (docs/architecture.md), so this is the same program `pnpm start` runs.
 *
 * Configs used by the bench (all providers speak `openai-completions` to the fixed upstream):
 * - one candidate: `fixed/bench-model`;
 * - a cooling primary: `cool/bench-model` (a stored profile seeded into a one-hour rate-limit cooldown before
 *   start) with `fixed/bench-model` as the fallback, so every request skips the primary;
 * - failover: `limited/bench-model` (the upstream answers 429 under `/limited/`) with `backup/bench-model`
 *   (under `/fallback/`) as the fallback;
 * - failover conduct (recovery, silent provider): `primary/bench-model` and `backup/bench-model`, both served by
 *   a provider emulator, with every timeout, retry and cooldown setting at its default.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openAuthProfileStore } from '@understudy/auth-profile-store';
import { Secret } from '@understudy/contracts';
import { recordFailure } from '@understudy/cooldown-scheduler';
import { BenchError } from './errors.js';
import { spawnServer } from './processes.js';
import type { ServerProcess } from './processes.js';

/** The model id every provider serves in the bench. */
const BENCH_MODEL = 'bench-model';

/** The admin token of the bench's gateways (loopback only, thrown away with the temp folder). */
export const BENCH_ADMIN_TOKEN = 'bench-admin-token';

/** The stored profile of the cooling primary. */
const COOLING_PROFILE_ID = 'cool:bench';

/** The inline profile of the failover figure's rate-limited primary. */
export const LIMITED_PROFILE_ID = 'limited:inline';

function provider(baseUrl: string, apiKey?: string): Record<string, unknown> {
  return { baseUrl, api: 'openai-completions', ...(apiKey === undefined ? {} : { apiKey }), models: [BENCH_MODEL] };
}

/** Config with one candidate, `fixed/bench-model`. */
export function oneCandidateConfig(upstreamUrl: string): Record<string, unknown> {
  return {
    models: { providers: { fixed: provider(`${upstreamUrl}/v1`, 'sk-bench-fixed') } },
    agents: { defaults: { model: { primary: `fixed/${BENCH_MODEL}`, fallbacks: [] } } },
  };
}

/** Config with a two-candidate chain whose primary (`cool`, stored profile {@link COOLING_PROFILE_ID}) is seeded cooling down. */
export function coolingPrimaryConfig(upstreamUrl: string): Record<string, unknown> {
  return {
    models: { providers: { cool: provider(`${upstreamUrl}/cool/v1`), fixed: provider(`${upstreamUrl}/v1`, 'sk-bench-fixed') } },
    agents: { defaults: { model: { primary: `cool/${BENCH_MODEL}`, fallbacks: [`fixed/${BENCH_MODEL}`] } } },
  };
}

/** Config whose primary answers 429 and whose fallback records its arrival; the admin API is on. */
export function failoverConfig(upstreamUrl: string): Record<string, unknown> {
  return {
    models: {
      providers: {
        limited: provider(`${upstreamUrl}/limited/v1`, 'sk-bench-limited'),
        backup: provider(`${upstreamUrl}/fallback/v1`, 'sk-bench-backup'),
      },
    },
    agents: { defaults: { model: { primary: `limited/${BENCH_MODEL}`, fallbacks: [`backup/${BENCH_MODEL}`] } } },
    gateway: { auth: { adminToken: BENCH_ADMIN_TOKEN } },
  };
}

/**
 * Config of the failover-conduct figures: `primary/bench-model` at `primaryBaseUrl`, `backup/bench-model` at
 * `fallbackBaseUrl` (OpenAI chat completions, inline keys), and nothing else: timeouts, retries, cooldowns and
 * probes are the defaults a new user gets (docs/configuration.md).
 */
export function primaryAndBackupConfig(primaryBaseUrl: string, fallbackBaseUrl: string): Record<string, unknown> {
  return {
    models: { providers: { primary: provider(primaryBaseUrl, 'sk-bench-primary'), backup: provider(fallbackBaseUrl, 'sk-bench-backup') } },
    agents: { defaults: { model: { primary: `primary/${BENCH_MODEL}`, fallbacks: [`backup/${BENCH_MODEL}`] } } },
  };
}

/**
 * Stores the cooling primary's profile and puts it into a rate-limit cooldown of one hour (a Retry-After of an
 * hour through the real `recordFailure` transition), far from expiry so no probe happens during the run.
 */
export async function seedCoolingPrimary(stateDir: string, nowMs: number): Promise<void> {
  const store = await openAuthProfileStore({ stateDir, agentId: 'main' });
  try {
    await store.upsertProfile({ id: COOLING_PROFILE_ID, credential: { type: 'api_key', provider: 'cool', key: new Secret('sk-bench-cool') } });
    await store.updateUsageStats(COOLING_PROFILE_ID, (stats) =>
      recordFailure(stats, { reason: 'rate_limit', nowMs, model: BENCH_MODEL, profileId: COOLING_PROFILE_ID, retryAfterMs: 3_600_000 }),
    );
  } finally {
    await store.close();
  }
}

/** The built gateway entry. @throws {BenchError} `missing_input` when it is not built. */
export function gatewayEntry(repoRoot: string): string {
  const entry = path.join(repoRoot, 'apps/gateway/dist/main.js');
  if (!fs.existsSync(entry)) {
    throw new BenchError(`${entry} is missing: run the bench through \`pnpm bench\`, which builds the gateway first`, 'missing_input');
  }
  return entry;
}

/**
 * Starts a gateway with `config` in `dir` (config file, `state/`, `home/`, `gateway.log`), after `prepare`
 * has seeded its state root.
 *
 * @throws {BenchError} `server_failed` with the log's tail when it does not start.
 */
export async function startUnderstudy(options: {
  readonly name: string;
  readonly repoRoot: string;
  readonly dir: string;
  readonly config: Record<string, unknown>;
  readonly prepare?: (stateDir: string) => Promise<void>;
}): Promise<ServerProcess & { readonly stateDir: string }> {
  const stateDir = path.join(options.dir, 'state');
  const home = path.join(options.dir, 'home');
  fs.mkdirSync(home, { recursive: true });
  await options.prepare?.(stateDir);
  const configFile = path.join(options.dir, 'understudy.json5');
  fs.writeFileSync(configFile, JSON.stringify(options.config, null, 2));
  const server = await spawnServer({
    name: options.name,
    command: process.execPath,
    args: [gatewayEntry(options.repoRoot), '--config', configFile, '--port', '0'],
    env: { PATH: process.env['PATH'], HOME: home, UNDERSTUDY_STATE_DIR: stateDir },
    logFile: path.join(options.dir, 'gateway.log'),
    ready: { kind: 'url-line' },
  });
  return { ...server, stateDir };
}
