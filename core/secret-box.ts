import crypto from 'node:crypto';

/**
 * AES-256-GCM envelopes for secrets stored at rest (calendar credentials). The text form is
 * `v1.<iv>.<tag>.<ciphertext>`, each part base64url; the 12-byte IV is random per seal, and the
 * optional `aad` (for example the connection id) binds a sealed value to the row that holds it.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Buffer | string) {
    this.key = typeof key === 'string' ? decodeKey(key) : key;
    if (this.key.length !== 32) throw new Error('secret-box key must be 32 bytes');
  }

  seal(plain: string, aad = ''): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  /** Throws when the envelope was altered, sealed with another key, or for another `aad`. */
  open(sealed: string, aad = ''): string {
    const [v, iv, tag, body] = sealed.split('.');
    if (v !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed value');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** A key in config: 64 hex characters or the base64 of 32 bytes. */
export function decodeKey(text: string): Buffer {
  const t = text.trim();
  return /^[0-9a-f]{64}$/i.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
}

export function generateKey(): string {
  return crypto.randomBytes(32).toString('base64');
}
