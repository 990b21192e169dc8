import { itWithBrowser } from '../helpers/browser';
import { makeForm as createForm, useEmbedWorld } from './world';
import { hostMessages, waitForHostEvent } from './browser';

/**
 * Options of embed.js (auto-open, exit intent, data-hidden values, redirect after submit) and a
 * plain `<iframe src=".../f/<slug>?embed=1">` without the script.
 */
const w = useEmbedWorld();

async function makeForm(slug: string, settings: Record<string, unknown> = {}) {
  return createForm(w, slug, settings, [{ type: 'hidden', label: 'Plan', name: 'plan' }]);
}

async function onlySubmission(formId: string) {
  const list = await w.api.get(`/api/v1/forms/${formId}/submissions`);
  expect(list.body.data).toHaveLength(1);
  return list.body.data[0];
}

describe('embed.js options', () => {
  itWithBrowser('auto-opens a slider after N seconds and passes data-hidden values (the host URL wins for tracking)', async () => {
    const form = await makeForm('embed-auto');
    const url = w.host.page(
      '/auto.html',
      '<div id="embed" data-form="embed-auto" data-mode="slider" data-auto-open="1" data-hidden="plan=pro, utm_source=site-default, utm_medium=embed"></div>',
    );
    const page = await w.browser.newPage();
    await page.goto(`${url}?utm_source=newsletter`);
    await page.getByRole('dialog', { name: 'Form' }).waitFor({ state: 'visible' }); // nobody clicked
    await waitForHostEvent(page, 'form:ready', 'embed');
    await page.frameLocator('iframe').getByLabel('Email').fill('auto@example.com');
    await page.frameLocator('iframe').getByRole('button', { name: 'Submit' }).click();
    await waitForHostEvent(page, 'form:submitted', 'embed');
    await page.close();
    const s = await onlySubmission(form.id);
    expect(s.fields).toEqual({ email: 'auto@example.com', plan: 'pro' });
    expect(s.metadata).toMatchObject({ utm_source: 'newsletter', utm_medium: 'embed' });
  });

  itWithBrowser('opens on exit intent (the pointer leaves through the top of the page), once', async () => {
    await makeForm('embed-exit');
    const url = w.host.page('/exit.html', '<div id="embed" data-form="embed-exit" data-mode="popup" data-open-on-exit="true"></div>');
    const page = await w.browser.newPage();
    await page.goto(url);
    const dialog = page.getByRole('dialog', { name: 'Form' });
    const leave = (clientY: number) =>
      page.evaluate((y) => document.dispatchEvent(new MouseEvent('mouseout', { clientY: y, relatedTarget: null, bubbles: true })), clientY);
    await leave(300); // leaving sideways is not exit intent
    expect(await dialog.count()).toBe(0);
    await leave(-2);
    await dialog.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await leave(-2);
    expect(await dialog.isVisible()).toBe(false);
    await page.close();
  });

  itWithBrowser('a form with redirect_url sends the host page there after a submission from the embed', async () => {
    const thanks = w.host.page('/thanks.html', '<p id="thanks">Thank you page of the host</p>');
    const form = await makeForm('embed-redirect', { redirect_url: thanks });
    const url = w.host.page('/redirect.html', '<button id="embed" type="button" data-form="embed-redirect">Sign up</button>');
    const page = await w.browser.newPage();
    await page.goto(url);
    await page.getByRole('button', { name: 'Sign up' }).click(); // a button defaults to popup
    await waitForHostEvent(page, 'form:ready', 'embed');
    await page.frameLocator('iframe').getByLabel('Email').fill('redirect@example.com');
    await page.frameLocator('iframe').getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(thanks);
    await page.locator('#thanks').waitFor();
    await page.close();
    expect((await onlySubmission(form.id)).status).toBe('completed');
  });
});

describe('plain iframe without embed.js', () => {
  itWithBrowser('posts its height and events to the parent (origin from the referrer) and submits', async () => {
    const form = await makeForm('embed-plain');
    const url = w.host.page(
      '/plain.html',
      `<iframe id="plain" title="Sign-up form" src="${w.app.baseUrl}/f/embed-plain?embed=1&utm_campaign=plain"></iframe>`,
    );
    const page = await w.browser.newPage();
    await page.goto(url);
    await page.waitForFunction(() => (window as any).fssMessages.some((m: any) => m.data?.type === 'form:ready'));
    const resize = (await hostMessages(page)).find((m) => m.data?.type === 'embed:resize')!;
    expect(resize.origin).toBe(w.app.baseUrl);
    expect(resize.data.height).toBeGreaterThan(100);
    await page.frameLocator('#plain').getByLabel('Email').fill('plain@example.com');
    await page.frameLocator('#plain').getByRole('button', { name: 'Submit' }).click();
    await page.waitForFunction(() => (window as any).fssMessages.some((m: any) => m.data?.type === 'form:submitted'));
    await page.close();
    const s = await onlySubmission(form.id);
    // The host page's default referrer policy only reveals its origin to another origin.
    expect(s.metadata).toMatchObject({ utm_campaign: 'plain', referrer: `${w.host.origin}/` });
  });
});
