/**
 * `auth.*`: auth profile metadata (no secrets), per-provider order, and the cooldown knobs (docs/configuration.md, docs/policy.md;
 * the model-failover doc "Auth storage", "Rotation order").
 */
import { normalizeProfileId } from '@understudy/contracts';
import { cooldownPolicySchema } from '@understudy/cooldown-scheduler';
import * as z from 'zod';
import { normalizedKeyRecord, profileIdSchema, profileIdTextSchema, providerIdSchema, providerRecord } from './schema-parts.js';

/** `auth.profiles.<id>`: routing metadata of a profile. Secrets never live in config. */
export const authProfileConfigSchema = z
  .strictObject({
    provider: providerIdSchema.describe('Provider id of the profile, e.g. "openai".'),
    mode: z
      .enum(['api_key', 'oauth', 'token'])
      .describe('Credential type the profile must have; a stored credential of another type makes it ineligible.'),
    email: z.string().trim().min(1).optional().describe('Account email, for display.'),
  })
  .describe('Auth profile metadata (routing only; secrets live in the agent state).');

const profileKeys = normalizedKeyRecord(authProfileConfigSchema, normalizeProfileId, 'auth profile', profileIdTextSchema);

/** The `auth` section. */
export const authConfigSchema = z
  .strictObject({
    profiles: profileKeys.default({}).describe('Auth profiles by id ("provider:name"): metadata and routing only.'),
    order: providerRecord(z.array(profileIdSchema))
      .default({})
      .describe('Auth profile order by provider id; listed profiles only, tried in this order.'),
    cooldowns: cooldownPolicySchema.prefault({}).describe('Cooldown and disable windows, rotation and probe knobs.'),
  })
  .describe('Auth profiles, order and cooldowns.');
