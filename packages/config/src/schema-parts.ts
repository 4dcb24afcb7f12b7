/**
 * Shared zod building blocks of the config schema: provider ids, profile ids, model references, records whose
 * keys are normalised (with a clear error when two spellings collide).
 */
import { normalizeProfileId, normalizeProviderId, parseModelRef, parseProfileId } from '@understudy/contracts';
import * as z from 'zod';

/** A provider id as written (validated, not yet normalised): no blanks, `/` or `:`. */
export const providerIdTextSchema = z
  .string()
  .trim()
  .min(1, 'provider id must not be blank: write e.g. "openai"')
  .regex(/^[^\s/:]+$/, 'a provider id has no spaces, "/" or ":": write e.g. "openai"');

/** A provider id; normalised (trimmed, lower-cased, aliases folded). */
export const providerIdSchema = providerIdTextSchema.transform(normalizeProviderId);

/** An auth profile id as written (validated, not yet normalised): `provider:name`. */
export const profileIdTextSchema = z.string().refine((id) => parseProfileId(id) !== undefined, {
  message: 'an auth profile id is "provider:name": write e.g. "openai:default" or "openai:user@example.com"',
});

/** An auth profile id `provider:name`; the provider part is normalised. */
export const profileIdSchema = profileIdTextSchema.transform(normalizeProfileId);

/**
 * A model reference as written in config: `provider/model` or an alias of `agents.defaults.models` (checked
 * against the aliases by the `agents` section). Kept as written; `@understudy/candidate-chain` resolves it.
 */
export const modelRefTextSchema = z.string().trim().min(1, 'a model reference must not be blank: write "provider/model"');

/** `"provider/model"` (the key form of `agents.defaults.models`). */
export const strictModelRefTextSchema = modelRefTextSchema.refine((text) => parseModelRef(text) !== undefined, {
  message: 'write the model as "provider/model", e.g. "openai/gpt-4o"',
});

/**
 * A record whose keys are normalised by `normalizeKey`; two keys that normalise to the same one are an error
 * at the second key's path.
 */
export function normalizedKeyRecord<Value extends z.ZodType>(
  value: Value,
  normalizeKey: (key: string) => string,
  what: string,
  keySchema: z.ZodType<string, string> = z.string(),
) {
  return z
    .record(keySchema, value)
    .superRefine((record, context) => {
      const seen = new Map<string, string>();
      for (const key of Object.keys(record)) {
        const normalized = normalizeKey(key);
        const earlier = seen.get(normalized);
        if (earlier !== undefined) {
          context.addIssue({
            code: 'custom',
            path: [key],
            message: `"${key}" and "${earlier}" are the same ${what} (${normalized}): keep one entry`,
          });
        }
        seen.set(normalized, key);
      }
    })
    .transform((record) => {
      const out: Record<string, z.output<Value>> = {};
      for (const [key, entry] of Object.entries(record)) out[normalizeKey(key)] = entry;
      return out;
    });
}

/** Provider-id keyed record (keys normalised). */
export function providerRecord<Value extends z.ZodType>(value: Value) {
  return normalizedKeyRecord(value, normalizeProviderId, 'provider', providerIdTextSchema);
}

/** Non-negative integer milliseconds. */
export const msSchema = z.number().int().nonnegative();
/** Positive integer milliseconds. */
export const positiveMsSchema = z.number().int().positive();
