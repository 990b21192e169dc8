import fs from 'node:fs';
import path from 'node:path';
import { itWithBrowser } from '../helpers/browser';
import { useApiWorld } from '../helpers/world';

/**
 * The public form in headless Chromium: fill it, trigger a validation error, fix it, submit; then
 * check through the API that the submission, its tracking values and the contact exist.
 */
const ARTIFACTS = path.resolve(__dirname, '..', '..', 'test-artifacts');

const w = useApiWorld({ browser: true });
beforeAll(() => fs.mkdirSync(ARTIFACTS, { recursive: true }));

async function makeForm(slug: string) {
  const res = await w.api.post('/api/v1/forms', {
    title: 'Join the <beta>',
    slug,
    description: 'Tell us about you & your team.',
    status: 'published',
    fields: [
      { type: 'email', label: 'Email', name: 'email', required: true, placeholder: 'you@example.com' },
      { type: 'text', label: 'First name', name: 'first_name' },
      { type: 'select', label: 'Team size', name: 'size', options: ['1-10', '11-50'] },
      { type: 'multi_select', label: 'Interests', name: 'interests', options: ['forms', 'sequences'] },
      { type: 'textarea', label: 'Message', name: 'message' },
    ],
    settings: { success_message: 'Thanks, we will be in touch.' },
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: string };
}

describe('public form page in Chromium', () => {
  itWithBrowser('shows a validation error beside the field, then submits with tracking values and creates the contact', async () => {
    const form = await makeForm('browser-form');
    const page = await w.browser!.newPage();
    const problems: string[] = [];
    // Script errors and CSP violations; the 400 of the validation round trip is expected.
    page.on('console', (m) => m.type() === 'error' && !/status of 400/.test(m.text()) && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(String(e)));

    const res = await page.goto(`${w.app.baseUrl}/f/browser-form?utm_source=news&tracking_id=t1`);
    expect(res?.status()).toBe(200);
    expect(await page.title()).toBe('Join the <beta>');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Join the <beta>');

    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('First name').fill('Ann');
    await page.getByLabel('Team size').selectOption('11-50');
    await page.getByLabel('forms').check();
    await page.getByLabel('Message').fill('<script>alert(1)</script> hello');
    await page.getByRole('button', { name: 'Submit' }).click();

    const error = page.locator('#f-email-error');
    await error.waitFor({ state: 'visible' });
    expect(await error.textContent()).toContain('valid email');
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Email').getAttribute('aria-describedby')).toBe('f-email-error');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('f-email');
    await page.screenshot({ path: path.join(ARTIFACTS, 'form-page-error.png'), fullPage: true });

    await page.getByLabel('Email').fill('ann.browser@example.com');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Thanks, we will be in touch.').waitFor({ state: 'visible' });
    expect(await page.locator('#f-email-error').isHidden()).toBe(true);
    await page.screenshot({ path: path.join(ARTIFACTS, 'form-page.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();

    const list = await w.api.get(`/api/v1/forms/${form.id}/submissions?status=completed`);
    expect(list.body.data).toHaveLength(1);
    const s = list.body.data[0];
    expect(s.fields).toEqual({
      email: 'ann.browser@example.com',
      first_name: 'Ann',
      size: '11-50',
      interests: ['forms'],
      message: '<script>alert(1)</script> hello',
    });
    expect(s.metadata).toMatchObject({ utm_source: 'news', tracking_id: 't1', device_type: 'desktop' });
    const contacts = await w.api.get('/api/v1/contacts?email=ann.browser@example.com');
    expect(contacts.body.data).toHaveLength(1);
    expect(contacts.body.data[0]).toMatchObject({ id: s.contact_id, first_name: 'Ann' });
    const total = await w.api.get(`/api/v1/forms/${form.id}/submissions`);
    expect(total.body.meta.total).toBe(1); // progress saves continued the same submission
  });

  itWithBrowser('works without JavaScript: a plain form post lands on the success page with the tracking values', async () => {
    const form = await makeForm('no-js-form');
    const context = await w.browser!.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${w.app.baseUrl}/f/no-js-form?utm_campaign=spring`);
    await page.getByLabel('Email').fill('nojs@example.com');
    await page.getByLabel('sequences').check();
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Submit' }).click()]);
    await page.getByText('Thanks, we will be in touch.').waitFor();
    await context.close();
    const list = await w.api.get(`/api/v1/forms/${form.id}/submissions`);
    expect(list.body.data[0]).toMatchObject({ status: 'completed', fields: { email: 'nojs@example.com', interests: ['sequences'] } });
    expect(list.body.data[0].metadata.utm_campaign).toBe('spring');
  });
});
