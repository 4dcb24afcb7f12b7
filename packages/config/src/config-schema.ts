/**
 * The whole config file (docs/configuration.md, docs/policy.md): strict at every level (an unknown key is an error naming its path),
 * with defaults filled in.
 */
import * as z from 'zod';
import { agentsConfigSchema } from './agents-schema.js';
import { authConfigSchema } from './auth-schema.js';
import {
  gatewayConfigSchema,
  modelsConfigSchema,
  retryConfigSchema,
  sessionConfigSchema,
  stateConfigSchema,
} from './runtime-schema.js';
import { telemetryConfigSchema } from './telemetry-schema.js';

/** The zod schema of the config file. Its output is {@link UnderstudyConfig}. */
export const configSchema = z
  .strictObject({
    $schema: z.string().optional().describe('Editor hint: the JSON Schema of this file (`understudy config schema`).'),
    auth: authConfigSchema.prefault({}),
    agents: agentsConfigSchema.prefault({}),
    retry: retryConfigSchema.prefault({}).describe('Retry knobs.'),
    models: modelsConfigSchema.prefault({}).describe('Providers and timeouts.'),
    gateway: gatewayConfigSchema.prefault({}).describe('The HTTP gateway.'),
    state: stateConfigSchema.prefault({}).describe('Where state lives.'),
    session: sessionConfigSchema.prefault({}).describe('Session behaviour.'),
    telemetry: telemetryConfigSchema.prefault({}).describe('OpenTelemetry trace export (opt-in).'),
  })
  .describe('understudy config file (JSON5).');

/** The parsed config: every section present, defaults filled, provider and profile ids normalised. */
export type UnderstudyConfig = z.output<typeof configSchema>;
/** What a config file may contain. */
export type UnderstudyConfigInput = z.input<typeof configSchema>;
/** `config.auth`. */
export type AuthConfig = UnderstudyConfig['auth'];
/** `config.agents` (fits `@understudy/candidate-chain`'s `AgentsModelConfig`). */
export type AgentsConfig = UnderstudyConfig['agents'];
/** `config.retry`. */
export type RetryConfig = UnderstudyConfig['retry'];
/** `config.models`. */
export type ModelsConfig = UnderstudyConfig['models'];
/** `config.models.providers.<id>`. */
export type ProviderConfig = ModelsConfig['providers'][string];
/** `config.models.timeouts` (resolved defaults). */
export type TimeoutsConfig = ModelsConfig['timeouts'];
/** `config.gateway`. */
export type GatewayConfig = UnderstudyConfig['gateway'];
/** `config.state`. */
export type StateConfig = UnderstudyConfig['state'];
/** `config.session`. */
export type SessionConfig = UnderstudyConfig['session'];
/** `config.telemetry` (resolved defaults: `otlp.endpoint` absent, `serviceName` `understudy-gateway`). */
export type TelemetryConfig = UnderstudyConfig['telemetry'];
