/**
 * Calendar connections through the public API, synced by the real workflow against a real Radicale:
 * discovery, status, counts and calendars in the answer, the access rules, bad input (a 400 with
 * details, or the connection in the error state with a sentence saying why; never a 500), and the
 * workflow an operator finds by team, user and connection.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { calendarSyncWorkflowId } from '../../workflows/calendars/contract';
import { addMember } from '../../services/team';
import { createSession } from '../../services/sessions';
import { freePort } from '../../core/ports';
import { client } from '../helpers/http';
import { instantDaysAhead, nextOpenDay, type WeeklyRule } from '../helpers/open-day';
import { ics, RADICALE_PASSWORD, RADICALE_USER, useCalendarWorld, utc } from './support';
import { testConfig } from '../helpers/config';

const w = useCalendarWorld();

describe('calendar connections', () => {
  let calendarUrl: string;
  beforeAll(async () => {
    calendarUrl = await w.radicale.mkcalendar(RADICALE_USER, 'work', 'Work');
    await w.radicale.mkcalendar(RADICALE_USER, 'family', 'Family');
    const start = instantDaysAhead(3); // any day: a busy event to count
    await w.radicale.put(
      RADICALE_USER,
      calendarUrl,
      'one.ics',
      ics([
        'UID:one@test',
        `DTSTAMP:${utc(Date.now())}`,
        `DTSTART:${utc(start)}`,
        `DTEND:${utc(start + 3600_000)}`,
        'SUMMARY:Secret meeting',
      ]),
    );
  });

  it('connects a CalDAV account: discovery finds the calendars, the first sync fills the counts', async () => {
    const since = Date.now();
    const create = await w.session.post('/api/v1/calendar-connections', {
      kind: 'caldav',
      server_url: w.radicale.url,
      username: RADICALE_USER,
      password: RADICALE_PASSWORD,
    });
    expect(create.status).toBe(201);
    expect(create.body.data).toMatchObject({ kind: 'caldav', status: 'syncing', user_id: w.team.userId, url: `${w.radicale.url}/` });
    expect(create.text).not.toContain(RADICALE_PASSWORD);
    const c = await w.waitForSync(create.body.data.id, since);
    expect(c).toMatchObject({ status: 'ok', status_message: null, counts: { calendars: 2, events: 1, busy_intervals: 1, unreadable: 0 } });
    expect(c.calendars.map((x: { name: string }) => x.name).sort()).toEqual(['Family', 'Work']);
    // The first writable calendar receives bookings until the user chooses another one.
    expect(c.calendars.filter((x: { is_booking_calendar: boolean }) => x.is_booking_calendar)).toHaveLength(1);
    expect(c.calendars.every((x: { check_conflicts: boolean; read_only: boolean }) => x.check_conflicts && !x.read_only)).toBe(true);

    // Credentials are stored sealed: neither the password nor the username is in the row in clear.
    const row = await w.tdb.db('calendar_connections').where({ id: c.id }).first();
    expect(row!.credentials_enc).not.toContain(RADICALE_PASSWORD);
    expect(row!.credentials_enc).toMatch(/^v1\./);
    // What is stored of the events is trimmed: no titles.
    const objects = await w.tdb.db('calendar_objects').where({ connection_id: c.id });
    expect(objects).toHaveLength(1);
    expect(objects[0].data).not.toContain('Secret meeting');

    // An API key lists it with its status, never the credentials.
    const list = await w.api.get('/api/v1/calendar-connections');
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: { id: string }) => x.id)).toContain(c.id);
    expect(list.text).not.toContain(RADICALE_PASSWORD);
    expect(list.text).not.toContain('credentials');
  });

  it('runs one workflow per connection, found by team, user and connection, and stops it on delete', async () => {
    const since = Date.now();
    const id = await w.connect({
      kind: 'caldav',
      server_url: w.radicale.url,
      username: RADICALE_USER,
      password: RADICALE_PASSWORD,
      name: 'To delete',
    });
    await w.waitForSync(id, since);
    const handle = w.env.client.workflow.getHandle(calendarSyncWorkflowId(id));
    const d = await handle.describe();
    expect(d.type).toBe('calendarSyncWorkflow');
    expect(d.status.name).toBe('RUNNING');
    expect(d.searchAttributes.TeamId).toEqual([w.team.teamId]);
    expect(d.searchAttributes.UserId).toEqual([w.team.userId]);
    const count = async (table: string) =>
      Number((await w.tdb.db(table).where({ connection_id: id }).count<{ n: number }[]>({ n: '*' }))[0].n);
    expect(await count('calendar_busy_times')).toBe(1);

    const del = await w.session.delete(`/api/v1/calendar-connections/${id}`);
    expect(del.status).toBe(204);
    expect(await count('calendar_busy_times')).toBe(0);
    expect(await count('calendar_objects')).toBe(0);
    await expect(handle.result()).resolves.toBe('stopped');
    expect((await w.api.get(`/api/v1/calendar-connections/${id}`)).status).toBe(404);
  });

  it('a wrong password: status error with a clear message, and availability still answers 200', async () => {
    const since = Date.now();
    const id = await w.connect({ kind: 'caldav', server_url: w.radicale.url, username: RADICALE_USER, password: 'not-the-password' });
    const c = await w.waitForSync(id, since);
    expect(c.status).toBe('error');
    expect(c.status_message).toMatch(/refused the username or password/);
    expect(c.last_error_at).not.toBeNull();
    // A day the owner's schedule offers (the default one is Monday to Friday), two days ahead or later.
    const schedule = await w.tdb.db('availability_schedules').where({ user_id: w.team.userId }).first();
    const { date } = nextOpenDay(schedule!.rules as unknown as WeeklyRule[], { zone: schedule!.timezone, after: 2 });
    const av = await client(w.app.baseUrl).get(`/api/calendar/availability?user_id=${w.team.userId}&team_id=${w.team.teamId}&date=${date}`);
    expect(av.status).toBe(200);
    expect(av.body.available_slots.length).toBeGreaterThan(0);
    // Sync now asks again; the answer shows syncing until it ran, then the same error.
    const again = await w.session.post(`/api/v1/calendar-connections/${id}/sync`);
    expect(again.status).toBe(202);
    expect(again.body.data.status).toBe('syncing');
    expect((await w.waitForSync(id, Date.parse(again.headers.get('date') ?? '') - 1000)).status).toBe('error');
  });

  describe('bad input: a 400 with details, or the error state; never a 500', () => {
    it.each([
      ['a private address', { kind: 'caldav', server_url: 'https://10.1.2.3/dav', username: 'a', password: 'b' }, 'body.server_url'],
      ['a metadata address', { kind: 'caldav', server_url: 'http://169.254.169.254/', username: 'a', password: 'b' }, 'body.server_url'],
      ['a feed on a private address', { kind: 'ics_feed', url: 'https://192.168.1.20/cal.ics' }, 'body.url'],
      ['credentials in the URL', { kind: 'ics_feed', url: 'https://user:pw@calendar.example.com/cal.ics' }, 'body.url'],
      ['no password', { kind: 'caldav', server_url: 'https://caldav.example.com', username: 'a' }, 'body.password'],
      ['an unknown kind', { kind: 'exchange', url: 'https://x.example.com' }, 'body.kind'],
      ['not a URL', { kind: 'ics_feed', url: 'not a url at all' }, 'body.url'],
    ])('%s → 400', async (_name, body, path) => {
      const res = await w.session.post('/api/v1/calendar-connections', body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    });

    it('an unreachable server → error state naming it', async () => {
      const port = await freePort();
      const since = Date.now();
      const id = await w.connect({ kind: 'caldav', server_url: `http://127.0.0.1:${port}`, username: 'a', password: 'b' });
      const c = await w.waitForSync(id, since);
      expect(c.status).toBe('error');
      expect(c.status_message).toBe(`127.0.0.1:${port} refused the connection`);
    });

    it('a URL that is not CalDAV → error state saying so', async () => {
      const server = http.createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><body>Welcome to my blog</body></html>');
      });
      server.listen(0, '127.0.0.1');
      await new Promise((r) => server.once('listening', r));
      try {
        const since = Date.now();
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
        const id = await w.connect({ kind: 'caldav', server_url: url, username: 'a', password: 'b' });
        const c = await w.waitForSync(id, since);
        expect(c.status).toBe('error');
        expect(c.status_message).toMatch(/does not look like a CalDAV server/);
      } finally {
        await new Promise((r) => server.close(r));
      }
    });
  });

  describe('access', () => {
    let memberSession: ReturnType<typeof client>;
    let memberId: string;
    let ownersId: string;
    beforeAll(async () => {
      const member = await addMember(
        { db: w.tdb.db, config: testConfig() },
        { teamId: w.team.teamId, values: { email: `member-${Date.now()}@example.com`, role: 'member' } },
      );
      memberId = member.id;
      memberSession = client(w.app.baseUrl, (await createSession(w.tdb.db, { userId: member.id })).token);
      const list = await w.api.get(`/api/v1/calendar-connections?user_id=${w.team.userId}`);
      ownersId = list.body.data[0].id;
    });

    it("a member sees and manages their own connections only; the owner's is a 404 to them", async () => {
      expect((await memberSession.get(`/api/v1/calendar-connections/${ownersId}`)).status).toBe(404);
      expect((await memberSession.patch(`/api/v1/calendar-connections/${ownersId}`, { name: 'x' })).status).toBe(404);
      expect((await memberSession.delete(`/api/v1/calendar-connections/${ownersId}`)).status).toBe(404);
      const own = await memberSession.post('/api/v1/calendar-connections', {
        kind: 'ics_feed',
        url: 'https://calendar.example.com/private/basic.ics',
      });
      expect(own.status).toBe(201);
      expect(own.body.data).toMatchObject({ user_id: memberId, url: 'https://calendar.example.com/…', name: 'calendar.example.com feed' });
      const mine = await memberSession.get('/api/v1/calendar-connections');
      expect(mine.body.data.map((c: { id: string }) => c.id)).toEqual([own.body.data.id]);
      // A member cannot connect a calendar for someone else.
      const other = await memberSession.post('/api/v1/calendar-connections', {
        kind: 'ics_feed',
        url: 'https://calendar.example.com/x.ics',
        user_id: w.team.userId,
      });
      expect(other.status).toBe(403);
    });

    it("the owner connects for a member, and sees everyone's", async () => {
      const res = await w.session.post('/api/v1/calendar-connections', {
        kind: 'ics_feed',
        url: 'webcal://calendar.example.com/member.ics',
        user_id: memberId,
      });
      expect(res.status).toBe(201);
      expect(res.body.data.user_id).toBe(memberId);
      const all = await w.session.get(`/api/v1/calendar-connections?user_id=${memberId}&per_page=100`);
      expect(all.body.data.length).toBe(2);
      expect(all.text).not.toContain('member.ics');
    });

    it('an API key reads but cannot connect, change, sync or delete (dashboard only)', async () => {
      expect((await w.api.post('/api/v1/calendar-connections', { kind: 'ics_feed', url: 'https://c.example.com/x.ics' })).status).toBe(403);
      expect((await w.api.post(`/api/v1/calendar-connections/${ownersId}/sync`)).status).toBe(403);
      expect((await w.api.get(`/api/v1/calendar-connections/${ownersId}`)).status).toBe(200);
    });
  });

  it('patch: check_conflicts per calendar and the one booking calendar; a calendar of another connection is a 400', async () => {
    const list = await w.api.get(`/api/v1/calendar-connections?user_id=${w.team.userId}&status=ok`);
    const conn = list.body.data.find((c: { kind: string }) => c.kind === 'caldav');
    const family = conn.calendars.find((c: { name: string }) => c.name === 'Family');
    const work = conn.calendars.find((c: { name: string }) => c.name === 'Work');
    const res = await w.session.patch(`/api/v1/calendar-connections/${conn.id}`, {
      name: 'Radicale',
      calendars: [{ id: work.id, check_conflicts: false }],
      booking_calendar_id: family.id,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe('Radicale');
    const byName = Object.fromEntries(res.body.data.calendars.map((c: { name: string }) => [c.name, c]));
    expect(byName.Work).toMatchObject({ check_conflicts: false, is_booking_calendar: false });
    expect(byName.Family).toMatchObject({ check_conflicts: true, is_booking_calendar: true });
    const bad = await w.session.patch(`/api/v1/calendar-connections/${conn.id}`, { booking_calendar_id: conn.id });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe('body.booking_calendar_id');
    await w.session.patch(`/api/v1/calendar-connections/${conn.id}`, { calendars: [{ id: work.id, check_conflicts: true }] });
  });
});

test('a server without a Google or Microsoft app: their connect is a 404 naming the settings to set', async () => {
  expect(w.app.config.GOOGLE_CLIENT_ID).toBeUndefined();
  expect(w.app.config.MICROSOFT_CLIENT_ID).toBeUndefined();
  const google = await w.session.post('/api/v1/google-calendar/authorize', {});
  expect([google.status, google.body.error.code]).toEqual([404, 'not_found']);
  expect(google.body.error.message).toContain('GOOGLE_CLIENT_ID');
  const microsoft = await w.session.post('/api/v1/microsoft-calendar/authorize', {});
  expect([microsoft.status, microsoft.body.error.code]).toEqual([404, 'not_found']);
  expect(microsoft.body.error.message).toContain('MICROSOFT_CLIENT_ID');
});
