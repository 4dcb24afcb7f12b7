/**
 * Cross-format request shaping shared by the wire formats (docs/wire-mapping.md#cross-format): tool-call ids in
 * the target's grammar, sampling values clamped to the target's ranges, reasoning effort ↔ thinking budget, and
 * whether a model reasons (from its metadata, else from its id).
 */
import { createHash } from 'node:crypto';
import type { ChatReasoning, ChatRequest } from '../chat-types.js';

/** Anthropic's tool-use id grammar. */
const ANTHROPIC_TOOL_ID = /^[a-zA-Z0-9_-]+$/;
/** Prefix of an id re-encoded for Anthropic (base64url of the original, whose alphabet is the grammar). */
const ENCODED_PREFIX = 'ustd_';
/** OpenAI refuses tool-call ids longer than this. */
const OPENAI_MAX_TOOL_ID = 40;

/**
 * A tool-call id in Anthropic's grammar (`^[a-zA-Z0-9_-]+$`): valid ids unchanged, any other one (for example
 * `functions.get_weather:0` from an OpenAI-compatible server) as `ustd_` + base64url of it. Deterministic, so a
 * call and its result map to the same id on every turn; {@link fromAnthropicToolId} reverses it.
 *
 * @example toAnthropicToolId('call_1') // 'call_1'
 * @example toAnthropicToolId('functions.f:0') // 'ustd_ZnVuY3Rpb25zLmY6MA'
 */
export function toAnthropicToolId(id: string): string {
  if (ANTHROPIC_TOOL_ID.test(id) && !id.startsWith(ENCODED_PREFIX)) return id;
  return `${ENCODED_PREFIX}${Buffer.from(id, 'utf8').toString('base64url')}`;
}

/** The original of an id made by {@link toAnthropicToolId} (any other id unchanged). */
export function fromAnthropicToolId(id: string): string {
  if (!id.startsWith(ENCODED_PREFIX)) return id;
  const decoded = Buffer.from(id.slice(ENCODED_PREFIX.length), 'base64url').toString('utf8');
  return toAnthropicToolId(decoded) === id ? decoded : id;
}

/**
 * A tool-call id OpenAI accepts (at most 40 characters): a longer one becomes `call_` + 35 characters of its
 * SHA-256, the same on every turn.
 */
export function toOpenAiToolId(id: string): string {
  if (id.length <= OPENAI_MAX_TOOL_ID) return id;
  return `call_${createHash('sha256').update(id).digest('base64url').slice(0, OPENAI_MAX_TOOL_ID - 5)}`;
}

/** `value` within `[min, max]`; `undefined` stays `undefined`. */
export function clamp(value: number | undefined, min: number, max: number): number | undefined {
  return value === undefined ? undefined : Math.min(max, Math.max(min, value));
}

/** A temperature within the target's range: `[0, min(formatMax, metadata maxTemperature)]`. */
export function clampTemperature(request: ChatRequest, formatMax: number): number | undefined {
  const max = Math.min(formatMax, request.target?.maxTemperature ?? formatMax);
  return clamp(request.temperature, 0, max);
}

/**
 * Whether the target model reasons: its metadata when it says, else a guess from the id (`pattern`), so that an
 * OpenAI o-series or gpt-5 model never gets `max_tokens`.
 */
export function reasons(request: ChatRequest, pattern: RegExp): boolean {
  return request.target?.reasoning ?? pattern.test(request.model);
}

/** Thinking budget (tokens) of each OpenAI reasoning effort, for formats that take a budget. */
const BUDGET_BY_EFFORT: Readonly<Record<string, number>> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16_384,
  xhigh: 32_768,
  max: 32_768,
};

/** The budget for `reasoning`: its own, else its effort's (`medium` for an unknown effort); `undefined` when disabled. */
export function thinkingBudget(reasoning: ChatReasoning): number | undefined {
  if (reasoning.disabled === true) return undefined;
  if (reasoning.budgetTokens !== undefined) return reasoning.budgetTokens;
  return BUDGET_BY_EFFORT[reasoning.effort ?? 'medium'] ?? BUDGET_BY_EFFORT['medium'];
}

/** The OpenAI effort for `reasoning`: its own, else its budget's (< 2048 low, < 12 288 medium, else high). */
export function reasoningEffort(reasoning: ChatReasoning): string | undefined {
  if (reasoning.disabled === true) return undefined;
  if (reasoning.effort !== undefined) return reasoning.effort;
  const budget = reasoning.budgetTokens;
  if (budget === undefined) return undefined;
  return budget < 2048 ? 'low' : budget < 12_288 ? 'medium' : 'high';
}

/**
 * A JSON Schema whose every object schema forbids extra properties (`additionalProperties: false` where the
 * schema says nothing), as Anthropic's structured output requires. A new value; the input is not modified.
 */
export function closedObjectSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closedObjectSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    result[key] = key === 'properties' || key === '$defs' || key === 'definitions' ? mapValues(value) : closedObjectSchema(value);
  }
  if (result['type'] === 'object' && result['additionalProperties'] === undefined) result['additionalProperties'] = false;
  return result;
}

function mapValues(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, inner]) => [key, closedObjectSchema(inner)]));
}
