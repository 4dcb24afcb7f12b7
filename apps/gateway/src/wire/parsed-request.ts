/**
 * The part of request parsing both client wire formats share: once a dialect has turned its messages, tools
 * and options into the internal shape, this assembles the {@link ParsedChatRequest} (the model field, the
 * `understudy.fallbacks` extension, whether an image is present).
 */
import type { ChatMessage, ChatRequest } from '@understudy/providers';
import type { ParsedChatRequest } from './dialect.js';
import type { JsonRecord } from './read-fields.js';
import { readModelField, readUnderstudyExtension } from './read-fields.js';

/** The request options a dialect reads besides the messages (each set only when the client gave it). */
export type ChatOptions = {
  -readonly [K in Exclude<keyof ChatRequest, 'model' | 'messages' | 'stream' | 'native' | 'target'>]?: ChatRequest[K] | undefined;
};

/** What a dialect parsed from its own fields. */
export interface DialectFields {
  readonly messages: ChatMessage[];
  readonly stream: boolean;
  readonly streamUsage: boolean;
  readonly lastUserText: string | undefined;
  readonly options: ChatOptions;
}

/** True when any message carries an image part (the configured image chain then applies). */
export function hasImage(messages: readonly ChatMessage[]): boolean {
  return messages.some(
    (entry) => entry.content !== null && typeof entry.content !== 'string' && entry.content.some((part) => part.kind === 'image'),
  );
}

/** The parsed request of a body whose dialect-specific fields are `fields`. */
export function parsedChatRequest(body: JsonRecord, fields: DialectFields): ParsedChatRequest {
  return {
    model: readModelField(body),
    chat: { ...fields.options, messages: fields.messages, stream: fields.stream },
    stream: fields.stream,
    streamUsage: fields.streamUsage,
    fallbacksOverride: readUnderstudyExtension(body).fallbacks,
    lastUserText: fields.lastUserText,
    hasImages: hasImage(fields.messages),
  };
}
