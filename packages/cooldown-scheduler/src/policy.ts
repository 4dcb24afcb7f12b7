/**
 * The `auth.cooldowns.*` knobs: a strict zod schema, its presets and the resolved {@link CooldownPolicy}
 * (docs/policy.md#windows, docs/policy.md#retries-probes-and-rotation; the model-failover doc "Cooldowns", "Billing disables"; the older model-failover doc for the `legacy` preset).
 */
import { normalizeProviderId } from '@understudy/contracts';
import * as z from 'zod';
import { CooldownPolicyError } from './errors.js';

/**
 * The default base of the same-profile retry backoff, ms (`retry.provider.baseDelayMs` and
 * `auth.cooldowns.overloadedBackoffMs` default to it): 250.
 */
export const DEFAULT_RETRY_BASE_DELAY_MS = 250;

/** The default cap of the same-profile retry backoff, ms (`retry.provider.maxDelayMs` defaults to it): 5000. */
export const DEFAULT_RETRY_MAX_DELAY_MS = 5_000;

/** `default` follows the model-failover doc; `legacy` reproduces the older documents (the older model-failover doc). */
export type CooldownPreset = 'default' | 'legacy';

/** The knobs a preset decides when the config leaves them out. */
export interface CooldownPresetValues {
  /** Cooldown-lane windows by error count inside the failure window; the last step repeats. */
  readonly cooldownStepsMs: readonly number[];
  /** First billing disable window, hours (fractional allowed: 10 min = 1/6). */
  readonly billingBackoffHours: number;
}

/**
 * Preset values (docs/policy.md#windows): `default` = 30 s / 60 s / 300 s cooldowns and a 10 min billing disable;
 * `legacy` = 1 min / 5 min / 25 min / 1 h cooldowns and a 5 h billing disable (both doubling to 24 h).
 */
export const COOLDOWN_PRESETS: Readonly<Record<CooldownPreset, CooldownPresetValues>> = Object.freeze({
  default: Object.freeze({ cooldownStepsMs: Object.freeze([30_000, 60_000, 300_000]), billingBackoffHours: 1 / 6 }),
  legacy: Object.freeze({
    cooldownStepsMs: Object.freeze([60_000, 300_000, 1_500_000, 3_600_000]),
    billingBackoffHours: 5,
  }),
});

/**
 * The resolved cooldown policy: every `auth.cooldowns.*` knob with its preset applied. A frozen, serialisable
 * value; every function of this package that needs a number reads it from here.
 */
export interface CooldownPolicy {
  /** @default 'default' */
  readonly preset: CooldownPreset;
  /**
   * Cooldown-lane window by the profile's error count inside the failure window (1st, 2nd, 3rd+ failure …);
   * the last step repeats. Non-decreasing.
   * @default [30000, 60000, 300000] (legacy: [60000, 300000, 1500000, 3600000])
   */
  readonly cooldownStepsMs: readonly number[];
  /**
   * First billing disable window, hours; doubles on each further billing failure inside the failure window.
   * @default 1/6 (10 min; legacy: 5)
   */
  readonly billingBackoffHours: number;
  /** Per-provider first billing window, hours, by normalised provider id. @default {} */
  readonly billingBackoffHoursByProvider: Readonly<Record<string, number>>;
  /** Cap of the doubling billing window, hours. @default 24 */
  readonly billingMaxHours: number;
  /** A profile's failure counts reset when it has had no failure for this long, hours. @default 24 */
  readonly failureWindowHours: number;
  /** First `auth_permanent` disable window, minutes; doubles like billing. @default 10 */
  readonly authPermanentBackoffMinutes: number;
  /** Cap of the doubling `auth_permanent` window, minutes. @default 60 */
  readonly authPermanentMaxMinutes: number;
  /** Other profiles of the same provider tried after an `overloaded` failure. @default 1 */
  readonly overloadedProfileRotations: number;
  /** Other profiles of the same provider tried after a `rate_limit` failure. @default 1 */
  readonly rateLimitedProfileRotations: number;
  /**
   * Other profiles of the same provider tried after a `timeout` that used up one of understudy's own time limits
   * (the model-failover doc: timeouts rotate). @default 1
   */
  readonly timeoutProfileRotations: number;
  /** Base of the same-profile retry backoff after a transient failure, ms. @default 250 */
  readonly overloadedBackoffMs: number;
  /** The primary candidate may be probed once the soonest expiry is this close, ms. @default 120000 */
  readonly probeNearExpiryMs: number;
  /** At most one probe per provider per this many ms (held in the store, across processes). @default 30000 */
  readonly probeThrottleMs: number;
  /** How often a legacy `auto` session override's origin is probed, ms. @default 300000 */
  readonly legacyOverrideProbeIntervalMs: number;
}

const nonNegativeInt = z.number().int().nonnegative();
const positiveMs = z.number().int().positive();
const positiveNumber = z.number().positive().finite();

const providerHoursSchema = z.record(z.string().trim().min(1, 'provider id must not be blank'), positiveNumber);

/**
 * The strict zod schema of the `auth.cooldowns` section. Unknown keys are errors. Its output is the resolved
 * {@link CooldownPolicy} (preset applied, provider ids normalised, frozen); `z.toJSONSchema(schema, { io: 'input' })`
 * describes the accepted input. Use `.prefault({})` (not `.default`) when embedding it as an optional section.
 */
export const cooldownPolicySchema = z
  .strictObject({
    preset: z
      .enum(['default', 'legacy'])
      .default('default')
      .describe('Which numbers the knobs below default to: the model-failover doc ("default") or the older documents ("legacy").'),
    cooldownStepsMs: z
      .array(positiveMs)
      .min(1)
      .refine((steps) => steps.every((step, index) => index === 0 || step >= (steps[index - 1] ?? 0)), {
        message: 'steps must not decrease: list them shortest first, e.g. [30000, 60000, 300000]',
      })
      .optional()
      .describe('Cooldown window (ms) by error count; last step repeats. Default [30000, 60000, 300000]; legacy [60000, 300000, 1500000, 3600000].'),
    billingBackoffHours: positiveNumber
      .optional()
      .describe('First billing disable window in hours (doubles per billing failure). Default 1/6 (10 min); legacy 5.'),
    billingBackoffHoursByProvider: providerHoursSchema
      .optional()
      .describe('First billing disable window in hours, by provider id.'),
    billingMaxHours: positiveNumber.default(24).describe('Cap of the doubling billing disable window, hours.'),
    failureWindowHours: positiveNumber.default(24).describe('Failure counts reset after this many hours without a failure.'),
    authPermanentBackoffMinutes: positiveNumber
      .default(10)
      .describe('First auth_permanent disable window in minutes (doubles per failure).'),
    authPermanentMaxMinutes: positiveNumber.default(60).describe('Cap of the auth_permanent disable window, minutes.'),
    overloadedProfileRotations: nonNegativeInt
      .default(1)
      .describe('Other same-provider auth profiles tried after an overloaded failure.'),
    rateLimitedProfileRotations: nonNegativeInt
      .default(1)
      .describe('Other same-provider auth profiles tried after a rate_limit failure.'),
    timeoutProfileRotations: nonNegativeInt
      .default(1)
      .describe("Other same-provider auth profiles tried after a timeout that used up one of understudy's own time limits."),
    overloadedBackoffMs: nonNegativeInt.default(DEFAULT_RETRY_BASE_DELAY_MS).describe('Base of the same-profile retry backoff, ms.'),
    probeNearExpiryMs: nonNegativeInt
      .default(120_000)
      .describe('The primary may be probed once the soonest cooldown expiry is this close, ms.'),
    probeThrottleMs: nonNegativeInt.default(30_000).describe('At most one probe per provider per this many ms.'),
    legacyOverrideProbeIntervalMs: positiveMs
      .default(300_000)
      .describe('How often the origin of a legacy auto session override is probed, ms.'),
  })
  .superRefine((section, context) => {
    const seen = new Map<string, string>();
    for (const key of Object.keys(section.billingBackoffHoursByProvider ?? {})) {
      const normalized = normalizeProviderId(key);
      const earlier = seen.get(normalized);
      if (earlier !== undefined) {
        context.addIssue({
          code: 'custom',
          path: ['billingBackoffHoursByProvider', key],
          message: `"${key}" and "${earlier}" are the same provider (${normalized}): keep one of them`,
        });
      }
      seen.set(normalized, key);
    }
  })
  .transform((section): CooldownPolicy => {
    const preset = COOLDOWN_PRESETS[section.preset];
    const byProvider: Record<string, number> = {};
    for (const [key, hours] of Object.entries(section.billingBackoffHoursByProvider ?? {})) {
      byProvider[normalizeProviderId(key)] = hours;
    }
    return Object.freeze({
      preset: section.preset,
      cooldownStepsMs: Object.freeze([...(section.cooldownStepsMs ?? preset.cooldownStepsMs)]),
      billingBackoffHours: section.billingBackoffHours ?? preset.billingBackoffHours,
      billingBackoffHoursByProvider: Object.freeze(byProvider),
      billingMaxHours: section.billingMaxHours,
      failureWindowHours: section.failureWindowHours,
      authPermanentBackoffMinutes: section.authPermanentBackoffMinutes,
      authPermanentMaxMinutes: section.authPermanentMaxMinutes,
      overloadedProfileRotations: section.overloadedProfileRotations,
      rateLimitedProfileRotations: section.rateLimitedProfileRotations,
      timeoutProfileRotations: section.timeoutProfileRotations,
      overloadedBackoffMs: section.overloadedBackoffMs,
      probeNearExpiryMs: section.probeNearExpiryMs,
      probeThrottleMs: section.probeThrottleMs,
      legacyOverrideProbeIntervalMs: section.legacyOverrideProbeIntervalMs,
    });
  });

/** What an `auth.cooldowns` section may contain (the schema's input type). */
export type CooldownPolicyInput = z.input<typeof cooldownPolicySchema>;

/**
 * Parses an `auth.cooldowns` section and applies its preset.
 *
 * @param input - the raw section (`undefined` → all defaults).
 * @returns the frozen, resolved policy.
 * @throws {CooldownPolicyError} when a knob is unknown, of the wrong type or out of range; the message names
 *   each `auth.cooldowns.<knob>`.
 * @example resolveCooldownPolicy({ preset: 'legacy' }).cooldownStepsMs // [60000, 300000, 1500000, 3600000]
 */
export function resolveCooldownPolicy(input: unknown = {}): CooldownPolicy {
  const parsed = cooldownPolicySchema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  throw new CooldownPolicyError(
    parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
    { cause: parsed.error },
  );
}

/** The policy with every default (the model-failover doc numbers). */
export const DEFAULT_COOLDOWN_POLICY: CooldownPolicy = resolveCooldownPolicy({});

const MS_PER_MINUTE = 60_000;
const MS_PER_HOUR = 3_600_000;

/** Failure window of the policy, ms (`failureWindowHours` × 1 h). */
export function failureWindowMs(policy: CooldownPolicy): number {
  return Math.round(policy.failureWindowHours * MS_PER_HOUR);
}

/**
 * The cooldown-lane window for the n-th failure inside the failure window (docs/policy.md#windows): 30 s, 60 s, then
 * 300 s with the default preset. Counts below 1 are treated as 1.
 *
 * @example cooldownWindowMs(DEFAULT_COOLDOWN_POLICY, 2) // 60000
 */
export function cooldownWindowMs(policy: CooldownPolicy, errorCount: number): number {
  const steps = policy.cooldownStepsMs;
  const index = Math.min(Math.max(Math.floor(errorCount), 1), steps.length) - 1;
  return steps[index] ?? steps[steps.length - 1] ?? 0;
}

/** Which disable-lane reason a window is for. */
export type DisableReason = 'billing' | 'auth_permanent';

/**
 * The disable-lane window for the n-th failure of `reason` inside the failure window (docs/policy.md#windows): the first
 * window (billing: `billingBackoffHoursByProvider[provider]` else `billingBackoffHours`; auth_permanent:
 * `authPermanentBackoffMinutes`) doubling per further failure, capped (`billingMaxHours` /
 * `authPermanentMaxMinutes`). An inline config key (`inline: true`) always gets the first window, no doubling.
 *
 * @example disableWindowMs(DEFAULT_COOLDOWN_POLICY, { reason: 'billing', failureCount: 2 }) // 1200000
 */
export function disableWindowMs(
  policy: CooldownPolicy,
  options: {
    readonly reason: DisableReason;
    readonly failureCount: number;
    readonly provider?: string | undefined;
    readonly inline?: boolean | undefined;
  },
): number {
  const billing = options.reason === 'billing';
  const firstMs = billing
    ? ((options.provider === undefined ? undefined : policy.billingBackoffHoursByProvider[normalizeProviderId(options.provider)]) ??
        policy.billingBackoffHours) * MS_PER_HOUR
    : policy.authPermanentBackoffMinutes * MS_PER_MINUTE;
  const capMs = billing ? policy.billingMaxHours * MS_PER_HOUR : policy.authPermanentMaxMinutes * MS_PER_MINUTE;
  const doublings = options.inline === true ? 0 : Math.min(Math.max(Math.floor(options.failureCount), 1) - 1, 60);
  return Math.round(Math.min(firstMs * 2 ** doublings, capMs));
}
