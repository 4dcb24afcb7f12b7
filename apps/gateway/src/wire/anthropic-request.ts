/**
 * Anthropic messages request → the internal chat shape (the table in docs/wire-mapping.md). `tool_result`
 * blocks in a user turn become tool messages (followed by the rest of the turn as a user message); `thinking`
 * blocks of earlier answers, documents, server tools and cache hints have no counterpart in the other formats and
 * are left out of the internal shape (a same-format upstream gets them anyway, from the body as sent). A
 * top-level field the Messages API does not take is a 400, as Anthropic answers it.
 */
import type { ChatContentPart, ChatImageSource, ChatMessage, ChatReasoning, ChatResponseFormat, ChatTool, ChatToolCall, ChatToolChoice } from '@understudy/providers';
import type { ParsedChatRequest } from './dialect.js';
import { functionTool, parsedChatRequest, rawMessagesOf, readTools, requestBody, sampling, textOf } from './parsed-request.js';
import type { JsonRecord } from './read-fields.js';
import { fieldError, fieldPath, isRecord, optionalNumber, optionalString, optionalStringList, requireRecord, requireString } from './read-fields.js';
import { describeValue } from './untrusted.js';

function imageSource(block: JsonRecord, path: string): ChatImageSource {
  const source = requireRecord(block['source'], `${path}.source`);
  if (source['type'] === 'base64') {
    return {
      kind: 'base64',
      mediaType: requireString(source, 'media_type', `${path}.source`),
      data: requireString(source, 'data', `${path}.source`),
    };
  }
  if (source['type'] === 'url') return { kind: 'url', url: requireString(source, 'url', `${path}.source`) };
  throw fieldError(`${path}.source.type`, 'expected "base64" or "url"');
}

/** Text and image blocks (what a tool result or a system prompt may hold); `[]` for a block without a counterpart. */
function plainPart(block: JsonRecord, path: string): ChatContentPart[] {
  if (block['type'] === 'text') return [{ kind: 'text', text: requireString(block, 'text', path) }];
  if (block['type'] === 'image') return [{ kind: 'image', source: imageSource(block, path) }];
  if (typeof block['type'] !== 'string') throw fieldError(`${path}.type`, 'expected a block type such as "text" or "image"');
  return [];
}

function blocks(value: unknown, path: string): JsonRecord[] {
  if (typeof value === 'string') return [{ type: 'text', text: value }];
  if (!Array.isArray(value)) throw fieldError(path, 'expected a string or an array of content blocks');
  return value.map((entry, index) => requireRecord(entry, `${path}[${index}]`));
}

function userMessages(content: unknown, path: string): ChatMessage[] {
  const out: ChatMessage[] = [];
  let parts: ChatContentPart[] = [];
  blocks(content, path).forEach((block, index) => {
    const at = `${path}[${index}]`;
    if (block['type'] === 'tool_result') {
      const raw = block['content'];
      const resultParts =
        raw === undefined || raw === null ? [] : blocks(raw, `${at}.content`).flatMap((inner, innerIndex) => plainPart(inner, `${at}.content[${innerIndex}]`));
      const text = resultParts.every((part) => part.kind === 'text') ? resultParts.map((part) => part.text).join('') : undefined;
      out.push({
        role: 'tool',
        toolCallId: requireString(block, 'tool_use_id', at),
        content: text === undefined ? resultParts : text,
        ...(block['is_error'] === true ? { isError: true } : {}),
      });
      return;
    }
    parts.push(...plainPart(block, at));
  });
  if (parts.length > 0) {
    out.push({ role: 'user', content: parts.length === 1 && parts[0]?.kind === 'text' ? parts[0].text : parts });
    parts = [];
  }
  return out;
}

function assistantMessage(content: unknown, path: string): ChatMessage {
  const texts: string[] = [];
  const calls: ChatToolCall[] = [];
  blocks(content, path).forEach((block, index) => {
    const at = `${path}[${index}]`;
    switch (block['type']) {
      case 'text':
        texts.push(requireString(block, 'text', at));
        return;
      case 'tool_use':
        calls.push({ id: requireString(block, 'id', at), name: requireString(block, 'name', at), arguments: JSON.stringify(block['input'] ?? {}) });
        return;
      default:
        // thinking, redacted_thinking, server tool blocks: no counterpart in the other formats.
        if (typeof block['type'] !== 'string') throw fieldError(`${at}.type`, 'expected a block type such as "text" or "tool_use"');
        return;
    }
  });
  return { role: 'assistant', content: texts.length === 0 ? null : texts.join(''), ...(calls.length === 0 ? {} : { toolCalls: calls }) };
}

function systemMessage(body: JsonRecord): ChatMessage | undefined {
  const value = body['system'];
  if (value === undefined || value === null) return undefined;
  const parts = blocks(value, 'system').flatMap((block, index) => plainPart(block, `system[${index}]`));
  const text = parts.map((part) => (part.kind === 'text' ? part.text : '')).join('\n');
  return text === '' ? undefined : { role: 'system', content: text };
}

function tools(body: JsonRecord): ChatTool[] | undefined {
  return readTools(body, '{ name, description?, input_schema }', (tool, path) =>
    // Server tools (web search, code execution, …) run at Anthropic: no counterpart elsewhere.
    tool['type'] !== undefined && tool['type'] !== null && tool['type'] !== 'custom' ? [] : [functionTool(tool, path, 'input_schema')],
  );
}

function toolChoice(body: JsonRecord): ChatToolChoice | undefined {
  const value = body['tool_choice'];
  if (value === undefined || value === null) return undefined;
  const choice = requireRecord(value, 'tool_choice');
  switch (choice['type']) {
    case 'auto':
      return 'auto';
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      return { name: requireString(choice, 'name', 'tool_choice') };
    default:
      throw fieldError('tool_choice.type', 'expected "auto", "any", "tool" or "none"');
  }
}

/** `output_config.format` (and the earlier beta spelling `output_format`): JSON following a schema. */
function responseFormat(body: JsonRecord): ChatResponseFormat | undefined {
  const config = body['output_config'];
  const value = (isRecord(config) ? config['format'] : undefined) ?? body['output_format'];
  if (value === undefined || value === null) return undefined;
  const format = requireRecord(value, 'output_config.format');
  if (format['type'] !== 'json_schema') throw fieldError('output_config.format.type', 'expected "json_schema"');
  const schema = requireRecord(format['schema'], 'output_config.format.schema');
  return { kind: 'json_schema', name: 'output', schema };
}

/** `thinking` (enabled with a budget, adaptive, disabled) and `output_config.effort`. */
function reasoning(body: JsonRecord): ChatReasoning | undefined {
  const config = body['output_config'];
  const effort = isRecord(config) ? optionalString(config, 'effort', 'output_config') : undefined;
  const value = body['thinking'];
  if (value === undefined || value === null) return effort === undefined ? undefined : { effort };
  const thinking = requireRecord(value, 'thinking');
  if (thinking['type'] === 'disabled') return { disabled: true };
  const budget = optionalNumber(thinking, 'budget_tokens', 'thinking', { integer: true, min: 0 });
  return { ...(budget === undefined ? {} : { budgetTokens: budget }), ...(effort === undefined ? { effort: budget === undefined ? 'medium' : undefined } : { effort }) };
}

/**
 * The top-level fields of an Anthropic Messages body: the API's own, generally available and beta (the Messages
 * API reference, as `@anthropic-ai/sdk` 0.137 types them; its header params `betas`, `user_profile_id` and
 * `workspace_id` are not body fields), and the gateway's `understudy` extension. `POST /v1/messages/count_tokens`
 * takes the same ones (its same-format upstream gets only the fields its endpoint takes, packages/providers).
 */
const MESSAGES_FIELDS: ReadonlySet<string> = new Set([
  'model',
  'messages',
  'max_tokens',
  'system',
  'metadata',
  'stop_sequences',
  'stream',
  'temperature',
  'top_p',
  'top_k',
  'tools',
  'tool_choice',
  'thinking',
  'service_tier',
  'output_config',
  'output_format',
  'cache_control',
  'container',
  'inference_geo',
  'speed',
  'diagnostics',
  'context_management',
  'compaction',
  'mcp_servers',
  'fallbacks',
  'fallback_credit_token',
  'understudy',
]);

/** The fix for a field of OpenAI's formats that Anthropic's has not (any other unknown field: remove it). */
const ANTHROPIC_SPELLING: ReadonlyMap<string, string> = new Map([
  ['n', 'Anthropic answers with one message per request; send the request again for another'],
  ['response_format', 'use output_config.format ({ "type": "json_schema", "schema": … })'],
  ['stop', 'use stop_sequences'],
  ['max_completion_tokens', 'use max_tokens'],
  ['reasoning_effort', 'use output_config.effort or thinking'],
  ['reasoning', 'use output_config.effort or thinking'],
  ['user', 'use metadata.user_id'],
  ['parallel_tool_calls', 'use tool_choice.disable_parallel_tool_use'],
  ['stream_options', 'a streamed answer always reports its usage; remove it'],
]);

/**
 * Refuses a top-level field the Anthropic Messages API does not take, as the API does: a 400 whose message starts
 * with the field and Anthropic's own words, `<field>: Extra inputs are not permitted`, then the fix. The field is
 * shown as {@link fieldPath} writes it (quoted and cut when it is not a plain name), never its value.
 *
 * @throws {GatewayError} 400 naming the first unknown field.
 */
function refuseUnknownFields(body: JsonRecord): void {
  for (const key of Object.keys(body)) {
    if (MESSAGES_FIELDS.has(key)) continue;
    const fix = ANTHROPIC_SPELLING.get(key) ?? 'the Anthropic Messages API has no such field; remove it';
    throw fieldError(fieldPath('', key), `Extra inputs are not permitted (${fix})`);
  }
}

/**
 * Parses an Anthropic messages body.
 *
 * @throws {GatewayError} 400 for a non-object body, a top-level field the Messages API does not take (e.g.
 *   OpenAI's `n`, `response_format`, `frequency_penalty`), missing or empty `messages`, or a malformed field.
 * @example parseAnthropicRequest({ model: 'default', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }).lastUserText // 'hi'
 */
export function parseAnthropicRequest(input: unknown): ParsedChatRequest {
  const body = requestBody(input);
  refuseUnknownFields(body);
  const rawMessages = rawMessagesOf(body);
  const messages: ChatMessage[] = [];
  const system = systemMessage(body);
  if (system !== undefined) messages.push(system);
  let lastUserText: string | undefined;
  rawMessages.forEach((entry, index) => {
    const path = `messages[${index}]`;
    const record = requireRecord(entry, path);
    const role = record['role'];
    if (role === 'user') {
      const converted = userMessages(record['content'], `${path}.content`);
      messages.push(...converted);
      const last = converted[converted.length - 1];
      const onlyText = converted.length === 1 && last?.role === 'user';
      lastUserText = onlyText ? textOf(last.content) : undefined;
    } else if (role === 'assistant') {
      messages.push(assistantMessage(record['content'], `${path}.content`));
      lastUserText = undefined;
    } else {
      throw fieldError(`${path}.role`, `${describeValue(role)} is not supported; use "user" or "assistant" (system goes in "system")`);
    }
  });
  const metadata = body['metadata'];
  const choice = body['tool_choice'];
  return parsedChatRequest(body, {
    messages,
    streamUsage: true,
    lastUserText,
    options: {
      tools: tools(body),
      toolChoice: toolChoice(body),
      ...sampling(body),
      topK: optionalNumber(body, 'top_k', '', { integer: true, min: 0 }),
      maxTokens: optionalNumber(body, 'max_tokens', '', { integer: true, min: 1 }),
      stop: optionalStringList(body, 'stop_sequences', ''),
      responseFormat: responseFormat(body),
      reasoning: reasoning(body),
      parallelToolCalls: isRecord(choice) && choice['disable_parallel_tool_use'] === true ? false : undefined,
      user: isRecord(metadata) ? optionalString(metadata, 'user_id', 'metadata') : undefined,
    },
  });
}
