/**
 * The environment, read once (docs/configuration.md#environment-variables): one zod schema turns every
 * `UNDERSTUDY_*` variable, and the `OPENCLAW_*` aliases the model-failover doc names, into typed settings. The
 * apps call {@link parseRuntimeEnv} at start-up and pass the values down; no library reads the environment.
 *
 * Units: the SDK retry cap is named in seconds by its variable and converted here, once, to ms.
 */
import * as z from 'zod';
import type { UnderstudyConfig } from '@understudy/config';
import { DEFAULT_SDK_RETRY_MAX_WAIT_MS, UnderstudyError } from '@understudy/contracts';

/** An environment as `process.env` holds it. */
export type EnvironmentRecord = Readonly<Record<string, string | undefined>>;

/** The typed settings of the environment. Absent values mean "not set": the config or the default applies. */
export interface RuntimeEnv {
  /** `UNDERSTUDY_CONFIG`: the config file, when set. */
  readonly configPath: string | undefined;
  /** `UNDERSTUDY_STATE_DIR`: the state root, when set (it wins over `state.dir`). */
  readonly stateDir: string | undefined;
  /**
   * `UNDERSTUDY_SDK_RETRY_MAX_WAIT_SECONDS` (alias `OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS`) in ms: the longest
   * Retry-After waited out before a same-profile retry; `null` when the cap is off (`0` or `off`).
   * @default 60000
   */
  readonly sdkRetryMaxWaitMs: number | null;
  /**
   * `UNDERSTUDY_FALLBACK_SKIP_TTL_MS` (alias `OPENCLAW_FALLBACK_SKIP_TTL_MS`): the auth failure skip cache TTL,
   * ms, as given (the cache clamps it; `0` turns it off); `undefined` when not set.
   */
  readonly fallbackSkipTtlMs: number | undefined;
  /** `UNDERSTUDY_GATEWAY_ENTRY`: the gateway entry point `understudy gateway` starts, when set. */
  readonly gatewayEntry: string | undefined;
  /**
   * Where OTLP/HTTP traces go, from the standard OpenTelemetry variables (docs/operations.md#observability):
   * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as given (the full URL of the traces resource), else
   * `OTEL_EXPORTER_OTLP_ENDPOINT` with `/v1/traces` appended; `undefined` when neither is set (`telemetry.otlp.endpoint`
   * in the config wins over both).
   */
  readonly otlpTracesUrl: string | undefined;
}

/** A variable holds a value its grammar refuses; the message names the variable and what to write. */
export class RuntimeEnvError extends UnderstudyError<'invalid_environment'> {
  /** The variable at fault, e.g. `OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS`. */
  readonly variable: string;

  constructor(variable: string, message: string) {
    super('invalid_environment', `${variable}: ${message}`);
    this.variable = variable;
  }
}

/** A set variable: blank counts as unset. */
const text = z.preprocess((value) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined), z.string().optional());

/** A non-negative decimal number written plainly (`60`, `2.5`; no sign, exponent or unit). */
const PLAIN_NUMBER = /^\d+(\.\d+)?$/;

const capSeconds = text.pipe(
  z
    .string()
    .refine((value) => value.toLowerCase() === 'off' || PLAIN_NUMBER.test(value), {
      error: 'expected a number of seconds (e.g. 60 or 2.5), or 0 / off to disable the cap',
    })
    .transform((value): number | null => (value.toLowerCase() === 'off' || Number(value) === 0 ? null : Math.round(Number(value) * 1000)))
    .optional(),
);

const ttlMs = text.pipe(
  z
    .string()
    .regex(PLAIN_NUMBER, { error: 'expected milliseconds (e.g. 60000), or 0 to disable the cache' })
    .transform(Number)
    .optional(),
);

/** An http(s) URL, as the OpenTelemetry variables take it. */
const httpUrl = text.pipe(z.url({ protocol: /^https?$/, error: 'expected an http(s) URL, e.g. http://127.0.0.1:4318' }).optional());

/**
 * The OTLP/HTTP traces URL of a base endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`, `telemetry.otlp.endpoint`): the
 * OpenTelemetry exporter spec appends `v1/traces` to the base.
 *
 * @example otlpTracesUrlOf('http://127.0.0.1:4318/') // 'http://127.0.0.1:4318/v1/traces'
 */
export function otlpTracesUrlOf(base: string): string {
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

/** Each alias of the model-failover doc, by the `UNDERSTUDY_*` variable that wins over it. */
const ALIASES: Readonly<Record<string, string>> = Object.freeze({
  UNDERSTUDY_SDK_RETRY_MAX_WAIT_SECONDS: 'OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS',
  UNDERSTUDY_FALLBACK_SKIP_TTL_MS: 'OPENCLAW_FALLBACK_SKIP_TTL_MS',
});

/** The environment without the aliases their `UNDERSTUDY_*` variable shadows (a shadowed alias is never read). */
function withoutShadowedAliases(env: unknown): unknown {
  if (typeof env !== 'object' || env === null) return env;
  const record = { ...(env as Record<string, unknown>) };
  for (const [name, alias] of Object.entries(ALIASES)) {
    const value = record[name];
    if (typeof value === 'string' && value.trim() !== '') delete record[alias];
  }
  return record;
}

/** The one schema of the environment: each variable by its own name, aliases beside it. */
const envSchema = z.preprocess(withoutShadowedAliases, z.object({
  UNDERSTUDY_CONFIG: text,
  UNDERSTUDY_STATE_DIR: text,
  UNDERSTUDY_SDK_RETRY_MAX_WAIT_SECONDS: capSeconds,
  OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS: capSeconds,
  UNDERSTUDY_FALLBACK_SKIP_TTL_MS: ttlMs,
  OPENCLAW_FALLBACK_SKIP_TTL_MS: ttlMs,
  UNDERSTUDY_GATEWAY_ENTRY: text,
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrl,
}));

/**
 * Parses the environment into {@link RuntimeEnv}. `UNDERSTUDY_*` wins over its `OPENCLAW_*` alias; a blank value
 * is unset. Other variables are ignored.
 *
 * @throws {RuntimeEnvError} `invalid_environment` naming the first variable whose value is refused.
 * @example parseRuntimeEnv({ OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS: '2.5' }).sdkRetryMaxWaitMs // 2500
 * @example parseRuntimeEnv({}).sdkRetryMaxWaitMs // 60000
 */
export function parseRuntimeEnv(env: EnvironmentRecord): RuntimeEnv {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue?.path[0] ?? 'environment');
    const given = env[variable];
    throw new RuntimeEnvError(variable, `${issue?.message ?? 'invalid value'}; got ${JSON.stringify(given ?? '')}`);
  }
  const values = parsed.data;
  const cap = values.UNDERSTUDY_SDK_RETRY_MAX_WAIT_SECONDS !== undefined ? values.UNDERSTUDY_SDK_RETRY_MAX_WAIT_SECONDS : values.OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS;
  return {
    configPath: values.UNDERSTUDY_CONFIG,
    stateDir: values.UNDERSTUDY_STATE_DIR,
    sdkRetryMaxWaitMs: cap === undefined ? DEFAULT_SDK_RETRY_MAX_WAIT_MS : cap,
    fallbackSkipTtlMs: values.UNDERSTUDY_FALLBACK_SKIP_TTL_MS ?? values.OPENCLAW_FALLBACK_SKIP_TTL_MS,
    gatewayEntry: values.UNDERSTUDY_GATEWAY_ENTRY,
    otlpTracesUrl:
      values.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
      (values.OTEL_EXPORTER_OTLP_ENDPOINT === undefined ? undefined : otlpTracesUrlOf(values.OTEL_EXPORTER_OTLP_ENDPOINT)),
  };
}

/**
 * The auth failure skip cache TTL a process runs with, ms, before clamping (docs/policy.md#retries-probes-and-rotation
 * "Auth failure skip cache"): `UNDERSTUDY_FALLBACK_SKIP_TTL_MS` (or its alias) when set, else
 * `session.fallbackSkipTtlMs`, else `0` (off). The cache clamps it to 1 s – 10 min (`AuthFailureSkipCache` of the
 * fallback runner); the gateway and `simulate` both build their cache from this.
 *
 * @example fallbackSkipTtlMsOf(parseRuntimeEnv({ UNDERSTUDY_FALLBACK_SKIP_TTL_MS: '60000' }), config) // 60000
 * @example fallbackSkipTtlMsOf(parseRuntimeEnv({}), config) // config.session.fallbackSkipTtlMs ?? 0
 */
export function fallbackSkipTtlMsOf(settings: Pick<RuntimeEnv, 'fallbackSkipTtlMs'>, config: Pick<UnderstudyConfig, 'session'>): number {
  return settings.fallbackSkipTtlMs ?? config.session.fallbackSkipTtlMs ?? 0;
}
