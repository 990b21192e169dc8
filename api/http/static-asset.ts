import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Context } from 'koa';

/** A script served from memory: read, hashed and compressed once per process. */
export interface StaticAsset {
  /** The file as served. */
  source: Buffer;
  /** The same, gzip-compressed once (sent when the client accepts gzip). */
  gzip: Buffer;
  /** First 16 hex digits of the SHA-256 of the source: `?v=<hash>` URLs are immutable. */
  hash: string;
  /** Strong ETag (the hash, quoted). */
  etag: string;
}

const YEAR = 365 * 24 * 3600;
const cache = new Map<string, StaticAsset>();

/** The file at `file`, loaded on first use and kept for the life of the process. */
export function staticAsset(file: string): StaticAsset {
  let asset = cache.get(file);
  if (!asset) {
    const source = fs.readFileSync(file);
    const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
    asset = { source, gzip: gzipSync(source, { level: 9 }), hash, etag: `"${hash}"` };
    cache.set(file, asset);
  }
  return asset;
}

/** True when an If-None-Match header names this ETag (or `*`); weak validators compare equal. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const v = t.trim().replace(/^W\//, '');
    return v === '*' || v === etag;
  });
}

/**
 * Answers with a script: a year's immutable cache for its pinned `?v=<hash>` URL, a 5-minute
 * revalidation by ETag otherwise, 304 when the client has it, gzip when accepted.
 */
export function sendScript(ctx: Context, asset: StaticAsset, version: string | undefined, headers: Record<string, string> = {}): void {
  ctx.set('ETag', asset.etag);
  ctx.set('Cache-Control', version === asset.hash ? `public, max-age=${YEAR}, immutable` : 'public, max-age=300, must-revalidate');
  ctx.set('Vary', 'Accept-Encoding');
  for (const [k, v] of Object.entries(headers)) ctx.set(k, v);
  if (etagMatches(ctx.get('if-none-match'), asset.etag)) {
    ctx.status = 304;
    return;
  }
  ctx.type = 'application/javascript; charset=utf-8';
  ctx.status = 200;
  if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = asset.gzip;
  } else {
    ctx.body = asset.source;
  }
}
