/**
 * OpenAI Responses API request (`POST /v1/responses`) → the internal chat shape (docs/wire-mapping.md#responses).
 * The gateway stores nothing (`store: false` semantics): the whole conversation comes in `input`, and
 * `previous_response_id` or `conversation` is a 400 saying so. Input items without a counterpart (reasoning items,
 * files, built-in tools) are left out.
 */
import type { ChatContent, ChatContentPart, ChatMessage, ChatResponseFormat, ChatTool, ChatToolChoice } from '@understudy/providers';
import type { ParsedChatRequest } from './dialect.js';
import { functionTool, jsonSchemaFormat, openAICallerOptions, openAIOutputFormat, parsedChatRequest, readTools, reasoningEffort, requestBody, sampling, textOf } from './parsed-request.js';
import type { JsonRecord } from './read-fields.js';
import { fieldError, isRecord, optionalBoolean, optionalNumber, optionalString, requireRecord, requireString } from './read-fields.js';
import { describeValue } from './untrusted.js';

function contentPart(value: unknown, path: string): ChatContentPart[] {
  const part = requireRecord(value, path);
  switch (part['type']) {
    case 'input_text':
    case 'output_text':
    case 'text':
      return [{ kind: 'text', text: requireString(part, 'text', path) }];
    case 'refusal':
      return [{ kind: 'text', text: requireString(part, 'refusal', path) }];
    case 'input_image': {
      const url = optionalString(part, 'image_url', path);
      const detail = optionalString(part, 'detail', path);
      // An uploaded file id has no counterpart without the files API: left out.
      return url === undefined ? [] : [{ kind: 'image', source: { kind: 'url', url }, ...(detail === undefined ? {} : { detail }) }];
    }
    default:
      if (typeof part['type'] !== 'string') throw fieldError(`${path}.type`, 'expected a part type such as "input_text"');
      return [];
  }
}

function content(value: unknown, path: string): ChatContent {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) throw fieldError(path, 'expected a string or an array of content parts');
  const parts = value.flatMap((part, index) => contentPart(part, `${path}[${index}]`));
  return parts.length === 1 && parts[0]?.kind === 'text' ? parts[0].text : parts;
}

/** Appends one input item to `messages` (function calls join the assistant turn before them). */
function addItem(messages: ChatMessage[], value: unknown, path: string): void {
  const item = requireRecord(value, path);
  const type = item['type'] ?? 'message';
  if (type === 'function_call') {
    const call = {
      id: requireString(item, 'call_id', path),
      name: requireString(item, 'name', path),
      arguments: optionalString(item, 'arguments', path) ?? '{}',
    };
    const last = messages.at(-1);
    if (last?.role === 'assistant') messages[messages.length - 1] = { ...last, toolCalls: [...(last.toolCalls ?? []), call] };
    else messages.push({ role: 'assistant', content: null, toolCalls: [call] });
    return;
  }
  if (type === 'function_call_output') {
    messages.push({ role: 'tool', toolCallId: requireString(item, 'call_id', path), content: content(item['output'] ?? '', `${path}.output`) });
    return;
  }
  if (type !== 'message') {
    if (type === 'item_reference') throw fieldError(path, 'item references need stored items; this gateway stores none, send the item itself');
    if (typeof type !== 'string') throw fieldError(`${path}.type`, 'expected an item type such as "message" or "function_call"');
    return;
  }
  const role = item['role'];
  const body = content(item['content'], `${path}.content`);
  switch (role) {
    case 'system':
    case 'developer':
      messages.push({ role: 'system', content: body });
      return;
    case 'user':
      messages.push({ role: 'user', content: body });
      return;
    case 'assistant':
      messages.push({ role: 'assistant', content: body });
      return;
    default:
      throw fieldError(`${path}.role`, `${describeValue(role)} is not supported; use system, developer, user or assistant`);
  }
}

function tools(body: JsonRecord): ChatTool[] | undefined {
  return readTools(body, '{ type: "function", name, parameters }', (tool, path) =>
    // Built-in tools (web search, file search, computer use…) run at OpenAI: no counterpart elsewhere.
    tool['type'] !== 'function' ? [] : [functionTool(tool, path, 'parameters')],
  );
}

function toolChoice(body: JsonRecord): ChatToolChoice | undefined {
  const value = body['tool_choice'];
  if (value === undefined || value === null) return undefined;
  if (value === 'auto' || value === 'none' || value === 'required') return value;
  if (isRecord(value) && value['type'] === 'function' && typeof value['name'] === 'string') return { name: value['name'] };
  throw fieldError('tool_choice', 'expected "auto", "none", "required" or { type: "function", name }');
}

function responseFormat(body: JsonRecord): ChatResponseFormat | undefined {
  const text = body['text'];
  if (text === undefined || text === null) return undefined;
  const format = requireRecord(text, 'text')['format'];
  if (format === undefined || format === null) return undefined;
  const spec = requireRecord(format, 'text.format');
  return openAIOutputFormat(spec, 'text.format', () => jsonSchemaFormat(spec, 'text.format', requireRecord(spec['schema'], 'text.format.schema')));
}

/**
 * Parses a Responses API body.
 *
 * @throws {GatewayError} 400 for a non-object body, a missing or empty `input`, `previous_response_id` / `conversation`
 *   (nothing is stored), or a malformed field.
 * @example parseResponsesRequest({ model: 'default', input: 'hi' }).lastUserText // 'hi'
 */
export function parseResponsesRequest(raw: unknown): ParsedChatRequest {
  const body = requestBody(raw);
  for (const key of ['previous_response_id', 'conversation'] as const) {
    if (body[key] !== undefined && body[key] !== null) {
      throw fieldError(key, 'this gateway stores no responses (store: false); send the whole conversation in "input"', 'unsupported_stored_state');
    }
  }
  const messages: ChatMessage[] = [];
  const instructions = optionalString(body, 'instructions', '');
  if (instructions !== undefined && instructions !== '') messages.push({ role: 'system', content: instructions });
  const input = body['input'];
  // OpenAI's own 400 for an empty text input (docs/wire-mapping.md#responses); whitespace is text.
  if (input === '') throw fieldError('input', 'empty string; expected a string with at least 1 character (the text to answer) or an array of input items', 'missing_input');
  if (typeof input === 'string') messages.push({ role: 'user', content: input });
  else if (Array.isArray(input)) input.forEach((item, index) => addItem(messages, item, `input[${index}]`));
  else throw fieldError('input', 'required, a string or an array of input items', 'missing_input');
  if (!messages.some((message) => message.role !== 'system')) throw fieldError('input', 'has no message to answer', 'missing_input');
  const last = messages.at(-1);
  const reasoning = body['reasoning'];
  return parsedChatRequest(body, {
    messages,
    streamUsage: true,
    lastUserText: last?.role === 'user' ? textOf(last.content) : undefined,
    options: {
      tools: tools(body),
      toolChoice: toolChoice(body),
      ...sampling(body),
      maxTokens: optionalNumber(body, 'max_output_tokens', '', { integer: true, min: 1 }),
      responseFormat: responseFormat(body),
      reasoning: reasoningEffort(isRecord(reasoning) ? optionalString(reasoning, 'effort', 'reasoning') : undefined),
      parallelToolCalls: optionalBoolean(body, 'parallel_tool_calls', ''),
      ...openAICallerOptions(body),
    },
  });
}
