import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** A script served by /docs/assets/<name>: read, hashed and compressed once per process. */
export interface DocsAsset {
  source: Buffer;
  gzip: Buffer;
  /** First 16 hex digits of the SHA-256: `?v=<hash>` URLs are immutable. */
  hash: string;
  etag: string;
}

/**
 * The API reference renderer: Scalar's standalone bundle from npm (@scalar/api-reference), served
 * from our own origin (no CDN), and the small script that starts it on /docs.
 */
const SOURCES: Record<string, () => string> = {
  // The package's `browser` field; its exports map does not expose the file, so locate it from the main entry.
  'api-reference.js': () => path.join(path.dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js'),
  'docs.js': () => path.join(__dirname, 'docs.client.js'),
};

export const DOCS_ASSETS = Object.keys(SOURCES);

const cache = new Map<string, DocsAsset>();

export function docsAsset(name: string): DocsAsset | null {
  const locate = SOURCES[name];
  if (!locate) return null;
  let asset = cache.get(name);
  if (!asset) {
    const source = fs.readFileSync(locate());
    const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
    asset = { source, gzip: gzipSync(source, { level: 9 }), hash, etag: `"${hash}"` };
    cache.set(name, asset);
  }
  return asset;
}
