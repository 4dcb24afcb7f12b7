/**
 * The emulator's script: which answer each request gets. Routes match requests by wire format, model, key
 * and path; each route holds an ordered list of steps, one consumed per call (the last one repeats).
 * Parsed from JSON5 and validated with zod; errors name the path of the bad field.
 */
import JSON5 from 'json5';
import { z } from 'zod';
import { UnderstudyError } from '@understudy/contracts';

/** The wire formats the emulator speaks (the same names as config `models.providers.<id>.api`). */
const EMULATOR_APIS = ['openai-completions', 'openai-responses', 'anthropic-messages', 'google-generative-ai'] as const;

/** One of {@link EMULATOR_APIS}. */
export type EmulatorApi = (typeof EMULATOR_APIS)[number];

const count = z.number().int().nonnegative();
const milliseconds = z.number().int().nonnegative();
const jsonBody = z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]);

/** Fields that fixture rows (`fixtures/provider-errors.jsonl`) carry and the emulator ignores. */
const fixtureMetadata = {
  id: z.string().optional(),
  provider: z.string().optional(),
  expect: z.string().optional(),
  why: z.string().optional(),
  note: z.string().optional(),
};

const toolCallSchema = z
  .object({
    id: z.string().optional(),
    name: z.string().min(1),
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  })
  .strict();

const stepSchema = z
  .object({
    ...fixtureMetadata,
    ok: z.literal(true).optional(),
    text: z.string().optional(),
    echo: z.boolean().optional(),
    chunks: z.array(z.string()).optional(),
    toolCalls: z.array(toolCallSchema).optional(),
    finishReason: z.string().optional(),
    model: z.string().optional(),
    usage: z.object({ inputTokens: count.optional(), outputTokens: count.optional() }).strict().optional(),
    status: z.number().int().min(100).max(599).nullable().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    body: jsonBody.optional(),
    reset: z.boolean().optional(),
    delayMs: milliseconds.optional(),
    firstTokenDelayMs: milliseconds.optional(),
    chunkDelayMs: milliseconds.optional(),
    stallAfterChunks: count.optional(),
    stallMs: milliseconds.optional(),
    cutAfterChunks: count.optional(),
    endAfterChunks: count.optional(),
    malformedAfterChunks: count.optional(),
    errorAfterChunks: count.optional(),
    errorEvent: jsonBody.optional(),
    omitDone: z.boolean().optional(),
    holdOpen: z.boolean().optional(),
  })
  .strict()
  .superRefine((step, context) => {
    const isError = step.status !== undefined;
    if (isError && step.ok === true) {
      context.addIssue({ code: 'custom', message: 'a step is either ok or a status, not both', path: ['status'] });
    }
    if (step.reset === true && (isError || step.ok === true)) {
      context.addIssue({ code: 'custom', message: 'a reset step sends no response: drop ok/status', path: ['reset'] });
    }
    if (step.status !== undefined && step.status !== null && step.status < 200) {
      context.addIssue({ code: 'custom', message: 'a status step needs a final status (200 to 599)', path: ['status'] });
    }
  });

const routeSchema = z
  .object({
    name: z.string().optional(),
    match: z
      .object({
        api: z.enum(EMULATOR_APIS).optional(),
        model: z.string().optional(),
        key: z.string().optional(),
        pathPrefix: z.string().optional(),
        stream: z.boolean().optional(),
      })
      .strict()
      .optional(),
    steps: z.array(stepSchema).min(1),
  })
  .strict();

const oauthStepSchema = z
  .object({
    ...fixtureMetadata,
    accessToken: z.string().min(1).optional(),
    refreshToken: z.string().min(1).optional(),
    expiresInSeconds: z.number().int().positive().optional(),
    delayMs: milliseconds.optional(),
    status: z.number().int().min(400).max(599).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    body: jsonBody.optional(),
  })
  .strict();

/**
 * The device-authorization grant (RFC 8628) the emulator plays: the user "approves" after `pendingPolls`
 * token polls answered `authorization_pending` (or denies, with `deny`); `email` goes into the id token.
 */
const deviceLoginSchema = z
  .object({
    pendingPolls: z.number().int().min(0).max(100).optional(),
    deny: z.boolean().optional(),
    email: z.string().min(1).optional(),
    intervalSeconds: z.number().int().min(0).max(60).optional(),
    expiresInSeconds: z.number().int().positive().optional(),
  })
  .strict();

const scriptSchema = z
  .object({
    defaults: z
      .object({
        text: z.string().optional(),
        chunkDelayMs: milliseconds.optional(),
      })
      .strict()
      .optional(),
    models: z.array(z.string()).optional(),
    /** Refuse with a 400 what the real APIs refuse (see real-limits.ts), before any route is played. */
    realLimits: z.boolean().optional(),
    routes: z.array(routeSchema).optional(),
    oauth: z
      .object({
        steps: z.array(oauthStepSchema).min(1).optional(),
        device: deviceLoginSchema.optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** A validated script. */
export type EmulatorScript = z.infer<typeof scriptSchema>;
/** One route of a script. */
export type EmulatorRoute = z.infer<typeof routeSchema>;
/** One step of a route. */
export type EmulatorStep = z.infer<typeof stepSchema>;
/** One step of the OAuth token endpoint. */
export type OAuthStep = z.infer<typeof oauthStepSchema>;

/** The script used when none is given: every request gets an ok answer echoing the last user message. */
export const EMPTY_SCRIPT: EmulatorScript = Object.freeze({ routes: [] });

/** An invalid script; the message names the path of the bad field and what is expected there. */
export class EmulatorScriptError extends UnderstudyError<'invalid_emulator_script'> {
  constructor(message: string, options: { readonly cause?: unknown } = {}) {
    super('invalid_emulator_script', message, options);
  }
}

/**
 * Validates a script given as a value or as JSON5 text.
 *
 * @throws {EmulatorScriptError} naming the path of the first bad fields.
 * @example parseEmulatorScript('{ routes: [{ match: { api: "openai-completions" }, steps: [{ status: 429 }] }] }')
 */
export function parseEmulatorScript(input: unknown): EmulatorScript {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON5.parse(input);
    } catch (error) {
      throw new EmulatorScriptError(`script is not valid JSON5: ${(error as Error).message}`, { cause: error });
    }
  }
  const parsed = scriptSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.length === 0 ? '(root)' : issue.path.join('.')}: ${issue.message}`);
    throw new EmulatorScriptError(`invalid emulator script: ${problems.join('; ')}`, { cause: parsed.error });
  }
  return parsed.data;
}
