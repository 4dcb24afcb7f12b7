/**
 * Small helpers for table-driven rule tests.
 */
import type { FailoverReason, ProviderFailure } from '@understudy/contracts';
import { expect } from 'vitest';
import { explainFailure } from '../classify-failure.js';
import type { FailureExplanation } from '../classify-failure.js';

/** 2026-01-01T00:00:00Z, the `nowMs` of every rule test. */
export const TEST_NOW_MS = Date.UTC(2026, 0, 1);

/** Classifies at {@link TEST_NOW_MS}. */
export function explain(failure: ProviderFailure): FailureExplanation {
  return explainFailure(failure, { nowMs: TEST_NOW_MS });
}

/** One row of a rule table: the spec sentence it checks (in our words), the failure, the expected reason and rule. */
export type RuleCase = [sentence: string, failure: ProviderFailure, reason: FailoverReason, rule?: string];

/** Expects the failure of one {@link RuleCase} to get its reason, and its rule id when the row names one. */
export function expectRuleCase([, failure, reason, rule]: RuleCase): void {
  const result = explain(failure);
  expect(result.reason).toBe(reason);
  if (rule !== undefined) expect(result.detail).toBe(rule);
}
