/**
 * Test harness of the runner: a parsed config, an in-memory store with API-key profiles, a fake clock and a
 * scripted attempt function (first matching script entry wins; each call consumes its next result; no result
 * left answers ok).
 */
import type { AttemptFunction, Candidate, ProviderFailure, ResolvedProfile } from '@understudy/contracts';
import { Secret } from '@understudy/contracts';
import type { UnderstudyConfigInput } from '@understudy/config';
import { parseConfig } from '@understudy/config';
import type { FallbackDecisionEvent, FallbackRunResult, RunWithModelFallbackOptions } from '../index.js';
import { runWithModelFallback } from '../index.js';
import { FakeClock, MemoryAuthStore, seededRandom } from '../testing/index.js';

/** A scripted provider result. */
export type ScriptResult =
  | { readonly ok: true; readonly latencyMs?: number }
  | ({ readonly latencyMs?: number; readonly abortController?: AbortController } & ProviderFailure);

/** Keys: `provider/model@profile`, `provider/model`, or `provider`. */
export type Script = Readonly<Record<string, readonly ScriptResult[]>>;

/** One call the scripted attempt received. */
export interface ScriptedCall {
  readonly ref: string;
  readonly profile: string | null;
  readonly atMs: number;
}

/** A scripted attempt function that answers `"<provider>/<model>"`. */
export function scriptedAttempt(script: Script, clock: FakeClock): AttemptFunction<string> & { readonly calls: ScriptedCall[] } {
  const cursors = new Map<string, number>();
  const calls: ScriptedCall[] = [];
  const attempt = async (candidate: Candidate, profile: ResolvedProfile | null): Promise<{ ok: true; value: string } | { ok: false; failure: ProviderFailure }> => {
    const ref = `${candidate.provider}/${candidate.model}`;
    const profileId = profile?.view.id ?? null;
    calls.push({ ref, profile: profileId, atMs: clock.nowMs() });
    const key = [`${ref}@${profileId ?? ''}`, ref, candidate.provider].find((candidateKey) => script[candidateKey] !== undefined);
    const results = key === undefined ? [] : (script[key] ?? []);
    const at = cursors.get(key ?? '') ?? 0;
    cursors.set(key ?? '', at + 1);
    const result = results[at] ?? { ok: true };
    await Promise.resolve();
    clock.advance(result.latencyMs ?? 0);
    if ('ok' in result && result.ok) return { ok: true, value: ref };
    const { abortController, ...fields } = result as ScriptResult & { ok?: never };
    abortController?.abort(new Error('user aborted'));
    const failure: Record<string, unknown> = { ...fields };
    delete failure['latencyMs'];
    return { ok: false, failure: failure as ProviderFailure };
  };
  return Object.assign(attempt, { calls });
}

/** A test world: config, store, clock, scripted calls and captured decision events. */
export interface World {
  readonly config: ReturnType<typeof parseConfig>;
  readonly store: MemoryAuthStore;
  readonly clock: FakeClock;
  readonly events: FallbackDecisionEvent[];
  run(
    script: Script,
    request?: Partial<RunWithModelFallbackOptions<string>['request']>,
    extra?: Partial<RunWithModelFallbackOptions<string>>,
  ): Promise<FallbackRunResult<string> & { readonly calls: readonly ScriptedCall[] }>;
  /** Runs and returns the thrown error (fails when the run answers). */
  fail(
    script: Script,
    request?: Partial<RunWithModelFallbackOptions<string>['request']>,
    extra?: Partial<RunWithModelFallbackOptions<string>>,
  ): Promise<unknown>;
}

/** Builds a world with API-key profiles (`openai:a` …) and a config. */
export function world(options: { readonly config?: UnderstudyConfigInput; readonly profiles?: readonly string[]; readonly nowMs?: number } = {}): World {
  const config = parseConfig(
    options.config ?? { agents: { defaults: { model: { primary: 'openai/gpt-x', fallbacks: ['anthropic/claude-x'] } } } },
  );
  const store = new MemoryAuthStore();
  for (const id of options.profiles ?? ['openai:a', 'openai:b', 'anthropic:a']) {
    store.addProfile(id, { type: 'api_key', provider: id.slice(0, id.indexOf(':')), key: new Secret(`sk-${id}`) });
  }
  const clock = new FakeClock(options.nowMs ?? 1_000_000);
  const events: FallbackDecisionEvent[] = [];
  const random = seededRandom(7);
  const run: World['run'] = async (script, request = {}, extra = {}) => {
    const attempt = scriptedAttempt(script, clock);
    const result = await runWithModelFallback({
      request: { agentId: 'main', sessionKey: 's1', ...request },
      config,
      store,
      attempt,
      clock,
      random,
      onDecision: (event) => events.push(event),
      ...extra,
    });
    return { ...result, calls: attempt.calls };
  };
  const fail: World['fail'] = async (script, request, extra) => {
    try {
      await run(script, request, extra);
    } catch (error) {
      return error;
    }
    throw new Error('expected the run to fail');
  };
  return { config, store, clock, events, run, fail };
}

/** The attempts as `[ref@profile, kind, reason?]` triples, compact for assertions. */
export function brief(attempts: readonly { provider: string; model: string; profile: string | null; kind: string; reason?: string | undefined; status?: number | undefined }[]): string[] {
  return attempts.map(
    (attempt) =>
      `${attempt.kind} ${attempt.provider}/${attempt.model}@${attempt.profile ?? '-'}${attempt.reason === undefined ? '' : ` ${attempt.reason}`}${attempt.status === undefined ? '' : ` ${attempt.status}`}`,
  );
}
