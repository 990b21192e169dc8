import path from 'node:path';
import type { Page } from 'playwright-core';
import { itWithBrowser } from '../helpers/browser';
import { useEmbedWorld } from './world';
import { ARTIFACTS, hostEvents, hostMessages, waitForHostEvent } from './browser';

/**
 * Each embed mode in headless Chromium, on a host page served from another port (another
 * origin) with its own strict CSP: open the form, submit it, see `form:submitted` on the host
 * (DOM event and postMessage), and find the submission through the API with the host page's
 * tracking parameters and URL. Screenshots of every mode go to test-artifacts/.
 */
const w = useEmbedWorld();

const TRACKING = '?utm_source=host-src&utm_medium=cpc&utm_campaign=spring&tracking_id=trk-1&visitor_id=v-9&unrelated=x';

async function makeForm(slug: string, extraFields = 0, settings: Record<string, unknown> = {}) {
  const fields = [
    { type: 'email', label: 'Email', name: 'email', required: true },
    { type: 'text', label: 'First name', name: 'first_name' },
    ...Array.from({ length: extraFields }, (_, i) => ({ type: 'textarea', label: `Question ${i + 1}`, name: `q${i + 1}` })),
  ];
  const res = await w.api.post('/api/v1/forms', {
    title: `Form ${slug}`,
    slug,
    status: 'published',
    fields,
    settings: { success_message: 'Thanks from the embed!', ...settings },
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: string };
}

interface ModeCase {
  mode: 'inline' | 'popup' | 'slider' | 'sidetab';
  markup: (slug: string) => string;
  open: (page: Page) => Promise<void>;
  /** Where the open panel must sit (slider from the left, sidetab on the right). */
  edge?: 'left' | 'right';
}

const MODES: ModeCase[] = [
  { mode: 'inline', markup: (s) => `<div id="embed" data-form="${s}" data-mode="inline"></div>`, open: async () => undefined },
  {
    mode: 'popup',
    markup: (s) => `<button id="embed" type="button" data-form="${s}" data-mode="popup" data-width="560">Open the form</button>`,
    open: (page) => page.getByRole('button', { name: 'Open the form' }).click(),
  },
  {
    mode: 'slider',
    markup: (s) =>
      `<div id="embed" data-form="${s}" data-mode="slider" data-position="left" data-button-text="Slide it open" data-button-color="#8250df"></div>`,
    open: (page) => page.getByRole('button', { name: 'Slide it open' }).click(),
    edge: 'left',
  },
  {
    mode: 'sidetab',
    markup: (s) => `<div id="embed" data-form="${s}" data-mode="sidetab" data-button-text="Feedback" data-label="Feedback form"></div>`,
    open: (page) => page.getByRole('button', { name: 'Feedback' }).click(),
    edge: 'right',
  },
];

describe.each(MODES.map((m) => [m.mode, m] as const))('embed mode %s', (mode, c) => {
  itWithBrowser('opens, submits, tells the host page, and stores the host page tracking values', async () => {
    const slug = `embed-${mode}`;
    const form = await makeForm(slug);
    const hostUrl = w.host.page(`/${mode}.html`, c.markup(slug)) + TRACKING;
    const page = await w.browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    await page.goto(`${hostUrl}#section-2`);
    if (mode !== 'inline') await page.screenshot({ path: path.join(ARTIFACTS, `embed-${mode}-closed.png`) });

    await c.open(page);
    if (mode !== 'inline') {
      const dialog = page.getByRole('dialog', { name: mode === 'sidetab' ? 'Feedback form' : 'Form' });
      await dialog.waitFor({ state: 'visible' });
      expect(await dialog.getAttribute('aria-modal')).toBe('true');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Close');
      if (c.edge) {
        // The panel slides in and ends flush with its edge.
        await page.waitForFunction((edge) => {
          const r = document.querySelector('[role=dialog]')!.getBoundingClientRect();
          return edge === 'left' ? Math.abs(r.left) < 1 : Math.abs(r.right - window.innerWidth) < 1;
        }, c.edge);
      }
    }
    await waitForHostEvent(page, 'form:ready', 'embed');
    const frame = page.frameLocator(`iframe[src*="/f/${slug}"]`);
    await frame.getByLabel('Email').fill(`${mode}@example.com`);
    await frame.getByLabel('First name').fill(`Ann ${mode}`);
    await page.screenshot({ path: path.join(ARTIFACTS, `embed-${mode}.png`) });
    await frame.getByRole('button', { name: 'Submit' }).click();
    const submitted = await waitForHostEvent(page, 'form:submitted', 'embed');
    await frame.getByText('Thanks from the embed!').waitFor({ state: 'visible' });
    await page.screenshot({ path: path.join(ARTIFACTS, `embed-${mode}-submitted.png`) });
    expect(submitted.detail.submission_id).toMatch(/^[0-9a-f-]{36}$/);

    // The same events arrived as postMessage from the service's origin.
    const messages = await hostMessages(page);
    expect(messages.filter((m) => m.data?.fss === 1).every((m) => m.origin === w.app.baseUrl)).toBe(true);
    expect(messages.some((m) => m.data?.type === 'form:submitted' && m.data.submission_id === submitted.detail.submission_id)).toBe(true);
    expect(problems).toEqual([]);

    if (mode !== 'inline') {
      await page.getByRole('button', { name: 'Close' }).click();
      await page.getByRole('dialog').waitFor({ state: 'hidden' });
      await waitForHostEvent(page, 'form:closed', 'embed');
    }
    await page.close();

    const list = await w.api.get(`/api/v1/forms/${form.id}/submissions`);
    expect(list.body.data).toHaveLength(1);
    const s = list.body.data[0];
    expect(s.id).toBe(submitted.detail.submission_id);
    expect(s.status).toBe('completed');
    expect(s.fields).toEqual({ email: `${mode}@example.com`, first_name: `Ann ${mode}` });
    expect(s.metadata).toMatchObject({
      utm_source: 'host-src',
      utm_medium: 'cpc',
      utm_campaign: 'spring',
      tracking_id: 'trk-1',
      visitor_id: 'v-9',
      referrer: hostUrl, // the host page's URL, without its fragment
    });
  });
});

describe('inline embed sizing', () => {
  itWithBrowser('sizes the iframe to its content (no inner scroll bar) and follows it when the content grows or shrinks', async () => {
    await makeForm('embed-tall', 6);
    const url = w.host.page('/tall.html', '<div id="embed" data-form="embed-tall"></div>');
    const page = await w.browser.newPage({ viewport: { width: 900, height: 700 } });
    await page.goto(url);
    await waitForHostEvent(page, 'form:ready', 'embed');
    const iframeHeight = () => page.evaluate(() => document.querySelector('iframe')!.getBoundingClientRect().height);
    await page.waitForFunction(() => document.querySelector('iframe')!.getBoundingClientRect().height > 700);
    const frame = page.frames().find((f) => f.url().includes('/f/embed-tall'))!;
    const fits = () => frame.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight);
    expect(await fits()).toBe(true);
    const first = await iframeHeight();
    expect(first).toBe(await frame.evaluate(() => window.innerHeight));

    // An empty required email: the error summary and the field error make the form taller.
    await page.frameLocator('iframe').getByRole('button', { name: 'Submit' }).click();
    await page.waitForFunction((h) => document.querySelector('iframe')!.getBoundingClientRect().height > h, first);
    expect(await fits()).toBe(true);
    await page.screenshot({ path: path.join(ARTIFACTS, 'embed-inline-resized.png'), fullPage: true });

    // After the submission only the short success message is left: the iframe shrinks.
    await page.frameLocator('iframe').getByLabel('Email').fill('tall@example.com');
    await page.frameLocator('iframe').getByRole('button', { name: 'Submit' }).click();
    await waitForHostEvent(page, 'form:submitted', 'embed');
    await page.waitForFunction(() => document.querySelector('iframe')!.getBoundingClientRect().height < 200);
    expect(await fits()).toBe(true);
    expect((await hostEvents(page)).filter((e) => e.type === 'form:submitted')).toHaveLength(1);
    await page.close();
  });
});
