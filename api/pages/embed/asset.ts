import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export interface EmbedAsset {
  /** The script as served. */
  source: Buffer;
  /** The same, gzip-compressed once (sent when the client accepts gzip). */
  gzip: Buffer;
  /** First 16 hex digits of the SHA-256 of the source: `?v=<hash>` URLs are immutable. */
  hash: string;
  /** Strong ETag (the hash, quoted). */
  etag: string;
}

let cached: EmbedAsset | undefined;

/** embed.client.js, read and hashed once per process. */
export function embedAsset(): EmbedAsset {
  if (cached) return cached;
  const source = fs.readFileSync(path.join(__dirname, 'embed.client.js'));
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  cached = { source, gzip: gzipSync(source, { level: 9 }), hash, etag: `"${hash}"` };
  return cached;
}

/** True when an If-None-Match header names this ETag (or `*`); weak validators compare equal. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const v = t.trim().replace(/^W\//, '');
    return v === '*' || v === etag;
  });
}
