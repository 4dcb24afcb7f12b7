/**
 * The one error base of understudy (docs/architecture.md): every error class of every package extends it, so
 * the brand, the `code`, the `cause` and the duplicate-install-safe `isInstance` are written once here.
 *
 * A subclass is a few lines: pick a snake_case code (a literal, or the package's code union) and call `super`.
 *
 * ```ts
 * export class CooldownPolicyError extends UnderstudyError<'invalid_cooldown_policy'> {
 *   constructor(message: string) {
 *     super('invalid_cooldown_policy', message);
 *   }
 * }
 * CooldownPolicyError.isInstance(error); // true for one from another copy of the package too
 * ```
 */

/** The global symbol registry key of a class's brand: `understudy.error.<ClassName>`. */
function brandOf(className: string): symbol {
  return Symbol.for(`understudy.error.${className}`);
}

/** A class whose instances {@link UnderstudyError.isInstance} can recognise (by its name and prototype). */
interface ErrorClass<T> {
  readonly name: string;
  readonly prototype: T;
}

/**
 * Base of every understudy error: `name` is the class name, `code` a snake_case literal of the package's code
 * union, `cause` the underlying error when there is one. Each instance carries a non-enumerable brand per class
 * of its chain (`Symbol.for('understudy.error.<ClassName>')`), which is what `isInstance` checks: it holds
 * across two installed copies of a package, where `instanceof` does not.
 *
 * @typeParam Code - the snake_case codes this class may carry.
 */
export abstract class UnderstudyError<Code extends string = string> extends Error {
  /** A short snake_case, machine-readable code (stable: callers branch on it). */
  readonly code: Code;

  /**
   * @param code - the snake_case code.
   * @param message - safe to show: no secret, no raw provider body.
   * @param options.cause - the underlying error, kept for logs.
   */
  protected constructor(code: Code, message: string, options: { readonly cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    for (let type: unknown = new.target; typeof type === 'function' && type !== Error; type = Object.getPrototypeOf(type)) {
      Object.defineProperty(this, brandOf((type as { readonly name: string }).name), { value: true, enumerable: false });
    }
  }

  /**
   * True when `value` is an instance of the class this is called on (or of a subclass), even one created by
   * another installed copy of its package.
   *
   * @example FailoverError.isInstance(error) // narrows `error` to FailoverError
   */
  static isInstance<T>(this: ErrorClass<T>, value: unknown): value is T {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brandOf(this.name)] === true;
  }
}
