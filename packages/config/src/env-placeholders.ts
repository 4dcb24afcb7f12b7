/**
 * `${ENV_VAR}` placeholders in config strings (e.g. `models.providers.openai.apiKey: "${OPENAI_API_KEY}"`).
 * Pure: the environment is passed in, never read here.
 */
import type { ConfigIssue } from './errors.js';
import { ConfigError } from './errors.js';
import { formatConfigPath } from './parse-config.js';

const PLACEHOLDER = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Replaces `${NAME}` in every string of `value` (object values and array items, at any depth, without
 * recursion; keys are left alone) with `env[NAME]`. `$${` writes a literal `${`. Returns a new value; the input is not changed.
 *
 * @param env - the environment to read (e.g. `process.env`, passed by the app).
 * @param options.source - the config file, named in the error.
 * @throws {ConfigError} naming each path whose placeholder names an unset (or empty) variable.
 * @example expandEnvPlaceholders({ apiKey: '${KEY}' }, { KEY: 'sk-1' }) // { apiKey: 'sk-1' }
 */
export function expandEnvPlaceholders<T>(
  value: T,
  env: Readonly<Record<string, string | undefined>>,
  options: { readonly source?: string | undefined } = {},
): T {
  const issues: ConfigIssue[] = [];
  const expand = (text: string, frame: Frame): string =>
    text.replace(PLACEHOLDER, (match, name: string | undefined) => {
      if (name === undefined) return '${';
      const replacement = env[name];
      if (replacement === undefined || replacement === '') {
        issues.push({
          path: formatConfigPath(pathOf(frame)),
          message: `environment variable ${name} is not set: set it, or write the value without "\${${name}}"`,
        });
        return match;
      }
      return replacement;
    });
  // An explicit stack instead of recursion: a config nested 10,000 levels deep must give its issues (or pass),
  // not "Maximum call stack size exceeded". Children are pushed in reverse, so issues keep document order.
  const result: { value: unknown } = { value: undefined };
  const stack: Frame[] = [{ node: value, parent: undefined, key: undefined, assign: (expanded) => (result.value = expanded) }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const { node } = frame;
    if (typeof node === 'string') {
      frame.assign(expand(node, frame));
    } else if (Array.isArray(node)) {
      const out: unknown[] = new Array<unknown>(node.length);
      frame.assign(out);
      for (let index = node.length - 1; index >= 0; index -= 1) {
        stack.push({ node: node[index], parent: frame, key: index, assign: (expanded) => (out[index] = expanded) });
      }
    } else if (typeof node === 'object' && node !== null) {
      const out: Record<string, unknown> = {};
      frame.assign(out);
      const entries = Object.entries(node);
      // defineProperty, not assignment: a key such as "__proto__" stays a key (validation then refuses it).
      for (const [key] of entries) Object.defineProperty(out, key, { value: undefined, enumerable: true, writable: true, configurable: true });
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, child] = entries[index] as [string, unknown];
        stack.push({ node: child, parent: frame, key, assign: (expanded) => (out[key] = expanded) });
      }
    } else {
      frame.assign(node);
    }
  }
  if (issues.length > 0) throw new ConfigError(issues, options.source === undefined ? undefined : { source: options.source });
  return result.value as T;
}

/** One value still to expand, with where it sits (its path is only built for an issue). */
interface Frame {
  readonly node: unknown;
  readonly parent: Frame | undefined;
  readonly key: string | number | undefined;
  readonly assign: (expanded: unknown) => void;
}

/** The path of a frame from the root. */
function pathOf(frame: Frame): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let current: Frame | undefined = frame; current?.key !== undefined; current = current.parent) path.push(current.key);
  return path.reverse();
}
