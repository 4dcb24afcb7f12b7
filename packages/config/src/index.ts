/**
 * `@understudy/config`: the zod schema of the understudy config file (docs/configuration.md, docs/policy.md), its defaults, errors that
 * name the path and the fix, and its JSON Schema. Pure: the caller reads the file and the environment.
 */
export { configSchema } from './config-schema.js';
export type {
  AgentsConfig,
  AuthConfig,
  GatewayConfig,
  ModelsConfig,
  ProviderConfig,
  RetryConfig,
  SessionConfig,
  StateConfig,
  TelemetryConfig,
  TimeoutsConfig,
  UnderstudyConfig,
  UnderstudyConfigInput,
} from './config-schema.js';
export { configIssuesFromZod, configJsonSchema, formatConfigPath, parseConfig, safeParseConfig } from './parse-config.js';
export type { ConfigParseResult } from './parse-config.js';
export { expandEnvPlaceholders } from './env-placeholders.js';
export { isLoopbackHost } from './loopback.js';
export { configuredOrder, inlineKeysOf, isConfiguredProvider, providerSettings, turnDeadlineAtMs } from './config-lookup.js';
export type { ConfiguredInlineKey } from './config-lookup.js';
export {
  BUILT_IN_MODEL_METADATA,
  MODEL_INPUT_KINDS,
  lookupModelMetadata,
  modelConfigEntrySchema,
  modelMetadataFieldsSchema,
  providerModelsSchema,
} from './model-metadata.js';
export type {
  ModelConfigEntry,
  ModelInputKind,
  ModelMetadata,
  ModelMetadataConfig,
  ModelMetadataFields,
  ModelMetadataSource,
} from './model-metadata.js';
export { ConfigError } from './errors.js';
export type { ConfigIssue } from './errors.js';
export { authConfigSchema } from './auth-schema.js';
export {
  agentsConfigSchema,
} from './agents-schema.js';
export {
  gatewayConfigSchema,
  modelsConfigSchema,
  retryConfigSchema,
  sessionConfigSchema,
  stateConfigSchema,
} from './runtime-schema.js';
export { otlpConfigSchema, telemetryConfigSchema } from './telemetry-schema.js';
export { providerOAuthConfigSchema, resolveProviderOAuth } from './oauth-schema.js';
export type { ProviderOAuthConfig, ResolvedProviderOAuth } from './oauth-schema.js';
export { cooldownPolicySchema, resolveCooldownPolicy } from '@understudy/cooldown-scheduler';
export type { CooldownPolicy, CooldownPolicyInput } from '@understudy/cooldown-scheduler';
