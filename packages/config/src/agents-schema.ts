/**
 * `agents.*`: the configured default chain, the image chain, the model allowlist with aliases, and per-agent
 * models (docs/configuration.md; the model-failover doc "Selection source policy", "Related config").
 */
import { parseModelRef } from '@understudy/contracts';
import * as z from 'zod';
import { modelRefTextSchema, strictModelRefTextSchema } from './schema-parts.js';

/** `"provider/model"` or `{ primary, fallbacks? }`. A string has no fallbacks. */
export const modelSelectionSchema = z.union([
  modelRefTextSchema.describe('"provider/model" or a configured alias.'),
  z.strictObject({
    primary: modelRefTextSchema.describe('The primary model: "provider/model" or a configured alias.'),
    fallbacks: z
      .array(modelRefTextSchema)
      .optional()
      .describe('Models tried after the primary, in order. [] makes an agent primary explicitly strict.'),
    contextFallbacks: z
      .array(modelRefTextSchema)
      .optional()
      .describe(
        'Larger-window models tried on context overflow that are not in the chain, in order (docs/policy.md#what-each-reason-does). Only those whose context window is larger than the failing model\'s are tried.',
      ),
  }),
]);

/** `agents.defaults.models["provider/model"]`: the allowlist entry of a model. */
export const modelEntryConfigSchema = z.strictObject({
  alias: z
    .string()
    .trim()
    .min(1, 'an alias must not be blank')
    .regex(/^[^/\s]+$/, 'an alias has no "/" or spaces (it would read as provider/model): write e.g. "opus"')
    .optional()
    .describe('Short name usable wherever a model reference is expected (matched case-insensitively).'),
});

/** An agent id: used in state paths (`agents/<agentId>/agent/…`), so letters, digits, `.`, `_`, `-` only. */
export const agentIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'an agent id is 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit');

/** `agents.entries.<id>`: one agent's settings. */
export const agentEntryConfigSchema = z.strictObject({
  model: modelSelectionSchema
    .optional()
    .describe('The agent primary. A string or an object without fallbacks is strict; add "fallbacks" to opt in.'),
});

/** The `agents` section. */
export const agentsConfigSchema = z
  .strictObject({
    defaults: z
      .strictObject({
        model: modelSelectionSchema.optional().describe('The configured default: primary and fallbacks.'),
        imageModel: modelSelectionSchema.optional().describe('The chain used for requests that carry images.'),
        models: z
          .record(strictModelRefTextSchema, modelEntryConfigSchema)
          .default({})
          .describe('Model allowlist by "provider/model", with optional aliases. Fallbacks are not filtered by it.'),
      })
      .prefault({}),
    entries: z
      .preprocess((value, context) => {
        // A JSON key "__proto__" would otherwise vanish while the record is built (it sets the prototype).
        if (typeof value === 'object' && value !== null && Object.hasOwn(value, '__proto__')) {
          context.issues.push({ code: 'custom', path: ['__proto__'], message: 'not an agent id: name the agent with letters, digits, ".", "_" or "-"', input: value });
        }
        return value;
      }, z.record(agentIdSchema, agentEntryConfigSchema))
      .default({})
      .describe('Per-agent settings by agent id (e.g. "main").'),
  })
  .superRefine((agents, context) => {
    const aliases = new Map<string, string>();
    for (const [key, entry] of Object.entries(agents.defaults.models)) {
      if (entry.alias === undefined) continue;
      const folded = entry.alias.toLowerCase();
      const earlier = aliases.get(folded);
      if (earlier !== undefined) {
        context.addIssue({
          code: 'custom',
          path: ['defaults', 'models', key, 'alias'],
          message: `alias "${entry.alias}" is already used by "${earlier}": give each model its own alias`,
        });
      }
      aliases.set(folded, key);
    }
    const checkRef = (text: string, path: (string | number)[]): void => {
      if (parseModelRef(text) !== undefined || aliases.has(text.trim().toLowerCase())) return;
      context.addIssue({
        code: 'custom',
        path,
        message: `"${text}" is neither "provider/model" nor an alias of agents.defaults.models: write e.g. "openai/gpt-4o"`,
      });
    };
    const checkSelection = (selection: z.output<typeof modelSelectionSchema> | undefined, path: (string | number)[]): void => {
      if (selection === undefined) return;
      if (typeof selection === 'string') {
        checkRef(selection, path);
        return;
      }
      checkRef(selection.primary, [...path, 'primary']);
      selection.fallbacks?.forEach((fallback, index) => checkRef(fallback, [...path, 'fallbacks', index]));
      selection.contextFallbacks?.forEach((fallback, index) => checkRef(fallback, [...path, 'contextFallbacks', index]));
    };
    checkSelection(agents.defaults.model, ['defaults', 'model']);
    checkSelection(agents.defaults.imageModel, ['defaults', 'imageModel']);
    for (const [id, entry] of Object.entries(agents.entries)) checkSelection(entry.model, ['entries', id, 'model']);
  })
  .describe('Model selection: defaults, image model, allowlist/aliases and per-agent models.');
