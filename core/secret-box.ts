import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, type Config } from './config';

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

/**
 * The box for every secret kept at rest that must stay recoverable (calendar credentials, webhook
 * signing secrets) and the server half of the idempotency sealing keys: `CALENDAR_CREDENTIALS_KEY`,
 * or, outside production, a key generated once under the data directory
 * (`.data/calendar-credentials.key`), which the API and the worker of `npm run dev` share.
 * Production without the variable is a configuration error. Each use binds its own `aad`.
 */
export function atRestBox(config: Pick<Config, 'CALENDAR_CREDENTIALS_KEY' | 'NODE_ENV' | 'dataDir'>): SecretBox {
  return new SecretBox(atRestKey(config));
}

/** The raw 32 bytes of the at-rest key (see atRestBox). */
export function atRestKey(config: Pick<Config, 'CALENDAR_CREDENTIALS_KEY' | 'NODE_ENV' | 'dataDir'>): Buffer {
  const cacheKey = config.CALENDAR_CREDENTIALS_KEY ?? `file:${config.dataDir}`;
  const hit = keys.get(cacheKey);
  if (hit) return hit;
  let key = config.CALENDAR_CREDENTIALS_KEY;
  if (!key) {
    if (config.NODE_ENV === 'production') {
      throw new ConfigError('Invalid configuration:\n  CALENDAR_CREDENTIALS_KEY: required in production (base64 of 32 bytes)');
    }
    key = readOrCreateKeyFile(path.join(config.dataDir, 'calendar-credentials.key'));
  }
  const bytes = decodeKey(key);
  if (bytes.length !== 32) throw new ConfigError('Invalid configuration:\n  CALENDAR_CREDENTIALS_KEY: must be 32 bytes');
  keys.set(cacheKey, bytes);
  return bytes;
}
const keys = new Map<string, Buffer>();

export function readOrCreateKeyFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      // 'wx': two processes racing to create it keep the first one's key.
      fs.writeFileSync(file, generateKey() + '\n', { flag: 'wx', mode: 0o600 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    return fs.readFileSync(file, 'utf8').trim();
  }
}

/** The associated data binding a sealed column value to its row: `<table>:<id>`. */
export function rowAad(table: string, id: string): string {
  return `${table}:${id}`;
}
