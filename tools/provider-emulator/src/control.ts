/**
 * The emulator's control API, as one table: the paths the server answers under `/__` and the shapes it answers
 * with. The server (server.ts) dispatches on {@link CONTROL_PATHS}; the typed client (client.ts) calls the same
 * paths and reads the same shapes, so the two cannot drift apart. The ready line that `main.ts` prints is here
 * too, for the same reason.
 */

/** The control endpoints: `GET|DELETE requests`, `POST script`, `GET stats`, `GET health`. */
export const CONTROL_PATHS = {
  /** `GET`: every {@link RecordedRequest}, oldest first. `DELETE`: forgets them and the OAuth refresh count. */
  requests: '/__requests',
  /** `POST` a script (JSON or JSON5 text): replaces it and restarts every route's steps; `400 { error }` when invalid. */
  script: '/__script',
  /** `GET`: {@link EmulatorStats}. */
  stats: '/__stats',
  /** `GET`: `{ ok: true }`. */
  health: '/__health',
} as const;

/** One recorded request (secrets left out: keys appear only as their last 4 characters). */
export interface RecordedRequest {
  readonly sequence: number;
  /** Epoch ms when the request arrived. */
  readonly timestamp: number;
  readonly method: string;
  /** Path and query, with any `key=` query parameter removed. */
  readonly path: string;
  /** `openai-completions` | `openai-responses` | `anthropic-messages` | `google-generative-ai` | `oauth` | `device` | `models` | `unknown`. */
  readonly api: string;
  readonly model: string | null;
  readonly stream: boolean;
  readonly keyFingerprint: string | null;
  /** Request headers without authorisation headers. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body: parsed JSON, the token form (refresh token fingerprinted), or raw text. */
  readonly body: unknown;
  /** Index of the route that matched, `null` when none did. */
  readonly route: number | null;
  /** Index of the step played, `null` when none was scripted. */
  readonly step: number | null;
  /** What the emulator sent, e.g. `ok`, `status 429`, `reset`, `cut after 2 chunks`. */
  outcome: string;
  /** Which TCP connection carried the request, numbered from 1 (equal numbers: a reused keep-alive socket). */
  readonly connection: number;
}

/** Counters, as `GET /__stats` answers them. */
export interface EmulatorStats {
  readonly requests: number;
  /** Requests to the OAuth token endpoint, device-code polls excepted. */
  readonly oauthRefreshes: number;
  /** Device logins started at the device-authorization endpoint. */
  readonly deviceLogins: number;
  /** Calls per route of the current script, in script order, since the script was last set. */
  readonly routes: readonly { readonly name: string | null; readonly calls: number }[];
}

/** The one stdout line the emulator process prints once it listens: `{"url":"http://127.0.0.1:PORT"}`. */
export function readyLine(url: string): string {
  return JSON.stringify({ url });
}

/** The URL of a {@link readyLine}, or `undefined` when `line` is not one. */
export function urlOfReadyLine(line: string): string | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(line) as { url?: unknown };
    return typeof value.url === 'string' ? value.url : undefined;
  } catch {
    return undefined;
  }
}
