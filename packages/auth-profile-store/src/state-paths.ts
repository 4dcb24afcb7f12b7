/**
 * Where an agent's state lives (docs/configuration.md#state-files): `<stateRoot>/agents/<agentId>/agent/understudy-agent.sqlite`,
 * with the state root chosen by the app (`UNDERSTUDY_STATE_DIR`, `state.dir`, a flag) and passed in, else
 * `~/.understudy`. Also the legacy files that `understudy doctor --fix` imports.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AuthStoreError } from './errors.js';

/** The agent that older single-agent layouts belonged to, and the CLI's default `--agent`. */
export const DEFAULT_AGENT_ID = 'main';

/** File name of the per-agent database. */
export const DATABASE_FILE_NAME = 'understudy-agent.sqlite';

/** Every path of one agent's state, absolute. */
export interface StatePaths {
  /** The state root the app chose, else `~/.understudy`. */
  readonly stateRoot: string;
  readonly agentId: string;
  /** `<stateRoot>/agents/<agentId>/agent`. */
  readonly agentDir: string;
  /** `<agentDir>/understudy-agent.sqlite`. */
  readonly databasePath: string;
  /** Legacy files of this agent (they may not exist). */
  readonly legacy: {
    /** `<agentDir>/auth-profiles.json`: credentials, and in the older layout usage stats and order. */
    readonly authProfiles: string;
    /** `<agentDir>/auth-state.json`: order, lastGood, usage stats (no credentials). */
    readonly authState: string;
    /** `<agentDir>/auth.json`: provider → key or tokens. */
    readonly authJson: string;
    /** `<stateRoot>/credentials/oauth.json`: global OAuth tokens; they belong to agent `main`. */
    readonly oauthJson: string;
  };
}

const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Checks an agent id before it becomes a folder name: 1–64 letters, digits, `.`, `_`, `-`, starting with a
 * letter or digit.
 *
 * @throws {AuthStoreError} `invalid_agent_id` otherwise.
 * @example assertAgentId('main') // ok
 */
export function assertAgentId(agentId: string): void {
  if (!AGENT_ID.test(agentId)) {
    throw new AuthStoreError(
      'invalid_agent_id',
      `agent id "${agentId}" is not valid: use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit`,
    );
  }
}

/**
 * The state root: `stateDir` when given (not blank), else `<homeDir>/.understudy`. A leading `~/` is expanded
 * with `homeDir`; a relative path is resolved against the working directory.
 *
 * @example resolveStateRoot({ homeDir: '/home/ada' }) // '/home/ada/.understudy'
 */
export function resolveStateRoot(options: { readonly homeDir: string; readonly stateDir?: string | undefined }): string {
  const chosen = nonBlank(options.stateDir);
  if (chosen === undefined) return path.join(options.homeDir, '.understudy');
  if (chosen === '~') return options.homeDir;
  if (chosen.startsWith('~/')) return path.join(options.homeDir, chosen.slice(2));
  return path.resolve(chosen);
}

/**
 * All paths of one agent's state under the state root the app chose (`stateDir`, see {@link resolveStateRoot}).
 *
 * @throws {AuthStoreError} `invalid_agent_id` for an agent id that is not a safe folder name.
 * @example resolveStatePaths({ stateDir: '/srv/us', homeDir: '/root', agentId: 'main' }).databasePath
 * // '/srv/us/agents/main/agent/understudy-agent.sqlite'
 */
export function resolveStatePaths(options: {
  readonly homeDir: string;
  readonly stateDir?: string | undefined;
  readonly agentId: string;
}): StatePaths {
  const stateRoot = resolveStateRoot({ homeDir: options.homeDir, stateDir: options.stateDir });
  return statePathsUnder(stateRoot, options.agentId);
}

/**
 * All paths of one agent's state under a known state root.
 *
 * @throws {AuthStoreError} `invalid_agent_id` for an agent id that is not a safe folder name.
 */
export function statePathsUnder(stateRoot: string, agentId: string): StatePaths {
  assertAgentId(agentId);
  const root = path.resolve(stateRoot);
  const agentDir = path.join(root, 'agents', agentId, 'agent');
  return {
    stateRoot: root,
    agentId,
    agentDir,
    databasePath: path.join(agentDir, DATABASE_FILE_NAME),
    legacy: {
      authProfiles: path.join(agentDir, 'auth-profiles.json'),
      authState: path.join(agentDir, 'auth-state.json'),
      authJson: path.join(agentDir, 'auth.json'),
      oauthJson: path.join(root, 'credentials', 'oauth.json'),
    },
  };
}

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/**
 * The agents that have a state folder under a state root: the names of `<root>/agents/*` that are valid agent
 * ids, sorted (the default agent first). The default agent is always listed: it owns the global legacy
 * `credentials/oauth.json` even before its folder exists.
 *
 * @example listAgentIds('/home/ada/.understudy') // ['main', 'work']
 */
export function listAgentIds(stateRoot: string): string[] {
  let names: string[] = [];
  try {
    names = fs
      .readdirSync(path.join(path.resolve(stateRoot), 'agents'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && AGENT_ID.test(entry.name))
      .map((entry) => entry.name);
  } catch {
    // No agents folder yet: only the default agent.
  }
  return [DEFAULT_AGENT_ID, ...names.filter((name) => name !== DEFAULT_AGENT_ID).sort()];
}
