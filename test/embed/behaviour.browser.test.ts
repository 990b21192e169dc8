import path from 'node:path';
import type { Page } from 'playwright-core';
import { alwaysAvailable, publishedEventType } from '../scheduling/helpers';
import { itWithBrowser } from '../helpers/browser';
import { makeForm as createForm, useEmbedWorld } from './world';
import { ARTIFACTS, STORAGE_SPY, hostEvents, waitForHostEvent } from './browser';

/**
 * Keyboard and focus behaviour of the popup, the JS API, the per-form allow-list as the browser
 * enforces it, no cookie/storage access on the host, and a booking page booked from a popup.
 */
const w = useEmbedWorld();

async function makeForm(slug: string, settings: Record<string, unknown> = {}) {
  return createForm(w, slug, settings, [{ type: 'text', label: 'Company', name: 'company' }]);
}

const activeInHost = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement;
    return { id: a?.id ?? '', tag: a?.tagName ?? '', label: a?.getAttribute('aria-label') ?? '', inDialog: !!a?.closest('[role=dialog]') };
  });

describe('popup keyboard use', () => {
  itWithBrowser(
    'traps focus, closes on Esc (also typed inside the form), on the overlay and by the API, and returns focus to the opener',
    async () => {
      await makeForm('embed-keys');
      const url = w.host.page(
        '/keys.html',
        '<button id="embed" type="button" data-form="embed-keys" data-mode="popup" data-label="Contact form">Contact us</button>',
      );
      const context = await w.browser.newContext();
      await context.addInitScript(STORAGE_SPY);
      const page = await context.newPage();
      await page.goto(url);
      const trigger = page.getByRole('button', { name: 'Contact us' });
      const dialog = page.getByRole('dialog', { name: 'Contact form' });
      expect(await trigger.getAttribute('aria-haspopup')).toBe('dialog');

      // Open from the keyboard: focus moves to the dialog's Close button.
      await trigger.focus();
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'visible' });
      expect(await trigger.getAttribute('aria-expanded')).toBe('true');
      expect(await trigger.getAttribute('aria-controls')).toBe(await dialog.getAttribute('id'));
      expect(await activeInHost(page)).toMatchObject({ label: 'Close', inDialog: true });
      await waitForHostEvent(page, 'form:ready', 'embed');

      // Tab walks Close → form controls → back to Close, never onto the host page behind.
      const frame = page.frames().find((f) => f.url().includes('/f/embed-keys'))!;
      const seen: string[] = [];
      for (let i = 0; i < 6; i++) {
        await page.keyboard.press('Tab');
        const a = await activeInHost(page);
        expect(a.inDialog).toBe(true);
        seen.push(
          a.tag === 'IFRAME'
            ? `frame:${await frame.evaluate(() => document.activeElement?.id || document.activeElement?.tagName)}`
            : a.label,
        );
      }
      expect(seen.slice(0, 4)).toEqual(['frame:f-email', 'frame:f-company', 'frame:BUTTON', 'Close']);
      // Shift+Tab from Close wraps to the form (the iframe).
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Shift+Tab');
      expect((await activeInHost(page)).inDialog).toBe(true);

      // Esc typed inside the form (the host never sees that key) closes it; focus returns to the opener.
      await page.frameLocator('iframe').getByLabel('Email').fill('typing@example.com');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      expect(await activeInHost(page)).toMatchObject({ id: 'embed', inDialog: false });
      expect(await trigger.getAttribute('aria-expanded')).toBe('false');
      await waitForHostEvent(page, 'form:closed', 'embed');

      // Reopen: the answers typed so far are still there; Esc on the Close button closes too.
      await trigger.click();
      await dialog.waitFor({ state: 'visible' });
      expect(await page.frameLocator('iframe').getByLabel('Email').inputValue()).toBe('typing@example.com');
      await page.screenshot({ path: path.join(ARTIFACTS, 'embed-popup-keyboard.png') });
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      expect((await activeInHost(page)).id).toBe('embed');

      // The overlay closes it.
      await trigger.click();
      await dialog.waitFor({ state: 'visible' });
      await page.mouse.click(5, 700);
      await dialog.waitFor({ state: 'hidden' });

      // The JavaScript API.
      expect(await page.evaluate(() => (window as any).FssEmbed.open('#embed'))).toBe(true);
      await dialog.waitFor({ state: 'visible' });
      await page.evaluate(() => (window as any).FssEmbed.toggle());
      await dialog.waitFor({ state: 'hidden' });
      await page.evaluate(() => (window as any).FssEmbed.toggle('#embed'));
      await dialog.waitFor({ state: 'visible' });
      await page.evaluate(() => (window as any).FssEmbed.close('#embed'));
      await dialog.waitFor({ state: 'hidden' });
      expect(await page.evaluate(() => (window as any).FssEmbed.open('#missing'))).toBe(false);
      expect((await hostEvents(page)).filter((e) => e.type === 'form:closed').length).toBe(5);

      // Nothing in the host page read or wrote cookies or storage; the spy itself works.
      expect(await page.evaluate(() => (window as any).__storageTouched)).toEqual([]);
      expect(await page.evaluate(() => (void document.cookie, (window as any).__storageTouched))).toEqual(['cookie']);
      await context.close();
    },
  );

  itWithBrowser('ignores messages that do not come from the service origin', async () => {
    await makeForm('embed-forged');
    const url = w.host.page('/forged.html', '<div id="embed" data-form="embed-forged"></div>');
    const page = await w.browser.newPage();
    await page.goto(url);
    await waitForHostEvent(page, 'form:ready', 'embed');
    // A forged event from another origin (the host page itself) is not turned into a DOM event...
    await page.evaluate(() => window.postMessage({ fss: 1, type: 'form:submitted', submission_id: 'forged' }, '*'));
    // ...and a real round trip afterwards proves the listener is alive.
    await page.frameLocator('iframe').getByLabel('Email').fill('real@example.com');
    await page.frameLocator('iframe').getByRole('button', { name: 'Submit' }).click();
    const real = await waitForHostEvent(page, 'form:submitted', 'embed');
    expect(real.detail.submission_id).not.toBe('forged');
    expect((await hostEvents(page)).filter((e) => e.type === 'form:submitted')).toHaveLength(1);
    await page.close();
  });
});

describe('per-form allow-list', () => {
  itWithBrowser('the browser refuses to show a form whose allow-list excludes the host origin, and shows one that lists it', async () => {
    await makeForm('embed-excluded', { embed_allowed_origins: ['https://example.com'] });
    await makeForm('embed-included', { embed_allowed_origins: ['https://example.com', w.host.origin] });
    const url = w.host.page(
      '/allow.html',
      '<div id="excluded" data-form="embed-excluded"></div><div id="included" data-form="embed-included"></div>',
    );
    const page = await w.browser.newPage();
    const refused = page.waitForEvent('console', (m) => /frame-ancestors/.test(m.text()));
    await page.goto(url);
    await waitForHostEvent(page, 'form:ready', 'included');
    await page.frameLocator('#included iframe').getByLabel('Email').waitFor();
    // Chromium reports the blocked framing and shows its error page in place of the form.
    expect((await refused).text()).toContain('"frame-ancestors https://example.com"');
    const excluded = (await page.$('#excluded iframe'))!;
    let url2 = '';
    for (let i = 0; i < 100 && !url2.startsWith('chrome-error:'); i++) {
      url2 = (await excluded.contentFrame())?.url() ?? '';
      if (!url2.startsWith('chrome-error:')) await page.waitForTimeout(50);
    }
    expect(url2).toBe('chrome-error://chromewebdata/');
    expect(await (await excluded.contentFrame())!.$('#fss-form')).toBeNull();
    expect((await hostEvents(page)).some((e) => e.target === 'excluded')).toBe(false);
    await page.screenshot({ path: path.join(ARTIFACTS, 'embed-allow-list.png'), fullPage: true });
    await page.close();
  });
});

describe('booking page in a popup', () => {
  itWithBrowser('books a slot and the host page sees booking:scheduled with the meeting id', async () => {
    await alwaysAvailable(w.tdb.db, w.team.userId, 'UTC');
    const { slug } = await publishedEventType(
      w.app.baseUrl,
      w.team,
      { title: 'Talk to sales' },
      { title: 'Demo call', start_time_increment: 60 },
    );
    const url = w.host.page('/book.html', `<button id="book" type="button" data-booking="${slug}" data-mode="popup">Book a demo</button>`);
    const page = await w.browser.newPage();
    await page.goto(url);
    await page.getByRole('button', { name: 'Book a demo' }).click();
    await page.getByRole('dialog', { name: 'Book a meeting' }).waitFor({ state: 'visible' });
    await waitForHostEvent(page, 'booking:ready', 'book');
    const frame = page.frameLocator(`iframe[src*="/book/${slug}"]`);
    await frame.getByRole('button', { name: /Demo call/ }).click();
    await frame.locator('button.day').nth(1).click();
    const slot = frame.locator('button.slot').first();
    await slot.waitFor();
    const start = await slot.getAttribute('data-start');
    await slot.click();
    await frame.getByLabel('Name').fill('Hana Host');
    await frame.getByLabel('Email').fill('hana@example.com');
    await page.screenshot({ path: path.join(ARTIFACTS, 'embed-booking-popup.png') });
    await frame.getByRole('button', { name: 'Book' }).click();
    const scheduled = await waitForHostEvent(page, 'booking:scheduled', 'book');
    await frame.locator('#confirmation').waitFor({ state: 'visible' });
    await page.screenshot({ path: path.join(ARTIFACTS, 'embed-booking-popup-booked.png') });

    const meeting = await w.tdb.db('meetings').where({ attendee_email: 'hana@example.com' }).first();
    expect(scheduled.detail).toMatchObject({ meeting_id: meeting!.id, status: 'scheduled' });
    expect(new Date(meeting!.start_time).getTime()).toBe(Date.parse(start!));
    const viaApi = await w.api.get(`/api/v1/meetings/${scheduled.detail.meeting_id}`);
    expect(viaApi.status).toBe(200);
    expect(viaApi.body.data.attendee_name).toBe('Hana Host');
    await page.close();
  });
});
