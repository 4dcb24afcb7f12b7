/**
 * Credentials at rest in a shared PostgreSQL database are sealed with AES-256-GCM (`node:crypto`), keyed from
 * the operator's secret (`UNDERSTUDY_SECRET_KEY`, or the variable `state.secretKeyEnv` names; docs/configuration.md).
 *
 * A sealed value is `v1.<key id>.<base64 of iv ‖ tag ‖ ciphertext>`: a fresh 12-byte IV per value, the 16-byte
 * GCM tag, and as additional data the row it belongs to (agent, profile, column), so a sealed value copied into
 * another row or column does not open. The key id is an HMAC of the key (never the key), so a value sealed with
 * another key is reported as such instead of as corruption.
 */
import crypto from 'node:crypto';
import { AuthStoreError } from '../errors.js';

/** Fewest characters a secret key must have. */
export const MIN_SECRET_KEY_LENGTH = 32;

const FORMAT = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The hint every "no key" message ends with. */
export const SECRET_KEY_HINT = `set UNDERSTUDY_SECRET_KEY (or the variable named by state.secretKeyEnv) to a random value of at least ${String(MIN_SECRET_KEY_LENGTH)} characters, e.g. \`openssl rand -base64 32\``;

/** The secret-bearing credential columns, sealed at rest in the shared state. */
export const SEALED_COLUMNS = ['api_key', 'token', 'access_token', 'refresh_token'] as const;

/** One of {@link SEALED_COLUMNS}. */
export type SealedColumn = (typeof SEALED_COLUMNS)[number];

/**
 * The additional data a credential column is sealed under: its agent, profile and column, so a sealed value
 * only opens in the row it was written to.
 */
export function sealContext(agentId: string, profileId: string, column: SealedColumn): string {
  return `${agentId}\0${profileId}\0${column}`;
}

/**
 * `row` with every non-null {@link SEALED_COLUMNS} value sealed under its {@link sealContext} (other columns as
 * they are). The one sealing loop of the store and of `state copy`.
 */
export function sealCredentialColumns<Row extends Readonly<Record<SealedColumn, string | null>>>(box: SecretBox, agentId: string, profileId: string, row: Row): Row {
  const sealed: Record<string, unknown> = { ...row };
  for (const column of SEALED_COLUMNS) {
    const value = row[column];
    if (value !== null) sealed[column] = box.seal(value, sealContext(agentId, profileId, column));
  }
  return sealed as Row;
}

/** Seals and opens credential columns with one key. The key never leaves this object. */
export class SecretBox {
  readonly #key: Buffer;
  /** 8 hex characters identifying the key (an HMAC of it), stored beside every sealed value. */
  readonly keyId: string;

  private constructor(key: Buffer) {
    this.#key = key;
    this.keyId = crypto.createHmac('sha256', key).update('understudy key id').digest('hex').slice(0, 8);
  }

  /**
   * Derives the AES-256 key from the operator's secret text with HKDF-SHA256.
   *
   * @throws {AuthStoreError} `invalid_secret_key` when the text is shorter than {@link MIN_SECRET_KEY_LENGTH}
   *   characters (the message never contains the text).
   */
  static fromKeyText(text: string): SecretBox {
    const trimmed = text.trim();
    if (trimmed.length < MIN_SECRET_KEY_LENGTH) {
      throw new AuthStoreError(
        'invalid_secret_key',
        `the secret key is too short (${String(trimmed.length)} characters): ${SECRET_KEY_HINT}`,
      );
    }
    const key = Buffer.from(crypto.hkdfSync('sha256', trimmed, 'understudy-credentials', 'aes-256-gcm v1', 32));
    return new SecretBox(key);
  }

  /** Seals `plain` for the row named by `context` (e.g. `main\0openai:default\0api_key`). */
  seal(plain: string, context: string): string {
    const iv = crypto.randomBytes(IV_BYTES);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${FORMAT}.${this.keyId}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  /**
   * Opens a value sealed by {@link SecretBox.seal} for the same `context`.
   *
   * @throws {AuthStoreError} `secret_key_mismatch` when it was sealed with another key, `credential_corrupt` when
   *   it does not open (altered, or moved from another row).
   */
  open(sealed: string, context: string): string {
    const [format, keyId, payload] = sealed.split('.');
    if (format !== FORMAT || keyId === undefined || payload === undefined) {
      throw new AuthStoreError('credential_corrupt', 'a stored credential is not in the sealed format; store it again');
    }
    this.assertKeyId(keyId);
    const bytes = Buffer.from(payload, 'base64');
    if (bytes.length < IV_BYTES + TAG_BYTES) throw new AuthStoreError('credential_corrupt', 'a stored credential is truncated; store it again');
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', this.#key, bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch (error) {
      throw new AuthStoreError('credential_corrupt', 'a stored credential does not open with this key (altered or moved between rows); store it again', {
        cause: error,
      });
    }
  }

  /**
   * The one comparison of a stored key id with this key's: used when a sealed value is opened, and by
   * `state copy` before it writes into a schema that already holds sealed values.
   *
   * @throws {AuthStoreError} `secret_key_mismatch` when `storedKeyId` (of {@link SecretBox.keyIdOf}) is another
   *   key's; the message names both key ids (never a key) and the variable to fix.
   */
  assertKeyId(storedKeyId: string): void {
    if (storedKeyId === this.keyId) return;
    throw new AuthStoreError(
      'secret_key_mismatch',
      `stored credentials were sealed with another secret key (key id ${storedKeyId}, this replica has ${this.keyId}): give every replica the same UNDERSTUDY_SECRET_KEY`,
    );
  }

  /** The key id of a sealed value, or `undefined` when the value is not sealed. */
  static keyIdOf(sealed: string): string | undefined {
    const [format, keyId] = sealed.split('.');
    return format === FORMAT ? keyId : undefined;
  }

  toJSON(): { readonly keyId: string } {
    return { keyId: this.keyId };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `SecretBox(${this.keyId})`;
  }
}
