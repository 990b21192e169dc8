import { eventBusy } from '../../domain/calendars/event-busy';
import { graphEventTimes } from '../../domain/calendars/microsoft-busy';

/** domain/calendars/microsoft-busy.ts: what a Graph event blocks (docs/calendars.md "Microsoft 365"). */
const iso = (ms: number) => new Date(ms).toISOString();
const busy = (e: Parameters<typeof graphEventTimes>[0], zone = 'UTC') => {
  const b = eventBusy(graphEventTimes(e), zone);
  return b && [iso(b.start), iso(b.end)];
};
const timed = {
  id: 'e',
  start: { dateTime: '2030-03-01T10:00:00.0000000', timeZone: 'UTC' },
  end: { dateTime: '2030-03-01T11:00:00.0000000', timeZone: 'UTC' },
};

test('timed events block; free, workingElsewhere, declined, cancelled and @removed do not; tentative and oof do', () => {
  expect(busy(timed)).toEqual(['2030-03-01T10:00:00.000Z', '2030-03-01T11:00:00.000Z']);
  expect(busy({ ...timed, showAs: 'free' })).toBeNull();
  expect(busy({ ...timed, showAs: 'workingElsewhere' })).toBeNull();
  expect(busy({ ...timed, responseStatus: { response: 'declined' } })).toBeNull();
  expect(busy({ ...timed, isCancelled: true })).toBeNull();
  expect(busy({ id: 'e', '@removed': { reason: 'deleted' } })).toBeNull();
  expect(busy({ ...timed, showAs: 'tentative' })).not.toBeNull();
  expect(busy({ ...timed, showAs: 'oof' })).not.toBeNull();
  expect(busy({ ...timed, responseStatus: { response: 'tentativelyAccepted' } })).not.toBeNull();
  // A zone other than UTC (the Prefer header not honoured) is converted, Windows names included.
  expect(
    busy({
      ...timed,
      start: { dateTime: '2030-03-01T10:00:00.0000000', timeZone: 'W. Europe Standard Time' },
      end: { dateTime: '2030-03-01T11:00:00.0000000', timeZone: 'Europe/Berlin' },
    }),
  ).toEqual(['2030-03-01T09:00:00.000Z', '2030-03-01T10:00:00.000Z']);
});

test('all-day events block their days in the Windows zone of the event, across the week of a DST change', () => {
  const day = (d: string, next: string, zone?: string) =>
    busy(
      {
        id: 'a',
        isAllDay: true,
        originalStartTimeZone: zone,
        start: { dateTime: `${d}T00:00:00.0000000`, timeZone: 'UTC' },
        end: { dateTime: `${next}T00:00:00.0000000`, timeZone: 'UTC' },
      },
      'Asia/Tokyo',
    );
  // US clocks go forward on Sunday 14 March 2027: that day is 23 hours long in Pacific time.
  expect(day('2027-03-13', '2027-03-14', 'Pacific Standard Time')).toEqual(['2027-03-13T08:00:00.000Z', '2027-03-14T08:00:00.000Z']);
  expect(day('2027-03-14', '2027-03-15', 'Pacific Standard Time')).toEqual(['2027-03-14T08:00:00.000Z', '2027-03-15T07:00:00.000Z']);
  expect(day('2027-03-15', '2027-03-16', 'Pacific Standard Time')).toEqual(['2027-03-15T07:00:00.000Z', '2027-03-16T07:00:00.000Z']);
  // The whole week, one event: 7 days less the lost hour.
  const week = day('2027-03-10', '2027-03-17', 'Pacific Standard Time')!;
  expect(Date.parse(week[1]) - Date.parse(week[0])).toBe(7 * 86_400_000 - 3_600_000);
  // An IANA name works too; no zone → the calendar's (here Tokyo).
  expect(day('2027-03-14', '2027-03-15', 'America/New_York')).toEqual(['2027-03-14T05:00:00.000Z', '2027-03-15T04:00:00.000Z']);
  expect(day('2027-03-14', '2027-03-15')).toEqual(['2027-03-13T15:00:00.000Z', '2027-03-14T15:00:00.000Z']);
});
