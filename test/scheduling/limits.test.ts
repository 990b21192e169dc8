// Booking limits per event type (at most N a day / a week per host, in the host's timezone):
// the availability answers honour them and the booking transaction enforces them under races.
import { DateTime } from 'luxon';
import { createTestTeam, type TestTeam } from '../helpers/fixtures';
import { client } from '../helpers/http';
import { nextOpenDay } from '../helpers/open-day';
import { addMember } from '../../services/team';
import { alwaysAvailable, publishedEventType } from './helpers';
import { useApiWorld } from '../helpers/world';
import { testConfig } from '../helpers/config';

const w = useApiWorld({ team: false });

/** A Monday 10 days or more ahead, as a local date in `zone`. */
function nextMondayAhead(zone: string): DateTime {
  return nextOpenDay([{ day: 1, start: '00:00', end: '24:00' }], { zone, after: 10 }).start;
}

const book = (t: TestTeam, eventTypeId: string, start: DateTime, i: number, pageId?: string) =>
  w.pub.post('/api/calendar/book', {
    user_id: t.userId,
    team_id: t.teamId,
    event_type_id: eventTypeId,
    ...(pageId ? { scheduling_page_id: pageId } : {}),
    start: start.toUTC().toISO(),
    end: start.plus({ minutes: 30 }).toUTC().toISO(),
    attendee_email: `limit${i}-${start.toMillis()}@example.com`,
  });

const slotsOn = async (t: TestTeam, eventTypeId: string, date: string, timezone: string) => {
  const res = await w.pub.get(
    `/api/calendar/availability?${new URLSearchParams({ user_id: t.userId, team_id: t.teamId, date, event_type_id: eventTypeId, timezone })}`,
  );
  expect(res.status).toBe(200);
  return res.body.available_slots as Array<{ start: string }>;
};

describe('booking limits', () => {
  test('validation: limits are whole numbers ≥ 1, null removes one, and they are shown on the event type', async () => {
    const t = await createTestTeam(w.tdb.db);
    const api = client(w.app.baseUrl, t.apiKey);
    const { pageId, eventTypeId } = await publishedEventType(w.app.baseUrl, t, {}, { max_bookings_per_day: 3 });
    const path = `/api/v1/scheduling-pages/${pageId}/event-types/${eventTypeId}`;
    for (const bad of [{ max_bookings_per_day: 0 }, { max_bookings_per_week: 1.5 }, { max_bookings_per_day: '2' }]) {
      const res = await api.patch(path, bad);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.details[0].path).toMatch(/^body\.max_bookings_per_(day|week)$/);
    }
    expect((await api.get(path)).body.data).toMatchObject({ max_bookings_per_day: 3, max_bookings_per_week: null });
    const cleared = await api.patch(path, { max_bookings_per_day: null, max_bookings_per_week: 5 });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({ max_bookings_per_day: null, max_bookings_per_week: 5 });
  });

  test('a day limit of 2 under a race of 10 bookings on distinct slots of one day: exactly 2 are made, counted in the host timezone', async () => {
    const zone = 'America/New_York';
    const t = await createTestTeam(w.tdb.db);
    await alwaysAvailable(w.tdb.db, t.userId, zone);
    const { eventTypeId } = await publishedEventType(
      w.app.baseUrl,
      t,
      {},
      { max_bookings_per_day: 2, start_time_increment: 60, max_booking_days: 30 },
    );
    const monday = nextMondayAhead(zone);
    // 10 slots from 08:00 to 17:00 New York time (13:00–22:00 UTC: the same UTC day would be split differently)
    const starts = Array.from({ length: 10 }, (_, i) => monday.plus({ hours: 8 + i }));
    const results = await Promise.all(starts.map((s, i) => book(t, eventTypeId, s, i)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(8);
    for (const r of refused) expect(r.body.error.code).toBe('slot_unavailable');
    expect(await w.tdb.db('meetings').where({ event_type_id: eventTypeId }).count('* as n').first()).toMatchObject({ n: 2 });

    // the day offers nothing more; the next local day does, and 23:00 the evening before is another day
    expect(await slotsOn(t, eventTypeId, monday.toISODate()!, zone)).toEqual([]);
    expect((await slotsOn(t, eventTypeId, monday.plus({ days: 1 }).toISODate()!, zone)).length).toBeGreaterThan(0);
    const late = await book(t, eventTypeId, monday.minus({ hours: 1 }), 99); // Sunday 23:00 local
    expect(late.status).toBe(201);

    // a cancelled booking frees its place
    const made = await w.tdb.db('meetings').where({ event_type_id: eventTypeId }).where('start_time', '>=', monday.toJSDate()).first('id');
    await client(w.app.baseUrl, t.apiKey).patch(`/api/v1/meetings/${made!.id}`, { status: 'cancelled' });
    expect((await slotsOn(t, eventTypeId, monday.toISODate()!, zone)).length).toBeGreaterThan(0);
  });

  test('a week limit counts Monday to Sunday in the host timezone', async () => {
    const zone = 'Europe/Berlin';
    const t = await createTestTeam(w.tdb.db);
    await alwaysAvailable(w.tdb.db, t.userId, zone);
    const { eventTypeId } = await publishedEventType(
      w.app.baseUrl,
      t,
      {},
      { max_bookings_per_week: 3, start_time_increment: 60, max_booking_days: 30 },
    );
    const monday = nextMondayAhead(zone);
    for (const [i, d] of [0, 2, 4].entries()) expect((await book(t, eventTypeId, monday.plus({ days: d, hours: 10 }), i)).status).toBe(201);
    const sunday = await book(t, eventTypeId, monday.plus({ days: 6, hours: 23 }), 5);
    expect(sunday.status).toBe(409);
    expect(sunday.body.error.message).toMatch(/limit/);
    expect(await slotsOn(t, eventTypeId, monday.plus({ days: 5 }).toISODate()!, zone)).toEqual([]);
    expect((await book(t, eventTypeId, monday.plus({ days: 7, hours: 0 }), 6)).status).toBe(201); // next Monday 00:00
  });

  test('round robin: the limit is per host, so the day fills one host at a time', async () => {
    const t = await createTestTeam(w.tdb.db);
    const members = [t.userId];
    for (let i = 0; i < 2; i++)
      members.push(
        (
          await addMember(
            { db: w.tdb.db, config: testConfig() },
            { teamId: t.teamId, values: { email: `lim${i}-${t.teamId}@example.com`, role: 'member' } },
          )
        ).id,
      );
    for (const id of members) await alwaysAvailable(w.tdb.db, id);
    const { eventTypeId, pageId } = await publishedEventType(
      w.app.baseUrl,
      t,
      { page_type: 'round_robin', host_user_ids: members },
      { max_bookings_per_day: 1, start_time_increment: 60, max_booking_days: 30 },
    );
    const monday = nextMondayAhead('UTC');
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => book(t, eventTypeId, monday.plus({ hours: 9 + i }), i, pageId)));
    const ok = results.filter((r) => r.status === 201);
    expect(ok).toHaveLength(3);
    expect(new Set(ok.map((r) => r.body.meeting.host_user_id))).toEqual(new Set(members));
    expect(await slotsOn(t, eventTypeId, monday.toISODate()!, 'UTC')).toEqual([]);
    expect(results.filter((r) => r.status === 409)).toHaveLength(3);
  });
});
