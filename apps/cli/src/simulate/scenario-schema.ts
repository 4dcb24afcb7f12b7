/**
 * The scenario file of `understudy simulate` (docs/contracts.md#simulate), as a zod schema. Known fields are checked strictly
 * (types, ranges, result shapes) so a bad field is reported with its path; unknown keys are ignored so a
 * scenario can carry its own notes or expectations. `config` is checked by `@understudy/config` afterwards.
 */
import { assertAgentId } from '@understudy/auth-profile-store';
import { FAILOVER_REASONS, parseModelRef, parseProfileId, splitModelAndProfile } from '@understudy/contracts';
import * as z from 'zod';

const epochMs = z.number().int().nonnegative();
const durationMs = z.number().int().nonnegative();
const reason = z.enum(FAILOVER_REASONS);
const nonBlank = z.string().trim().min(1, 'must not be blank');
const profileId = nonBlank.refine((id) => parseProfileId(id) !== undefined, {
  message: 'an auth profile id is "provider:name", e.g. "openai:a"',
});

/** The store's agent-id rule (the id becomes a folder name). */
function isAgentId(id: string): boolean {
  try {
    assertAgentId(id);
    return true;
  } catch {
    return false;
  }
}

const agentId = nonBlank.refine(isAgentId, { message: 'an agent id is 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit, e.g. "main"' });

/** `{ "ok": true, "latencyMs"? }` */
const okResult = z.looseObject({ ok: z.literal(true, 'write "ok": true (a failure is { "status" } or { "error" })'), latencyMs: durationMs.optional() });

/** A user's `/model` during the call: `"provider/model"` or `"provider/model@provider:name"`. */
const liveSwitchRef = nonBlank.refine((text) => parseModelRef(splitModelAndProfile(text).model) !== undefined, 'write "provider/model" or "provider/model@provider:name"');

/** `{ "status", "headers"?, "body"?, "afterOutput"?, "latencyMs"?, "liveSwitch"? }` */
const httpResult = z.looseObject({
  status: z.number().int().min(100).max(599),
  headers: z.record(z.string(), z.union([z.string(), z.number()]).transform(String)).optional(),
  body: z
    .unknown()
    .transform((body) => (body === undefined || typeof body === 'string' ? body : JSON.stringify(body)))
    .optional(),
  afterOutput: z.boolean().optional(),
  latencyMs: durationMs.optional(),
  liveSwitch: liveSwitchRef.optional(),
});

/** `{ "error": "ECONNRESET" | "ETIMEDOUT" | "abort" | message, "afterOutput"?, "latencyMs"? }` */
const transportResult = z.looseObject({
  error: nonBlank,
  afterOutput: z.boolean().optional(),
  latencyMs: durationMs.optional(),
  liveSwitch: liveSwitchRef.optional(),
});

const RESULT_HINT = 'a result is { "ok": true }, an HTTP failure { "status", "headers"?, "body"? } or a transport failure { "error": "ECONNRESET" | "ETIMEDOUT" | "abort" | message }';

/** One scripted provider result, normalised. */
export type ScenarioResult =
  | { readonly kind: 'ok'; readonly latencyMs: number }
  | {
      readonly kind: 'http';
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly body: string | undefined;
      readonly afterOutput: boolean;
      readonly latencyMs: number;
      readonly liveSwitch?: string | undefined;
    }
  | {
      readonly kind: 'transport';
      readonly error: string;
      readonly afterOutput: boolean;
      readonly latencyMs: number;
      readonly liveSwitch?: string | undefined;
    };

type Normalised = { readonly data: ScenarioResult } | { readonly issues: readonly z.core.$ZodIssue[] };

function normaliseResult(key: 'ok' | 'status' | 'error', value: object): Normalised {
  switch (key) {
    case 'ok': {
      const parsed = okResult.safeParse(value, { reportInput: true });
      return parsed.success ? { data: { kind: 'ok', latencyMs: parsed.data.latencyMs ?? 0 } } : { issues: parsed.error.issues };
    }
    case 'status': {
      const parsed = httpResult.safeParse(value, { reportInput: true });
      if (!parsed.success) return { issues: parsed.error.issues };
      const data = parsed.data;
      return {
        data: {
          kind: 'http',
          status: data.status,
          headers: data.headers ?? {},
          body: data.body,
          afterOutput: data.afterOutput === true,
          latencyMs: data.latencyMs ?? 0,
          ...(data.liveSwitch === undefined ? {} : { liveSwitch: data.liveSwitch }),
        },
      };
    }
    case 'error': {
      const parsed = transportResult.safeParse(value, { reportInput: true });
      if (!parsed.success) return { issues: parsed.error.issues };
      const data = parsed.data;
      return {
        data: {
          kind: 'transport',
          error: data.error,
          afterOutput: data.afterOutput === true,
          latencyMs: data.latencyMs ?? 0,
          ...(data.liveSwitch === undefined ? {} : { liveSwitch: data.liveSwitch }),
        },
      };
    }
  }
}

/** One scripted provider result; the key present (`ok`, `status`, `error`) picks its shape. */
const scenarioResultSchema = z.unknown().transform((value, context): ScenarioResult => {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const fields = value as Record<string, unknown>;
    const key = fields['ok'] === true ? 'ok' : (['status', 'error', 'ok'] as const).find((name) => Object.hasOwn(value, name));
    if (key !== undefined) {
      const parsed = normaliseResult(key, value);
      if ('data' in parsed) return parsed.data;
      for (const issue of parsed.issues) context.issues.push(issue as unknown as z.core.$ZodRawIssue);
      return z.NEVER;
    }
  }
  context.issues.push({ code: 'custom', message: RESULT_HINT, input: value });
  return z.NEVER;
});

/** What an outcome applies to; absent fields match anything. `profile: null` matches keyless calls only. */
const matchSchema = z.looseObject({
  provider: nonBlank.optional(),
  model: nonBlank.optional(),
  profile: nonBlank.nullable().optional(),
});

const outcomeSchema = z.looseObject({
  match: matchSchema.prefault({}),
  results: z.array(scenarioResultSchema).default([]),
});

const requestSchema = z.looseObject({
  agent: agentId.optional(),
  agentId: agentId.optional(),
  model: nonBlank.optional(),
  source: z.enum(['default', 'agent', 'auto', 'user', 'legacy', 'cron', 'heartbeat']).optional(),
  fallbacksOverride: z.array(nonBlank).optional(),
  chatType: z.enum(['direct', 'group', 'channel']).optional(),
  sessionKey: nonBlank.optional(),
  authProfile: profileId.optional(),
  isImageRequest: z.boolean().optional(),
  image: z.boolean().optional(),
});

const turnSchema = z.looseObject({
  at: epochMs.optional(),
  request: requestSchema.prefault({}),
  outcomes: z.array(outcomeSchema).default([]),
});

/** A scenario profile: no secrets; a placeholder credential of `type` unless a field says otherwise. */
const profileSchema = z
  .looseObject({
    id: nonBlank,
    provider: nonBlank.optional(),
    type: z.enum(['api_key', 'oauth', 'token']).default('api_key'),
    key: z.string().nullable().optional(),
    access: z.string().nullable().optional(),
    refresh: z.string().nullable().optional(),
    token: z.string().nullable().optional(),
    expires: epochMs.nullable().optional(),
    email: nonBlank.optional(),
    projectId: nonBlank.optional(),
    enterpriseUrl: nonBlank.optional(),
  })
  .superRefine((profile, context) => {
    if (parseProfileId(profile.id) === undefined && profile.provider === undefined) {
      context.addIssue({ code: 'custom', path: ['id'], message: 'an auth profile id is "provider:name", e.g. "openai:a" (or give "provider" with a bare name)' });
    }
  });

const usageStatsSchema = z.looseObject({
  lastUsed: epochMs.optional(),
  cooldownUntil: epochMs.optional(),
  cooldownModel: nonBlank.optional(),
  cooldownReason: reason.optional(),
  cooldownNamed: z.boolean().optional(),
  errorCount: z.number().int().nonnegative().optional(),
  disabledUntil: epochMs.optional(),
  disabledReason: reason.optional(),
  failureCounts: z.partialRecord(reason, z.number().int().nonnegative()).optional(),
  lastFailureAt: epochMs.optional(),
  lastProbeAt: epochMs.optional(),
});

/** `"provider/model"` or `{ provider, model, authProfile?, requestedAt? }`. */
const pendingSwitchSchema = z.union([
  z.string().refine((text) => parseModelRef(text) !== undefined, 'write "provider/model"').transform((text) => ({
    ref: text,
    provider: '',
    model: '',
    authProfile: undefined as string | undefined,
    requestedAt: undefined as number | undefined,
  })),
  z
    .looseObject({ provider: nonBlank, model: nonBlank, authProfile: profileId.optional(), requestedAt: epochMs.optional() })
    .transform((value) => ({ ref: undefined as string | undefined, provider: value.provider, model: value.model, authProfile: value.authProfile, requestedAt: value.requestedAt })),
]);

const sessionSchema = z.looseObject({
  providerOverride: nonBlank.optional(),
  modelOverride: nonBlank.optional(),
  modelOverrideSource: z.enum(['user', 'auto']).optional(),
  modelOverrideOrigin: nonBlank.optional(),
  authProfileOverride: profileId.optional(),
  authProfileOverrideSource: z.enum(['user', 'auto']).optional(),
  authProfileOverrideCompactionCount: z.number().int().nonnegative().optional(),
  compactionCount: z.number().int().nonnegative().optional(),
  chatType: z.enum(['direct', 'group', 'channel']).optional(),
  fallbackNotice: z
    .looseObject({ selected: nonBlank, active: nonBlank, reason: reason.default('unknown'), since: epochMs.optional() })
    .optional(),
  pendingLiveSwitch: pendingSwitchSchema.optional(),
  lastOriginProbeAt: epochMs.optional(),
});

/** The whole scenario file. */
export const scenarioSchema = z.looseObject({
  now: epochMs.default(0),
  seed: z.number().int().default(1),
  config: z.record(z.string(), z.unknown()).default({}),
  profiles: z.array(profileSchema).default([]),
  usageStats: z.record(nonBlank, usageStatsSchema).default({}),
  session: sessionSchema.optional(),
  turns: z.array(turnSchema).min(1, 'a scenario needs at least one turn'),
});

/** A parsed scenario. */
export type Scenario = z.output<typeof scenarioSchema>;
/** One parsed turn. */
export type ScenarioTurn = Scenario['turns'][number];
/** One parsed outcome of a turn. */
export type ScenarioOutcome = ScenarioTurn['outcomes'][number];
/** One parsed scenario profile. */
export type ScenarioProfile = Scenario['profiles'][number];
/** The parsed initial session. */
export type ScenarioSession = NonNullable<Scenario['session']>;
