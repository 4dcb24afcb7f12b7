/**
 * Where the CLI finds an agent's state: `--state-dir`, else `UNDERSTUDY_STATE_DIR`, else the config's
 * `state.dir`, else `~/.understudy` (docs/configuration.md).
 */
import { resolveStatePaths } from '@understudy/auth-profile-store';
import type { StatePaths } from '@understudy/auth-profile-store';
import type { UnderstudyConfig } from '@understudy/config';

/**
 * The state paths of one agent for the CLI.
 *
 * @throws {AuthStoreError} `invalid_agent_id`.
 * @example resolveCliStatePaths({ agentId: 'main', env: {}, homeDir: '/home/ada', config }).databasePath
 * // '/home/ada/.understudy/agents/main/agent/understudy-agent.sqlite'
 */
export function resolveCliStatePaths(options: {
  readonly agentId: string;
  readonly stateDirFlag?: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir: string;
  readonly config: UnderstudyConfig;
}): StatePaths {
  const fromEnv = options.env['UNDERSTUDY_STATE_DIR']?.trim();
  return resolveStatePaths({
    homeDir: options.homeDir,
    agentId: options.agentId,
    stateDir: options.stateDirFlag,
    env: { UNDERSTUDY_STATE_DIR: fromEnv === undefined || fromEnv === '' ? options.config.state.dir : fromEnv },
  });
}
