/**
 * Secrets travel wrapped, so that printing, logging or serialising one shows `***`.
 * Only {@link Secret.reveal} returns the value.
 */
const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');
const secretBrand = Symbol.for('understudy.secret');
const MASK = '***';

/** A credential value (API key, access or refresh token) that masks itself everywhere but `reveal()`. */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
    Object.defineProperty(this, secretBrand, { value: true, enumerable: false });
  }

  /** The secret itself. Call it only where the value is sent to its provider. */
  reveal(): string {
    return this.#value;
  }

  /** True when the value is empty or whitespace only (such a key is not eligible, the model-failover doc "Rotation order"). */
  isBlank(): boolean {
    return this.#value.trim() === '';
  }

  /** Always `***`. */
  toString(): string {
    return MASK;
  }

  /** Always `"***"` in JSON. */
  toJSON(): string {
    return MASK;
  }

  /** Node's `util.inspect` (and so `console.log`) shows `Secret(***)`. */
  [inspectSymbol](): string {
    return `Secret(${MASK})`;
  }

  /** Duplicate-install-safe check for a {@link Secret}. */
  static isInstance(value: unknown): value is Secret {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[secretBrand] === true;
  }
}
