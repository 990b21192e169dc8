import { itWithBrowser } from '../helpers/browser';
import { makeContact, makeEnrollment, makeSequence } from './support/factory';
import { useApiWorld } from '../helpers/world';

/** The `/u/<token>` one-click page in headless Chromium, and its RFC 8058 POST. */

const w = useApiWorld({ browser: true });

/** An email send of a running enrollment, as the activity records it; returns its token. */
async function sentEmail(email: string): Promise<{ token: string; contactId: string; enrollmentId: string }> {
  const seq = await makeSequence(w.tdb.db, w.team.teamId);
  const contactId = await makeContact(w.tdb.db, w.team.teamId, { email });
  const enrollmentId = await makeEnrollment(w.tdb.db, w.team.teamId, seq.id, contactId);
  const token = `tok${Math.random().toString(36).slice(2)}xyz`;
  await w.tdb.db('sequence_sends').insert({
    team_id: w.team.teamId,
    sequence_id: seq.id,
    enrollment_id: enrollmentId,
    step_id: seq.steps![0].id,
    contact_id: contactId,
    position: 0,
    channel: 'email',
    status: 'sent',
    token,
  });
  return { token, contactId, enrollmentId };
}

itWithBrowser('the page shows whom it unsubscribes, and its button unsubscribes and exits the enrollment', async () => {
  const { token, contactId, enrollmentId } = await sentEmail('reader@example.com');
  const page = await w.browser!.newPage();
  const res = await page.goto(`${w.app.baseUrl}/u/${token}`);
  expect(res?.status()).toBe(200);
  expect(await page.title()).toBe('Unsubscribe');
  await expect(page.getByRole('heading', { name: 'Unsubscribe' }).textContent()).resolves.toBe('Unsubscribe');
  expect(await page.textContent('main')).toContain('re***@example.com');
  // A GET alone (a link scanner) changes nothing.
  expect((await w.tdb.db('contacts').where({ id: contactId }).first())!.unsubscribed_email).toBe(false);
  await Promise.all([page.waitForURL(`${w.app.baseUrl}/u/${token}`), page.getByRole('button', { name: 'Unsubscribe' }).click()]);
  expect(await page.getByRole('status').textContent()).toBe('You are unsubscribed');
  expect((await w.tdb.db('contacts').where({ id: contactId }).first())!.unsubscribed_email).toBe(true);
  expect(await w.tdb.db('sequence_enrollments').where({ id: enrollmentId }).first()).toMatchObject({
    status: 'exited',
    exit_reason: 'unsubscribed',
  });
  // Visiting again says so, without a button.
  await page.goto(`${w.app.baseUrl}/u/${token}`);
  expect(await page.getByRole('button').count()).toBe(0);
  await page.close();
});

itWithBrowser('an unknown token gets a 404 page, and values are escaped', async () => {
  const page = await w.browser!.newPage();
  const res = await page.goto(`${w.app.baseUrl}/u/unknown-token-123`);
  expect(res?.status()).toBe(404);
  expect(await page.textContent('h1')).toBe('Link not found');
  const { token } = await sentEmail('"<img src=x onerror=alert(1)>"@example.com');
  let dialogs = 0;
  page.on('dialog', async (d) => {
    dialogs++;
    await d.dismiss();
  });
  await page.goto(`${w.app.baseUrl}/u/${token}`);
  expect(await page.locator('img').count()).toBe(0);
  expect(dialogs).toBe(0);
  await page.close();
});

test('without a browser: GET /u/<token> answers the page naming the masked address and changes nothing; an unknown token is a 404 page', async () => {
  const { token, contactId } = await sentEmail('scanner@example.com');
  const res = await fetch(`${w.app.baseUrl}/u/${token}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/html');
  const body = await res.text();
  expect(body).toContain('sc***@example.com');
  expect(body).not.toContain('scanner@example.com');
  expect((await w.tdb.db('contacts').where({ id: contactId }).first())!.unsubscribed_email).toBe(false);
  expect(await w.tdb.db('sequence_unsubscribes').where({ contact_id: contactId })).toHaveLength(0);
  const unknown = await fetch(`${w.app.baseUrl}/u/tokunknownxyz`);
  expect(unknown.status).toBe(404);
  expect(unknown.headers.get('content-type')).toContain('text/html');
});

test('RFC 8058: a one-click POST with List-Unsubscribe=One-Click unsubscribes without a browser', async () => {
  const { token, contactId } = await sentEmail('mailbox@example.com');
  const res = await fetch(`${w.app.baseUrl}/u/${token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  expect(res.status).toBe(200);
  expect((await w.tdb.db('contacts').where({ id: contactId }).first())!.unsubscribed_email).toBe(true);
  const rows = await w.tdb.db('sequence_unsubscribes').where({ contact_id: contactId });
  expect(rows).toEqual([expect.objectContaining({ channel: 'email', source: 'one_click' })]);
});
