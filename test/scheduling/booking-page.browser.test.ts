import { itWithBrowser } from '../helpers/browser';
import { publishedEventType } from './helpers';
import { useApiWorld } from '../helpers/world';

const w = useApiWorld({ available: 'America/New_York', browser: true });

describe('booking page /book/:page_slug', () => {
  itWithBrowser('lists event types, shows free days and slots in the visitor timezone, books, and confirms', async () => {
    const { slug } = await publishedEventType(
      w.app.baseUrl,
      w.team,
      { title: 'Book <b>me</b>', settings: { confirmation_message: 'See you soon!' } },
      { title: 'Discovery call', start_time_increment: 60 },
    );
    const context = await w.browser.newContext({ timezoneId: 'Asia/Tokyo', locale: 'en-GB' });
    const page = await context.newPage();
    const res = await page.goto(`${w.app.baseUrl}/book/${slug}`);
    expect(res?.status()).toBe(200);
    await expect(page.locator('h1').textContent()).resolves.toBe('Book <b>me</b>');
    await expect(page.locator('#tz').textContent()).resolves.toBe('Asia/Tokyo');
    await page.getByRole('button', { name: /Discovery call/ }).click();
    const day = page.locator('button.day').nth(1);
    await day.waitFor();
    await day.click();
    const slot = page.locator('button.slot').first();
    await slot.waitFor();
    const start = await slot.getAttribute('data-start');
    expect(start).toMatch(/\+09:00$/); // shown in the visitor's timezone
    expect(await slot.textContent()).toBe(start!.slice(11, 16));
    await slot.click();
    await page.getByLabel('Name').fill('Priya Visitor');
    await page.getByLabel('Email').fill('priya@example.com');
    await page.getByRole('button', { name: 'Book' }).click();
    await page.locator('#confirmation').waitFor({ state: 'visible' });
    await expect(page.locator('#confirmation').textContent()).resolves.toContain('See you soon!');
    const m = await w.tdb.db('meetings').where({ attendee_email: 'priya@example.com' }).first();
    expect(m).toMatchObject({ status: 'scheduled', timezone: 'Asia/Tokyo', attendee_name: 'Priya Visitor', host_user_id: w.team.userId });
    expect(new Date(m!.start_time).getTime()).toBe(Date.parse(start!));
    const missing = await page.goto(`${w.app.baseUrl}/book/no-such-page`);
    expect(missing?.status()).toBe(404);
    await context.close();
  });
});
