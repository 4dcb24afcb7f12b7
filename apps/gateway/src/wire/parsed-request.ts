/**
 * The part of request parsing both client wire formats share: once a dialect has turned its messages, tools
 * and sampling fields into the internal shape, this assembles the {@link ParsedChatRequest} (the optional fields
 * set only when given, the model field, the `understudy.fallbacks` extension, whether an image is present).
 */
import type { ChatMessage, ChatRequest } from '@understudy/providers';
import type { ParsedChatRequest } from './dialect.js';
import type { JsonRecord } from './read-fields.js';
import { readModelField, readUnderstudyExtension } from './read-fields.js';

/** What a dialect parsed from its own fields. */
export interface DialectFields {
  readonly messages: ChatMessage[];
  readonly stream: boolean;
  readonly streamUsage: boolean;
  readonly lastUserText: string | undefined;
  readonly tools: ChatRequest['tools'] | undefined;
  readonly toolChoice: ChatRequest['toolChoice'] | undefined;
  readonly temperature: number | undefined;
  readonly topP: number | undefined;
  readonly maxTokens: number | undefined;
  readonly stop: string[] | undefined;
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
    chat: {
      messages: fields.messages,
      stream: fields.stream,
      ...(fields.tools === undefined ? {} : { tools: fields.tools }),
      ...(fields.toolChoice === undefined ? {} : { toolChoice: fields.toolChoice }),
      ...(fields.temperature === undefined ? {} : { temperature: fields.temperature }),
      ...(fields.topP === undefined ? {} : { topP: fields.topP }),
      ...(fields.maxTokens === undefined ? {} : { maxTokens: fields.maxTokens }),
      ...(fields.stop === undefined ? {} : { stop: fields.stop }),
    },
    stream: fields.stream,
    streamUsage: fields.streamUsage,
    fallbacksOverride: readUnderstudyExtension(body).fallbacks,
    lastUserText: fields.lastUserText,
    hasImages: hasImage(fields.messages),
  };
}
