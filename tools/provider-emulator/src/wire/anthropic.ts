/** Anthropic Messages as the emulator writes it. */
import type { Answer, StreamFrames, WireWriter } from './answer.js';
import { argumentsObject, dataFrame } from './answer.js';

function stopReason(answer: Answer): string {
  return answer.finishReason ?? (answer.toolCalls.length > 0 ? 'tool_use' : 'end_turn');
}

function event(type: string, body: Record<string, unknown>): string {
  return dataFrame({ type, ...body }, type);
}

export const anthropicWriter: WireWriter = {
  api: 'anthropic-messages',

  wholeBody(answer) {
    const text = answer.chunks.join('');
    return {
      id: answer.id,
      type: 'message',
      role: 'assistant',
      model: answer.model,
      content: [
        ...(text === '' ? [] : [{ type: 'text', text }]),
        ...answer.toolCalls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: argumentsObject(call.arguments) })),
      ],
      stop_reason: stopReason(answer),
      stop_sequence: null,
      usage: { input_tokens: answer.inputTokens, output_tokens: answer.outputTokens },
    };
  },

  streamFrames(answer): StreamFrames {
    const prelude = [
      event('message_start', {
        message: {
          id: answer.id,
          type: 'message',
          role: 'assistant',
          model: answer.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: answer.inputTokens, output_tokens: 1 },
        },
      }),
    ];
    const content: string[] = [];
    const trailer: string[] = [];
    let blockIndex = 0;
    const hasText = answer.chunks.length > 0;
    if (hasText) {
      prelude.push(event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }), event('ping', {}));
      for (const text of answer.chunks) {
        content.push(event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }));
      }
      blockIndex = 1;
    }
    answer.toolCalls.forEach((call, position) => {
      const index = blockIndex + position;
      if (position === 0 && hasText) content.push(event('content_block_stop', { index: 0 }));
      if (position > 0) content.push(event('content_block_stop', { index: index - 1 }));
      content.push(
        event('content_block_start', { index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } }),
        event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: call.arguments } }),
      );
    });
    const lastIndex = blockIndex + answer.toolCalls.length - 1;
    if (hasText || answer.toolCalls.length > 0) trailer.push(event('content_block_stop', { index: lastIndex }));
    trailer.push(
      event('message_delta', {
        delta: { stop_reason: stopReason(answer), stop_sequence: null },
        usage: { output_tokens: answer.outputTokens },
      }),
    );
    return { prelude, content, trailer, terminator: event('message_stop', {}) };
  },

  malformedFrame() {
    return 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"tru\n\n';
  },

  errorFrame(data) {
    return dataFrame(data ?? { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'error');
  },
};
