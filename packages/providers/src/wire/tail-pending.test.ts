/**
 * What each format still owes after its finish reason (`StreamDecoder.tailPending`), which decides whether a
 * finished stream completes at once or gives the owed part a short grace (issue 7: a finish reason without
 * `[DONE]` is finalised at once).
 */
import { describe, expect, it } from 'vitest';
import { anthropicMessages } from './anthropic-messages.js';
import { googleGenerativeAi } from './google-generative-ai.js';
import { openAiCompletions } from './openai-completions.js';
import type { SseEvent, StreamDecoder, StreamDecoderOptions, WireFormat } from './wire-format.js';

const openAiChunk = (fields: Record<string, unknown>): SseEvent => ({
  data: JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'gpt-x', choices: [], ...fields }),
});
const openAiText = openAiChunk({ choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] });
const openAiFinish = openAiChunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
const openAiUsage = openAiChunk({ usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } });
const openAiFinishWithUsage = openAiChunk({
  choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
});
const done: SseEvent = { data: '[DONE]' };

const anthropicEvent = (type: string, fields: Record<string, unknown> = {}): SseEvent => ({ event: type, data: JSON.stringify({ type, ...fields }) });
const anthropicText = anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hi' } });
const anthropicDelta = anthropicEvent('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } });

const geminiChunk = (finishReason?: string): SseEvent => ({
  data: JSON.stringify({
    candidates: [{ content: { role: 'model', parts: [{ text: 'Hi' }] }, ...(finishReason === undefined ? {} : { finishReason }) }],
    ...(finishReason === undefined ? {} : { usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1, totalTokenCount: 4 } }),
  }),
});

/** `tailPending` after each event of `events`. */
function tailAfterEach(format: WireFormat, options: StreamDecoderOptions, events: readonly SseEvent[]): boolean[] {
  const decoder: StreamDecoder = format.createStreamDecoder(options);
  return events.map((event) => {
    decoder.push(event);
    return decoder.tailPending;
  });
}

describe('tailPending: what a finished stream still waits for', () => {
  it.each([
    ['OpenAI owes the usage chunk after the finish when usage was asked for', openAiCompletions, { includeStreamUsage: true }, [openAiText, openAiFinish, openAiUsage, done], [false, true, false, false]],
    ['OpenAI owes nothing when usage was not asked for', openAiCompletions, { includeStreamUsage: false }, [openAiText, openAiFinish, done], [false, false, false]],
    ['OpenAI owes nothing when the finish chunk carries the usage', openAiCompletions, { includeStreamUsage: true }, [openAiText, openAiFinishWithUsage], [false, false]],
    ['OpenAI: a usage figure before the finish is not the final one', openAiCompletions, { includeStreamUsage: true }, [openAiUsage, openAiFinish, openAiUsage], [false, true, false]],
    ['OpenAI: the end marker settles it even without usage', openAiCompletions, { includeStreamUsage: true }, [openAiFinish, done], [true, false]],
    ['Anthropic owes message_stop after message_delta', anthropicMessages, {}, [anthropicText, anthropicDelta, anthropicEvent('message_stop')], [false, true, false]],
    ['Gemini: the finish chunk carries the usage, nothing is owed', googleGenerativeAi, {}, [geminiChunk(), geminiChunk('STOP')], [false, false]],
  ] as const)('%s', (_rule, format, options, events, expected) => {
    expect(tailAfterEach(format, options, events)).toEqual(expected);
  });

  it('OpenAI decoders without includeStreamUsage do not wait for usage', () => {
    expect(tailAfterEach(openAiCompletions, {}, [openAiFinish])).toEqual([false]);
  });
});
