/** OpenAI Chat Completions as the emulator writes it. */
import type { Answer, StreamFrames, WireWriter } from './answer.js';
import { dataFrame } from './answer.js';

function finishReason(answer: Answer): string {
  return answer.finishReason ?? (answer.toolCalls.length > 0 ? 'tool_calls' : 'stop');
}

function usage(answer: Answer): Record<string, number> {
  return {
    prompt_tokens: answer.inputTokens,
    completion_tokens: answer.outputTokens,
    total_tokens: answer.inputTokens + answer.outputTokens,
  };
}

function chunk(answer: Answer, delta: Record<string, unknown>, finish: string | null): Record<string, unknown> {
  return {
    id: answer.id,
    object: 'chat.completion.chunk',
    created: answer.createdSeconds,
    model: answer.model,
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  };
}

export const openAiWriter: WireWriter = {
  api: 'openai-completions',

  wholeBody(answer) {
    const text = answer.chunks.join('');
    return {
      id: answer.id,
      object: 'chat.completion',
      created: answer.createdSeconds,
      model: answer.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: text === '' && answer.toolCalls.length > 0 ? null : text,
            refusal: null,
            ...(answer.toolCalls.length === 0
              ? {}
              : {
                  tool_calls: answer.toolCalls.map((call) => ({
                    id: call.id,
                    type: 'function',
                    function: { name: call.name, arguments: call.arguments },
                  })),
                }),
          },
          logprobs: null,
          finish_reason: finishReason(answer),
        },
      ],
      usage: usage(answer),
      system_fingerprint: null,
    };
  },

  streamFrames(answer): StreamFrames {
    const content = answer.chunks.map((text) => dataFrame(chunk(answer, { content: text }, null)));
    answer.toolCalls.forEach((call, index) => {
      content.push(
        dataFrame(
          chunk(answer, { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }, null),
        ),
        dataFrame(chunk(answer, { tool_calls: [{ index, function: { arguments: call.arguments } }] }, null)),
      );
    });
    const trailer = [dataFrame(chunk(answer, {}, finishReason(answer)))];
    if (answer.includeUsage) {
      trailer.push(
        dataFrame({
          id: answer.id,
          object: 'chat.completion.chunk',
          created: answer.createdSeconds,
          model: answer.model,
          system_fingerprint: null,
          choices: [],
          usage: usage(answer),
        }),
      );
    }
    return {
      prelude: [dataFrame(chunk(answer, { role: 'assistant', content: '', refusal: null }, null))],
      content,
      trailer,
      terminator: 'data: [DONE]\n\n',
    };
  },

  malformedFrame(answer) {
    return `data: {"id":"${answer.id}","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"tru\n\n`;
  },

  errorFrame(data) {
    return dataFrame(data ?? { error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } });
  },
};
