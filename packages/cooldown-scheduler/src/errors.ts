/**
 * Errors of the cooldown scheduler, on the one error base of `@understudy/contracts` (`isInstance` survives
 * duplicate installs).
 */
import { UnderstudyError } from '@understudy/contracts';

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
export class CooldownPolicyError extends UnderstudyError<'invalid_cooldown_policy'> {
  readonly issues: readonly CooldownPolicyIssue[];
  constructor(issues: readonly CooldownPolicyIssue[], options: { readonly cause?: unknown } = {}) {
    super(
      'invalid_cooldown_policy',
      `Invalid auth.cooldowns: ${issues
        .map((issue) => `${issue.path === '' ? 'auth.cooldowns' : `auth.cooldowns.${issue.path}`}: ${issue.message}`)
        .join('; ')}`,
      options,
    );
    this.issues = issues;
  }
}
