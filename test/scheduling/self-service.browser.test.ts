// Attendee self-service in a real browser: the links in the confirmation email open
// `/booking/<token>`, where the attendee cancels, or picks a new time; the emails each party gets
// are read from a real SMTP server. Runs the booking and cleanup workflows on the Temporal test server.
import ICAL from 'ical.js';
import type { Browser } from 'playwright-core';
import { describeWithBrowser, hasChromium, launchChromium } from '../helpers/browser';
import { client } from '../helpers/http';
import { ALL_WEEK, nextOpenDay } from '../helpers/open-day';
import type { Mail } from '../helpers/smtp';
import { withWorker } from '../helpers/temporal';
import { publishedEventType } from './helpers';
import { useSchedulingWorld } from './support/world';

const HOUR = 3_600_000;
const w = useSchedulingWorld({ timezone: 'Europe/Paris' });
const { mails, waitForMail } = w;
let browser: Browser | undefined;

beforeAll(async () => {
  if (hasChromium) browser = await launchChromium(); // without it, every test below is reported as skipped
});
afterAll(async () => {
  await browser?.close();
});

const to = (m: Mail) => (m.to as { text: string }).text;
const vevent = (m: Mail) => {
  const a = m.attachments.find((x) => x.contentType.startsWith('text/calendar'))!;
  const cal = new ICAL.Component(ICAL.parse(a.content.toString('utf8')));
  return { method: cal.getFirstPropertyValue('method'), event: new ICAL.Event(cal.getFirstSubcomponent('vevent')!) };
};
const linkIn = (text: string, label: string) => new RegExp(`${label}: (http\\S+)`).exec(text)![1];

async function book(startMs: number, guests: string[] = []): Promise<string> {
  const { eventTypeId } = await publishedEventType(
    w.app.baseUrl,
    w.team,
    {},
    { start_time_increment: 60, max_booking_days: 30, guests_allowed: guests.length > 0 },
  );
  const res = await client(w.app.baseUrl).post('/api/calendar/book', {
    user_id: w.team.userId,
    team_id: w.team.teamId,
    event_type_id: eventTypeId,
    attendee_email: 'ada@example.com',
    attendee_name: 'Ada Attendee',
    start: new Date(startMs).toISOString(),
    end: new Date(startMs + 30 * 60_000).toISOString(),
    timezone: 'Europe/Paris',
    guests,
  });
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  return res.body.meeting.id;
}

/** `hourUtc` on the UTC date `daysAhead` after today's (the host is available every day). */
const dayAt = (daysAhead: number, hourUtc: number) => nextOpenDay(ALL_WEEK, { after: daysAhead }).startMs + hourUtc * HOUR;

describeWithBrowser('attendee self-service /booking/<token>', () => {
  it('the cancel link cancels with a reason; everyone invited gets the CANCEL', async () => {
    await withWorker(w.env, w.activities(), async () => {
      const id = await book(dayAt(3, 9), ['guest@example.com']);
      const confirmations = await waitForMail(id, 'confirmation', 3);
      expect(confirmations.map(to).sort()).toEqual(['ada@example.com', 'guest@example.com', w.team.email].sort());
      for (const m of confirmations) expect(vevent(m).method).toBe('REQUEST');
      const mine = confirmations.find((m) => to(m) === 'ada@example.com')!;
      expect(
        mails(id, 'confirmation')
          .filter((m) => to(m) !== 'ada@example.com')
          .every((m) => !m.text!.includes('/booking/')),
      ).toBe(true);

      const page = await browser!.newPage();
      const res = await page.goto(linkIn(mine.text!, 'Cancel'));
      expect(res?.status()).toBe(200);
      expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
      await expect(page.locator('h1').textContent()).resolves.toBe('Cancel this meeting');
      await page.getByLabel('Reason (optional)').fill('Something came up');
      await page.getByRole('button', { name: 'Cancel the meeting' }).click();
      await expect(page.getByRole('status').textContent()).resolves.toBe('Meeting cancelled');
      await page.screenshot({ path: 'test-artifacts/self-service-cancelled.png' });

      expect(await w.tdb.db('meetings').where({ id }).first()).toMatchObject({
        status: 'cancelled',
        cancellation_reason: 'Something came up',
      });
      const cancels = await waitForMail(id, 'cancellation', 3);
      expect(cancels.map(to).sort()).toEqual(['ada@example.com', 'guest@example.com', w.team.email].sort());
      const { method, event } = vevent(cancels[0]);
      expect(method).toBe('CANCEL');
      expect(event.uid).toBe(`meeting-${id}@forms-scheduling-sequences`);
      expect(cancels[0].text).toContain('Something came up');

      // the link is spent: the page now says so, and a second post changes nothing
      await page.goto(linkIn(mine.text!, 'Cancel'));
      await expect(page.getByRole('status').textContent()).resolves.toBe('This meeting is cancelled.');
      await page.close();
    });
  });

  it('the reschedule link offers free times of the same event type; picking one moves the meeting (same UID, SEQUENCE 1)', async () => {
    await withWorker(w.env, w.activities(), async () => {
      const startMs = dayAt(4, 9); // 10:00 or 11:00 in Paris
      const id = await book(startMs);
      const [mine] = (await waitForMail(id, 'confirmation', 2)).filter((m) => to(m) === 'ada@example.com');
      const page = await browser!.newPage();
      await page.goto(linkIn(mine.text!, 'Reschedule'));
      await expect(page.locator('h1').textContent()).resolves.toBe('Pick a new time');
      // the next day, 15:00 Paris time
      await page.getByRole('link', { name: 'Next day →' }).click();
      await page.getByRole('button', { name: 'Move to 15:00' }).click();
      await expect(page.getByRole('status').textContent()).resolves.toBe('Meeting moved');

      const old = await w.tdb.db('meetings').where({ id }).first();
      expect(old!.status).toBe('rescheduled');
      const moved = await w.tdb.db('meetings').where({ id: old!.rescheduled_to_id! }).first();
      expect(moved).toMatchObject({ status: 'scheduled', rescheduled_from_id: id, ical_sequence: 1, attendee_email: 'ada@example.com' });
      const paris = new Date(moved!.start_time).toLocaleString('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' });
      expect(paris).toBe('15:00');
      expect(new Date(moved!.start_time).getTime() - startMs).toBeGreaterThan(20 * HOUR);

      const updates = await waitForMail(moved!.id, 'update', 2);
      expect(updates.map(to).sort()).toEqual(['ada@example.com', w.team.email].sort());
      const { method, event } = vevent(updates[0]);
      expect(method).toBe('REQUEST');
      expect(event.uid).toBe(`meeting-${id}@forms-scheduling-sequences`);
      expect(event.sequence).toBe(1);
      expect(event.startDate.toJSDate().getTime()).toBe(new Date(moved!.start_time).getTime());
      // no CANCEL for a move, and the old link now points the attendee to the latest email
      expect(mails(id, 'cancellation')).toHaveLength(0);
      await page.goto(linkIn(mine.text!, 'Reschedule'));
      await expect(page.getByRole('status').textContent()).resolves.toMatch(/moved to another time/);
      await page.close();
    });
  });

  it('a forged or unknown token is a 404 page', async () => {
    const page = await browser!.newPage();
    const res = await page.goto(`${w.app.baseUrl}/booking/00000000000000000000000000000000.c1234567.AAAAAAAAAAAAAAAAAAAAAA`);
    expect(res?.status()).toBe(404);
    await expect(page.locator('h1').textContent()).resolves.toBe('Link not found');
    await page.close();
  });
});
