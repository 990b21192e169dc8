import type { Browser, Page } from 'playwright-core';
import { jsonb } from '../../../db/jsonb';
import { useApiWorld } from '../../helpers/world';
import { describeWithBrowser, launchChromium } from '../../helpers/browser';
import { routingWorld, type RoutingWorld } from './world';
import { startHostSite } from '../../embed/host';

/**
 * A routed submission books on the spot (docs/forms.md "Routing"), in headless Chromium with and
 * without JavaScript. The two routed hosts are open 09:00-12:00 UTC only while the page's other
 * hosts are open around the clock, so a time outside that window would be another host's: every
 * time offered must fall inside it.
 */
const w = useApiWorld();
let r: RoutingWorld;
let browser: Browser | undefined;
const ROUTED_HOURS = ['09', '10', '11'];

beforeAll(async () => {
  r = await routingWorld(w.tdb.db, w.app.baseUrl, w.team, 'book-on-the-spot');
  const morning = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, start: '09:00', end: '12:00', enabled: true }));
  await w.tdb
    .db('availability_schedules')
    .whereIn('user_id', r.emea)
    .update({ rules: jsonb(morning), timezone: 'UTC' });
});
afterAll(async () => {
  await browser?.close();
});

async function fillForm(page: Page, email: string): Promise<void> {
  await page.goto(`${w.app.baseUrl}/f/${r.formSlug}`);
  await page.getByLabel('Name').fill('Grace Hopper');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Region').selectOption('EMEA');
}

async function meetingOf(email: string) {
  const m = await w.tdb.db('meetings').where({ attendee_email: email }).first();
  const s = await w.tdb.db('submissions').where({ form_id: r.formId }).whereRaw(`fields->>'email' = ?`, [email]).first();
  if (!m || !s) throw new Error(`no meeting or submission of ${email}`);
  return { m, s };
}

describeWithBrowser('routing in the browser', () => {
  beforeAll(async () => {
    browser = await launchChromium();
  });

  it("with JavaScript: qualifies, sees only the routed hosts' times, books, and the meeting links the submission", async () => {
    const context = await browser!.newContext({ timezoneId: 'UTC' });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(String(e)));
    const email = 'grace.js@example.com';
    await fillForm(page, email);
    const slotsAnswer = page.waitForResponse((res) => res.url().includes('/api/calendar/availability'));
    await page.getByRole('button', { name: 'Submit' }).click();
    const answer = await slotsAnswer;
    expect(answer.url()).toContain('routing_token=pf_');
    expect(page.url()).toContain(`/book/${r.pageSlug}?event_type=${r.eventTypeId}&prefill=pf_`);
    const body = await answer.json();
    expect(body.data.slots.length).toBeGreaterThan(0);
    expect(body.data.slots.every((s: { available_host_count: number }) => s.available_host_count <= 2)).toBe(true);

    await page.locator('#days button.day').first().click();
    const times = await page.locator('#slots button.slot').allTextContents();
    expect(times.length).toBeGreaterThan(0);
    expect(times.every((t) => ROUTED_HOURS.includes(t.slice(0, 2)))).toBe(true);
    await page.locator('#slots button.slot').first().click();
    expect(await page.locator('#name').inputValue()).toBe('Grace Hopper');
    expect(await page.locator('#email').inputValue()).toBe(email);
    await page.getByRole('button', { name: 'Book', exact: true }).click();
    await page.locator('#confirmation').waitFor({ state: 'visible' });
    expect(problems).toEqual([]);
    await context.close();

    const { m, s } = await meetingOf(email);
    expect(m).toMatchObject({ submission_id: s.id, form_id: r.formId, source: 'routing' });
    expect(r.emea).toContain(m.host_user_id);
    expect(m.field_values).toMatchObject({ region: 'EMEA' });
  });

  it("without JavaScript: the thank-you page links to the booking page, which lists only the routed hosts' times and books", async () => {
    const context = await browser!.newContext({ javaScriptEnabled: false, timezoneId: 'UTC' });
    const page = await context.newPage();
    const email = 'grace.nojs@example.com';
    await fillForm(page, email);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Submit' }).click()]);
    const link = page.locator('#routed-booking');
    expect(await link.getAttribute('href')).toContain(`/book/${r.pageSlug}?event_type=${r.eventTypeId}&prefill=pf_`);
    await Promise.all([page.waitForLoadState('load'), link.click()]);
    const labels = await page.locator('#routed-nojs input[type=radio] + label').allTextContents();
    expect(labels.length).toBeGreaterThan(0);
    expect(labels.every((l) => ROUTED_HOURS.includes(l.slice(11, 13)))).toBe(true);
    expect(await page.locator('#rn-name').inputValue()).toBe('Grace Hopper');
    expect(await page.locator('#rn-email').inputValue()).toBe(email);
    await page.locator('#routed-nojs input[type=radio]').nth(1).check();
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Book this time' }).click()]);
    await page.getByRole('heading', { name: 'Booked' }).waitFor();
    await context.close();

    const { m, s } = await meetingOf(email);
    expect(m).toMatchObject({ submission_id: s.id, form_id: r.formId, source: 'routing' });
    expect(r.emea).toContain(m.host_user_id);
  });

  it('embedded: the booking step opens in the same frame, embedded the same way, with the answers filled in', async () => {
    const site = await startHostSite(w.app.baseUrl);
    const host = site.origin;
    const context = await browser!.newContext({ timezoneId: 'UTC' });
    const page = await context.newPage();
    const src = `${w.app.baseUrl}/f/${r.formSlug}?embed=1&embed_host=${encodeURIComponent(host)}`;
    await page.goto(site.page('/routed', `<iframe id="f" title="Talk to sales" width="600" height="800" src="${src}"></iframe>`));
    const frame = await (await page.waitForSelector('#f')).contentFrame();
    if (!frame) throw new Error('no frame');
    await frame.getByLabel('Name').fill('Ada Embedded');
    await frame.getByLabel('Email').fill('ada.embed@example.com');
    await frame.getByLabel('Region').selectOption('EMEA');
    await frame.getByRole('button', { name: 'Submit' }).click();
    await frame.waitForURL(/\/book\//);
    const url = new URL(frame.url());
    expect(url.pathname).toBe(`/book/${r.pageSlug}`);
    expect(url.searchParams.get('embed')).toBe('1');
    expect(url.searchParams.get('embed_host')).toBe(host);
    expect(url.searchParams.get('prefill')).toMatch(/^pf_/);
    expect(page.url()).toBe(`${host}/routed`);
    await frame.locator('#days button.day').first().click();
    await frame.locator('#slots button.slot').first().click();
    expect(await frame.locator('#email').inputValue()).toBe('ada.embed@example.com');
    await context.close();
    await site.close();
  });
});
