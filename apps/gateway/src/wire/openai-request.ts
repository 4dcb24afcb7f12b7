/**
 * OpenAI chat-completions request → the internal chat shape (the table in docs/wire-mapping.md). Unknown
 * top-level fields, content parts and tool types are left out of the internal shape (a same-format upstream gets
 * them anyway, from the body as sent); the fields understudy uses are validated with the path in the 400.
 */
import type { ChatContent, ChatContentPart, ChatMessage, ChatReasoning, ChatResponseFormat, ChatTool, ChatToolCall, ChatToolChoice } from '@understudy/providers';
import type { ParsedChatRequest } from './dialect.js';
import { functionTool, jsonSchemaFormat, openAICallerOptions, openAIOutputFormat, parsedChatRequest, rawMessagesOf, readTools, reasoningEffort, requestBody, sampling, textOf } from './parsed-request.js';
import type { JsonRecord } from './read-fields.js';
import { fieldError, isRecord, optionalBoolean, optionalNumber, optionalString, optionalStringList, requireRecord, requireString } from './read-fields.js';
import { describeValue } from './untrusted.js';

/** One content part; `undefined` for a part type without a counterpart (audio, files: dropped, see the table). */
function contentPart(value: unknown, path: string): ChatContentPart | undefined {
  const part = requireRecord(value, path);
  const type = part['type'];
  if (type === 'text' || type === 'input_text' || type === 'refusal') {
    const text = part['text'] ?? part['refusal'];
    if (typeof text !== 'string') throw fieldError(`${path}.text`, 'expected a string');
    return { kind: 'text', text };
  }
  if (type === 'image_url') {
    const image = part['image_url'];
    const url = typeof image === 'string' ? image : isRecord(image) ? image['url'] : undefined;
    if (typeof url !== 'string' || url === '') throw fieldError(`${path}.image_url.url`, 'expected an https: or data: URL');
    const detail = isRecord(image) && typeof image['detail'] === 'string' ? image['detail'] : undefined;
    return { kind: 'image', source: { kind: 'url', url }, ...(detail === undefined ? {} : { detail }) };
  }
  if (typeof type !== 'string') throw fieldError(`${path}.type`, 'expected a string such as "text" or "image_url"');
  return undefined;
}

function content(value: unknown, path: string): ChatContent {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    return value.flatMap((part, index) => {
      const parsed = contentPart(part, `${path}[${index}]`);
      return parsed === undefined ? [] : [parsed];
    });
  }
  throw fieldError(path, 'expected a string or an array of content parts');
}

function toolCalls(value: unknown, path: string): ChatToolCall[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw fieldError(path, 'expected an array');
  return value.map((entry, index) => {
    const call = requireRecord(entry, `${path}[${index}]`);
    const fn = requireRecord(call['function'], `${path}[${index}].function`);
    const args = fn['arguments'];
    return {
      id: requireString(call, 'id', `${path}[${index}]`),
      name: requireString(fn, 'name', `${path}[${index}].function`),
      arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
    };
  });
}

function message(value: unknown, index: number): ChatMessage {
  const path = `messages[${index}]`;
  const record = requireRecord(value, path);
  const role = record['role'];
  switch (role) {
    case 'system':
    case 'developer':
      return { role: 'system', content: content(record['content'], `${path}.content`) };
    case 'user':
      return { role: 'user', content: content(record['content'], `${path}.content`) };
    case 'assistant': {
      const raw = record['content'];
      const calls = toolCalls(record['tool_calls'], `${path}.tool_calls`);
      return {
        role: 'assistant',
        content: raw === undefined || raw === null ? null : content(raw, `${path}.content`),
        ...(calls === undefined ? {} : { toolCalls: calls }),
      };
    }
    case 'tool':
      return {
        role: 'tool',
        toolCallId: requireString(record, 'tool_call_id', path),
        ...(typeof record['name'] === 'string' ? { name: record['name'] } : {}),
        content: content(record['content'] ?? '', `${path}.content`),
      };
    default:
      throw fieldError(`${path}.role`, `${describeValue(role)} is not supported; use system, developer, user, assistant or tool`);
  }
}

function tools(body: JsonRecord): ChatTool[] | undefined {
  return readTools(body, '{ type: "function", function: {...} }', (tool, path) =>
    // Custom (free-text) tools have no counterpart in the other formats: left out of the internal shape.
    tool['type'] !== undefined && tool['type'] !== 'function' ? [] : [functionTool(requireRecord(tool['function'], `${path}.function`), `${path}.function`, 'parameters')],
  );
}

function toolChoice(body: JsonRecord): ChatToolChoice | undefined {
  const value = body['tool_choice'];
  if (value === undefined || value === null) return undefined;
  if (value === 'auto' || value === 'none' || value === 'required') return value;
  if (isRecord(value) && isRecord(value['function']) && typeof value['function']['name'] === 'string') {
    return { name: value['function']['name'] };
  }
  throw fieldError('tool_choice', 'expected "auto", "none", "required" or { type: "function", function: { name } }');
}

/** `response_format`: `json_object`, `json_schema` (`text` is the default and means none). */
function responseFormat(body: JsonRecord): ChatResponseFormat | undefined {
  const value = body['response_format'];
  if (value === undefined || value === null) return undefined;
  const format = requireRecord(value, 'response_format');
  return openAIOutputFormat(format, 'response_format', () => {
    const spec = requireRecord(format['json_schema'], 'response_format.json_schema');
    const schema = spec['schema'] ?? { type: 'object' };
    if (!isRecord(schema)) throw fieldError('response_format.json_schema.schema', 'expected a JSON Schema object');
    return jsonSchemaFormat(spec, 'response_format.json_schema', schema);
  });
}

/** `reasoning_effort` (and the `reasoning: { effort }` spelling some OpenAI-compatible servers take). */
function reasoning(body: JsonRecord): ChatReasoning | undefined {
  const nested = body['reasoning'];
  return reasoningEffort(optionalString(body, 'reasoning_effort', '') ?? (isRecord(nested) ? optionalString(nested, 'effort', 'reasoning') : undefined));
}

/**
 * Parses an OpenAI chat-completions body.
 *
 * @throws {GatewayError} 400 for a non-object body, missing or empty `messages`, or a malformed field.
 * @example parseOpenAIRequest({ model: 'default', messages: [{ role: 'user', content: 'hi' }] }).lastUserText // 'hi'
 */
export function parseOpenAIRequest(input: unknown): ParsedChatRequest {
  const body = requestBody(input);
  const rawMessages = rawMessagesOf(body);
  const messages = rawMessages.map((entry, index) => message(entry, index));
  const n = optionalNumber(body, 'n', '', { integer: true, min: 1 });
  if (n !== undefined && n > 1) throw fieldError('n', 'only one choice per request is supported (n = 1)');
  const maxCompletionTokens = optionalNumber(body, 'max_completion_tokens', '', { integer: true, min: 1 });
  const maxTokens = maxCompletionTokens ?? optionalNumber(body, 'max_tokens', '', { integer: true, min: 1 });
  const streamOptions = body['stream_options'];
  const last = messages[messages.length - 1];
  return parsedChatRequest(body, {
    messages,
    streamUsage: isRecord(streamOptions) && streamOptions['include_usage'] === true,
    lastUserText: last?.role === 'user' ? textOf(last.content) : undefined,
    options: {
      tools: tools(body),
      toolChoice: toolChoice(body),
      ...sampling(body),
      maxTokens,
      ...(maxTokens === undefined ? {} : { maxTokensField: maxCompletionTokens === undefined ? 'max_tokens' : 'max_completion_tokens' }),
      stop: optionalStringList(body, 'stop', ''),
      responseFormat: responseFormat(body),
      reasoning: reasoning(body),
      parallelToolCalls: optionalBoolean(body, 'parallel_tool_calls', ''),
      seed: optionalNumber(body, 'seed', '', { integer: true }),
      ...openAICallerOptions(body),
      frequencyPenalty: optionalNumber(body, 'frequency_penalty', '', { min: -2, max: 2 }),
      presencePenalty: optionalNumber(body, 'presence_penalty', '', { min: -2, max: 2 }),
      logprobs: optionalBoolean(body, 'logprobs', ''),
    },
  });
}
