/**
 * The part of request parsing the client wire formats share: the steps that read the same thing under each
 * dialect's field names (a function tool, a tool list, a JSON-schema output format, a reasoning effort, the text
 * of a content), and, once a dialect has turned its messages, tools and options into the internal shape, the
 * assembly of the {@link ParsedChatRequest} (the model field, the `understudy.fallbacks` extension, whether an
 * image is present).
 */
import type { ChatContent, ChatMessage, ChatReasoning, ChatRequest, ChatResponseFormat, ChatTool } from '@understudy/providers';
import { invalidRequest } from '../gateway-error.js';
import type { ParsedChatRequest } from './dialect.js';
import type { JsonRecord } from './read-fields.js';
import { fieldError, isRecord, optionalBoolean, optionalNumber, optionalString, readModelField, readUnderstudyExtension, requireRecord, requireString } from './read-fields.js';

/** The text parts of a content, joined without separator (images contribute nothing). */
export function textOf(value: ChatContent): string {
  return typeof value === 'string' ? value : value.map((part) => (part.kind === 'text' ? part.text : '')).join('');
}

/**
 * The `tools` array of a body, each entry read by `readTool` (which returns `[]` for a tool type without a
 * counterpart in the other formats); `undefined` when the body has none.
 *
 * @param expected how the 400 describes an entry, e.g. `{ name, description?, input_schema }`.
 * @throws {GatewayError} 400 when `tools` is not an array, or an entry is not an object.
 */
export function readTools(body: JsonRecord, expected: string, readTool: (tool: JsonRecord, path: string) => ChatTool[]): ChatTool[] | undefined {
  const value = body['tools'];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw fieldError('tools', `expected an array of ${expected}`);
  return value.flatMap((entry, index) => {
    const path = `tools[${index}]`;
    return readTool(requireRecord(entry, path), path);
  });
}

/**
 * A function tool from `record` (at `path`): `name`, optional `description` and `strict`, and its JSON Schema
 * under `schemaKey` (`parameters` or `input_schema`; an empty object schema when absent).
 *
 * @throws {GatewayError} 400 when the schema is not an object, or `name` is missing.
 */
export function functionTool(record: JsonRecord, path: string, schemaKey: string): ChatTool {
  const parameters = record[schemaKey] ?? { type: 'object', properties: {} };
  if (!isRecord(parameters)) throw fieldError(`${path}.${schemaKey}`, 'expected a JSON Schema object');
  const description = optionalString(record, 'description', path);
  const strict = optionalBoolean(record, 'strict', path);
  return {
    name: requireString(record, 'name', path),
    ...(description === undefined ? {} : { description }),
    parameters,
    ...(strict === undefined ? {} : { strict }),
  };
}

/**
 * A `json_schema` output format from its spec (at `path`) and its already-read `schema`: the name defaults to
 * `output`; `description` and `strict` are kept when given.
 */
export function jsonSchemaFormat(spec: JsonRecord, path: string, schema: JsonRecord): ChatResponseFormat {
  const description = optionalString(spec, 'description', path);
  const strict = optionalBoolean(spec, 'strict', path);
  return {
    kind: 'json_schema',
    name: optionalString(spec, 'name', path) ?? 'output',
    schema,
    ...(description === undefined ? {} : { description }),
    ...(strict === undefined ? {} : { strict }),
  };
}

/**
 * An OpenAI-family output format (`response_format` of chat completions, `text.format` of Responses) at `path`:
 * `text` is the default and means none, `json_object`, or `json_schema` as `jsonSchema` reads it from the
 * dialect's own nesting.
 *
 * @throws {GatewayError} 400 for another `type`.
 */
export function openAIOutputFormat(format: JsonRecord, path: string, jsonSchema: () => ChatResponseFormat): ChatResponseFormat | undefined {
  switch (format['type']) {
    case 'text':
      return undefined;
    case 'json_object':
      return { kind: 'json_object' };
    case 'json_schema':
      return jsonSchema();
    default:
      throw fieldError(`${path}.type`, 'expected "text", "json_object" or "json_schema"');
  }
}

/** The sampling options every dialect spells alike: `temperature` (0–2) and `top_p` (0–1). */
export function sampling(body: JsonRecord): Pick<ChatOptions, 'temperature' | 'topP'> {
  return {
    temperature: optionalNumber(body, 'temperature', '', { min: 0, max: 2 }),
    topP: optionalNumber(body, 'top_p', '', { min: 0, max: 1 }),
  };
}

/** A reasoning effort as the client named it: `none` disables reasoning; `undefined` when none was given. */
export function reasoningEffort(effort: string | undefined): ChatReasoning | undefined {
  if (effort === undefined) return undefined;
  return effort === 'none' ? { disabled: true } : { effort };
}

/** The request options a dialect reads besides the messages (each set only when the client gave it). */
export type ChatOptions = {
  -readonly [K in Exclude<keyof ChatRequest, 'model' | 'messages' | 'stream' | 'native' | 'target'>]?: ChatRequest[K] | undefined;
};

/**
 * The request body as a JSON object.
 *
 * @throws {GatewayError} 400 `invalid_body` when it is not one.
 */
export function requestBody(body: unknown): JsonRecord {
  if (!isRecord(body)) throw invalidRequest('the request body must be a JSON object', 'invalid_body');
  return body;
}

/**
 * The raw `messages` array of a chat body (OpenAI chat completions, Anthropic messages), each entry still to be
 * read by the dialect.
 *
 * @throws {GatewayError} 400 `missing_messages` when it is absent, not an array or empty.
 */
export function rawMessagesOf(body: JsonRecord): unknown[] {
  const rawMessages = body['messages'];
  if (!Array.isArray(rawMessages) || rawMessages.length === 0) {
    throw fieldError('messages', 'required, a non-empty array of { role, content }', 'missing_messages');
  }
  return rawMessages;
}

/**
 * The options OpenAI's two APIs (chat completions, responses) name alike: `user` (else `safety_identifier`) and
 * `top_logprobs` (an integer 0–20).
 */
export function openAICallerOptions(body: JsonRecord): Pick<ChatOptions, 'user' | 'topLogprobs'> {
  return {
    user: optionalString(body, 'user', '') ?? optionalString(body, 'safety_identifier', ''),
    topLogprobs: optionalNumber(body, 'top_logprobs', '', { integer: true, min: 0, max: 20 }),
  };
}

/** What a dialect parsed from its own fields (`stream` is read alike for all, by {@link parsedChatRequest}). */
export interface DialectFields {
  readonly messages: ChatMessage[];
  readonly streamUsage: boolean;
  readonly lastUserText: string | undefined;
  readonly options: ChatOptions;
}

/** True when any message carries an image part (the configured image chain then applies). */
function hasImage(messages: readonly ChatMessage[]): boolean {
  return messages.some(
    (entry) => entry.content !== null && typeof entry.content !== 'string' && entry.content.some((part) => part.kind === 'image'),
  );
}

/** The parsed request of a body whose dialect-specific fields are `fields`. */
export function parsedChatRequest(body: JsonRecord, fields: DialectFields): ParsedChatRequest {
  const stream = optionalBoolean(body, 'stream', '') ?? false;
  return {
    model: readModelField(body),
    chat: { ...fields.options, messages: fields.messages, stream },
    stream,
    streamUsage: fields.streamUsage,
    fallbacksOverride: readUnderstudyExtension(body).fallbacks,
    lastUserText: fields.lastUserText,
    hasImages: hasImage(fields.messages),
  };
}
