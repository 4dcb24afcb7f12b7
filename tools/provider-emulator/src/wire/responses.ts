/** The OpenAI Responses API as the emulator writes it (whole `response` objects and the typed event stream). */
import type { Answer, StreamFrames, WireWriter } from './answer.js';
import { dataFrame } from './answer.js';

function usage(answer: Answer): Record<string, unknown> {
  return {
    input_tokens: answer.inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: answer.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: answer.inputTokens + answer.outputTokens,
  };
}

function output(answer: Answer): Record<string, unknown>[] {
  const text = answer.chunks.join('');
  return [
    ...(text === '' && answer.toolCalls.length > 0
      ? []
      : [{ type: 'message', id: `msg_${answer.id}`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] }]),
    ...answer.toolCalls.map((call, index) => ({
      type: 'function_call',
      id: `fc_${answer.id}_${index}`,
      call_id: call.id,
      name: call.name,
      arguments: call.arguments,
      status: 'completed',
    })),
  ];
}

function response(answer: Answer, status: string, items: Record<string, unknown>[], withUsage: boolean): Record<string, unknown> {
  const incomplete = answer.finishReason === 'max_output_tokens';
  return {
    id: answer.id,
    object: 'response',
    created_at: answer.createdSeconds,
    status: status === 'completed' && incomplete ? 'incomplete' : status,
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    error: null,
    model: answer.model,
    output: items,
    usage: withUsage ? usage(answer) : null,
  };
}

export const responsesWriter: WireWriter = {
  api: 'openai-responses',

  wholeBody(answer) {
    return response(answer, 'completed', output(answer), true);
  },

  streamFrames(answer): StreamFrames {
    let sequence = 0;
    const event = (type: string, body: Record<string, unknown>): string => dataFrame({ type, sequence_number: sequence++, ...body }, type);
    const prelude = [event('response.created', { response: response(answer, 'in_progress', [], false) })];
    const content: string[] = [];
    const messageId = `msg_${answer.id}`;
    if (answer.chunks.length > 0) {
      // The item opens before the first content frame, so that fault positions count text deltas only.
      prelude.push(
        event('response.output_item.added', { output_index: 0, item: { type: 'message', id: messageId, status: 'in_progress', role: 'assistant', content: [] } }),
      );
      for (const text of answer.chunks) content.push(event('response.output_text.delta', { item_id: messageId, output_index: 0, content_index: 0, delta: text }));
    }
    answer.toolCalls.forEach((call, index) => {
      const id = `fc_${answer.id}_${index}`;
      const outputIndex = (answer.chunks.length > 0 ? 1 : 0) + index;
      content.push(
        event('response.output_item.added', {
          output_index: outputIndex,
          item: { type: 'function_call', id, call_id: call.id, name: call.name, arguments: '', status: 'in_progress' },
        }),
        event('response.function_call_arguments.delta', { item_id: id, output_index: outputIndex, delta: call.arguments }),
      );
    });
    // `response.completed` carries the finish and the usage: like Gemini's last chunk, it is the end itself.
    return {
      prelude,
      content,
      trailer: [event('response.completed', { response: response(answer, 'completed', output(answer), true) })],
      terminator: undefined,
    };
  },

  malformedFrame() {
    return 'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"tru\n\n';
  },

  errorFrame(data) {
    return dataFrame(data ?? { type: 'error', code: 'server_error', message: 'The server had an error while processing your request.', param: null }, 'error');
  },
};
