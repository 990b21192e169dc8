import { randomBytes } from 'node:crypto';
import { decodeIcon, readPngHeader, redirectUriMatches, submissionChecklist } from '../../domain/app-checklist';
import { checkChallenge, s256Challenge } from '../../domain/pkce';
import { createTestTeam } from '../helpers/fixtures';
import { client } from '../helpers/http';
import { authorizeWithForms } from './forms';
import { approveDirectly, completeAppInput, pngDataUrl } from './helpers';
import { useApiWorld } from '../helpers/world';

const w = useApiWorld({ env: { RATE_LIMIT_DISABLED: 'false', RATE_LIMIT_PUBLIC_PER_MINUTE: '1000' } });

describe('pure rules', () => {
  it('reads width and height from the PNG IHDR header', () => {
    expect(readPngHeader(decodeIcon(pngDataUrl(512, 512))!)).toMatchObject({ width: 512, height: 512 });
    expect(readPngHeader(decodeIcon(pngDataUrl(300, 200).split(',')[1])!)).toMatchObject({ width: 300, height: 200 });
    expect(readPngHeader(Buffer.from('GIF89a-not-a-png-at-all-xxxxxxxx'))).toBeNull();
    expect(decodeIcon('data:image/jpeg;base64,AAAA')).toBeNull();
  });
  it('matches redirect URIs exactly, apart from the loopback port', () => {
    expect(redirectUriMatches(['https://a.example.com/cb'], 'https://a.example.com/cb')).toBe(true);
    expect(redirectUriMatches(['https://a.example.com/cb'], 'https://a.example.com/cb/')).toBe(false);
    expect(redirectUriMatches(['http://127.0.0.1:8000/cb'], 'http://127.0.0.1:9999/cb')).toBe(true);
    expect(redirectUriMatches(['http://127.0.0.1:8000/cb'], 'http://127.0.0.1:9999/other')).toBe(false);
  });
  it('accepts only S256 challenges', () => {
    const v = randomBytes(32).toString('base64url');
    expect(checkChallenge(s256Challenge(v), 'S256').ok).toBe(true);
    expect(checkChallenge(v, 'plain').ok).toBe(false);
    expect(checkChallenge(undefined, 'S256').ok).toBe(false);
  });
  it('lists every missing checklist item', () => {
    const missing = submissionChecklist({
      name: 'x',
      description: 'd'.repeat(501),
      short_description: 's'.repeat(141),
      website_url: 'https://x.example.com',
      privacy_policy_url: null,
      terms_url: null,
      category: 'Games',
      redirect_uris: ['http://127.0.0.1:3000/cb'],
      scopes: ['forms:read'],
      screenshots: ['https://x.example.com/1.png'],
      icon: { width: 256, height: 256, bytes: 6 * 1024 * 1024 },
    });
    expect(missing.map((m) => m.path).sort()).toEqual([
      'category',
      'description',
      'icon',
      'icon',
      'privacy_policy_url',
      'redirect_uris.0',
      'screenshots',
      'short_description',
      'terms_url',
    ]);
  });
});

describe('developer portal', () => {
  it('creates an app with a secret shown once, rotates it, and lists every missing item on submit', async () => {
    const dash = client(w.app.baseUrl, w.team.session);
    const created = await dash.post('/api/v1/apps', {
      name: 'Half Done',
      description: 'Not ready yet',
      website_url: 'https://half.example.com',
      redirect_uris: ['http://127.0.0.1:4000/cb'],
      scopes: ['forms:read'],
      icon: pngDataUrl(100, 100),
    });
    expect(created.status).toBe(201);
    const { id, client_id, client_secret } = created.body.data;
    expect(client_id).toMatch(/^svc_ci_/);
    expect(client_secret).toMatch(/^svc_cs_/);
    expect(created.body.data).toMatchObject({ status: 'development', installs: 0, listed: false, icon: { width: 100, height: 100 } });

    const read = await dash.get(`/api/v1/apps/${id}`);
    expect(read.body.data.client_secret).toBeUndefined();
    expect(JSON.stringify((await dash.get('/api/v1/apps')).body)).not.toContain(client_secret);

    const rotated = await dash.post(`/api/v1/apps/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.client_secret).toMatch(/^svc_cs_/);
    expect(rotated.body.data.client_secret).not.toBe(client_secret);

    const submit = await dash.post(`/api/v1/apps/${id}/submit`);
    expect(submit.status).toBe(400);
    expect(submit.body.error.code).toBe('validation_failed');
    expect(submit.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'category',
      'icon',
      'privacy_policy_url',
      'redirect_uris.0',
      'screenshots',
      'short_description',
      'terms_url',
    ]);
    expect((await w.tdb.db('outbox').where({ workflow_id: `app-review-${id}` })).length).toBe(0);

    expect((await dash.patch(`/api/v1/apps/${id}`, { icon: 'data:image/png;base64,bm90IGEgcG5n' })).status).toBe(400);
    expect((await dash.patch(`/api/v1/apps/${id}`, { redirect_uris: ['http://evil.example.com/cb'] })).status).toBe(400);
    expect((await dash.patch(`/api/v1/apps/${id}`, { scopes: ['nope:read'] })).status).toBe(400);
    const fixed = await dash.patch(`/api/v1/apps/${id}`, completeAppInput());
    expect(fixed.status).toBe(200);
    const ok = await dash.post(`/api/v1/apps/${id}/submit`);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ status: 'in_review', review_stage: 'submission', review_round: 1 });
    expect((await w.tdb.db('outbox').where({ workflow_id: `app-review-${id}` })).length).toBe(1);

    expect((await dash.delete(`/api/v1/apps/${id}`)).status).toBe(204);
    expect((await dash.get(`/api/v1/apps/${id}`)).status).toBe(404);
  });

  it('an API key cannot use the developer portal', async () => {
    const res = await client(w.app.baseUrl, w.team.apiKey).get('/api/v1/apps');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('dashboard_only');
  });
});

describe('marketplace', () => {
  it('lists approved apps only, filters by category, searches, and shows ratings and installs', async () => {
    const dash = client(w.app.baseUrl, w.team.session);
    const mk = async (over: Record<string, unknown>) => (await dash.post('/api/v1/apps', completeAppInput(over))).body.data.id as string;
    const crm = await mk({ name: 'Pipeline Pal', category: 'CRM' });
    const pay = await mk({ name: 'Coin Counter', category: 'Payments', short_description: 'Payments <b>bold</b> reports' });
    const hidden = await mk({ name: 'Not Yet', category: 'CRM' });
    await approveDirectly(w.tdb.db, crm);
    await approveDirectly(w.tdb.db, pay);
    const pub = client(w.app.baseUrl);
    const names = async (qs: string) => (await pub.get(`/api/marketplace/apps${qs}`)).body.data.map((a: { name: string }) => a.name).sort();
    expect(await names('')).toEqual(['Coin Counter', 'Pipeline Pal']);
    expect(await names('?category=CRM')).toEqual(['Pipeline Pal']);
    expect(await names('?q=coin')).toEqual(['Coin Counter']);
    expect(await names('?q=%25')).toEqual([]);
    expect((await pub.get('/api/marketplace/apps?category=Games')).status).toBe(400);
    expect((await pub.get(`/api/marketplace/apps/${hidden}`)).status).toBe(404);
    expect((await pub.get(`/api/marketplace/apps/${crm}/icon.png`)).headers.get('content-type')).toBe('image/png');

    const other = await createTestTeam(w.tdb.db);
    const rate = (t: string, body: Record<string, unknown>) => client(w.app.baseUrl, t).post('/api/v1/me/app-reviews', body);
    expect((await rate(w.team.apiKey, { app_id: crm, rating: 5, title: 'Great', body: 'Works well' })).status).toBe(201);
    expect((await rate(other.session, { app_id: crm, rating: 2 })).status).toBe(201);
    expect((await rate(w.team.session, { app_id: crm, rating: 1 })).status).toBe(409); // one per user per app
    expect((await rate(w.team.apiKey, { app_id: hidden, rating: 3 })).status).toBe(404);
    expect((await rate(w.team.apiKey, { app_id: crm, rating: 6 })).status).toBe(400);
    const one = (await pub.get(`/api/marketplace/apps/${crm}`)).body.data;
    expect(one.rating).toEqual({ average: 3.5, count: 2 });
    expect(one.installs).toBe(0);
    const reviews = await pub.get(`/api/marketplace/apps/${crm}/reviews`);
    expect(reviews.body.meta.total).toBe(2);
    expect((await client(w.app.baseUrl, w.team.apiKey).delete(`/api/v1/me/app-reviews/${crm}`)).status).toBe(204);
    expect((await pub.get(`/api/marketplace/apps/${crm}`)).body.data.rating).toEqual({ average: 2, count: 1 });
  });
});

describe('rate limits by app status', () => {
  it('allows 100 requests a minute in development and 10,000 once approved', async () => {
    const redirect = 'http://127.0.0.1:9/cb';
    const created = (
      await client(w.app.baseUrl, w.team.session).post(
        '/api/v1/apps',
        completeAppInput({ redirect_uris: [redirect], scopes: ['user:read'] }),
      )
    ).body.data;
    const getToken = async () => {
      const verifier = randomBytes(32).toString('base64url');
      const u = new URL(`${w.app.baseUrl}/api/oauth/authorize`);
      u.search = new URLSearchParams({
        client_id: created.client_id,
        redirect_uri: redirect,
        response_type: 'code',
        scope: 'user:read',
        state: 's1',
        code_challenge: s256Challenge(verifier),
        code_challenge_method: 'S256',
      }).toString();
      const code = new URL((await authorizeWithForms(u.toString(), w.team)).location!).searchParams.get('code')!;
      const res = await fetch(`${w.app.baseUrl}/api/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirect,
          code_verifier: verifier,
          client_id: created.client_id,
          client_secret: created.client_secret,
        }).toString(),
      });
      return (await res.json()).access_token as string;
    };
    const token = await getToken();
    const api = client(w.app.baseUrl, token);
    const first = await api.get('/api/v1/me');
    expect(first.headers.get('ratelimit-limit')).toBe('100');
    for (let i = 0; i < 99; i++) expect((await api.get('/api/v1/me')).status).toBe(200);
    const limited = await api.get('/api/v1/me');
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    expect(limited.headers.get('retry-after')).toBeTruthy();

    await approveDirectly(w.tdb.db, created.id);
    const approved = await api.get('/api/v1/me');
    expect(approved.status).toBe(200);
    expect(approved.headers.get('ratelimit-limit')).toBe('10000');
  });
});
