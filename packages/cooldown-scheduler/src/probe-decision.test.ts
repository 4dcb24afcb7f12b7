import type { FailoverReason } from '@understudy/contracts';
import { describe, expect, it } from 'vitest';
import type { UnavailableCandidateDecision, UnavailableCandidateInput } from './index.js';
import { decideUnavailableCandidate, resolveCooldownPolicy } from './index.js';

const NOW = 10_000_000;
const base: UnavailableCandidateInput = {
  provider: 'openai',
  isPrimary: true,
  onlyCandidate: false,
  isSameProviderSibling: false,
  reason: 'rate_limit',
  soonestExpiryMs: NOW + 60_000,
  nowMs: NOW,
  transientProbeUsed: false,
};
const probe = (reason: FailoverReason, transient: boolean): UnavailableCandidateDecision => ({
  kind: 'probe',
  reason,
  throttleKey: 'openai',
  throttleMs: 30_000,
  transient,
});
const skip = (why: string, reason: FailoverReason): UnavailableCandidateDecision =>
  ({ kind: 'skip', why, reason }) as UnavailableCandidateDecision;

describe('cooldown skip vs probe (the model-failover doc "Cooldown skip vs probe behavior", docs/policy.md#retries-probes-and-rotation)', () => {
  it.each<[string, Partial<UnavailableCandidateInput>, UnavailableCandidateDecision]>([
    ['persistent auth failures skip the whole provider', { reason: 'auth' }, skip('persistent_auth', 'auth')],
    ['permanent auth is never probed, even for the only candidate', { reason: 'auth_permanent', onlyCandidate: true }, skip('persistent_auth', 'auth_permanent')],
    ['billing disables usually skip a fallback', { reason: 'billing', isPrimary: false, isSameProviderSibling: true }, skip('billing_disabled', 'billing')],
    ['a billing-disabled primary far from expiry is skipped when there are fallbacks', { reason: 'billing', soonestExpiryMs: NOW + 3_600_000 }, skip('billing_disabled', 'billing')],
    ['a billing-disabled primary is probed near expiry', { reason: 'billing', soonestExpiryMs: NOW + 90_000 }, probe('billing', false)],
    ['a billing-disabled only candidate is probed at any time on the throttle', { reason: 'billing', onlyCandidate: true, soonestExpiryMs: NOW + 3_600_000 }, probe('billing', false)],
    ['…but not within the throttle', { reason: 'billing', onlyCandidate: true, lastProbeAtMs: NOW - 10_000 }, skip('probe_throttled', 'billing')],
    ['the primary may be probed within 2 minutes of expiry', { soonestExpiryMs: NOW + 120_000 }, probe('rate_limit', true)],
    ['the primary is not probed earlier than that', { soonestExpiryMs: NOW + 120_001 }, skip('not_near_expiry', 'rate_limit')],
    ['the primary with an unknown expiry may be probed', { soonestExpiryMs: undefined, reason: 'model_not_found' }, probe('model_not_found', false)],
    ['a per-provider throttle of 30 s holds', { lastProbeAtMs: NOW - 29_999 }, skip('probe_throttled', 'rate_limit')],
    ['after 30 s the throttle is open again', { lastProbeAtMs: NOW - 30_000 }, probe('rate_limit', true)],
    ['one transient probe per provider per run', { transientProbeUsed: true }, skip('transient_probe_used', 'rate_limit')],
    ['a used transient probe does not stop a billing probe', { reason: 'billing', onlyCandidate: true, transientProbeUsed: true }, probe('billing', false)],
    ['same-provider siblings may be tried for rate limits', { isPrimary: false, isSameProviderSibling: true }, { kind: 'try_sibling', reason: 'rate_limit' }],
    ['…and for overloads', { isPrimary: false, isSameProviderSibling: true, reason: 'overloaded' }, { kind: 'try_sibling', reason: 'overloaded' }],
    ['…and for unknown failures', { isPrimary: false, isSameProviderSibling: true, reason: undefined }, { kind: 'try_sibling', reason: 'unknown' }],
    ['…but only once per provider per run', { isPrimary: false, isSameProviderSibling: true, transientProbeUsed: true }, skip('transient_probe_used', 'rate_limit')],
    ['a non-transient reason does not let a sibling through', { isPrimary: false, isSameProviderSibling: true, reason: 'model_not_found' }, skip('cooling_down', 'model_not_found')],
    ['a fallback of another provider that is cooling down is skipped', { isPrimary: false }, skip('cooling_down', 'rate_limit')],
  ])('%s', (_sentence, overrides, expected) => {
    expect(decideUnavailableCandidate({ ...base, ...overrides })).toEqual(expected);
  });

  it('reads the near-expiry margin and throttle from the policy', () => {
    const policy = resolveCooldownPolicy({ probeNearExpiryMs: 1_000, probeThrottleMs: 5_000 });
    expect(decideUnavailableCandidate({ ...base, soonestExpiryMs: NOW + 2_000 }, policy)).toEqual(skip('not_near_expiry', 'rate_limit'));
    expect(decideUnavailableCandidate({ ...base, soonestExpiryMs: NOW + 500 }, policy)).toMatchObject({ kind: 'probe', throttleMs: 5_000 });
  });
});
