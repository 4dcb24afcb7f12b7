/**
 * The one internal chat shape that every wire format translates to and from. The gateway turns OpenAI and
 * Anthropic client requests into a {@link ChatRequest}, a provider client turns it into its own wire format,
 * and answers come back as a {@link ChatResult} (whole) or {@link ChatStreamDelta}s (streamed).
 */

import type { ProviderApi } from '@understudy/contracts';

/** The wire formats a provider can speak: the one list of `@understudy/contracts`. */
export { PROVIDER_APIS } from '@understudy/contracts';
export type { ProviderApi };

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
  | {
      readonly kind: 'image';
      readonly source: ChatImageSource;
      /** OpenAI's `image_url.detail` (`auto`, `low`, `high`); formats without a counterpart drop it. */
      readonly detail?: string | undefined;
    };

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
  /** OpenAI `function.strict` / Anthropic `strict`: the arguments must follow the schema exactly. */
  readonly strict?: boolean | undefined;
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
  /** The tool failed (Anthropic `is_error`); formats without the flag get the text prefixed `Error: `. */
  readonly isError?: boolean | undefined;
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
  /** Anthropic / Gemini `top_k`; OpenAI has no counterpart (dropped). */
  readonly topK?: number | undefined;
  readonly maxTokens?: number | undefined;
  /**
   * How the caller named the output limit: OpenAI's `max_completion_tokens` (reasoning models refuse
   * `max_tokens`) or `max_tokens`. An OpenAI upstream gets the same name back; a reasoning model always gets
   * `max_completion_tokens`.
   */
  readonly maxTokensField?: 'max_tokens' | 'max_completion_tokens' | undefined;
  readonly stop?: readonly string[] | undefined;
  readonly stream?: boolean | undefined;
  /** Structured output: JSON mode, or JSON following a schema. */
  readonly responseFormat?: ChatResponseFormat | undefined;
  /** Reasoning options (effort or a thinking budget). */
  readonly reasoning?: ChatReasoning | undefined;
  /** At most one tool call per answer when `false` (OpenAI `parallel_tool_calls`, Anthropic `disable_parallel_tool_use`). */
  readonly parallelToolCalls?: boolean | undefined;
  readonly seed?: number | undefined;
  /** An end-user id (OpenAI `user`, Anthropic `metadata.user_id`). */
  readonly user?: string | undefined;
  readonly frequencyPenalty?: number | undefined;
  readonly presencePenalty?: number | undefined;
  readonly logprobs?: boolean | undefined;
  readonly topLogprobs?: number | undefined;
  /** The caller's own body, sent as is when the upstream speaks the same format (see {@link NativeRequest}). */
  readonly native?: NativeRequest | undefined;
  /** What the target model accepts (from the model metadata); shapes the request for it. */
  readonly target?: ModelCapabilities | undefined;
}

/** Every wire format understudy reads or writes (each client format is also an upstream api). */
export type WireApi = ProviderApi;

/**
 * A request body as the client sent it, for the same-format fast path: an upstream speaking `api` receives
 * `body` with only its model id replaced, the `understudy` extension removed and the stream options the
 * gateway needs added (docs/wire-mapping.md). `headers` are the client's format headers to forward
 * (`anthropic-beta`, `anthropic-version`, `openai-beta`), lower-cased.
 */
export interface NativeRequest {
  readonly api: WireApi;
  readonly body: Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/** What a target model accepts, as the model metadata says (`undefined`: unknown, send unchanged). */
export interface ModelCapabilities {
  /** A reasoning model: OpenAI ones refuse `max_tokens`, `temperature`, `top_p`, penalties and logprobs. */
  readonly reasoning?: boolean | undefined;
  /** Highest temperature the model accepts; a higher one is clamped to it. */
  readonly maxTemperature?: number | undefined;
}

/**
 * Structured output. `json_object`: any JSON object; `json_schema`: JSON following `schema` (`name` as the
 * caller gave it, `strict` as OpenAI's flag).
 */
export type ChatResponseFormat =
  | { readonly kind: 'json_object' }
  | {
      readonly kind: 'json_schema';
      readonly name: string;
      readonly schema: Readonly<Record<string, unknown>>;
      readonly description?: string | undefined;
      readonly strict?: boolean | undefined;
    };

/**
 * Reasoning: `effort` (OpenAI `reasoning_effort`: `minimal`, `low`, `medium`, `high`, …), `budgetTokens`
 * (Anthropic `thinking.budget_tokens`, Gemini `thinkingBudget`), or `disabled`. Each format gets its own field,
 * the other one derived by the table in docs/wire-mapping.md.
 */
export interface ChatReasoning {
  readonly effort?: string | undefined;
  readonly budgetTokens?: number | undefined;
  readonly disabled?: boolean | undefined;
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
  /** Of `inputTokens`, how many were read from the provider's prompt cache. */
  readonly cachedInputTokens?: number | undefined;
  /** Of `inputTokens`, how many were written to the prompt cache (Anthropic `cache_creation_input_tokens`). */
  readonly cacheWriteInputTokens?: number | undefined;
  /** Of `outputTokens`, how many were reasoning (thinking) tokens. */
  readonly reasoningTokens?: number | undefined;
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
  /** Which of the request's stop sequences ended the answer, when the provider says (Anthropic `stop_sequence`). */
  readonly stopSequence?: string | undefined;
  /**
   * The upstream's own response body, kept when the request went out in its client's format
   * ({@link ChatRequest.native}): the gateway then answers with it (model name and understudy fields added).
   */
  readonly native?: { readonly api: WireApi; readonly body: Readonly<Record<string, unknown>> } | undefined;
}

/**
 * One normalised piece of a streamed answer.
 *
 * - `text`: more answer text.
 * - `tool_call`: part of the tool call number `index` (0-based, in order of appearance): the first delta of a
 *   call carries `id` and `name`; `argumentsDelta` pieces concatenate to the arguments' JSON text.
 * - `finish`: the model stopped (sent once).
 * - `usage`: token usage so far (the last one wins).
 * - `native`: one upstream SSE event as received, sent after the deltas decoded from it, only for a request
 *   sent in its client's own format ({@link ChatRequest.native}); a client in that format is answered with these,
 *   every other consumer ignores them.
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
  | {
      readonly kind: 'finish';
      readonly finishReason: FinishReason;
      readonly rawFinishReason?: string | undefined;
      readonly stopSequence?: string | undefined;
    }
  | { readonly kind: 'usage'; readonly usage: ChatUsage }
  | { readonly kind: 'native'; readonly event?: string | undefined; readonly data: string };

/**
 * True for the deltas that carry answer content (`text`, `tool_call`).
 *
 * @example isContentDelta({ kind: 'text', text: 'Hi' }) // true
 * @example isContentDelta({ kind: 'usage', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } }) // false
 */
export function isContentDelta(delta: ChatStreamDelta): boolean {
  return delta.kind === 'text' || delta.kind === 'tool_call';
}
