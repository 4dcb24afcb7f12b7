/**
 * `retry.*`, `models.*`, `gateway.*`, `state.*` and `session.*` (docs/configuration.md, docs/contracts.md#gateway, docs/policy.md#retries-probes-and-rotation).
 */
import * as z from 'zod';
import { PROVIDER_APIS } from '@understudy/contracts';
import { DEFAULT_RETRY_BASE_DELAY_MS, DEFAULT_RETRY_MAX_DELAY_MS } from '@understudy/cooldown-scheduler';
import { providerModelsSchema } from './model-metadata.js';
import { providerOAuthConfigSchema } from './oauth-schema.js';
import { msSchema, positiveMsSchema, providerRecord } from './schema-parts.js';

/** `retry.provider`: same-profile transient retries (docs/policy.md#retries-probes-and-rotation). */
export const providerRetryConfigSchema = z.strictObject({
  maxRetries: z.number().int().min(0).max(20).default(3).describe('Same-profile retries after a transient failure.'),
  baseDelayMs: msSchema.default(DEFAULT_RETRY_BASE_DELAY_MS).describe('Backoff base, ms (full jitter, doubling per retry).'),
  maxDelayMs: msSchema.default(DEFAULT_RETRY_MAX_DELAY_MS).describe('Backoff cap, ms.'),
  windowMs: positiveMsSchema.default(90_000).describe('All retries of one candidate happen inside this window, ms.'),
  maxRetryAfterWaitMs: msSchema
    .default(5_000)
    .describe(
      'A rate limit whose Retry-After is at most this long is waited out on the same profile (after rotation found no other eligible profile) before falling back, ms (docs/policy.md#retries-probes-and-rotation). 0: never wait.',
    ),
});

/** The `retry` section. */
export const retryConfigSchema = z.strictObject({
  provider: providerRetryConfigSchema.prefault({}).describe('Provider-call retries.'),
});

const timeoutFields = {
  connectMs: positiveMsSchema.describe('TCP/TLS connect timeout, ms.'),
  headersMs: positiveMsSchema.describe(
    'Time to the response headers of a streamed answer, ms (a non-streamed answer sends its headers with the whole answer: requestMs bounds it).',
  ),
  firstTokenMs: positiveMsSchema.describe('Time to the first streamed token (TTFT), ms.'),
  stallMs: positiveMsSchema.describe('Longest silence inside a stream, ms.'),
  requestMs: positiveMsSchema.describe('Whole provider request, ms.'),
};

/**
 * `models.timeouts`: defaults for every provider (docs/configuration.md#timeouts): a silent streamed answer
 * fails over after at most 10 s (no headers) or 15 s (headers, no token); a long non-streamed answer is bounded
 * only by `requestMs`.
 */
export const timeoutsConfigSchema = z.strictObject({
  connectMs: timeoutFields.connectMs.default(10_000),
  headersMs: timeoutFields.headersMs.default(10_000),
  firstTokenMs: timeoutFields.firstTokenMs.default(15_000),
  stallMs: timeoutFields.stallMs.default(30_000),
  requestMs: timeoutFields.requestMs.default(300_000),
});

/** `models.providers.<id>.timeouts`: per-provider overrides of `models.timeouts` (only the keys given). */
export const providerTimeoutsConfigSchema = z.strictObject({
  connectMs: timeoutFields.connectMs.optional(),
  headersMs: timeoutFields.headersMs.optional(),
  firstTokenMs: timeoutFields.firstTokenMs.optional(),
  stallMs: timeoutFields.stallMs.optional(),
  requestMs: timeoutFields.requestMs.optional(),
});

/** `models.providers.<id>`: how to reach one provider. */
export const providerConfigSchema = z.strictObject({
  baseUrl: z
    .url({ protocol: /^https?$/, error: 'baseUrl must be an http(s) URL, e.g. "https://api.openai.com/v1"' })
    .describe('Base URL of the provider API.'),
  api: z.enum(PROVIDER_APIS).describe('Wire format of the provider.'),
  apiKey: z
    .string()
    .optional()
    .describe('Inline API key (profile "<provider>:inline"); "${ENV_VAR}" placeholders are expanded. Prefer stored profiles.'),
  headers: z.record(z.string(), z.string()).optional().describe('Extra request headers.'),
  models: providerModelsSchema
    .optional()
    .describe(
      'Models this provider serves (listed by GET /v1/models): ids, or { id, contextWindow?, maxTokens?, reasoning?, input?, prefill?, maxTemperature? } objects that override the built-in metadata (docs/configuration.md#model-metadata).',
    ),
  timeouts: providerTimeoutsConfigSchema.optional().describe('Overrides of models.timeouts for this provider.'),
  oauth: providerOAuthConfigSchema.optional(),
  allowFormatRetry: z
    .boolean()
    .default(false)
    .describe('Retry a request this provider refused for its tool call ids once, with sanitised ids (docs/policy.md#what-each-reason-does).'),
});

/** The `models` section. */
export const modelsConfigSchema = z.strictObject({
  providers: providerRecord(providerConfigSchema).default({}).describe('Providers by id (normalised).'),
  timeouts: timeoutsConfigSchema.prefault({}).describe('Default timeouts for every provider.'),
});

/** Log levels of the gateway (pino's). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The `gateway` section (docs/contracts.md#gateway). */
export const gatewayConfigSchema = z.strictObject({
  host: z.string().trim().min(1).default('127.0.0.1').describe('Bind address; anything but loopback requires gateway.auth.token.'),
  port: z.number().int().min(0).max(65_535).default(4317).describe('Bind port (0: any free port).'),
  auth: z
    .strictObject({
      token: z.string().min(1).optional().describe('Bearer token every request must carry (Authorization or x-api-key).'),
      adminToken: z.string().min(1).optional().describe('Token of the /admin/ API; the admin API is off without it.'),
    })
    .prefault({}),
  maxRequestBytes: z.number().int().positive().default(1_048_576).describe('Largest accepted request body, bytes.'),
  turnTimeoutMs: positiveMsSchema.default(600_000).describe('Deadline of one turn across all attempts, ms.'),
  shutdownGraceMs: msSchema.default(10_000).describe('On SIGTERM, in-flight turns get this long to finish, ms.'),
  logLevel: z.enum(LOG_LEVELS).default('info').describe('Log level (logs go to stderr).'),
  streams: z
    .strictObject({
      continueAfterOutput: z
        .boolean()
        .default(true)
        .describe(
          'When a stream breaks after output reached the caller, continue the answer on the next candidate that accepts an assistant prefill (docs/policy.md#what-each-reason-does). false: end the stream with the error.',
        ),
    })
    .prefault({})
    .describe('Streaming behaviour.'),
});

/** The `state` section (docs/configuration.md). */
export const stateConfigSchema = z.strictObject({
  dir: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe('State root (default ~/.understudy; UNDERSTUDY_STATE_DIR overrides it).'),
  postgres: z
    .strictObject({
      url: z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'write a PostgreSQL URL: "postgres://user@host:5432/db"')
        .optional()
        .describe('Shared state for several gateway replicas (UNDERSTUDY_POSTGRES_URL overrides it).'),
      schema: z
        .string()
        .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'write a schema name of lower-case letters, digits and _, e.g. "understudy"')
        .optional()
        .describe('Schema holding the shared tables (default understudy).'),
      poolSize: z.number().int().positive().max(100).optional().describe('Pooled connections per gateway process (default 10).'),
    })
    .optional(),
  secretKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'name an environment variable, e.g. "UNDERSTUDY_SECRET_KEY"')
    .optional()
    .describe('Environment variable holding the key that encrypts credentials stored in PostgreSQL (default UNDERSTUDY_SECRET_KEY).'),
});

/** The `session` section. */
export const sessionConfigSchema = z.strictObject({
  fallbackSkipTtlMs: msSchema
    .optional()
    .describe(
      'Auth failure skip cache TTL, ms (0 or unset: off; clamped to 1 s–10 min). UNDERSTUDY_FALLBACK_SKIP_TTL_MS overrides it.',
    ),
});
