import { gunzipSync } from 'node:zlib';
import { DOCS_ASSETS, docsAsset } from '../../api/pages/docs/assets';
import { rawGet } from '../helpers/http';
import { useApiWorld } from '../helpers/world';

/**
 * The API reference's scripts, as /docs links them (without a browser; the page running them is
 * reference.browser.test.ts): each served from our origin, gzipped when asked, its hashed URL
 * cached for a year, 304 on its ETag; a name that is not one is a 404.
 */
const w = useApiWorld();

describe('GET /docs/assets/:name', () => {
  it('serves each script /docs links, gzipped when asked, cached for a year under its hash, 304 on its ETag', async () => {
    const page = await fetch(`${w.app.baseUrl}/docs`).then((r) => r.text());
    const linked = [...page.matchAll(/src="(\/docs\/assets\/[^"?]+\?v=[^"]+)"/g)].map((m) => m[1]);
    expect(linked.map((u) => u.replace(/^\/docs\/assets\/|\?.*$/g, '')).sort()).toEqual([...DOCS_ASSETS].sort());

    for (const url of linked) {
      const asset = docsAsset(decodeURIComponent(url.replace(/^\/docs\/assets\/|\?.*$/g, '')))!;
      const res = await rawGet(w.app.baseUrl, url, { 'accept-encoding': 'gzip' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers.etag).toBe(asset.etag);
      expect(gunzipSync(res.body).equals(asset.source)).toBe(true);

      const again = await rawGet(w.app.baseUrl, url, { 'if-none-match': asset.etag });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
    }
  });

  it('answers 404 for a name that is not one of its scripts', async () => {
    const res = await fetch(`${w.app.baseUrl}/docs/assets/nope.js`);
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('not_found');
  });
});
