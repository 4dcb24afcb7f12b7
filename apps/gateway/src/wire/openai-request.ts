/**
 * OpenAI chat-completions request → the internal chat shape. Unknown top-level fields are ignored (clients send
 * many harmless extras); the fields understudy uses are validated with the path in the 400.
 */
import type { ChatContent, ChatContentPart, ChatMessage, ChatTool, ChatToolCall, ChatToolChoice } from '@understudy/providers';
import { invalidRequest } from '../gateway-error.js';
import type { ParsedChatRequest } from './dialect.js';
import { parsedChatRequest } from './parsed-request.js';
import type { JsonRecord } from './read-fields.js';
import {
  isRecord,
  optionalBoolean,
  optionalNumber,
  optionalString,
  optionalStringList,
  requireRecord,
  requireString,
} from './read-fields.js';

function contentPart(value: unknown, path: string): ChatContentPart {
  const part = requireRecord(value, path);
  const type = part['type'];
  if (type === 'text' || type === 'input_text' || type === 'refusal') {
    const text = part['text'] ?? part['refusal'];
    if (typeof text !== 'string') throw invalidRequest(`${path}.text: expected a string`);
    return { kind: 'text', text };
  }
  if (type === 'image_url') {
    const image = part['image_url'];
    const url = typeof image === 'string' ? image : isRecord(image) ? image['url'] : undefined;
    if (typeof url !== 'string' || url === '') throw invalidRequest(`${path}.image_url.url: expected an https: or data: URL`);
    return { kind: 'image', source: { kind: 'url', url } };
  }
  throw invalidRequest(`${path}.type: "${String(type)}" is not supported; send "text" or "image_url" parts`);
}

function content(value: unknown, path: string): ChatContent {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((part, index) => contentPart(part, `${path}[${index}]`));
  throw invalidRequest(`${path}: expected a string or an array of content parts`);
}

function toolCalls(value: unknown, path: string): ChatToolCall[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalidRequest(`${path}: expected an array`);
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
      throw invalidRequest(`${path}.role: "${String(role)}" is not supported; use system, developer, user, assistant or tool`);
  }
}

function tools(body: JsonRecord): ChatTool[] | undefined {
  const value = body['tools'];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalidRequest('tools: expected an array of { type: "function", function: {...} }');
  return value.map((entry, index) => {
    const path = `tools[${index}]`;
    const tool = requireRecord(entry, path);
    if (tool['type'] !== undefined && tool['type'] !== 'function') {
      throw invalidRequest(`${path}.type: only "function" tools are supported`);
    }
    const fn = requireRecord(tool['function'], `${path}.function`);
    const parameters = fn['parameters'] ?? { type: 'object', properties: {} };
    if (!isRecord(parameters)) throw invalidRequest(`${path}.function.parameters: expected a JSON Schema object`);
    const description = optionalString(fn, 'description', `${path}.function`);
    return { name: requireString(fn, 'name', `${path}.function`), ...(description === undefined ? {} : { description }), parameters };
  });
}

function toolChoice(body: JsonRecord): ChatToolChoice | undefined {
  const value = body['tool_choice'];
  if (value === undefined || value === null) return undefined;
  if (value === 'auto' || value === 'none' || value === 'required') return value;
  if (isRecord(value) && isRecord(value['function']) && typeof value['function']['name'] === 'string') {
    return { name: value['function']['name'] };
  }
  throw invalidRequest('tool_choice: expected "auto", "none", "required" or { type: "function", function: { name } }');
}

function textOf(value: ChatContent): string {
  return typeof value === 'string' ? value : value.map((part) => (part.kind === 'text' ? part.text : '')).join('');
}


/**
 * Parses an OpenAI chat-completions body.
 *
 * @throws {GatewayError} 400 for a non-object body, missing or empty `messages`, or a malformed field.
 * @example parseOpenAIRequest({ model: 'default', messages: [{ role: 'user', content: 'hi' }] }).lastUserText // 'hi'
 */
export function parseOpenAIRequest(body: unknown): ParsedChatRequest {
  if (!isRecord(body)) throw invalidRequest('the request body must be a JSON object', 'invalid_body');
  const rawMessages = body['messages'];
  if (!Array.isArray(rawMessages) || rawMessages.length === 0) {
    throw invalidRequest('messages: required, a non-empty array of { role, content }', 'missing_messages');
  }
  const messages = rawMessages.map((entry, index) => message(entry, index));
  const n = optionalNumber(body, 'n', 'body', { integer: true, min: 1 });
  if (n !== undefined && n > 1) throw invalidRequest('n: only one choice per request is supported (n = 1)');
  const maxTokens =
    optionalNumber(body, 'max_completion_tokens', 'body', { integer: true, min: 1 }) ??
    optionalNumber(body, 'max_tokens', 'body', { integer: true, min: 1 });
  const temperature = optionalNumber(body, 'temperature', 'body', { min: 0, max: 2 });
  const topP = optionalNumber(body, 'top_p', 'body', { min: 0, max: 1 });
  const stop = optionalStringList(body, 'stop', 'body');
  const streamOptions = body['stream_options'];
  const last = messages[messages.length - 1];
  return parsedChatRequest(body, {
    messages,
    stream: optionalBoolean(body, 'stream', 'body') ?? false,
    streamUsage: isRecord(streamOptions) && streamOptions['include_usage'] === true,
    lastUserText: last?.role === 'user' ? textOf(last.content) : undefined,
    tools: tools(body),
    toolChoice: toolChoice(body),
    temperature,
    topP,
    maxTokens,
    stop,
  });
}
