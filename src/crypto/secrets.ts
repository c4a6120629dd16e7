import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets at rest: AES-256-GCM envelopes `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts).
 * The key id is the first 8 hex chars of SHA-256(key), so after a rotation the store can hold
 * envelopes of old and new keys side by side and `plotline rotate-key` re-encrypts the old ones.
 */
export class SecretBox {
  readonly keyId: string;
  readonly #keys = new Map<string, Buffer>();

  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    this.keyId = SecretBox.idOf(current);
    this.#keys.set(this.keyId, current);
    for (const key of previous) this.#keys.set(SecretBox.idOf(key), key);
  }

  static idOf(key: Buffer): string {
    return createHash('sha256').update(key).digest('hex').slice(0, 8);
  }

  static isEnvelope(value: string): boolean {
    return /^v1\.[0-9a-f]{8}\.[\w-]+\.[\w-]+\.[\w-]*$/.test(value);
  }

  static keyIdOf(envelope: string): string | undefined {
    return SecretBox.isEnvelope(envelope) ? envelope.split('.')[1] : undefined;
  }

  encrypt(plaintext: string): string {
    const key = this.#keys.get(this.keyId)!;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', this.keyId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
  }

  decrypt(envelope: string): string {
    const parts = envelope.split('.');
    if (parts.length !== 5 || parts[0] !== 'v1') throw new Error('not a secret envelope');
    const [, keyId, iv, tag, data] = parts as [string, string, string, string, string];
    const key = this.#keys.get(keyId);
    if (!key) throw new Error(`secret was encrypted with unknown key ${keyId}; pass it in PLOTLINE_PREVIOUS_ENCRYPTION_KEYS`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }

  encryptNullable(value: string | null | undefined): string | null {
    return value === null || value === undefined ? null : this.encrypt(value);
  }

  decryptNullable(value: string | null | undefined): string | null {
    return value === null || value === undefined ? null : this.decrypt(value);
  }
}
