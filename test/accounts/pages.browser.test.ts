import type { Browser } from 'playwright-core';
import { describeWithBrowser, hasChromium, launchChromium } from '../helpers/browser';
import { client } from '../helpers/http';
import { addMember } from '../../services/team';
import { linkToken, mailsTo, unique, useAccountsWorld } from './support';
import { testConfig } from '../helpers/config';

/** The public account pages in headless Chromium with JavaScript off: accept an invitation, reset a password. */
const w = useAccountsWorld();
let browser: Browser | undefined;

beforeAll(async () => {
  if (hasChromium) browser = await launchChromium(); // without it, every test below is reported as skipped
});
afterAll(async () => {
  await browser?.close();
});

const signIn = (email: string, password: string) => client(w.app.baseUrl).post('/api/auth/login', { email, password });

describeWithBrowser('account pages in Chromium (JavaScript disabled)', () => {
  it('accepts an invitation: a wrong password is explained, then the account is created', async () => {
    const email = unique('browser-invitee');
    const created = await client(w.app.baseUrl, w.team.session).post('/api/v1/team/invitations', { email, role: 'admin' });
    const [mail] = await mailsTo(w.smtp, email, 1, ['x-invitation-id', created.body.data.id]);
    const url = `${w.app.baseUrl}/account/invitations/${linkToken(mail, '/account/invitations')}`;

    const context = await browser!.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const cspErrors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && /Content Security Policy|Refused to/.test(m.text()) && cspErrors.push(m.text()));
    expect((await page.goto(url))?.status()).toBe(200);
    expect(await page.title()).toBe('Join Test team');
    await page.getByLabel('Your name').fill('Bea Browser');
    await page.getByLabel('Choose a password').fill('short');
    await page.getByLabel('Repeat the password').fill('short');
    // The browser's own minlength check holds the form back; a page without that check still gets the server's answer.
    await page
      .locator('form')
      .evaluate((f: HTMLFormElement) => f.setAttribute('novalidate', ''))
      .catch(() => undefined);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Join the team' }).click()]);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('at least 10 characters');
    expect(await page.getByLabel('Your name').inputValue()).toBe('Bea Browser');

    await page.getByLabel('Choose a password').fill('bea long password');
    await page.getByLabel('Repeat the password').fill('bea long password');
    await Promise.all([page.waitForURL(url), page.getByRole('button', { name: 'Join the team' }).click()]);
    await expect(page.getByRole('status').textContent()).resolves.toBe('Welcome to Test team');
    expect(cspErrors).toEqual([]);
    await context.close();

    const session = await signIn(email, 'bea long password');
    expect(session.status).toBe(200);
    const me = await client(w.app.baseUrl, session.body.data.token).get('/api/v1/me');
    expect(me.body.data).toMatchObject({ name: 'Bea Browser', role: 'admin', team_id: w.team.teamId });
  });

  it('resets a password from the emailed link', async () => {
    const email = unique('browser-reset');
    await addMember(
      { db: w.tdb.db, config: testConfig() },
      { teamId: w.team.teamId, values: { email, role: 'member', password: 'old long password' } },
    );
    expect((await client(w.app.baseUrl).post('/api/auth/password-reset', { email })).status).toBe(202);
    const [mail] = await mailsTo(w.smtp, email, 1, ['x-account-email', 'password_reset']);
    const url = `${w.app.baseUrl}/account/reset-password/${linkToken(mail, '/account/reset-password')}`;

    const context = await browser!.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    expect((await page.goto(url))?.status()).toBe(200);
    expect(await page.title()).toBe('Choose a new password');
    await page.getByLabel('New password').fill('brand new password');
    await page.getByLabel('Repeat the password').fill('brand new passwort');
    await Promise.all([page.waitForURL(url), page.getByRole('button', { name: 'Set the password' }).click()]);
    await expect(page.getByRole('alert').textContent()).resolves.toBe('The two passwords differ.');

    await page.getByLabel('New password').fill('brand new password');
    await page.getByLabel('Repeat the password').fill('brand new password');
    await Promise.all([page.waitForURL(url), page.getByRole('button', { name: 'Set the password' }).click()]);
    await expect(page.getByRole('status').textContent()).resolves.toBe('Your password is changed');
    // The link is used up.
    expect((await page.goto(url))?.status()).toBe(404);
    await expect(page.locator('h1').textContent()).resolves.toBe('This link is not valid');
    await context.close();

    expect((await signIn(email, 'old long password')).status).toBe(401);
    expect((await signIn(email, 'brand new password')).status).toBe(200);
  });
});
