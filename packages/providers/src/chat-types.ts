/**
 * The one internal chat shape that every wire format translates to and from. The gateway turns OpenAI and
 * Anthropic client requests into a {@link ChatRequest}, a provider client turns it into its own wire format,
 * and answers come back as a {@link ChatResult} (whole) or {@link ChatStreamDelta}s (streamed).
 */

/** The three wire formats a provider can speak (config `models.providers.<id>.api`, docs/configuration.md). */
export type ProviderApi = 'openai-completions' | 'anthropic-messages' | 'google-generative-ai';

/** Every {@link ProviderApi}, in a stable order. */
export const PROVIDER_APIS: readonly ProviderApi[] = Object.freeze([
  'openai-completions',
  'anthropic-messages',
  'google-generative-ai',
]);

/**
 * Where an image comes from: a URL (`https:` or a `data:` URL), or base64 bytes with their media type.
 * Each wire format gets the form it accepts (a `data:` URL becomes base64 where the format needs it).
 */
export type ChatImageSource =
  | { readonly kind: 'url'; readonly url: string }
  | { readonly kind: 'base64'; readonly mediaType: string; readonly data: string };

/** One part of a message's content. */
export type ChatContentPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'image'; readonly source: ChatImageSource };

/** Message content: plain text, or a list of parts. */
export type ChatContent = string | readonly ChatContentPart[];

/** A tool call the model made: `arguments` is the JSON text of the arguments, as the model produced it. */
export interface ChatToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** A tool the model may call; `parameters` is a JSON Schema object. */
export interface ChatTool {
  readonly name: string;
  readonly description?: string | undefined;
  readonly parameters: Readonly<Record<string, unknown>>;
}

/** How the model may use the tools: freely, not at all, at least one, or one named tool. */
export type ChatToolChoice = 'auto' | 'none' | 'required' | { readonly name: string };

/** System instructions (text parts only; images are dropped by formats that do not take them there). */
export interface ChatSystemMessage {
  readonly role: 'system';
  readonly content: ChatContent;
}

/** What the user said. */
export interface ChatUserMessage {
  readonly role: 'user';
  readonly content: ChatContent;
}

/** An earlier answer of the model, with the tool calls it made. */
export interface ChatAssistantMessage {
  readonly role: 'assistant';
  readonly content: ChatContent | null;
  readonly toolCalls?: readonly ChatToolCall[] | undefined;
}

/**
 * The result of one tool call. `name` is the tool's name; when absent it is looked up from the assistant
 * message that made the call (Gemini needs it).
 */
export interface ChatToolMessage {
  readonly role: 'tool';
  readonly toolCallId: string;
  readonly name?: string | undefined;
  readonly content: ChatContent;
}

/** One message of the conversation. */
export type ChatMessage = ChatSystemMessage | ChatUserMessage | ChatAssistantMessage | ChatToolMessage;

/**
 * A chat request in the internal shape.
 *
 * - `model`: the provider's own model id, without the `provider/` prefix.
 * - `maxTokens`: output token limit; Anthropic requires one, so its client falls back to its
 *   `defaultMaxTokens` option.
 * - `stream`: what the caller asked for. Informational: {@link ProviderClient.complete} always sends a
 *   non-streaming request and {@link ProviderClient.stream} a streaming one.
 */
export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly tools?: readonly ChatTool[] | undefined;
  readonly toolChoice?: ChatToolChoice | undefined;
  readonly temperature?: number | undefined;
  readonly topP?: number | undefined;
  readonly maxTokens?: number | undefined;
  readonly stop?: readonly string[] | undefined;
  readonly stream?: boolean | undefined;
}

/**
 * Why the model stopped, normalised across wire formats:
 * `stop` (natural end or stop sequence), `length` (token limit), `tool_calls` (it wants tool results),
 * `content_filter` (a safety filter or refusal), `error` (the provider reported an error as the finish reason),
 * `other` (anything else; the raw value is kept beside it).
 */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error' | 'other';

/** Token usage. `totalTokens` is the provider's figure, or input + output when it gives none. */
export interface ChatUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
}

/**
 * A whole answer.
 *
 * - `model`: the model id the provider says answered (upstream id, may differ from the requested one).
 * - `rawFinishReason`: the provider's own finish reason (`end_turn`, `MAX_TOKENS`, …).
 * - `responseHeaders`: the upstream response headers, lower-cased names.
 */
export interface ChatResult {
  readonly id?: string | undefined;
  readonly model: string;
  readonly text: string;
  readonly toolCalls: readonly ChatToolCall[];
  readonly finishReason: FinishReason;
  readonly rawFinishReason?: string | undefined;
  readonly usage?: ChatUsage | undefined;
  readonly responseHeaders?: Readonly<Record<string, string>> | undefined;
}

/**
 * One normalised piece of a streamed answer.
 *
 * - `text`: more answer text.
 * - `tool_call`: part of the tool call number `index` (0-based, in order of appearance): the first delta of a
 *   call carries `id` and `name`; `argumentsDelta` pieces concatenate to the arguments' JSON text.
 * - `finish`: the model stopped (sent once).
 * - `usage`: token usage so far (the last one wins).
 *
 * `text` and `tool_call` are content deltas: the first of them is the moment output started.
 */
export type ChatStreamDelta =
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'tool_call';
      readonly index: number;
      readonly id?: string | undefined;
      readonly name?: string | undefined;
      readonly argumentsDelta: string;
    }
  | { readonly kind: 'finish'; readonly finishReason: FinishReason; readonly rawFinishReason?: string | undefined }
  | { readonly kind: 'usage'; readonly usage: ChatUsage };

/**
 * True for the deltas that carry answer content (`text`, `tool_call`).
 *
 * @example isContentDelta({ kind: 'text', text: 'Hi' }) // true
 * @example isContentDelta({ kind: 'usage', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } }) // false
 */
export function isContentDelta(delta: ChatStreamDelta): boolean {
  return delta.kind === 'text' || delta.kind === 'tool_call';
}
