/**
 * The owner of a turn's live switches (the model-failover doc "Session overrides and live model switching"): when
 * the user switches the session to a model outside the active chain, the run hands the switch back
 * ({@link LiveSessionModelSwitchError}) and the owner runs the same turn again on the selected model — an exact
 * user selection — a bounded number of times. The gateway and `understudy simulate` both run turns through
 * {@link runFollowingLiveSwitches}, so they follow switches the same way.
 */
import { LiveSessionModelSwitchError } from './errors.js';
import type { FallbackRequest, FallbackRunResult } from './options.js';

/** How many live switches one turn follows before it stops with the last {@link LiveSessionModelSwitchError}. */
export const MAX_LIVE_SWITCHES = 2;

/**
 * Options of {@link runFollowingLiveSwitches}.
 * - `maxSwitches`: switches followed before giving up. @default {@link MAX_LIVE_SWITCHES}
 * - `onSwitch`: called with each switch that is followed (its `attempts` are the runs's attempts so far).
 */
export interface FollowLiveSwitchesOptions {
  readonly maxSwitches?: number | undefined;
  readonly onSwitch?: ((error: LiveSessionModelSwitchError) => void) | undefined;
}

/**
 * Runs `runOnce(request)`; each time it throws a {@link LiveSessionModelSwitchError}, runs it again with the
 * switch's model as an exact user selection (`source: 'user'`, no fallback override, the switch's auth
 * profile for that turn), up to `maxSwitches` times.
 *
 * @throws {LiveSessionModelSwitchError} when the session is switched once more after `maxSwitches` (a switch
 *   loop), and whatever `runOnce` throws otherwise.
 * @example await runFollowingLiveSwitches(request, (next) => runWithModelFallback({ ...options, request: next }))
 */
export async function runFollowingLiveSwitches<T>(
  request: FallbackRequest,
  runOnce: (request: FallbackRequest) => Promise<FallbackRunResult<T>>,
  options: FollowLiveSwitchesOptions = {},
): Promise<FallbackRunResult<T>> {
  const maxSwitches = options.maxSwitches ?? MAX_LIVE_SWITCHES;
  let current = request;
  for (let switches = 0; ; switches += 1) {
    try {
      return await runOnce(current);
    } catch (error) {
      if (!LiveSessionModelSwitchError.isInstance(error) || switches >= maxSwitches) throw error;
      options.onSwitch?.(error);
      // An exact user selection: no fallback override, only the switch's own auth profile.
      current = {
        ...current,
        model: error.target,
        source: 'user',
        fallbacksOverride: undefined,
        authProfile: error.authProfile,
      };
    }
  }
}
