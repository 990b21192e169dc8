import path from 'node:path';
import { staticAsset, type StaticAsset } from '../../http/static-asset';

/** embed.client.js, read and hashed once per process. */
export function embedAsset(): StaticAsset {
  return staticAsset(path.join(__dirname, 'embed.client.js'));
}
