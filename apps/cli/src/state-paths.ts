/**
 * Where the CLI finds an agent's state: `--state-dir`, else `UNDERSTUDY_STATE_DIR`, else the config's
 * `state.dir`, else `~/.understudy` (docs/configuration.md).
 */
import { resolveStatePaths } from '@understudy/auth-profile-store';
import type { StatePaths } from '@understudy/auth-profile-store';
import type { UnderstudyConfig } from '@understudy/config';
import type { RuntimeEnv } from '@understudy/runtime';

/**
 * The state paths of one agent for the CLI.
 *
 * @throws {AuthStoreError} `invalid_agent_id`.
 * @example resolveCliStatePaths({ agentId: 'main', settings: parseRuntimeEnv({}), homeDir: '/home/ada', config }).databasePath
 * // '/home/ada/.understudy/agents/main/agent/understudy-agent.sqlite'
 */
export function resolveCliStatePaths(options: {
  readonly agentId: string;
  readonly stateDirFlag?: string | undefined;
  readonly settings: Pick<RuntimeEnv, 'stateDir'>;
  readonly homeDir: string;
  readonly config: UnderstudyConfig;
}): StatePaths {
  const flag = options.stateDirFlag?.trim();
  return resolveStatePaths({
    homeDir: options.homeDir,
    agentId: options.agentId,
    stateDir: flag === undefined || flag === '' ? (options.settings.stateDir ?? options.config.state.dir) : flag,
  });
}
