/**
 * `${ENV_VAR}` placeholders in config strings (e.g. `models.providers.openai.apiKey: "${OPENAI_API_KEY}"`).
 * Pure: the environment is passed in, never read here.
 */
import type { ConfigIssue } from './errors.js';
import { ConfigError } from './errors.js';
import { formatConfigPath } from './parse-config.js';

const PLACEHOLDER = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Replaces `${NAME}` in every string of `value` (object values and array items, recursively; keys are left
 * alone) with `env[NAME]`. `$${` writes a literal `${`. Returns a new value; the input is not changed.
 *
 * @param env - the environment to read (e.g. `process.env`, passed by the app).
 * @throws {ConfigError} naming each path whose placeholder names an unset (or empty) variable.
 * @example expandEnvPlaceholders({ apiKey: '${KEY}' }, { KEY: 'sk-1' }) // { apiKey: 'sk-1' }
 */
export function expandEnvPlaceholders<T>(value: T, env: Readonly<Record<string, string | undefined>>): T {
  const issues: ConfigIssue[] = [];
  const visit = (node: unknown, path: readonly PropertyKey[]): unknown => {
    if (typeof node === 'string') {
      return node.replace(PLACEHOLDER, (match, name: string | undefined) => {
        if (name === undefined) return '${';
        const replacement = env[name];
        if (replacement === undefined || replacement === '') {
          issues.push({
            path: formatConfigPath(path),
            message: `environment variable ${name} is not set: set it, or write the value without "\${${name}}"`,
          });
          return match;
        }
        return replacement;
      });
    }
    if (Array.isArray(node)) return node.map((item, index) => visit(item, [...path, index]));
    if (typeof node === 'object' && node !== null) {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(node)) out[key] = visit(child, [...path, key]);
      return out;
    }
    return node;
  };
  const expanded = visit(value, []);
  if (issues.length > 0) throw new ConfigError(issues);
  return expanded as T;
}
