/**
 * Failover conduct under faults, from the caller's seat (docs/contracts.md#bench), understudy with its default
 * config beside Portkey with its defaults, both in front of provider emulators (`tools/provider-emulator`) driven
 * through the emulator's control API. Both figures are in seconds.
 *
 * - `failover.recovery_s`: the primary answers 503 (`Service Unavailable`) for a set time, then is healthy, while
 *   requests arrive at a steady rate ({@link ConductSettings.requestIntervalMs}, each sent on schedule whether or
 *   not the previous one is done). A run's value is seconds from the switch to healthy to the first 200 the
 *   primary served (the answer reaching the caller, named in its headers); the figure is the median over runs
 *   whose outages are spread over one probe throttle ({@link conductSettings}), because the wait depends on where
 *   the recovery falls in the gateway's probe schedule (understudy cools the primary down and probes it at most
 *   once per 30 s by default; Portkey calls it on every request, so its wait is under one request interval).
 *   Each target has its own emulator; each understudy run a fresh gateway. The primary calls during each outage
 *   are reported in the notes.
 * - `failover.silent_provider_s` (streamed) and `failover.silent_provider_s.non_stream`: the primary accepts the
 *   connection and sends nothing, not even headers (emulator `delayMs` of an hour); the fallback is healthy. The
 *   figure is seconds from sending the request to holding the complete answer (a stream through `[DONE]`, a
 *   whole body with content) from the fallback. One request per target and mode, all sent together; the
 *   gateway's default timeouts apply (a streamed answer's headers within 10 s; a non-streamed answer only bounded
 *   by the whole-request limit, 300 s: docs/configuration.md#timeouts), so the non-streamed case takes about five
 *   minutes and is left out of `--quick` runs. A target with no answer within {@link ConductSettings.silentCapMs}
 *   is skipped with that reason.
 *
 * Recovery and the silent requests run at the same time (they are waits, not load; the recovery runs of one
 * target follow each other); `failover.decision_ms` is measured before them, alone.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent } from 'undici';
import { DEFAULT_COOLDOWN_POLICY } from '@understudy/cooldown-scheduler';
import type { SuiteOptions } from '../figure.js';
import type { ServerProcess } from '../processes.js';
import type { HttpTarget } from '../load/target.js';
import { chatBody } from '../load/target.js';
import { portkeyFallbackConfig } from '../baselines/portkey.js';
import { primaryAndBackupConfig, startUnderstudy } from '../understudy-gateway.js';
import type { ConductMeasurements, Measured, RecoveryAnswer } from './conduct-figures.js';
import { CONDUCT_TARGETS, answerComplete, medianOfRuns, recoverySeconds, servedBy, staggeredOutagesMs } from './conduct-figures.js';
import type { PortkeyStart } from './side-by-side.js';
import { emulatorRouteCalls, runFolder, setEmulatorScript, spawnEmulator, stopAll, tryStartPortkey } from './side-by-side.js';

/** Knobs of the conduct measurements (durations in ms). */
export interface ConductSettings {
  /** The recovery runs' outages, one run per entry and target: the primary answers 503 this long, then is healthy. */
  readonly outagesMs: readonly number[];
  /** One request every this many ms during a recovery run. */
  readonly requestIntervalMs: number;
  /**
   * Longest wait for the primary's first answer after an outage; past it the target's recovery figure is skipped
   * with that reason. Default: the default probe throttle plus five intervals.
   */
  readonly recoveryCapMs: number;
  /** Longest wait for one silent-provider answer; past it the target's figure is skipped with that reason. */
  readonly silentCapMs: number;
  /** Whether the non-streamed silent case runs (about 300 s with the default whole-request limit). */
  readonly nonStream: boolean;
}

/**
 * Default settings. A full run: three outages of 20, 30 and 40 s (spread over one default probe throttle, 30 s,
 * so the moment of recovery falls at three different places of the gateway's probe schedule) with a request every
 * 2 s, and up to 330 s for a silent answer (the default whole-request limit of 300 s, plus margin); its conduct
 * phase takes about 6 min, mostly idle waiting. A quick run: one 5 s outage with a request every second,
 * streams only, up to 40 s for a silent answer; about 1.5 min.
 */
export function conductSettings(quick: boolean): ConductSettings {
  const requestIntervalMs = quick ? 1_000 : 2_000;
  return {
    outagesMs: quick ? [5_000] : staggeredOutagesMs(20_000, 3, DEFAULT_COOLDOWN_POLICY.probeThrottleMs),
    requestIntervalMs,
    recoveryCapMs: DEFAULT_COOLDOWN_POLICY.probeThrottleMs + 5 * requestIntervalMs,
    silentCapMs: quick ? 40_000 : 330_000,
    nonStream: !quick,
  };
}

/** The route name and path prefix of the emulated primary (recovery) and of the silent primary. */
const PRIMARY = 'primary';
const SILENT = 'silent';

const OUTAGE_SCRIPT = { routes: [{ name: PRIMARY, match: { pathPrefix: `/${PRIMARY}/` }, steps: [{ status: 503, body: { error: { message: 'Service Unavailable', type: 'server_error' } } }] }] };
const HEALTHY_SCRIPT = { routes: [{ name: PRIMARY, match: { pathPrefix: `/${PRIMARY}/` }, steps: [{}] }] };
const SILENT_SCRIPT = { routes: [{ name: SILENT, match: { pathPrefix: `/${SILENT}/` }, steps: [{ delayMs: 3_600_000 }] }] };

/** What one recovery run saw, for the figure and the notes. */
export interface RecoveryRun {
  readonly measured: Measured;
  /** The outage, ms. */
  readonly outageMs: number;
  /** Calls the primary got during the outage (same-profile retries and probes included). */
  readonly primaryCalls: number;
  /** Requests sent during the outage. */
  readonly requestsDuringOutage: number;
  /** Answers of the run that were not a 200. */
  readonly failedAnswers: number;
}

function target(name: string, origin: string, headers: Record<string, string>, model: string): HttpTarget {
  return { name, origin, path: '/v1/chat/completions', headers: { 'content-type': 'application/json', ...headers }, model };
}

/** The dispatcher of the conduct requests: no undici time limits (its 300 s defaults would cut the silent case); the caps are the bench's own. */
function dispatcher(): Agent {
  return new Agent({ headersTimeout: 0, bodyTimeout: 0, connections: 16 });
}

/**
 * One recovery run against `to`, whose primary is served by `emulatorUrl`: {@link OUTAGE_SCRIPT} for `outageMs`,
 * then {@link HEALTHY_SCRIPT}, with a request every `requestIntervalMs` from the start until the primary has
 * answered one (or the cap).
 */
async function recoveryRun(to: HttpTarget, emulatorUrl: string, outageMs: number, settings: ConductSettings): Promise<RecoveryRun> {
  const agent = dispatcher();
  const answers: RecoveryAnswer[] = [];
  const inFlight = new Set<Promise<void>>();
  const send = (): void => {
    const sentAtMs = performance.now();
    const done = (async () => {
      try {
        const answer = await agent.request({ origin: to.origin, method: 'POST', path: to.path, headers: to.headers, body: chatBody(to, false) });
        await answer.body.text();
        answers.push({ sentAtMs, answeredAtMs: performance.now(), status: answer.statusCode, servedBy: servedBy(to.name, answer.headers) });
      } catch {
        answers.push({ sentAtMs, answeredAtMs: performance.now(), status: 0, servedBy: 'unknown' });
      }
    })();
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  };
  await setEmulatorScript(emulatorUrl, OUTAGE_SCRIPT);
  send();
  const ticker = setInterval(send, settings.requestIntervalMs);
  try {
    await sleep(outageMs);
    // The script's route counts restart with the new script: read the outage's calls first.
    const primaryCalls = await emulatorRouteCalls(emulatorUrl, PRIMARY);
    const requestsDuringOutage = answers.length + inFlight.size;
    const healthyAtMs = performance.now();
    await setEmulatorScript(emulatorUrl, HEALTHY_SCRIPT);
    const run = { outageMs, primaryCalls, requestsDuringOutage };
    for (;;) {
      const seconds = recoverySeconds(answers, healthyAtMs);
      const failedAnswers = answers.filter((answer) => answer.status !== 200).length;
      if (seconds !== undefined) return { measured: { ok: true, seconds }, ...run, failedAnswers };
      if (performance.now() - healthyAtMs > settings.recoveryCapMs) {
        return { measured: { ok: false, reason: `${to.name} did not use the recovered primary within ${settings.recoveryCapMs / 1000} s of a ${outageMs / 1000} s outage` }, ...run, failedAnswers };
      }
      await sleep(50);
    }
  } finally {
    clearInterval(ticker);
    await Promise.allSettled([...inFlight]);
    await agent.close();
  }
}

/**
 * One request to a target whose primary never answers: seconds to the complete answer from the fallback, or why
 * there is none (no answer within `capMs`, an error status, an incomplete answer, the primary's name on it).
 */
async function silentSample(to: HttpTarget, stream: boolean, capMs: number): Promise<Measured> {
  const agent = dispatcher();
  const signal = AbortSignal.timeout(capMs);
  const startedAtMs = performance.now();
  const mode = stream ? 'streamed' : 'non-streamed';
  try {
    const answer = await agent.request({ origin: to.origin, method: 'POST', path: to.path, headers: to.headers, body: chatBody(to, stream), signal });
    const text = await answer.body.text();
    const seconds = (performance.now() - startedAtMs) / 1000;
    if (answer.statusCode !== 200) return { ok: false, reason: `${to.name} answered the ${mode} request ${answer.statusCode} after ${seconds.toFixed(1)} s: ${text.slice(0, 200)}` };
    const by = servedBy(to.name, answer.headers);
    if (by !== 'fallback') return { ok: false, reason: `${to.name}'s ${mode} answer after ${seconds.toFixed(1)} s came from ${by}, expected the fallback` };
    if (!answerComplete(text, stream)) return { ok: false, reason: `${to.name}'s ${mode} answer after ${seconds.toFixed(1)} s is not a complete answer: ${text.slice(0, 200)}` };
    return { ok: true, seconds };
  } catch (error) {
    if (signal.aborted) return { ok: false, reason: `${to.name} gave no answer to the ${mode} request within ${capMs / 1000} s` };
    return { ok: false, reason: `${to.name}'s ${mode} request failed: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    await agent.destroy();
  }
}

const notMeasured = (reason: string): Measured => ({ ok: false, reason });

function describeRuns(name: string, runs: readonly RecoveryRun[]): string {
  const each = runs.map(
    (run) =>
      `${run.outageMs / 1000} s outage: ${run.measured.ok ? `${run.measured.seconds.toFixed(2)} s` : 'not back'}, ${run.primaryCalls} primary calls for ${run.requestsDuringOutage} requests, ${run.failedAnswers} answers not 200`,
  );
  return `${name}: ${each.join('; ')}`;
}

/**
 * The recovery runs of one target, one after the other: `run(outageMs)` per outage of the settings, each logged.
 */
async function recoverySeries(name: string, settings: ConductSettings, log: (line: string) => void, run: (outageMs: number, index: number) => Promise<RecoveryRun>): Promise<RecoveryRun[]> {
  const runs: RecoveryRun[] = [];
  for (const [index, outageMs] of settings.outagesMs.entries()) {
    const done = await run(outageMs, index);
    log(`failover: recovery ${index + 1}/${settings.outagesMs.length}: ${name} after a ${outageMs / 1000} s outage: ${done.measured.ok ? `back on the primary in ${done.measured.seconds.toFixed(2)} s` : done.measured.reason} (${done.primaryCalls} primary calls during it)`);
    runs.push(done);
  }
  return runs;
}

/** Measures the conduct figures of understudy and Portkey (recovery and silent cases side by side, see the module doc). */
export async function measureConduct(options: SuiteOptions, settings: ConductSettings): Promise<ConductMeasurements> {
  const folder = runFolder('conduct');
  const servers: ServerProcess[] = [];
  let failed = true;
  try {
    const recoveryEmulators = {
      understudy: await spawnEmulator(options.repoRoot, folder.dir, 'emulator-recovery-understudy'),
      portkey: await spawnEmulator(options.repoRoot, folder.dir, 'emulator-recovery-portkey'),
    };
    const silentEmulator = await spawnEmulator(options.repoRoot, folder.dir, 'emulator-silent');
    servers.push(recoveryEmulators.understudy, recoveryEmulators.portkey, silentEmulator);
    await setEmulatorScript(silentEmulator.url, SILENT_SCRIPT);
    const silentGateway = await startUnderstudy({
      name: 'understudy-silent',
      repoRoot: options.repoRoot,
      dir: path.join(folder.dir, 'understudy-silent'),
      config: primaryAndBackupConfig(`${silentEmulator.url}/${SILENT}/v1`, `${silentEmulator.url}/fallback/v1`),
    });
    servers.push(silentGateway);
    const portkey: PortkeyStart = await tryStartPortkey(folder.dir);
    if (portkey.ok) servers.push(portkey.server);
    else options.log(`failover: ${portkey.reason}`);
    const portkeyOf = (primaryBaseUrl: string, fallbackBaseUrl: string): HttpTarget | undefined =>
      portkey.ok ? target(CONDUCT_TARGETS.portkey, portkey.server.url, { 'x-portkey-config': portkeyFallbackConfig(primaryBaseUrl, fallbackBaseUrl, null) }, 'bench-model') : undefined;
    const portkeyRecovery = portkeyOf(`${recoveryEmulators.portkey.url}/${PRIMARY}/v1`, `${recoveryEmulators.portkey.url}/fallback/v1`);
    const portkeySilent = portkeyOf(`${silentEmulator.url}/${SILENT}/v1`, `${silentEmulator.url}/fallback/v1`);
    const portkeyMissing = portkey.ok ? '' : portkey.reason;
    const ownSilent = target(CONDUCT_TARGETS.understudy, silentGateway.url, {}, 'default');

    options.log(
      `failover: conduct: recovery after ${settings.outagesMs.map((ms) => `${ms / 1000} s`).join(', ')} outages (a request every ${settings.requestIntervalMs / 1000} s) and a silent primary (streamed${settings.nonStream ? ' and non-streamed' : ''}, up to ${settings.silentCapMs / 1000} s), understudy and Portkey at once`,
    );
    // Each understudy recovery run has a gateway of its own with fresh state, so no run inherits the cooldown or the probe throttle of the one before.
    const ownRecoveryRun = async (outageMs: number, index: number): Promise<RecoveryRun> => {
      const gateway = await startUnderstudy({
        name: `understudy-recovery-${index + 1}`,
        repoRoot: options.repoRoot,
        dir: path.join(folder.dir, `understudy-recovery-${index + 1}`),
        config: primaryAndBackupConfig(`${recoveryEmulators.understudy.url}/${PRIMARY}/v1`, `${recoveryEmulators.understudy.url}/fallback/v1`),
      });
      try {
        return await recoveryRun(target(CONDUCT_TARGETS.understudy, gateway.url, {}, 'default'), recoveryEmulators.understudy.url, outageMs, settings);
      } finally {
        await gateway.stop();
      }
    };
    const quickReason = 'not measured in --quick runs: the default whole-request limit (300 s) bounds a silent non-streamed answer';
    const [ownRecovery, theirRecovery, ownStream, theirStream, ownNonStream, theirNonStream] = await Promise.all([
      recoverySeries(CONDUCT_TARGETS.understudy, settings, options.log, ownRecoveryRun),
      portkeyRecovery === undefined ? undefined : recoverySeries(CONDUCT_TARGETS.portkey, settings, options.log, (outageMs) => recoveryRun(portkeyRecovery, recoveryEmulators.portkey.url, outageMs, settings)),
      silentSample(ownSilent, true, settings.silentCapMs),
      portkeySilent === undefined ? notMeasured(portkeyMissing) : silentSample(portkeySilent, true, settings.silentCapMs),
      settings.nonStream ? silentSample(ownSilent, false, settings.silentCapMs) : notMeasured(quickReason),
      !settings.nonStream ? notMeasured(quickReason) : portkeySilent === undefined ? notMeasured(portkeyMissing) : silentSample(portkeySilent, false, settings.silentCapMs),
    ]);
    options.note?.(
      `failover: recovery: provider emulator primary answering 503 for ${settings.outagesMs.map((ms) => `${ms / 1000} s`).join(', ')} (one run each, a fresh understudy gateway per run), then healthy; one request every ${settings.requestIntervalMs / 1000} s, each on schedule; per run, outage end to the first 200 the primary served; figure = median of the runs; ${describeRuns('understudy', ownRecovery)}${theirRecovery === undefined ? '' : ` | ${describeRuns('Portkey', theirRecovery)}`}.`,
    );
    options.note?.(
      'failover: silent provider: the primary accepts the connection and sends nothing (emulator delayMs 1 h), healthy fallback; one request per target and mode, sent together, timed to the complete answer; understudy with its default timeouts, Portkey with fallback on any failure and no request_timeout (its default).',
    );
    failed = false;
    return {
      recovery: { understudy: medianOfRuns(ownRecovery.map((run) => run.measured)), portkey: theirRecovery === undefined ? notMeasured(portkeyMissing) : medianOfRuns(theirRecovery.map((run) => run.measured)) },
      silentStream: { understudy: ownStream, portkey: theirStream },
      silentNonStream: { understudy: ownNonStream, portkey: theirNonStream },
    };
  } finally {
    await stopAll(servers);
    if (failed) options.log(`failover: conduct server logs kept in ${folder.dir}`);
    folder.remove(failed);
  }
}
