import { AuthStoreError, LegacyAuthFilesError } from '@understudy/auth-profile-store';
import { CandidateChainError } from '@understudy/candidate-chain';
import { FailoverError, FallbackSummaryError, LiveSessionModelSwitchError } from '@understudy/fallback-runner';
import type { AttemptRecord } from '@understudy/fallback-runner';
import { describe, expect, it } from 'vitest';
import { turnError } from './turn-errors.js';

const NOW = 1_000_000;
const attempt = (overrides: Partial<AttemptRecord>): AttemptRecord => ({
  provider: 'openai',
  model: 'gpt-a',
  profile: 'openai:a',
  kind: 'call',
  ok: false,
  atMs: NOW,
  ...overrides,
});

function failover(reason: FailoverError['reason'], status: number | null, message = `openai/gpt-a: ${reason}`, soonest?: number): FailoverError {
  return new FailoverError(message, {
    kind: 'exhausted',
    reason,
    provider: 'openai',
    model: 'gpt-a',
    profile: 'openai:a',
    status,
    attempts: [attempt({ reason, ...(status === null ? {} : { status }), summary: `${reason} summary` })],
    soonestCooldownExpiry: soonest,
  });
}

describe('turnError', () => {
  // docs/contracts.md#gateway: the HTTP status of the final failure is kept; raw provider bodies are never echoed.
  it.each([
    { error: failover('server_error', 500), status: 500, kind: 'upstream' },
    { error: failover('billing', 402), status: 402, kind: 'billing' },
    { error: failover('auth', 401), status: 401, kind: 'authentication' },
    { error: failover('overloaded', 529), status: 529, kind: 'overloaded' },
    { error: failover('timeout', null), status: 504, kind: 'timeout' },
    { error: failover('rate_limit', null), status: 429, kind: 'rate_limit' },
  ])('keeps or derives the status of a $kind failure ($status)', ({ error, status, kind }) => {
    const mapped = turnError(error, NOW);
    expect(mapped.status).toBe(status);
    expect(mapped.kind).toBe(kind);
    expect(mapped.message).toBe(error.message);
    expect(mapped.retryAfterSeconds).toBeUndefined();
  });

  it('adds retry-after only when the failure says every model is temporarily rate-limited', () => {
    const limited = turnError(failover('rate_limit', 429, 'openai/gpt-a: rate limited. The model is temporarily rate-limited; retry after …', NOW + 20_500), NOW);
    expect(limited.retryAfterSeconds).toBe(21);
    const summary = new FallbackSummaryError('All models failed (2): … All models are temporarily rate-limited; retry after …', {
      attempts: [attempt({ reason: 'rate_limit', status: 429 }), attempt({ provider: 'anthropic', kind: 'skip', reason: 'rate_limit' })],
      soonestCooldownExpiry: NOW + 5_000,
      allRateLimited: true,
      cause: failover('rate_limit', null),
    });
    const mapped = turnError(summary, NOW);
    expect(mapped.status).toBe(429);
    expect(mapped.code).toBe('all_models_rate_limited');
    expect(mapped.retryAfterSeconds).toBe(5);
    expect(mapped.details?.['attempts']).toHaveLength(2);
  });

  // Breaker F7: a strict model skipped for a timeout cooldown is not "rate-limited"; it is cooling down.
  it('says a model is cooling down after timeouts (not rate-limited), keeps 504, and sets retry-after', () => {
    const runnerMessage =
      'openai/gpt-a: skipped: every auth profile is cooling down (timeout); usable again at 1970-01-01T00:17:06.000Z. The model is temporarily rate-limited; retry after 1970-01-01T00:17:06.000Z (in 26 s).';
    const error = new FailoverError(runnerMessage, {
      kind: 'exhausted',
      reason: 'timeout',
      provider: 'openai',
      model: 'gpt-a',
      profile: null,
      status: null,
      attempts: [attempt({ kind: 'skip', profile: null, reason: 'timeout' })],
      soonestCooldownExpiry: NOW + 26_000,
    });
    const mapped = turnError(error, NOW);
    expect(mapped.status).toBe(504);
    expect(mapped.code).toBe('timeout');
    expect(mapped.message).not.toContain('rate-limited');
    expect(mapped.message).toBe(
      'openai/gpt-a: skipped: every auth profile is cooling down (timeout); usable again at 1970-01-01T00:17:06.000Z. The model is cooling down after timeouts; retry after 1970-01-01T00:17:06.000Z (in 26 s).',
    );
    expect(mapped.retryAfterSeconds).toBe(26);
  });

  it('says every model is cooling down when the runner counts timeout and overload cooldowns as "all rate-limited"', () => {
    const summary = new FallbackSummaryError('All models failed (2): openai/gpt-a: skipped | anthropic/claude-b: skipped. All models are temporarily rate-limited; retry after …', {
      attempts: [attempt({ kind: 'skip', reason: 'timeout' }), attempt({ provider: 'anthropic', kind: 'skip', reason: 'overloaded' })],
      soonestCooldownExpiry: NOW + 9_000,
      allRateLimited: true,
      cause: failover('overloaded', null),
    });
    const mapped = turnError(summary, NOW);
    expect(mapped.message).toBe(
      `All models failed (2): openai/gpt-a: skipped | anthropic/claude-b: skipped. All models are cooling down after timeouts and overload errors; retry after ${new Date(NOW + 9_000).toISOString()} (in 9 s).`,
    );
    expect(mapped.status).toBe(503);
    expect(mapped.code).toBe('all_models_cooling_down');
    expect(mapped.retryAfterSeconds).toBe(9);
  });

  it('keeps the last candidate’s status for a mixed exhaustion, without retry-after', () => {
    const summary = new FallbackSummaryError('All models failed (2): …', {
      attempts: [attempt({ reason: 'rate_limit', status: 429 }), attempt({ provider: 'anthropic', reason: 'server_error', status: 503 })],
      soonestCooldownExpiry: NOW + 5_000,
      allRateLimited: false,
      cause: failover('server_error', 503),
    });
    const mapped = turnError(summary, NOW);
    expect(mapped.status).toBe(503);
    expect(mapped.code).toBe('all_models_failed');
    expect(mapped.retryAfterSeconds).toBeUndefined();
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
