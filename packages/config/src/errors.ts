/**
 * The config error, on the one error base of `@understudy/contracts`: it lists every bad path of the config file
 * and how to fix it.
 */
import { UnderstudyError } from '@understudy/contracts';

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
export class ConfigError extends UnderstudyError<'invalid_config'> {
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[], options?: { readonly cause?: unknown; readonly source?: string }) {
    const where = options?.source === undefined ? 'config' : `config ${options.source}`;
    super(
      'invalid_config',
      `Invalid ${where} (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n${issues
        .map((issue) => `  - ${issue.path}: ${issue.message}`)
        .join('\n')}`,
      { cause: options?.cause },
    );
    this.issues = Object.freeze([...issues]);
  }
}
