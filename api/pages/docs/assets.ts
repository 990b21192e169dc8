import path from 'node:path';
import { staticAsset, type StaticAsset } from '../../http/static-asset';

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

/** A script served by /docs/assets/<name>, or null for a name that is not one. */
export function docsAsset(name: string): StaticAsset | null {
  const locate = SOURCES[name];
  return locate ? staticAsset(locate()) : null;
}
