/**
 * The config error: a branded class listing every bad path of the config file and how to fix it.
 */

const CONFIG_ERROR = Symbol.for('understudy.error.ConfigError');

/** One problem in the config: the path (`auth.cooldowns.preset`, `models.providers.openai.baseUrl`, …) and what to do. */
export interface ConfigIssue {
  /** Dotted path from the file's root; `(root)` for the file itself. */
  readonly path: string;
  /** What is wrong and the fix, in one sentence. */
  readonly message: string;
}

/**
 * Thrown by `parseConfig` (and `expandEnvPlaceholders`) when the config is invalid. The message lists each bad
 * path with its fix, one per line; `issues` holds the same as data.
 */
export class ConfigError extends Error {
  readonly code = 'invalid_config' as const;
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[], options?: { readonly cause?: unknown; readonly source?: string }) {
    const where = options?.source === undefined ? 'config' : `config ${options.source}`;
    super(
      `Invalid ${where} (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n${issues
        .map((issue) => `  - ${issue.path}: ${issue.message}`)
        .join('\n')}`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'ConfigError';
    this.issues = Object.freeze([...issues]);
    Object.defineProperty(this, CONFIG_ERROR, { value: true });
  }

  /** True for a {@link ConfigError}, even one from another copy of this package. */
  static isInstance(value: unknown): value is ConfigError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[CONFIG_ERROR] === true;
  }
}
