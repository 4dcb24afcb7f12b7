/**
 * An HTTP path under test (direct, bare proxy, understudy, Portkey) and the chat request every path is sent:
 * the same small OpenAI chat-completions body, with the model name and headers each path needs.
 */

/** One path to the upstream. */
export interface HttpTarget {
  /** Short name used in figures and logs: `direct`, `bare-proxy`, `understudy`, `understudy-cooling`, `portkey`. */
  readonly name: string;
  /** Origin, e.g. `http://127.0.0.1:4317`. */
  readonly origin: string;
  /** Request path, e.g. `/v1/chat/completions`. */
  readonly path: string;
  /** Headers sent with every request (content type included). */
  readonly headers: Readonly<Record<string, string>>;
  /** The `model` field: `bench-model` upstream, `default` (the agent's chain) through understudy. */
  readonly model: string;
  /** Process to watch for RSS, when the target is a proxy the bench started. */
  readonly pid?: number;
}

/**
 * The JSON body of a chat request to `target`.
 *
 * @example JSON.parse(chatBody(target, true)).stream // true
 */
export function chatBody(target: HttpTarget, stream: boolean): string {
  return JSON.stringify({
    model: target.model,
    messages: [
      { role: 'system', content: 'You are a terse assistant.' },
      { role: 'user', content: 'Say hello in five words.' },
    ],
    max_tokens: 32,
    stream,
  });
}
