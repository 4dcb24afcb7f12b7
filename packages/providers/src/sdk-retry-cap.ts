/**
 * The SDK retry-after cap (the model-failover doc "SDK retry-after caps", docs/configuration.md#environment-variables and docs/policy.md#retries-probes-and-rotation);
 * its variable is parsed once by the app (`parseRuntimeEnv` of `@understudy/runtime`). The clients never sleep on a
 * Retry-After themselves: a retryable response comes back to the runner as a failure with its headers, and one
 * whose Retry-After is longer than the cap is not waited out: the runner compares it (in ms) and fails over at once
 * instead of waiting. Everything here is pure.
 */
import { UnderstudyError } from '@understudy/contracts';

/** Default cap on an SDK-internal Retry-After wait, in seconds. */
export const DEFAULT_SDK_RETRY_MAX_WAIT_SECONDS = 60;

/** The environment variables that set the cap, in order of precedence. */
export const SDK_RETRY_MAX_WAIT_ENV_NAMES = Object.freeze([
  'UNDERSTUDY_SDK_RETRY_MAX_WAIT_SECONDS',
  'OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS',
] as const);

/** An unreadable cap value; the message names the variable and the accepted forms. */
export class SdkRetryCapError extends UnderstudyError<'invalid_sdk_retry_cap'> {
  /** The variable or option that held the bad value. */
  readonly field: string;

  constructor(field: string, value: string) {
    super('invalid_sdk_retry_cap', `${field}: expected a number of seconds (e.g. 60), or 0 / off to disable the cap; got ${JSON.stringify(value)}`);
    this.field = field;
  }
}

/**
 * Reads the cap from an environment value.
 *
 * @param value the raw value; absent or blank means the default.
 * @param field the variable's name, for the error message.
 * @returns the cap in seconds, or `null` when the cap is disabled (`0` or `off`).
 * @default 60 seconds when `value` is absent or blank.
 * @throws {SdkRetryCapError} when the value is neither a non-negative number nor `off`.
 * @example parseSdkRetryMaxWaitSeconds(undefined) // 60
 * @example parseSdkRetryMaxWaitSeconds('off') // null
 * @example parseSdkRetryMaxWaitSeconds('15') // 15
 */
export function parseSdkRetryMaxWaitSeconds(
  value: string | undefined,
  field: string = SDK_RETRY_MAX_WAIT_ENV_NAMES[0],
): number | null {
  const text = value?.trim() ?? '';
  if (text === '') return DEFAULT_SDK_RETRY_MAX_WAIT_SECONDS;
  if (text.toLowerCase() === 'off') return null;
  if (!/^\d+(\.\d+)?$/.test(text)) throw new SdkRetryCapError(field, value ?? '');
  const seconds = Number(text);
  return seconds === 0 ? null : seconds;
}

/**
 * Reads the cap from an environment record: `UNDERSTUDY_SDK_RETRY_MAX_WAIT_SECONDS`, else the
 * `OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS` alias, else the default.
 *
 * @returns the cap in seconds, or `null` when disabled.
 * @throws {SdkRetryCapError} naming the variable when its value is unreadable.
 * @example resolveSdkRetryMaxWaitSeconds({ OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS: '30' }) // 30
 */
export function resolveSdkRetryMaxWaitSeconds(env: Readonly<Record<string, string | undefined>>): number | null {
  for (const name of SDK_RETRY_MAX_WAIT_ENV_NAMES) {
    const value = env[name];
    if (value !== undefined && value.trim() !== '') return parseSdkRetryMaxWaitSeconds(value, name);
  }
  return DEFAULT_SDK_RETRY_MAX_WAIT_SECONDS;
}
