import type { MeetingsRow } from '../../db/tables';
import ICAL from 'ical.js';
import { createTestTeam } from '../helpers/fixtures';
import { client, http } from '../helpers/http';
import { addMember } from '../../services/team';
import { zMeetingBookedEvent } from '../../services/webhooks/payload-schemas';
import { alwaysAvailable, dayFromNow, publishedEventType } from './helpers';
import { useApiWorld } from '../helpers/world';
import { testConfig } from '../helpers/config';

const w = useApiWorld({ available: true });

const availA = (q: Record<string, string>) => w.pub.get(`/api/calendar/availability?${new URLSearchParams(q)}`);

describe('public calendar, variant A', () => {
  it('offers slots, books one with contact and field_values, and answers 409 for the taken slot', async () => {
    const { eventTypeId, pageId } = await publishedEventType(w.app.baseUrl, w.team, {}, { location_type: 'video_provider_2' });
    const date = dayFromNow(2);
    const av = await availA({ user_id: w.team.userId, team_id: w.team.teamId, date, event_type_id: eventTypeId, timezone: 'UTC' });
    expect(av.status).toBe(200);
    expect(av.body).toMatchObject({ date, duration: 30, timezone: 'UTC' });
    expect(av.body.available_slots.length).toBe(96); // 15-minute increments over 24h (the next day is available too)
    const slot = av.body.available_slots[40];
    const body = {
      user_id: w.team.userId,
      team_id: w.team.teamId,
      start: slot.start,
      end: slot.end,
      attendee_email: 'Lead@Example.com',
      attendee_name: 'Lea Lead',
      event_type_id: eventTypeId,
      timezone: 'Europe/Berlin',
      lead_capture_data: { phone: '+4915112345678' },
      custom_fields: { company: 'Acme' },
    };
    const res = await w.pub.post('/api/calendar/book', body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      meeting: {
        event_type_id: eventTypeId,
        scheduling_page_id: pageId,
        host_user_id: w.team.userId,
        start_time: slot.start,
        end_time: slot.end,
        status: 'scheduled',
        timezone: 'Europe/Berlin',
      },
      event: { summary: 'Intro call with Lea Lead', start: slot.start, end: slot.end },
    });
    // a Jitsi Meet room (the default for providers 1 and 2) whose name nobody can guess
    expect(res.body.meeting_link).toMatch(/^https:\/\/meet\.jit\.si\/fss-[a-z2-7]{26}$/);
    expect(res.body.meeting.meeting_link).toBe(res.body.meeting_link);
    const contact = await w.tdb.db('contacts').where({ id: res.body.meeting.contact_id }).first();
    expect(contact).toMatchObject({
      email: 'Lead@Example.com',
      first_name: 'Lea',
      last_name: 'Lead',
      phone: '+4915112345678',
      custom_fields: { company: 'Acme' },
    });
    const m = await client(w.app.baseUrl, w.team.apiKey).get(`/api/v1/meetings/${res.body.meeting.id}`);
    expect(m.body.data.field_values).toEqual({ phone: '+4915112345678', company: 'Acme' });
    expect(await w.tdb.db('outbox').where({ workflow_id: `booking-${res.body.meeting.id}` })).toHaveLength(1);
    // Every booking emits meeting.booked (docs/webhooks.md); a plain one says it came from no form.
    const booked = await w.tdb
      .db('events')
      .where({ type: 'meeting.booked' })
      .whereRaw(`payload->'data'->>'meeting_id' = ?`, [res.body.meeting.id]);
    expect(booked).toHaveLength(1);
    expect(booked[0].form_id).toBeNull();
    expect(booked[0].payload.data).toMatchObject({
      source: null,
      form_id: null,
      form_title: null,
      submission_id: null,
      status: 'scheduled',
    });
    expect(zMeetingBookedEvent.safeParse(booked[0].payload).error).toBeUndefined();

    const again = await w.pub.post('/api/calendar/book', { ...body, attendee_email: 'other@example.com' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('slot_unavailable');
    const after = await availA({ user_id: w.team.userId, team_id: w.team.teamId, date, event_type_id: eventTypeId });
    expect(after.body.available_slots.map((s: { start: string }) => s.start)).not.toContain(slot.start);
    // A second booking by the same email links the same contact.
    const other = await w.pub.post('/api/calendar/book', {
      ...body,
      start: av.body.available_slots[60].start,
      end: av.body.available_slots[60].end,
      attendee_email: 'lead@example.com',
    });
    expect(other.body.meeting.contact_id).toBe(res.body.meeting.contact_id);
  });

  it('answers bad input with clear 4xx, never 500', async () => {
    const { eventTypeId } = await publishedEventType(w.app.baseUrl, w.team, {}, { start_time_increment: 30 });
    const other = await createTestTeam(w.tdb.db);
    const otherEt = await publishedEventType(w.app.baseUrl, other);
    const date = dayFromNow(3);
    const start = `${date}T10:00:00.000Z`;
    const base = {
      user_id: w.team.userId,
      team_id: w.team.teamId,
      start,
      end: `${date}T10:30:00.000Z`,
      attendee_email: 'a@example.com',
      event_type_id: eventTypeId,
    };
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ ...base, start: `${date}T10:10:00.000Z`, end: `${date}T10:40:00.000Z` }, 400, 'slot_not_offered'],
      [{ ...base, start: '2020-01-01T10:00:00Z', end: '2020-01-01T10:30:00Z' }, 400, 'slot_not_offered'],
      [{ ...base, end: `${date}T09:30:00.000Z` }, 400, 'validation_failed'],
      [{ ...base, timezone: 'Not/AZone' }, 400, 'validation_failed'],
      [{ ...base, start: 'tomorrow' }, 400, 'validation_failed'],
      [{ ...base, surprise: 1 }, 400, 'validation_failed'],
      [{ ...base, event_type_id: otherEt.eventTypeId }, 404, 'not_found'],
      [{ ...base, start: `${dayFromNow(40)}T10:00:00.000Z`, end: `${dayFromNow(40)}T10:30:00.000Z` }, 400, 'slot_not_offered'],
    ];
    for (const [body, status, code] of cases) {
      const res = await w.pub.post('/api/calendar/book', body);
      expect([res.status, res.body.error?.code, JSON.stringify(body)]).toEqual([status, code, JSON.stringify(body)]);
    }
    const q = { user_id: w.team.userId, team_id: w.team.teamId, date, event_type_id: eventTypeId };
    expect((await availA({ ...q, timezone: 'Nowhere/Land' })).status).toBe(400);
    expect((await availA({ ...q, date: '2020-01-01' })).status).toBe(400);
    expect((await availA({ ...q, date: '2031-02-30' })).status).toBe(400);
    expect((await availA({ ...q, event_type_id: otherEt.eventTypeId })).status).toBe(404);
    expect((await availA({ ...q, team_id: other.teamId })).status).toBe(404);
    const far = await availA({ ...q, date: dayFromNow(30) });
    expect(far.body.available_slots).toEqual([]);
  });
});

describe('public calendar, variant B', () => {
  it('answers in its own shape with offset-bearing times, and books', async () => {
    const { eventTypeId } = await publishedEventType(w.app.baseUrl, w.team, {}, { duration_minutes: 45, start_time_increment: 60 });
    const d = dayFromNow(4);
    const av = await w.pub.get(
      `/api/calendar/availability?event_type_id=${eventTypeId}&start_date=${d}&end_date=${d}&timezone=Asia/Kolkata`,
    );
    expect(av.status).toBe(200);
    expect(av.body.data.event_type).toEqual({ id: eventTypeId, title: 'Intro call', duration_minutes: 45 });
    expect(av.body.data.timezone).toBe('Asia/Kolkata');
    const slot = av.body.data.slots[3];
    expect(slot.start).toMatch(/\+05:30$/);
    const bad = await w.pub.get(
      `/api/calendar/availability?event_type_id=${eventTypeId}&start_date=${d}&end_date=${dayFromNow(1)}&timezone=UTC`,
    );
    expect(bad.status).toBe(400);
    const res = await w.pub.post('/api/calendar/book', {
      event_type_id: eventTypeId,
      start_time: slot.start,
      end_time: slot.end,
      timezone: 'Asia/Kolkata',
      name: 'Ravi',
      email: 'ravi@example.com',
      phone: '+911234567890',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      attendee_name: 'Ravi',
      attendee_phone: '+911234567890',
      confirmation_email_sent: false,
      status: 'scheduled',
      start_time: new Date(slot.start).toISOString(),
    });
    const wrongLen = await w.pub.post('/api/calendar/book', {
      event_type_id: eventTypeId,
      start_time: av.body.data.slots[5].start,
      end_time: av.body.data.slots[4].end,
      timezone: 'UTC',
      name: 'x',
      email: 'x@example.com',
    });
    expect(wrongLen.status).toBe(400);
  });
});

describe('race-free booking', () => {
  it('50 concurrent bookings of one slot: exactly one 201, 49 × 409, one meeting row', async () => {
    const { eventTypeId } = await publishedEventType(w.app.baseUrl, w.team, {}, { start_time_increment: 60 });
    const d = dayFromNow(5);
    const start = `${d}T13:00:00.000Z`;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        w.pub.post('/api/calendar/book', {
          user_id: w.team.userId,
          team_id: w.team.teamId,
          start,
          end: `${d}T13:30:00.000Z`,
          attendee_email: `racer${i}@example.com`,
          event_type_id: eventTypeId,
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error.code === 'slot_unavailable')).toBe(true);
    expect(await w.tdb.db('meetings').where({ host_user_id: w.team.userId, start_time: new Date(start) })).toHaveLength(1);
  });

  it('the exclusion constraint itself refuses overlapping active meetings (buffers included)', async () => {
    const row = (startIso: string, endIso: string, blockEndIso: string, status: MeetingsRow['status'] = 'scheduled') => ({
      team_id: w.team.teamId,
      host_user_id: w.team.userId,
      title: 't',
      attendee_name: 'a',
      attendee_email: 'a@example.com',
      status,
      start_time: new Date(startIso),
      end_time: new Date(endIso),
      block_start: new Date(startIso),
      block_end: new Date(blockEndIso),
    });
    await w.tdb.db('meetings').insert(row('2035-01-01T10:00:00Z', '2035-01-01T10:30:00Z', '2035-01-01T10:45:00Z'));
    await expect(
      w.tdb.db('meetings').insert(row('2035-01-01T10:40:00Z', '2035-01-01T11:00:00Z', '2035-01-01T11:00:00Z')),
    ).rejects.toMatchObject({ code: '23P01' });
    await w.tdb.db('meetings').insert(row('2035-01-01T10:40:00Z', '2035-01-01T11:00:00Z', '2035-01-01T11:00:00Z', 'cancelled'));
    await w.tdb.db('meetings').insert(row('2035-01-01T10:45:00Z', '2035-01-01T11:15:00Z', '2035-01-01T11:15:00Z'));
  });

  it('round-robin gives the slot to a free host until none is left', async () => {
    const t = await createTestTeam(w.tdb.db);
    const members = [t.userId];
    for (let i = 0; i < 2; i++)
      members.push(
        (
          await addMember(
            { db: w.tdb.db, config: testConfig() },
            { teamId: t.teamId, values: { email: `rr${i}-${t.teamId}@example.com`, role: 'member' } },
          )
        ).id,
      );
    for (const id of members) await alwaysAvailable(w.tdb.db, id);
    const { eventTypeId, pageId } = await publishedEventType(
      w.app.baseUrl,
      t,
      { page_type: 'round_robin', host_user_ids: members },
      { start_time_increment: 60 },
    );
    const d = dayFromNow(6);
    const av = await availA({ user_id: t.userId, team_id: t.teamId, date: d, event_type_id: eventTypeId });
    const slot = av.body.available_slots.find((s: { start: string }) => s.start === `${d}T15:00:00.000Z`);
    expect(slot).toMatchObject({ round_robin: true, available_host_count: 3 });
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        w.pub.post('/api/calendar/book', {
          user_id: t.userId,
          team_id: t.teamId,
          scheduling_page_id: pageId,
          start: slot.start,
          end: slot.end,
          attendee_email: `rr${i}@example.com`,
          event_type_id: eventTypeId,
        }),
      ),
    );
    const ok = results.filter((r) => r.status === 201);
    expect(ok).toHaveLength(3);
    expect(results.filter((r) => r.status === 409)).toHaveLength(3);
    expect(new Set(ok.map((r) => r.body.meeting.host_user_id))).toEqual(new Set(members));
    const after = await availA({ user_id: t.userId, team_id: t.teamId, date: d, event_type_id: eventTypeId });
    expect(after.body.available_slots.find((s: { start: string }) => s.start === slot.start)).toBeUndefined();
  });

  it('group pages need every host free, and a group booking blocks every host', async () => {
    const t = await createTestTeam(w.tdb.db);
    const second = (
      await addMember(
        { db: w.tdb.db, config: testConfig() },
        { teamId: t.teamId, values: { email: `g-${t.teamId}@example.com`, role: 'member' } },
      )
    ).id;
    await alwaysAvailable(w.tdb.db, t.userId);
    await alwaysAvailable(w.tdb.db, second);
    const group = await publishedEventType(
      w.app.baseUrl,
      t,
      { page_type: 'group', host_user_ids: [t.userId, second] },
      { start_time_increment: 60 },
    );
    const solo = await publishedEventType(w.app.baseUrl, t, { host_user_ids: [second] }, { start_time_increment: 60 });
    const d = dayFromNow(7);
    await w.tdb.db('calendar_events').insert({
      team_id: t.teamId,
      host_user_id: second,
      source: 'external',
      summary: 'Dentist',
      start_time: new Date(`${d}T09:00:00Z`),
      end_time: new Date(`${d}T10:00:00Z`),
    });
    const av = await availA({ user_id: t.userId, team_id: t.teamId, date: d, event_type_id: group.eventTypeId });
    const starts = av.body.available_slots.map((s: { start: string }) => s.start);
    expect(starts).not.toContain(`${d}T09:00:00.000Z`);
    expect(starts).toContain(`${d}T11:00:00.000Z`);
    const b = await w.pub.post('/api/calendar/book', {
      user_id: t.userId,
      team_id: t.teamId,
      start: `${d}T11:00:00.000Z`,
      end: `${d}T11:30:00.000Z`,
      attendee_email: 'g@example.com',
      event_type_id: group.eventTypeId,
    });
    expect(b.status).toBe(201);
    const soloBook = await w.pub.post('/api/calendar/book', {
      user_id: second,
      team_id: t.teamId,
      start: `${d}T11:00:00.000Z`,
      end: `${d}T11:30:00.000Z`,
      attendee_email: 's@example.com',
      event_type_id: solo.eventTypeId,
    });
    expect(soloBook.status).toBe(409);
  });
});

describe('buffers, overrides and the feed', () => {
  it('widens meetings by buffers and honours date overrides', async () => {
    const { eventTypeId } = await publishedEventType(w.app.baseUrl, w.team, {}, { buffer_time_after: 15, start_time_increment: 15 });
    const d = dayFromNow(8);
    const q = { user_id: w.team.userId, team_id: w.team.teamId, date: d, event_type_id: eventTypeId };
    const b = await w.pub.post('/api/calendar/book', {
      ...q,
      date: undefined,
      start: `${d}T10:00:00.000Z`,
      end: `${d}T10:30:00.000Z`,
      attendee_email: 'buf@example.com',
    });
    expect(b.status).toBe(201);
    const starts = (await availA(q)).body.available_slots.map((s: { start: string }) => s.start.slice(11, 16));
    expect(starts).not.toContain('10:30');
    expect(starts).toContain('10:45');
    expect(starts).not.toContain('09:30');
    expect(starts).toContain('09:15');
    const schedule = await w.tdb.db('availability_schedules').where({ user_id: w.team.userId }).first('id');
    await w.tdb.db('availability_date_overrides').insert({ schedule_id: schedule!.id, date: dayFromNow(9), is_unavailable: true });
    expect((await availA({ ...q, date: dayFromNow(9) })).body.available_slots).toEqual([]);
  });

  it('serves each host an iCalendar feed at a secret URL (parsed with ical.js)', async () => {
    const api = client(w.app.baseUrl, w.team.apiKey);
    const f = await api.post('/api/v1/calendar-feeds', {});
    expect(f.status).toBe(201);
    const url = new URL(f.body.data.url);
    const feed = await http(w.app.baseUrl, 'get', url.pathname);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toContain('text/calendar');
    const cal = new ICAL.Component(ICAL.parse(feed.text));
    const events = cal.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    const meetings = await w.tdb.db('meeting_hosts').where({ host_user_id: w.team.userId }).pluck('meeting_id');
    expect(events.map((e) => e.uid).sort()).toEqual(meetings.map((id: string) => `meeting-${id}@forms-scheduling-sequences`).sort());
    const m = await w.tdb.db('meetings').where({ attendee_email: 'buf@example.com' }).first();
    const ev = events.find((e) => e.uid.includes(m!.id))!;
    expect(ev.startDate.toJSDate().toISOString()).toBe(new Date(m!.start_time).toISOString());
    expect((await http(w.app.baseUrl, 'get', '/api/calendar/feeds/cal_wrongtoken.ics')).status).toBe(404);
    const rotated = await api.post('/api/v1/calendar-feeds', {});
    expect((await http(w.app.baseUrl, 'get', url.pathname)).status).toBe(404);
    expect((await http(w.app.baseUrl, 'get', new URL(rotated.body.data.url).pathname)).status).toBe(200);
  });
});
