/**
 * Parsing the config once at the edge: `parseConfig` / `safeParseConfig` and the JSON Schema export
 * used by `understudy config schema` (docs/configuration.md).
 */
import * as z from 'zod';
import type { UnderstudyConfig } from './config-schema.js';
import { configSchema } from './config-schema.js';
import type { ConfigIssue } from './errors.js';
import { ConfigError } from './errors.js';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `auth.order.openai`, `agents.defaults.models["openai/gpt-4o"].alias`, `agents.defaults.model.fallbacks[1]`. */
export function formatConfigPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (typeof part === 'string' && IDENTIFIER.test(part)) out += out === '' ? part : `.${part}`;
    else out += `[${JSON.stringify(String(part))}]`;
  }
  return out === '' ? '(root)' : out;
}

function describeReceived(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'an array';
  // Values are not echoed: a misplaced secret must not reach an error message.
  return `a ${typeof input}`;
}

function describeBound(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig): string {
  const small = issue.code === 'too_small';
  const limit = small ? issue.minimum : issue.maximum;
  const inclusive = issue.inclusive !== false;
  if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint') {
    return `must be ${small ? (inclusive ? 'at least' : 'greater than') : inclusive ? 'at most' : 'less than'} ${String(limit)}`;
  }
  const unit = issue.origin === 'string' ? 'character' : 'item';
  return `must have ${small ? 'at least' : 'at most'} ${String(limit)} ${unit}${Number(limit) === 1 ? '' : 's'}`;
}

/** One zod issue as path + message-with-fix. */
function toConfigIssues(issue: z.core.$ZodIssue): ConfigIssue[] {
  const path = formatConfigPath(issue.path);
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({
        path: formatConfigPath([...issue.path, key]),
        message: 'unknown key: remove it or fix its spelling (`understudy config schema` lists the valid keys)',
      }));
    case 'invalid_type':
      return [
        {
          path,
          message:
            issue.input === undefined
              ? `required: add a ${issue.expected}`
              : `expected ${issue.expected}, got ${describeReceived(issue.input)}: write a ${issue.expected}`,
        },
      ];
    case 'invalid_value':
      return [
        {
          path,
          message: `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`,
        },
      ];
    case 'invalid_union': {
      // When the input has the shape of exactly one branch (an object for `string | {…}`), that branch's own
      // issues name the bad field better than "not a valid value".
      const shaped = issue.errors.filter((branch) => !branch.some((inner) => inner.code === 'invalid_type' && inner.path.length === 0));
      const [only] = shaped;
      if (shaped.length === 1 && only !== undefined && only.length > 0) {
        return only.flatMap((inner) => toConfigIssues({ ...inner, path: [...issue.path, ...inner.path] } as z.core.$ZodIssue));
      }
      return [
        {
          path,
          message: `${issue.message === 'Invalid input' ? 'not a valid value' : issue.message}: write "provider/model" or { primary: "provider/model", fallbacks?: [...] }`,
        },
      ];
    }
    case 'too_small':
    case 'too_big':
      return [{ path, message: describeBound(issue) }];
    case 'invalid_key':
      return [{ path, message: `bad key: ${issue.issues.map((inner) => inner.message).join('; ')}` }];
    default:
      return [{ path, message: issue.message }];
  }
}

/** The issues of a zod error as config issues (path + fix), in document order. */
export function configIssuesFromZod(error: z.ZodError): ConfigIssue[] {
  return error.issues.flatMap(toConfigIssues);
}

/** Result of {@link safeParseConfig}. */
export type ConfigParseResult =
  | { readonly success: true; readonly config: UnderstudyConfig }
  | { readonly success: false; readonly error: ConfigError };

/** A copy of a map in which only its own keys answer a lookup. */
function ownKeys<Value>(map: Readonly<Record<string, Value>>): Record<string, Value> {
  return Object.assign(Object.create(null) as Record<string, Value>, map);
}

/**
 * The config with its id-keyed maps (`models.providers`, `auth.order`, `auth.profiles`, `agents.entries`,
 * `agents.defaults.models`) as null-prototype objects, so a lookup by an id from a request or the command line
 * (`auth.order['constructor']`) finds nothing the file does not say.
 */
function withOwnKeyMaps(config: UnderstudyConfig): UnderstudyConfig {
  return {
    ...config,
    models: { ...config.models, providers: ownKeys(config.models.providers) },
    auth: { ...config.auth, order: ownKeys(config.auth.order), profiles: ownKeys(config.auth.profiles) },
    agents: {
      ...config.agents,
      entries: ownKeys(config.agents.entries),
      defaults: { ...config.agents.defaults, models: ownKeys(config.agents.defaults.models) },
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Validates a config document (already read from JSON5 and env-expanded by the caller) and fills in defaults.
 *
 * @param input - the document; `undefined`/`null` count as `{}` (no config file: all defaults).
 * @param options.source - the file path, named in the error message.
 * @returns the deep-frozen config.
 * @throws {ConfigError} listing each bad path with its fix (unknown keys included).
 * @example parseConfig({}).gateway.port // 4317
 */
export function parseConfig(input: unknown, options: { readonly source?: string } = {}): UnderstudyConfig {
  const result = safeParseConfig(input, options);
  if (!result.success) throw result.error;
  return result.config;
}

/**
 * {@link parseConfig} without throwing.
 *
 * @example safeParseConfig({ gateway: { prot: 1 } }).success // false
 */
export function safeParseConfig(input: unknown, options: { readonly source?: string } = {}): ConfigParseResult {
  const parsed = configSchema.safeParse(input ?? {}, { reportInput: true });
  if (parsed.success) return { success: true, config: deepFreeze(withOwnKeyMaps(parsed.data)) };
  return {
    success: false,
    error: new ConfigError(configIssuesFromZod(parsed.error), {
      cause: parsed.error,
      ...(options.source === undefined ? {} : { source: options.source }),
    }),
  };
}

/**
 * The JSON Schema (draft 2020-12) of the config file's input, for `understudy config schema` and editors.
 *
 * @example configJsonSchema().properties.gateway
 */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
  return { ...schema, title: 'understudy config' };
}
