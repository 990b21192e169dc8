import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { s256Challenge } from '../../domain/pkce';
import { itWithBrowser } from '../helpers/browser';
import { client } from '../helpers/http';
import { completeAppInput } from './helpers';
import { useApiWorld } from '../helpers/world';

let callbackServer: http.Server;
let callbackUrl: string;
const received: URL[] = [];

const w = useApiWorld({ browser: true });
beforeAll(async () => {
  callbackServer = http.createServer((req, res) => {
    const u = new URL(req.url!, 'http://127.0.0.1');
    if (u.pathname === '/callback') received.push(u);
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Callback</title><h1>Callback received</h1>');
  });
  await new Promise<void>((r) => callbackServer.listen(0, '127.0.0.1', () => r()));
  callbackUrl = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`;
});
afterAll(() => new Promise<void>((r) => callbackServer.close(() => r())));

itWithBrowser('logs in, approves on the consent page, and lands on the callback with the code and the state', async () => {
  const created = await client(w.app.baseUrl, w.team.session).post(
    '/api/v1/apps',
    completeAppInput({
      name: 'Browser <Test> App',
      redirect_uris: [callbackUrl],
      scopes: ['user:read', 'contacts:read'],
    }),
  );
  expect(created.status).toBe(201);
  const { client_id, client_secret } = created.body.data;
  const verifier = randomBytes(32).toString('base64url');
  const state = `state-${randomBytes(8).toString('hex')}`;
  const url = new URL(`${w.app.baseUrl}/api/oauth/authorize`);
  url.search = new URLSearchParams({
    client_id,
    redirect_uri: callbackUrl,
    response_type: 'code',
    scope: 'user:read contacts:read',
    state,
    code_challenge: s256Challenge(verifier),
    code_challenge_method: 'S256',
  }).toString();

  const context = await w.browser!.newContext();
  const page = await context.newPage();
  await page.goto(url.toString());
  await page.getByLabel('Email').fill(w.team.email);
  await page.getByLabel('Password').fill(w.team.password);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await page.getByRole('heading', { name: 'Browser <Test> App wants to access your account' }).waitFor();
  expect(await page.getByText('See your contacts and their tags').count()).toBe(1);
  expect(await page.getByText('See your profile').count()).toBe(1);
  const cookies = await context.cookies(w.app.baseUrl + '/api/oauth');
  const sid = cookies.find((c) => c.name === 'svc_oauth_sid');
  expect(sid).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

  await page.getByRole('button', { name: 'Approve' }).click();
  await page.getByRole('heading', { name: 'Callback received' }).waitFor();
  expect(received).toHaveLength(1);
  const cb = received[0];
  expect(cb.searchParams.get('state')).toBe(state);
  const code = cb.searchParams.get('code');
  expect(code).toBeTruthy();

  // The code the browser delivered is real: it buys a token once.
  const tokenRes = await fetch(`${w.app.baseUrl}/api/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: code!,
      redirect_uri: callbackUrl,
      code_verifier: verifier,
      client_id,
      client_secret,
    }).toString(),
  });
  expect(tokenRes.status).toBe(200);
  expect((await tokenRes.json()).access_token).toMatch(/^svc_at_/);
  await context.close();
});
