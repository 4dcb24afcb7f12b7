/**
 * The gateway's logger: pino, JSON lines on stderr (stdout carries only the `{"url": …}` ready line), pretty
 * when stderr is a terminal. Secrets are kept out twice: `redact.paths` covers every field name a key could
 * sit under, and string values are scrubbed of anything shaped like a provider key or a bearer token, so a
 * provider error that echoes a key cannot leak it into a log line.
 */
import { pino } from 'pino';
import type { Logger as PinoLogger, LevelWithSilent } from 'pino';
import { createRequire } from 'node:module';
import type PinoPretty from 'pino-pretty';
import type { Logger } from '@understudy/contracts';
import { redactUrlsInText } from '@understudy/contracts';

/** Field names a secret could sit under, redacted wherever they appear at the top level of a log line. */
const SECRET_FIELDS = [
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'x-goog-api-key',
  'cookie',
  'apiKey',
  'api_key',
  'key',
  'access',
  'refresh',
  'token',
  'accessToken',
  'refreshToken',
  'access_token',
  'refresh_token',
  'adminToken',
  'clientSecret',
  'client_secret',
  'secret',
  'password',
  'credential',
];

/** Nested places a secret could sit in the objects the gateway and its packages log. */
const NESTED_SECRET_PATHS = [
  'headers.authorization',
  'headers["x-api-key"]',
  'headers["x-goog-api-key"]',
  'headers.cookie',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'request.headers.authorization',
  'request.headers["x-api-key"]',
  'credential.key',
  'credential.access',
  'credential.refresh',
  'credential.token',
  'profile.credential',
  'provider.apiKey',
  'auth.token',
  'auth.adminToken',
  'gateway.auth.token',
  'gateway.auth.adminToken',
  'config.gateway.auth',
  'config.models.providers',
  'err.headers',
  'err.config',
  'err.request',
  'failure.headers.authorization',
  'failure.headers["x-api-key"]',
];

/**
 * Every path pino redacts: each secret field name at the top level, and the nested places listed above.
 * Explicit paths, no deep wildcards: pino's wildcard redaction costs half a millisecond per line, which the
 * request path cannot afford. Strings everywhere are scrubbed as well (see {@link scrubSecrets}).
 */
const REDACT_PATHS: readonly string[] = Object.freeze([
  ...SECRET_FIELDS.map((field) => (/^[A-Za-z_$][\w$]*$/.test(field) ? field : `["${field}"]`)),
  ...NESTED_SECRET_PATHS,
]);

/** Shapes of provider keys and bearer tokens, scrubbed from every logged string. */
const SECRET_PATTERN =
  /\b(?:sk-[A-Za-z0-9_-]{6,}|sk_[A-Za-z0-9_-]{12,}|gsk_[A-Za-z0-9]{8,}|xai-[A-Za-z0-9]{8,}|AIza[0-9A-Za-z_-]{20,}|pk-[A-Za-z0-9_-]{12,})|(?<=\bBearer\s+)[A-Za-z0-9._~+/=-]{8,}/g;

/** Every match of {@link SECRET_PATTERN} contains one of these literals (`Bearer` precedes a token match). */
const SECRET_HINT = /sk-|sk_|gsk_|xai-|AIza|pk-|Bearer/;

/** The shortest string {@link SECRET_PATTERN} can match (`sk-` and 6 more characters; `Bearer ` and 8). */
const MIN_SECRET_LENGTH = 9;

/**
 * A string with every key- or token-shaped part, and every URL's userinfo and key-like query value, replaced
 * by `***` (the same string when it has none).
 *
 * @example scrubSecrets('Incorrect API key provided: sk-test-1234abcd') // 'Incorrect API key provided: ***'
 */
export function scrubSecrets(text: string): string {
  // Most logged strings (methods, paths, model refs, ids) are short or carry none of the prefixes: a length
  // check and one literal-only test settle those without running the full pattern's replace.
  if (text.length < MIN_SECRET_LENGTH) return text;
  // A URL's userinfo and key-like query values (`http://user:PASS@host/v1?key=…`) are masked too.
  const urls = redactUrlsInText(text);
  if (!SECRET_HINT.test(urls)) return urls;
  return urls.replace(SECRET_PATTERN, '***');
}

/** The fields of an error copied into a log line: identifiers, never bodies, headers or requests. */
const ERROR_FIELDS = ['name', 'code', 'errno', 'syscall', 'status', 'kind', 'reason'] as const;

/**
 * A copy of an error with every string scrubbed: same prototype (so pino's serializer still names its class),
 * a few identifying fields ({@link ERROR_FIELDS}), the message, the stack and the cause chain — so a log line
 * keeps the real cause of an internal error without ever carrying a key or a provider body.
 */
function scrubError(error: Error, depth: number): Error {
  const copy = Object.create(Object.getPrototypeOf(error) as object | null) as Error;
  const fields = error as unknown as Record<string, unknown>;
  const copied = copy as unknown as Record<string, unknown>;
  for (const key of ERROR_FIELDS) {
    const entry = Object.hasOwn(error, key) ? fields[key] : undefined;
    if (typeof entry === 'string' || typeof entry === 'number') copied[key] = typeof entry === 'string' ? scrubSecrets(entry) : entry;
  }
  const hidden = (value: unknown): PropertyDescriptor => ({ value, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(copy, 'message', hidden(scrubSecrets(error.message)));
  Object.defineProperty(copy, 'stack', hidden(scrubSecrets(error.stack ?? '')));
  if (error.cause !== undefined) Object.defineProperty(copy, 'cause', hidden(scrubValue(error.cause, depth + 1)));
  return copy;
}

function scrubValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return scrubSecrets(value);
  if (typeof value !== 'object' || value === null) return value;
  // An error is copied scrubbed at any depth (a cause chain can be long); only a very deep chain is cut.
  if (value instanceof Error) return depth >= 12 ? { type: value.name, message: scrubSecrets(value.message) } : scrubError(value, depth);
  if (depth >= 4) return value;
  if (Array.isArray(value)) {
    const scrubbed = value.map((entry: unknown) => scrubValue(entry, depth + 1));
    return scrubbed.every((entry, index) => entry === value[index]) ? value : scrubbed;
  }
  // Copy on write: a record with nothing to scrub (the access log line's fixed fields) is logged as it is.
  const record = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  const keys = Object.keys(record);
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    const entry = record[key];
    const scrubbed = scrubValue(entry, depth + 1);
    if (out === undefined && scrubbed !== entry) {
      out = {};
      for (let before = 0; before < index; before += 1) out[keys[before] as string] = record[keys[before] as string];
    }
    if (out !== undefined) out[key] = scrubbed;
  }
  return out ?? value;
}

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** @default 'info' */
  readonly level?: LevelWithSilent | undefined;
  /** Pretty-print (only when stderr is a terminal). @default false */
  readonly pretty?: boolean | undefined;
  /**
   * Where lines go (tests). @default stderr (fd 2), buffered up to {@link LOG_BUFFER_BYTES} or
   * {@link LOG_FLUSH_INTERVAL_MS} and written asynchronously (call {@link flushLogger} before exiting)
   */
  readonly destination?: NodeJS.WritableStream | undefined;
}

/**
 * The gateway's pino logger.
 *
 * @example const logger = createLogger({ level: 'info', pretty: process.stderr.isTTY })
 */
export function createLogger(options: LoggerOptions = {}): PinoLogger {
  // Asynchronous and buffered (the default destination only): lines collect until LOG_BUFFER_BYTES are waiting
  // (then one write takes them all), or for at most LOG_FLUSH_INTERVAL_MS, so a busy gateway pays one system
  // call per a dozen access lines instead of one per line. A warning or an error is written at once, with the
  // lines before it. `flushLogger` writes what is left before the process exits; an exit it does not see (an
  // uncaught error) still writes the buffer synchronously (pino's exit hook calls `flushSync`).
  const buffered =
    options.destination === undefined && options.pretty !== true
      ? pino.destination({ dest: 2, sync: false, minLength: LOG_BUFFER_BYTES, periodicFlush: LOG_FLUSH_INTERVAL_MS })
      : undefined;
  const settings = {
    level: options.level ?? 'info',
    base: { name: 'understudy-gateway' },
    redact: { paths: [...REDACT_PATHS], censor: '***' },
    formatters: { log: (object: Record<string, unknown>) => scrubValue(object, 0) as Record<string, unknown> },
    hooks: {
      logMethod(this: PinoLogger, args: Parameters<PinoLogger['info']>, method: (...rest: unknown[]) => void, level: number) {
        method.apply(this, args.map((arg) => (typeof arg === 'string' ? scrubSecrets(arg) : arg)));
        if (buffered !== undefined && level >= WRITE_AT_ONCE_LEVEL) writeOut(buffered);
      },
    },
  };
  if (options.destination !== undefined) return pino(settings, options.destination);
  if (options.pretty === true) {
    // Loaded only for a terminal: a gateway whose stderr is a file or a pipe never needs it (start-up time and memory).
    const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
    return pino(settings, pretty({ destination: 2, sync: true, colorize: true }));
  }
  return pino(settings, buffered);
}

/** pino's level number of `warn`: lines at this level and above are not kept in the buffer. */
const WRITE_AT_ONCE_LEVEL = 40;

/** Starts writing the destination's buffer; a destination that was closed is left alone (logging never throws). */
function writeOut(destination: { flush(): void }): void {
  try {
    destination.flush();
  } catch {
    // Destroyed (shutdown finished): nothing more can be written.
  }
}

/** Bytes of log lines the default destination collects before it writes them in one system call (≈ 15 access lines). */
const LOG_BUFFER_BYTES = 4096;

/** Longest a line waits in the default destination's buffer before it is written, ms. */
export const LOG_FLUSH_INTERVAL_MS = 200;

/**
 * Writes out buffered log lines (call before `process.exit`), waiting at most `timeoutMs`. It never rejects
 * and never waits longer: a log destination that stopped taking data (stderr a pipe whose reader is gone, where
 * pino drops every write after EPIPE and the flush callback never comes) must not hold the process.
 *
 * @param timeoutMs - longest wait, ms. @default 1000
 */
export function flushLogger(logger: PinoLogger, timeoutMs = 1000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    const done = (): void => {
      clearTimeout(timer);
      resolve();
    };
    try {
      logger.flush(done);
    } catch {
      done();
    }
  });
}

/** The contracts' `Logger` port over pino (fields first, then the message). */
export function loggerPort(logger: PinoLogger): Logger {
  return {
    debug: (fields, message) => logger.debug(fields, message),
    info: (fields, message) => logger.info(fields, message),
    warn: (fields, message) => logger.warn(fields, message),
    error: (fields, message) => logger.error(fields, message),
  };
}
