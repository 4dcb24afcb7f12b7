/** Gemini generateContent / streamGenerateContent (alt=sse) as the emulator writes it. */
import type { Answer, StreamFrames, WireWriter } from './answer.js';
import { argumentsObject, dataFrame } from './answer.js';

function finishReason(answer: Answer): string {
  return answer.finishReason ?? 'STOP';
}

function usageMetadata(answer: Answer, final: boolean): Record<string, number> {
  return final
    ? {
        promptTokenCount: answer.inputTokens,
        candidatesTokenCount: answer.outputTokens,
        totalTokenCount: answer.inputTokens + answer.outputTokens,
      }
    : { promptTokenCount: answer.inputTokens, totalTokenCount: answer.inputTokens };
}

function response(answer: Answer, parts: unknown[], finish: string | undefined): Record<string, unknown> {
  return {
    candidates: [{ content: { parts, role: 'model' }, ...(finish === undefined ? {} : { finishReason: finish }), index: 0 }],
    usageMetadata: usageMetadata(answer, finish !== undefined),
    modelVersion: answer.model,
    responseId: answer.id,
  };
}

function functionCallPart(call: { id: string; name: string; arguments: string }): unknown {
  return { functionCall: { name: call.name, args: argumentsObject(call.arguments) } };
}

export const geminiWriter: WireWriter = {
  api: 'google-generative-ai',

  wholeBody(answer) {
    const text = answer.chunks.join('');
    return response(answer, [...(text === '' ? [] : [{ text }]), ...answer.toolCalls.map(functionCallPart)], finishReason(answer));
  },

  streamFrames(answer): StreamFrames {
    return {
      prelude: [],
      content: [
        ...answer.chunks.map((text) => dataFrame(response(answer, [{ text }], undefined))),
        ...answer.toolCalls.map((call) => dataFrame(response(answer, [functionCallPart(call)], undefined))),
      ],
      trailer: [dataFrame(response(answer, [{ text: '' }], finishReason(answer)))],
      terminator: undefined,
    };
  },

  malformedFrame() {
    return 'data: {"candidates":[{"content":{"parts":[{"text":"tru\n\n';
  },

  errorFrame(data) {
    return dataFrame(data ?? { error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' } });
  },
};
