import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { s256Challenge } from '../../domain/pkce';
import { startTestApp, type TestApp } from '../helpers/app';
import { itWithBrowser, launchChromium } from '../helpers/browser';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { createTestTeam, type TestTeam } from '../helpers/fixtures';
import { client } from '../helpers/http';
import { completeAppInput } from './helpers';

let tdb: TestDatabase;
let app: TestApp;
let team: TestTeam;
let browser: Browser | undefined;
let callbackServer: http.Server;
let callbackUrl: string;
const received: URL[] = [];

beforeAll(async () => {
  tdb = await createTestDatabase();
  app = await startTestApp(tdb.db);
  team = await createTestTeam(tdb.db);
  callbackServer = http.createServer((req, res) => {
    const u = new URL(req.url!, 'http://127.0.0.1');
    if (u.pathname === '/callback') received.push(u);
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Callback</title><h1>Callback received</h1>');
  });
  await new Promise<void>((r) => callbackServer.listen(0, '127.0.0.1', () => r()));
  callbackUrl = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`;
  browser = await launchChromium(); // only when itWithBrowser runs the test: hooks of skipped tests do not run
});
afterAll(async () => {
  await browser?.close();
  await new Promise<void>((r) => callbackServer.close(() => r()));
  await app.close();
  await tdb.drop();
});

itWithBrowser('logs in, approves on the consent page, and lands on the callback with the code and the state', async () => {
  const created = await client(app.baseUrl, team.session).post(
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
  const url = new URL(`${app.baseUrl}/api/oauth/authorize`);
  url.search = new URLSearchParams({
    client_id,
    redirect_uri: callbackUrl,
    response_type: 'code',
    scope: 'user:read contacts:read',
    state,
    code_challenge: s256Challenge(verifier),
    code_challenge_method: 'S256',
  }).toString();

  const context = await browser!.newContext();
  const page = await context.newPage();
  await page.goto(url.toString());
  await page.getByLabel('Email').fill(team.email);
  await page.getByLabel('Password').fill(team.password);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await page.getByRole('heading', { name: 'Browser <Test> App wants to access your account' }).waitFor();
  expect(await page.getByText('See your contacts and their tags').count()).toBe(1);
  expect(await page.getByText('See your profile').count()).toBe(1);
  const cookies = await context.cookies(app.baseUrl + '/api/oauth');
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
  const tokenRes = await fetch(`${app.baseUrl}/api/oauth/token`, {
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
