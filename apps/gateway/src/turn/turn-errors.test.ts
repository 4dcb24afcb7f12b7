import { AuthStoreError, LegacyAuthFilesError } from '@understudy/auth-profile-store';
import { CandidateChainError } from '@understudy/candidate-chain';
import type { FailoverReason } from '@understudy/contracts';
import { FAILOVER_REASONS } from '@understudy/contracts';
import { FailoverError, FallbackSummaryError, LiveSessionModelSwitchError, isTransientReason } from '@understudy/fallback-runner';
import type { AttemptRecord, Exhaustion } from '@understudy/fallback-runner';
import { describe, expect, it } from 'vitest';
import { REASON_REPLY, replyStatus, turnError } from './turn-errors.js';

const NOW = 1_000_000;
const TEMPORARY = 'The failure is temporary on the provider side: retrying shortly may succeed.';
const attempt = (overrides: Partial<AttemptRecord>): AttemptRecord => ({
  provider: 'openai',
  model: 'gpt-a',
  profile: 'openai:a',
  kind: 'call',
  ok: false,
  startedAtMs: NOW,
  atMs: NOW,
  ...overrides,
});

function failover(reason: FailoverReason, status: number | null, options: { readonly message?: string; readonly exhaustion?: Partial<Exhaustion> } = {}): FailoverError {
  return new FailoverError(options.message ?? `openai/gpt-a: ${reason}`, {
    kind: 'exhausted',
    reason,
    provider: 'openai',
    model: 'gpt-a',
    profile: 'openai:a',
    status,
    attempts: [attempt({ reason, ...(status === null ? {} : { status }), summary: `${reason} summary` })],
    exhaustion: { kind: 'failed', reasons: [reason], finalReason: reason, finalStatus: status, recovery: {}, ...options.exhaustion },
  });
}

describe('turnError', () => {
  // docs/contracts.md#gateway: the HTTP status of the final failure is kept; raw provider bodies are never echoed.
  it.each([
    { error: failover('server_error', 500), status: 500, kind: 'upstream', temporary: true },
    { error: failover('overloaded', 529), status: 529, kind: 'overloaded', temporary: true },
    { error: failover('billing', 402), status: 402, kind: 'billing', temporary: false },
    { error: failover('auth', 401), status: 401, kind: 'authentication', temporary: false },
    { error: failover('model_not_found', 404), status: 404, kind: 'not_found', temporary: false },
  ])('keeps the status of a $kind failure ($status)', ({ error, status, kind, temporary }) => {
    const mapped = turnError(error, NOW);
    expect(mapped.status).toBe(status);
    expect(mapped.kind).toBe(kind);
    expect(mapped.code).toBe(error.reason);
    expect(mapped.message).toBe(temporary ? `${error.message} ${TEMPORARY}` : error.message);
    expect(mapped.retryAfterSeconds).toBeUndefined();
  });

  // The model-failover doc: a failure without a status is a server error (500) or a timeout (408), not 502/504.
  it.each([
    ['server_error', 500, 'upstream'],
    ['timeout', 408, 'timeout'],
    ['empty_response', 500, 'upstream'],
    ['no_error_details', 500, 'upstream'],
    ['unclassified', 500, 'upstream'],
    ['unknown', 500, 'upstream'],
    ['overloaded', 503, 'overloaded'],
    ['rate_limit', 429, 'rate_limit'],
  ] as const)('a %s failure without an HTTP status answers %i, saying it is temporary', (reason, status, kind) => {
    const mapped = turnError(failover(reason, null), NOW);
    expect(mapped).toMatchObject({ status, kind, code: reason });
    expect(mapped.message).toBe(`openai/gpt-a: ${reason} ${TEMPORARY}`);
  });

  it('has a reply for every failover reason; the transient ones are the runner\'s', () => {
    expect(Object.keys(REASON_REPLY).sort()).toEqual([...FAILOVER_REASONS].sort());
    const temporary = FAILOVER_REASONS.filter((reason) => isTransientReason(reason));
    expect(temporary.sort()).toEqual(['empty_response', 'no_error_details', 'overloaded', 'rate_limit', 'server_error', 'timeout', 'unclassified', 'unknown']);
  });

  it('a status-less terminal failure answers by its reason too', () => {
    const refusal = turnError(failover('refusal', null), NOW);
    expect(refusal).toMatchObject({ status: 422, kind: 'invalid_request' });
    expect(refusal.message).toBe('openai/gpt-a: refusal');
  });

  it('rate-limited: 429 with retry-after at the moment the runner names, not a cooldown guess', () => {
    // A strict 429 whose provider asked for 2 s: the runner's retryAt is 2 s away although the cooldown is 30 s.
    const limited = turnError(
      failover('rate_limit', 429, {
        message: 'openai/gpt-a: rate limited (HTTP 429, retry after 2 s). The model is temporarily rate-limited; retry after … (in 2 s).',
        exhaustion: { kind: 'rate_limited', recovery: { model: NOW + 30_000, retryAt: NOW + 2_000 } },
      }),
      NOW,
    );
    expect(limited).toMatchObject({ status: 429, kind: 'rate_limit', code: 'rate_limit', retryAfterSeconds: 2 });
    expect(limited.message).not.toContain(TEMPORARY);
    expect(limited.message).not.toContain('30 s');

    const summary = new FallbackSummaryError('All models failed (2): … All models are temporarily rate-limited; retry after …', {
      attempts: [attempt({ reason: 'rate_limit', status: 429 }), attempt({ provider: 'anthropic', kind: 'skip', reason: 'rate_limit' })],
      exhaustion: { kind: 'rate_limited', reasons: ['rate_limit'], finalReason: 'rate_limit', finalStatus: null, recovery: { profile: NOW + 5_000, retryAt: NOW + 5_000 } },
      cause: failover('rate_limit', null),
    });
    const mapped = turnError(summary, NOW);
    expect(mapped.status).toBe(429);
    expect(mapped.code).toBe('all_models_rate_limited');
    expect(mapped.retryAfterSeconds).toBe(5);
    expect(mapped.details?.['attempts']).toHaveLength(2);
    expect(summary.allRateLimited).toBe(true);
    expect(summary.soonestCooldownExpiry).toBe(NOW + 5_000);
  });

  // Breaker F7: a strict model skipped for a timeout cooldown is not "rate-limited"; it is cooling down.
  it('cooling down after timeouts: not a 429, keeps the reason\'s status (408), and sets retry-after', () => {
    const runnerMessage = 'openai/gpt-a: skipped: every auth profile is cooling down (timeout). The model is cooling down after timeouts; retry after … (in 26 s).';
    const error = new FailoverError(runnerMessage, {
      kind: 'exhausted',
      reason: 'timeout',
      provider: 'openai',
      model: 'gpt-a',
      profile: null,
      status: null,
      attempts: [attempt({ kind: 'skip', profile: null, reason: 'timeout' })],
      exhaustion: { kind: 'cooling_down', reasons: ['timeout'], finalReason: 'timeout', finalStatus: null, recovery: { model: NOW + 26_000, retryAt: NOW + 26_000 } },
    });
    const mapped = turnError(error, NOW);
    expect(mapped).toMatchObject({ status: 408, kind: 'timeout', code: 'timeout', retryAfterSeconds: 26 });
    expect(mapped.message).toBe(runnerMessage);
  });

  it('every model cooling down after timeouts and overloads: all_models_cooling_down with the last status', () => {
    const summary = new FallbackSummaryError('All models failed (2): openai/gpt-a: skipped | anthropic/claude-b: skipped. All models are cooling down after timeouts and overload errors; retry after …', {
      attempts: [attempt({ kind: 'skip', reason: 'timeout' }), attempt({ provider: 'anthropic', kind: 'skip', reason: 'overloaded' })],
      exhaustion: { kind: 'cooling_down', reasons: ['timeout', 'overloaded'], finalReason: 'overloaded', finalStatus: null, recovery: { profile: NOW + 9_000, retryAt: NOW + 9_000 } },
      cause: failover('overloaded', null),
    });
    const mapped = turnError(summary, NOW);
    expect(mapped).toMatchObject({ status: 503, kind: 'overloaded', code: 'all_models_cooling_down', retryAfterSeconds: 9 });
    expect(mapped.message).toBe(summary.message);
    expect(summary.allRateLimited).toBe(false);
  });

  it('keeps the last candidate’s status for a mixed exhaustion, without retry-after, saying a 5xx is temporary', () => {
    const summary = new FallbackSummaryError('All models failed (2): …', {
      attempts: [attempt({ reason: 'rate_limit', status: 429 }), attempt({ provider: 'anthropic', reason: 'server_error', status: 503 })],
      exhaustion: { kind: 'failed', reasons: ['rate_limit', 'server_error'], finalReason: 'server_error', finalStatus: 503, recovery: { profile: NOW + 5_000, retryAt: NOW + 5_000 } },
      cause: failover('server_error', 503),
    });
    const mapped = turnError(summary, NOW);
    expect(mapped.status).toBe(503);
    expect(mapped.code).toBe('all_models_failed');
    expect(mapped.retryAfterSeconds).toBeUndefined();
    expect(mapped.message).toBe(`All models failed (2): … ${TEMPORARY}`);
  });

  // Breaker F2: a raw SQLite error from a store call is the store being unusable, not a gateway bug.
  it('maps a raw SQLite error to 503 store_unavailable naming the agent and understudy doctor', () => {
    const sqlite = Object.assign(new Error('database disk image is malformed'), { name: 'SqliteError', code: 'SQLITE_CORRUPT' });
    const mapped = turnError(sqlite, NOW, 'coder');
    expect(mapped.status).toBe(503);
    expect(mapped.code).toBe('store_unavailable');
    expect(mapped.message).toBe('state store unavailable for agent coder: run `understudy doctor --agent coder` (SQLITE_CORRUPT)');
    expect(turnError(sqlite, NOW, 'main').message).toContain('run `understudy doctor`');
    expect(turnError(new AuthStoreError('invalid_profile_id', '"x" is not a profile id'), NOW).status).toBe(400);
  });

  it('maps configuration and store problems to 400 / 503 and anything else to a bare 500', () => {
    expect(turnError(new CandidateChainError('missing_model', 'agents.defaults.model.primary', 'No model configured'), NOW).status).toBe(503);
    expect(turnError(new CandidateChainError('invalid_model_ref', 'requested', 'bad ref'), NOW).status).toBe(400);
    expect(turnError(new AuthStoreError('store_unavailable', 'locked'), NOW).status).toBe(503);
    expect(turnError(new LegacyAuthFilesError('main', [{ path: '/x/auth-profiles.json', why: 'credentials' }]), NOW).message).toContain('doctor --fix');
    const internal = turnError(new Error('secret sk-test-123 inside'), NOW);
    expect(internal.status).toBe(500);
    expect(internal.message).not.toContain('sk-test');
  });
});

describe('a live switch loop (the model-failover doc "Session overrides and live model switching")', () => {
  it('is a clear 409 live_switch_loop naming the last model, never a 500 internal_error', () => {
    const error = turnError(new LiveSessionModelSwitchError({ provider: 'mistral', model: 'large-c' }, { attempts: [attempt({ reason: 'auth', status: 401 })] }), NOW);
    expect(error.status).toBe(409);
    expect(error.code).toBe('live_switch_loop');
    expect(error.message).toContain('mistral/large-c');
    expect(error.message).toContain('Send the request again');
  });
});

describe('replyStatus (the one status rule for failed turns, issue 13)', () => {
  it('keeps a provider status in the HTTP error range 400–599', () => {
    expect(replyStatus(400, 'format')).toBe(400);
    expect(replyStatus(429, 'rate_limit')).toBe(429);
    expect(replyStatus(529, 'overloaded')).toBe(529);
    expect(replyStatus(599, 'server_error')).toBe(599);
  });

  it('answers by the reason for no status, a non-error status, or a number above 599', () => {
    expect(replyStatus(null, 'server_error')).toBe(REASON_REPLY.server_error.status);
    expect(replyStatus(200, 'timeout')).toBe(REASON_REPLY.timeout.status);
    expect(replyStatus(399, 'overloaded')).toBe(REASON_REPLY.overloaded.status);
    expect(replyStatus(600, 'server_error')).toBe(REASON_REPLY.server_error.status);
    expect(replyStatus(999, 'rate_limit')).toBe(REASON_REPLY.rate_limit.status);
  });
});
