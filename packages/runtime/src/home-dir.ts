/**
 * The user's home folder, read at the edge like every other environment value (docs/architecture.md#where-the-environment-is-read).
 */
import os from 'node:os';
import type { EnvironmentRecord } from './runtime-env.js';

/**
 * The home folder the apps put `~/.understudy` under: `HOME` from `env` when it is set and not blank (trimmed),
 * else the operating system's (`os.homedir()`).
 *
 * @example homeDirOf({ HOME: '/home/ada' }) // '/home/ada'
 */
export function homeDirOf(env: EnvironmentRecord): string {
  const home = env['HOME']?.trim();
  return home === undefined || home === '' ? os.homedir() : home;
}
