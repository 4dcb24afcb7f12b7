import type { ProviderApi } from '../chat-types.js';
import { anthropicMessages } from './anthropic-messages.js';
import { googleGenerativeAi } from './google-generative-ai.js';
import { openAiCompletions } from './openai-completions.js';
import { openAiResponses } from './openai-responses.js';
import type { WireFormat } from './wire-format.js';

const FORMATS: Readonly<Record<ProviderApi, WireFormat>> = {
  'openai-completions': openAiCompletions,
  'openai-responses': openAiResponses,
  'anthropic-messages': anthropicMessages,
  'google-generative-ai': googleGenerativeAi,
};

/** The wire format of an api, or `undefined` for an unknown api name. */
export function wireFormatFor(api: string): WireFormat | undefined {
  return Object.hasOwn(FORMATS, api) ? FORMATS[api as ProviderApi] : undefined;
}
