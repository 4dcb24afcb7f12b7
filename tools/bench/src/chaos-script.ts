/**
 * The emulator script of `pnpm chaos`: the primary's fault mix and a healthy fallback route. The emulator hands
 * out a route's steps in order, one per call, and then repeats the last one (tools/provider-emulator README,
 * "Matching"), so the mix is written out once per round for as many calls as the run can make; a single copy
 * would fault only the run's first dozen calls and leave the rest of the run healthy.
 */
import type { EmulatorScript, EmulatorStep } from '@understudy/provider-emulator/client';

/** The primary's fault mix, one step per upstream request, played in order and round again. */
export const FAULT_MIX: readonly EmulatorStep[] = [
  {},
  { status: 503, body: { error: { type: 'overloaded_error', message: 'overloaded' } } },
  {},
  { status: 500, body: { error: { message: 'internal error' } } },
  { status: 429, headers: { 'retry-after': '1' }, body: { error: { type: 'rate_limit_error', message: 'slow down' } } },
  {},
  { reset: true },
  { cutAfterChunks: 1 },
  {},
  { stallAfterChunks: 1, stallMs: 5_000 },
  { firstTokenDelayMs: 3_000 },
  {},
];

/**
 * Upstream calls one chat request can make to the primary: its call and one same-profile retry
 * (`retry.provider.maxRetries` of the chaos config is 1; a probe makes one call).
 */
export const PRIMARY_CALLS_PER_REQUEST = 2;

/**
 * The primary route's steps for a run of `requests` chat requests: {@link FAULT_MIX} repeated, whole rounds, to
 * cover every call the run can make to the primary.
 *
 * @param requests - chat requests of the run (a whole number ≥ 1).
 */
export function primarySteps(requests: number): EmulatorStep[] {
  const rounds = Math.ceil((requests * PRIMARY_CALLS_PER_REQUEST) / FAULT_MIX.length);
  return Array.from({ length: rounds }, () => FAULT_MIX).flat();
}

/**
 * The emulator script: route `primary` (model `flaky-a`) playing the fault mix, route `fallback` (model
 * `steady-a`) answering every call.
 *
 * @param requests - chat requests of the run.
 */
export function chaosScript(requests: number): EmulatorScript {
  return {
    routes: [
      { name: 'primary', match: { model: 'flaky-a' }, steps: primarySteps(requests) },
      { name: 'fallback', match: { model: 'steady-a' }, steps: [{}] },
    ],
  };
}
