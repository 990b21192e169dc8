import crypto from 'node:crypto';

/** URL-safe random string with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

export function sha256Hex(value: string): string {
  return crypto.createHash('sha256').update(value, 'utf8').digest('hex');
}

export function hmacSha256Hex(key: string | Buffer, body: string | Buffer): string {
  return crypto.createHmac('sha256', key).update(body).digest('hex');
}

/** Constant-time string comparison (different lengths compare false). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ab.length !== bb.length) return false;
  return crypto.timingSafeEqual(ab, bb);
}

export function uuid(): string {
  return crypto.randomUUID();
}
