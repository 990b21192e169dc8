import { googleEventBusy, minimizeGoogleEvent } from '../../domain/calendars/google-busy';

/** domain/calendars/google-busy.ts: what a Google event blocks (docs/calendars.md "Google Calendar"). */
const iso = (ms: number) => new Date(ms).toISOString();

test('timed events block start..end; free, working-location, declined and cancelled events block nothing', () => {
  const base = { id: 'e', start: { dateTime: '2030-03-01T10:00:00+01:00' }, end: { dateTime: '2030-03-01T11:30:00+01:00' } };
  const b = googleEventBusy(base, 'UTC')!;
  expect([iso(b.start), iso(b.end)]).toEqual(['2030-03-01T09:00:00.000Z', '2030-03-01T10:30:00.000Z']);
  expect(googleEventBusy({ ...base, transparency: 'transparent' }, 'UTC')).toBeNull();
  expect(googleEventBusy({ ...base, eventType: 'workingLocation' }, 'UTC')).toBeNull();
  expect(googleEventBusy({ ...base, status: 'cancelled' }, 'UTC')).toBeNull();
  expect(googleEventBusy({ ...base, attendees: [{ self: true, responseStatus: 'declined' }] }, 'UTC')).toBeNull();
  // Another attendee's decline, or the host's tentative answer, still blocks.
  expect(
    googleEventBusy({ ...base, attendees: [{ responseStatus: 'declined' }, { self: true, responseStatus: 'tentative' }] }, 'UTC'),
  ).not.toBeNull();
  expect(googleEventBusy({ ...base, status: 'tentative' }, 'UTC')).not.toBeNull();
});

test('all-day events block whole days in the calendar zone, across a DST change (a 23-hour and a 25-hour day)', () => {
  const spring = googleEventBusy({ id: 'a', start: { date: '2030-03-10' }, end: { date: '2030-03-11' } }, 'America/New_York')!;
  expect([iso(spring.start), iso(spring.end)]).toEqual(['2030-03-10T05:00:00.000Z', '2030-03-11T04:00:00.000Z']);
  expect(spring.end - spring.start).toBe(23 * 3600_000);
  const fall = googleEventBusy({ id: 'b', start: { date: '2030-11-03' }, end: { date: '2030-11-04' } }, 'America/New_York')!;
  expect(fall.end - fall.start).toBe(25 * 3600_000);
  const week = googleEventBusy({ id: 'c', start: { date: '2030-03-08' }, end: { date: '2030-03-15' } }, 'Asia/Tokyo')!;
  expect([iso(week.start), iso(week.end)]).toEqual(['2030-03-07T15:00:00.000Z', '2030-03-14T15:00:00.000Z']);
});

test('what is stored keeps the times and the host’s answer only', () => {
  const kept = minimizeGoogleEvent({
    id: 'e',
    status: 'confirmed',
    start: { dateTime: '2030-03-01T10:00:00Z' },
    end: { dateTime: '2030-03-01T11:00:00Z' },
    attendees: [{ self: true, responseStatus: 'accepted' }, { responseStatus: 'declined', email: 'x@example.com' } as never],
    summary: 'Secret plans',
  } as never);
  expect(JSON.stringify(kept)).not.toContain('Secret');
  expect(JSON.stringify(kept)).not.toContain('x@example.com');
  expect(kept.attendees).toEqual([{ self: true, responseStatus: 'accepted' }]);
});
