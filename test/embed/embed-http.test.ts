import { gunzipSync } from 'node:zlib';
import { embedAsset } from '../../api/pages/embed/asset';
import { rawGet as rawGetFrom } from '../helpers/http';
import { useApiWorld } from '../helpers/world';
import { alwaysAvailable, publishedEventType } from '../scheduling/helpers';

/**
 * The embed script's caching (ETag, 304, pinned immutable URL, gzip) and size, and which pages
 * may be framed: embedded forms by their allow-list, embedded booking pages by anyone, every
 * other page by nobody.
 */
const w = useApiWorld();

const rawGet = (path: string, headers: Record<string, string> = {}) => rawGetFrom(w.app.baseUrl, path, headers);

const frameAncestors = (csp: string | null) => /frame-ancestors ([^;]+)/.exec(csp ?? '')?.[1];

async function publishedForm(slug: string, settings: Record<string, unknown> = {}) {
  const res = await w.api.post('/api/v1/forms', {
    title: 'Embed me',
    slug,
    status: 'published',
    fields: [{ type: 'email', label: 'Email', name: 'email', required: true }],
    settings,
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; settings: Record<string, unknown> };
}

describe('GET /embed.js', () => {
  it('serves the script gzipped, under 10 KB, with an ETag, and 304 on If-None-Match', async () => {
    const asset = embedAsset();
    const res = await rawGet('/embed.js', { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.etag).toBe(`"${asset.hash}"`);
    expect(res.headers['cache-control']).toBe('public, max-age=300, must-revalidate');
    expect(gunzipSync(res.body).equals(asset.source)).toBe(true);
    expect(res.body.length).toBeLessThan(10 * 1024);
    console.log(`embed.js: ${asset.source.length} bytes, ${res.body.length} bytes gzipped`);

    const plain = await rawGet('/embed.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(asset.source)).toBe(true);

    for (const inm of [`"${asset.hash}"`, `W/"${asset.hash}"`, `"other", "${asset.hash}"`]) {
      const again = await rawGet('/embed.js', { 'if-none-match': inm });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(`"${asset.hash}"`);
    }
    const stale = await rawGet('/embed.js', { 'if-none-match': '"0000000000000000"' });
    expect(stale.status).toBe(200);
  });

  it('caches the content-hashed URL for a year; an outdated hash only for minutes', async () => {
    const { hash } = embedAsset();
    const pinned = await rawGet(`/embed.js?v=${hash}`);
    expect(pinned.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const old = await rawGet('/embed.js?v=deadbeefdeadbeef');
    expect(old.headers['cache-control']).toBe('public, max-age=300, must-revalidate');
  });

  it('never touches cookies or storage of the host page', () => {
    const src = embedAsset().source.toString('utf8');
    expect(src).not.toMatch(/\bcookie\b|localStorage|sessionStorage|indexedDB|caches\./);
  });
});

describe('framing headers', () => {
  it('embedded forms follow their allow-list (default anyone); the full page and the API refuse framing', async () => {
    const open = await publishedForm('embed-open');
    expect(open.settings.embed_allowed_origins).toBeNull();
    const embedded = await w.api.get('/f/embed-open?embed=1');
    expect(frameAncestors(embedded.headers.get('content-security-policy'))).toBe('*');
    expect(embedded.headers.get('x-frame-options')).toBeNull();
    expect(embedded.text).toContain('embed:resize');

    const full = await w.api.get('/f/embed-open');
    expect(frameAncestors(full.headers.get('content-security-policy'))).toBe("'none'");
    expect(full.headers.get('x-frame-options')).toBe('DENY');
    expect(full.text).not.toContain('embed:resize');

    const apiRes = await w.api.get('/api/v1/forms');
    expect(frameAncestors(apiRes.headers.get('content-security-policy'))).toBe("'none'");

    await publishedForm('embed-listed', { embed_allowed_origins: ['https://Example.com/', 'https://*.partner.test:8443'] });
    const listed = await w.api.get('/f/embed-listed?embed=1');
    expect(frameAncestors(listed.headers.get('content-security-policy'))).toBe('https://example.com https://*.partner.test:8443');
    const form = await w.api.get('/api/v1/forms?per_page=100');
    const id = form.body.data.find((f: { slug: string }) => f.slug === 'embed-listed').id;
    expect((await w.api.get(`/api/v1/forms/${id}`)).body.data.settings.embed_allowed_origins).toEqual([
      'https://example.com',
      'https://*.partner.test:8443',
    ]);

    await publishedForm('embed-nobody', { embed_allowed_origins: [] });
    const nobody = await w.api.get('/f/embed-nobody?embed=1');
    expect(frameAncestors(nobody.headers.get('content-security-policy'))).toBe("'none'");
    expect(nobody.headers.get('x-frame-options')).toBe('DENY');
  });

  it('the page after a no-JS embedded post keeps the allow-list', async () => {
    const f = await publishedForm('embed-post', { embed_allowed_origins: ['https://example.com'] });
    const ok = await fetch(`${w.app.baseUrl}/api/forms/${f.id}/submissions?embed=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'fields%5Bemail%5D=nojs%40example.com',
    });
    expect(ok.status).toBe(200);
    expect(frameAncestors(ok.headers.get('content-security-policy'))).toBe('https://example.com');
  });

  it('rejects allow-list entries that are not origins', async () => {
    for (const bad of ['example.com', 'https://example.com/path', 'javascript:alert(1)', "'self'", 'https://exa mple.com', '*']) {
      const res = await w.api.post('/api/v1/forms', { title: 'Bad', settings: { embed_allowed_origins: [bad] } });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].path).toBe('body.settings.embed_allowed_origins.0');
    }
  });

  it('embedded booking pages may be framed by anyone; the full booking page by nobody', async () => {
    await alwaysAvailable(w.tdb.db, w.team.userId);
    const { slug } = await publishedEventType(w.app.baseUrl, w.team);
    const embedded = await w.api.get(`/book/${slug}?embed=1`);
    expect(embedded.status).toBe(200);
    expect(frameAncestors(embedded.headers.get('content-security-policy'))).toBe('*');
    expect(embedded.text).toContain('embed:resize');
    const full = await w.api.get(`/book/${slug}`);
    expect(frameAncestors(full.headers.get('content-security-policy'))).toBe("'none'");
    expect(full.text).not.toContain('embed:resize');
  });
});
