/**
 * What the real APIs refuse with a 400, so that a gateway test sees the error a real provider would send:
 * Anthropic's temperature above 1, tool-use ids outside `^[a-zA-Z0-9_-]+$`, a missing `max_tokens`, thinking
 * with a forced tool choice; OpenAI reasoning models (o-series, gpt-5) refusing `max_tokens` and sampling
 * options; `parallel_tool_calls` without tools; Gemini's temperature above 2.
 */
import type { EmulatorApi } from './script.js';

/** A refusal: status and the format's own error body. */
export interface Refusal {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

const ANTHROPIC_TOOL_ID = /^[a-zA-Z0-9_-]+$/;
const OPENAI_REASONING_MODEL = /^(o\d|gpt-5)/;

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function anthropicError(message: string): Refusal {
  return { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message } } };
}

function openAiError(message: string, param: string): Refusal {
  return { status: 400, body: { error: { message, type: 'invalid_request_error', param, code: 'unsupported_parameter' } } };
}

function anthropicRefusal(body: Record<string, unknown>): Refusal | undefined {
  if (typeof body['max_tokens'] !== 'number') return anthropicError('max_tokens: Field required');
  const temperature = body['temperature'];
  if (typeof temperature === 'number' && (temperature < 0 || temperature > 1)) {
    return anthropicError('temperature: range: 0..1');
  }
  const messages = Array.isArray(body['messages']) ? body['messages'] : [];
  for (const [index, message] of messages.entries()) {
    const content = record(message)['content'];
    if (!Array.isArray(content)) continue;
    for (const [blockIndex, block] of content.entries()) {
      const fields = record(block);
      const id = fields['type'] === 'tool_use' ? fields['id'] : fields['type'] === 'tool_result' ? fields['tool_use_id'] : undefined;
      if (typeof id === 'string' && !ANTHROPIC_TOOL_ID.test(id)) {
        const key = fields['type'] === 'tool_use' ? 'id' : 'tool_use_id';
        return anthropicError(`messages.${index}.content.${blockIndex}.${fields['type']}.${key}: String should match pattern '^[a-zA-Z0-9_-]+$'`);
      }
    }
  }
  const thinking = record(body['thinking']);
  const choice = record(body['tool_choice']);
  if (thinking['type'] === 'enabled' && (choice['type'] === 'any' || choice['type'] === 'tool')) {
    return anthropicError('Thinking may not be enabled when tool_choice forces tool use.');
  }
  return undefined;
}

function openAiRefusal(model: string, body: Record<string, unknown>): Refusal | undefined {
  if (OPENAI_REASONING_MODEL.test(model)) {
    if (body['max_tokens'] !== undefined) {
      return openAiError("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", 'max_tokens');
    }
    for (const key of ['temperature', 'top_p', 'presence_penalty', 'frequency_penalty', 'logprobs']) {
      if (body[key] !== undefined && !(key === 'temperature' && body[key] === 1)) {
        return openAiError(`Unsupported parameter: '${key}' is not supported with this model.`, key);
      }
    }
  }
  if (body['parallel_tool_calls'] !== undefined && !(Array.isArray(body['tools']) && body['tools'].length > 0)) {
    return openAiError("Invalid value for 'parallel_tool_calls': only allowed when 'tools' are specified.", 'parallel_tool_calls');
  }
  const temperature = body['temperature'];
  if (typeof temperature === 'number' && (temperature < 0 || temperature > 2)) {
    return openAiError("Invalid 'temperature': decimal above maximum value. Expected a value <= 2.", 'temperature');
  }
  return undefined;
}

function geminiRefusal(body: Record<string, unknown>): Refusal | undefined {
  const temperature = record(body['generationConfig'])['temperature'];
  if (typeof temperature === 'number' && (temperature < 0 || temperature > 2)) {
    return {
      status: 400,
      body: { error: { code: 400, message: 'Unable to submit request because it has a temperature value outside the range [0, 2].', status: 'INVALID_ARGUMENT' } },
    };
  }
  return undefined;
}

/**
 * The 400 a real provider of `api` would send for this request body, or `undefined` when it would take it.
 *
 * @example realApiRefusal('anthropic-messages', 'claude', { max_tokens: 1, temperature: 1.5, messages: [] })?.status // 400
 */
export function realApiRefusal(api: EmulatorApi, model: string, body: unknown): Refusal | undefined {
  const fields = record(body);
  switch (api) {
    case 'anthropic-messages':
      return anthropicRefusal(fields);
    case 'openai-completions':
      return openAiRefusal(model, fields);
    case 'google-generative-ai':
      return geminiRefusal(fields);
    default:
      return undefined;
  }
}
