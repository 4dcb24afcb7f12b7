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

/** Request sizes of the sized figures (`gateway.cpu_ms_per_req.size_1k`, …): suffix and body bytes. */
export const REQUEST_SIZES = Object.freeze([
  { suffix: 'size_1k', bytes: 1_024 },
  { suffix: 'size_100k', bytes: 102_400 },
  { suffix: 'size_1m', bytes: 1_000_000 },
] as const);

/**
 * A non-streamed chat body of `bytes` bytes (at least the plain body's size): the user message carries an agent's
 * context as filler text. 1 MB stays under the gateway's default `gateway.maxRequestBytes` (1 MiB).
 *
 * @example Buffer.byteLength(sizedChatBody(target, 102_400)) // 102400
 */
export function sizedChatBody(target: HttpTarget, bytes: number): string {
  const plain = chatBody(target, false);
  const filler = Math.max(0, bytes - Buffer.byteLength(plain) - 1);
  const body = JSON.parse(plain) as { messages: { role: string; content: string }[] };
  const last = body.messages[body.messages.length - 1];
  if (last !== undefined) last.content = `${last.content} ${'context '.repeat(Math.ceil(filler / 8)).slice(0, filler)}`;
  return JSON.stringify(body);
}
