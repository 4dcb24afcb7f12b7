/**
 * Errors of the cooldown scheduler: branded classes so `isInstance` survives duplicate installs.
 */

const COOLDOWN_POLICY_ERROR = Symbol.for('understudy.error.CooldownPolicyError');

/** One problem in an `auth.cooldowns` section: the dotted path below `auth.cooldowns` and what is wrong. */
export interface CooldownPolicyIssue {
  /** Path below `auth.cooldowns`, e.g. `cooldownStepsMs.1`; empty for the section itself. */
  readonly path: string;
  readonly message: string;
}

/**
 * Thrown by {@link resolveCooldownPolicy} when an `auth.cooldowns` section is invalid. The message names every
 * bad field (`auth.cooldowns.<path>`) and what to write instead.
 */
export class CooldownPolicyError extends Error {
  readonly code = 'invalid_cooldown_policy' as const;
  readonly issues: readonly CooldownPolicyIssue[];
  constructor(issues: readonly CooldownPolicyIssue[], options?: { readonly cause?: unknown }) {
    super(
      `Invalid auth.cooldowns: ${issues
        .map((issue) => `${issue.path === '' ? 'auth.cooldowns' : `auth.cooldowns.${issue.path}`}: ${issue.message}`)
        .join('; ')}`,
      options,
    );
    this.name = 'CooldownPolicyError';
    this.issues = issues;
    Object.defineProperty(this, COOLDOWN_POLICY_ERROR, { value: true });
  }

  /** True for a {@link CooldownPolicyError}, even one from another copy of this package. */
  static isInstance(value: unknown): value is CooldownPolicyError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[COOLDOWN_POLICY_ERROR] === true;
  }
}
